// SPDX-License-Identifier: Apache-2.0
// Whole-process cost of `ccm-backend apply --noop`: N file resources already in their desired state
// (N = 1,000 and 10,000; DESIGN.md: under 60 ms and 400 ms), and one file resource whose target is
// an 8 GiB sparse file (time and peak resident memory; the checksum must stream).
//
//   bench_apply                       run the benchmark
//   bench_apply --generate N DIR      only write DIR/manifest.yaml and its N files, for profiling
#include "bench_files.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ccm::bench::ProcessRun;
using ccm::bench::runProcess;
using ccm::bench::summaryLine;

void benchmarkStable(const std::string &backend, std::size_t n)
{
    const fs::path dir = fs::temp_directory_path() / ("ccm-bench-apply-" + std::to_string(n));
    fs::remove_all(dir);
    ccm::bench::generateStableFiles(n, dir);
    const std::vector<std::string> argv {backend, "apply", "--noop", (dir / "manifest.yaml").string()};
    const ProcessRun check = runProcess(argv);
    std::printf("apply --noop, %zu stable file resources: %s (exit %d)\n", n, summaryLine(check.output).c_str(), check.status);
    std::vector<double> samples;
    long peak = 0;
    for (int i = 0; i < 7; ++i) {
        const ProcessRun run = runProcess(argv);
        samples.push_back(run.milliseconds);
        peak = std::max(peak, run.peakKiB);
    }
    std::sort(samples.begin(), samples.end());
    std::printf("  whole process: median %.1f ms, fastest %.1f ms, slowest %.1f ms; %.1f us per resource; peak RSS %.1f MiB\n",
        samples[3], samples.front(), samples.back(), samples[3] * 1000.0 / static_cast<double>(n),
        static_cast<double>(peak) / 1024.0);
    fs::remove_all(dir);
}

void benchmarkSparse(const std::string &backend)
{
    const fs::path dir = fs::temp_directory_path() / "ccm-bench-apply-sparse";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path target = dir / "sparse.img";
    {
        const int fd = ::open(target.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0 || ::ftruncate(fd, off_t(8) << 30) != 0) {
            std::printf("cannot create the 8 GiB sparse file in %s\n", dir.c_str());
            return;
        }
        ::close(fd);
    }
    std::ofstream(dir / "manifest.yaml") << "ccm:\n  resources:\n    - file:\n        - " << target.string()
                                         << ":\n            ensure: present\n            content: \"small\\n\"\n"
                                         << "            owner: \"" << ::getuid() << "\"\n            group: \""
                                         << ::getgid() << "\"\n            mode: \"0644\"\n";
    const ProcessRun run = runProcess({backend, "apply", "--noop", (dir / "manifest.yaml").string()});
    std::printf("apply --noop, one file resource over an 8 GiB sparse file: %s (exit %d)\n",
        summaryLine(run.output).c_str(), run.status);
    std::printf("  whole process: %.2f s, %.0f MiB/s, peak RSS %.1f MiB\n", run.milliseconds / 1000.0,
        8192.0 / (run.milliseconds / 1000.0), static_cast<double>(run.peakKiB) / 1024.0);
    fs::remove_all(dir);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && std::string(argv[1]) == "--generate") {
        const std::size_t n = std::strtoull(argv[2], nullptr, 10);
        return ccm::bench::generateStableFiles(n, argv[3]) ? 0 : 1;
    }
    const std::string backend = CCM_BACKEND_PATH;
    benchmarkStable(backend, 1000);
    benchmarkStable(backend, 10000);
    benchmarkSparse(backend);
    return 0;
}
