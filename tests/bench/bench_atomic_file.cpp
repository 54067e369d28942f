// SPDX-License-Identifier: Apache-2.0
// What looking for abandoned temporary files costs each atomic write: writes a small file, with and
// without fsync, into directories holding 0 to 20000 other entries, and prints the median time per
// write. The directory is listed once per write, so the cost grows with the number of entries.
#include "bench_timing.h"
#include "util/atomic_file.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

constexpr int writesPerSample = 200;

} // namespace

int main()
{
    namespace fs = std::filesystem;
    const char *base = std::getenv("TMPDIR");
    std::string pattern = (fs::path(base ? base : "/tmp") / "bench_atomic_file-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        std::perror("mkdtemp");
        return 1;
    }
    const fs::path directory = pattern;
    std::printf("%-10s %-6s %14s\n", "entries", "fsync", "µs per write");
    int entries = 0;
    for (const int wanted : {0, 1000, 20000}) {
        for (; entries < wanted; ++entries)
            std::ofstream(directory / ("other-" + std::to_string(entries) + ".conf")) << "x\n";
        for (const bool flush : {false, true}) {
            const fs::path target = directory / "target.conf";
            const ccm::AtomicWriteOptions options {0644, static_cast<uid_t>(-1), static_cast<gid_t>(-1), flush};
            bool failed = false;
            const double milliseconds = ccm::bench::medianMilliseconds([&] {
                for (int i = 0; i < writesPerSample; ++i)
                    failed |= !ccm::writeFileAtomically(target, "port = 8080\n", options).ok();
            });
            if (failed) {
                std::fprintf(stderr, "a write failed\n");
                return 1;
            }
            std::printf("%-10d %-6s %14.1f\n", wanted, flush ? "yes" : "no", milliseconds * 1000.0 / writesPerSample);
        }
    }
    std::error_code ignored;
    fs::remove_all(directory, ignored);
    return 0;
}
