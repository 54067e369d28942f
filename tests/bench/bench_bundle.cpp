// SPDX-License-Identifier: Apache-2.0
// Bundles of a manifest whose scaffold reaches many files: prints the milliseconds of collecting
// them (planBundle), of writing the bundle and of unpacking it with every check and SHA256SUMS
// verified, with processor time beside the wall clock (on a shared machine the wall clock mostly
// measures the other processes), and the bundle's size.
#include "bench_timing.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

/// `prefix` followed by n, built by appending: "f" + std::to_string(n) trips GCC 12's -Wrestrict
/// false positive at -O3 (GCC bug 105329).
std::string numbered(const char *prefix, long long n)
{
    std::string text = prefix;
    text += std::to_string(n);
    return text;
}

namespace fs = std::filesystem;

constexpr int kDirectories = 50;
constexpr int kFilesPerDirectory = 40;
constexpr std::size_t kFileBytes = 4096;

template<typename F> void report(const std::string &what, F &&work, int runs = 5)
{
    const std::clock_t start = std::clock();
    const double wall = ccm::bench::medianMilliseconds(work, runs);
    const double processor = 1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / runs;
    std::printf("%s: %.1f ms (processor %.1f ms)\n", what.c_str(), wall, processor);
}

void writeText(const fs::path &path, const std::string &text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

int main()
{
    const fs::path root = fs::temp_directory_path() / ("bench_bundle." + std::to_string(::getpid()));
    fs::remove_all(root);
    std::string file(kFileBytes, 'x');
    for (int d = 0; d < kDirectories; ++d)
        for (int f = 0; f < kFilesPerDirectory; ++f) {
            file[0] = char('a' + f % 26);
            writeText(root / "site/templates" / numbered("d", d) / (numbered("f", f) + ".conf"), file);
        }
    writeText(root / "site/site.yaml",
        "ccm:\n  resources:\n    - scaffold:\n        - /etc/app:\n"
        "            ensure: present\n            source: templates\n");
    const std::string manifest = (root / "site/site.yaml").string();
    const fs::path output = root / "site.tar.gz";

    std::printf("bundle of %d files of %zu bytes\n", kDirectories * kFilesPerDirectory, kFileBytes);
    ccm::BundlePlan plan;
    report("collect (planBundle)", [&] { plan = ccm::planBundle(manifest); });
    if (!plan.ok()) {
        std::fprintf(stderr, "the manifest cannot be bundled\n");
        return 1;
    }
    report("write (writeBundle)", [&] {
        if (!ccm::writeBundle(plan, output))
            std::exit(1);
    });
    std::printf("bundle size: %ju bytes\n", static_cast<std::uintmax_t>(fs::file_size(output)));
    report("unpack and verify (UnpackedBundle::unpack, removed after)", [&] {
        auto bundle = ccm::UnpackedBundle::unpack(output, {}, root);
        if (!bundle) {
            std::fprintf(stderr, "%s\n", bundle.error().message.c_str());
            std::exit(1);
        }
    });
    fs::remove_all(root);
    return 0;
}
