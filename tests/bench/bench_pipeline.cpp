// SPDX-License-Identifier: Apache-2.0
// The fixed costs of a noop run before any resource is looked at: read the manifest file, load,
// validate, gather facts, resolve. Run with a resource count to time one cold pass as a process
// does it (schemas compiled on first use included); run without arguments for the medians of
// repeated passes at several sizes.
#include "core/facts/facts.h"
#include "core/model/manifest.h"
#include "core/model/resolve.h"
#include "core/model/validator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

/// N file resources as a manifest in the apply command's usual shape.
std::string manifestOf(int resources)
{
    std::string text = "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < resources; ++i) {
        text += "        - /srv/bench/f" + std::to_string(i)
            + ":\n"
              "            ensure: present\n            content: \"line 1\\n\"\n"
              "            owner: root\n            group: root\n            mode: \"0644\"\n";
    }
    return text;
}

struct StepTimes {
    double read = 0;
    double load = 0;
    double validate = 0;
    double facts = 0;
    double resolve = 0;

    [[nodiscard]] double total() const { return read + load + validate + facts + resolve; }
};

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// One pass over the file; false when the manifest did not come through clean.
bool runOnce(const std::string &path, int resources, StepTimes &times)
{
    auto start = Clock::now();
    const ccm::FileText file = ccm::readManifestFile(path);
    times.read = millisecondsSince(start);

    start = Clock::now();
    const ccm::LoadedManifest loaded = ccm::loadManifest(file.text);
    times.load = millisecondsSince(start);

    start = Clock::now();
    const ccm::Diagnostics diagnostics = ccm::validateManifest(loaded);
    times.validate = millisecondsSince(start);

    start = Clock::now();
    ccm::FactSources sources;
    sources.customDirectories.clear();
    const auto facts = ccm::gatherFacts(sources);
    times.facts = millisecondsSince(start);

    start = Clock::now();
    ccm::ResolveOptions options;
    if (facts)
        options.facts = facts.value();
    const ccm::ResolvedManifest resolved = ccm::resolveManifest(loaded, file.text, options);
    times.resolve = millisecondsSince(start);

    return !file.problem && facts && !ccm::hasErrors(diagnostics) && resolved.ok()
        && resolved.resources.size() == static_cast<std::size_t>(resources);
}

std::string writeManifest(int resources)
{
    const std::string path = (std::filesystem::temp_directory_path()
        / ("ccm-bench-pipeline-" + std::to_string(::getpid()) + "-" + std::to_string(resources) + ".yaml"))
                                 .string();
    std::ofstream(path, std::ios::binary) << manifestOf(resources);
    return path;
}

void printRow(int resources, const StepTimes &t)
{
    std::printf("%10d %8.1f %8.1f %10.1f %8.1f %9.1f %8.1f\n", resources, t.read, t.load, t.validate, t.facts,
        t.resolve, t.total());
}

void printHeader()
{
    std::printf(
        "%10s %8s %8s %10s %8s %9s %8s\n", "resources", "read", "load", "validate", "facts", "resolve", "total ms");
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1) {
        const int resources = std::atoi(argv[1]);
        const std::string path = writeManifest(resources);
        StepTimes times;
        const bool ok = runOnce(path, resources, times);
        std::filesystem::remove(path);
        if (!ok) {
            std::fprintf(stderr, "benchmark manifest did not come through clean\n");
            return 1;
        }
        printHeader();
        printRow(resources, times);
        return 0;
    }

    printHeader();
    for (int resources : {100, 1000, 10000}) {
        const std::string path = writeManifest(resources);
        bool ok = true;
        // One series of passes; each step's median is taken over the same passes.
        std::vector<StepTimes> passes;
        for (int i = 0; i < 7; ++i) {
            StepTimes times;
            ok = runOnce(path, resources, times) && ok;
            passes.push_back(times);
        }
        std::filesystem::remove(path);
        if (!ok) {
            std::fprintf(stderr, "benchmark manifest did not come through clean\n");
            return 1;
        }
        const auto medianOf = [&](double StepTimes::*member) {
            std::vector<double> values;
            for (const StepTimes &t : passes)
                values.push_back(t.*member);
            std::sort(values.begin(), values.end());
            return values[values.size() / 2];
        };
        StepTimes median;
        median.read = medianOf(&StepTimes::read);
        median.load = medianOf(&StepTimes::load);
        median.validate = medianOf(&StepTimes::validate);
        median.facts = medianOf(&StepTimes::facts);
        median.resolve = medianOf(&StepTimes::resolve);
        printRow(resources, median);
    }
    return 0;
}
