// SPDX-License-Identifier: Apache-2.0
// What looking for abandoned temporary files costs atomic writes.
//
// First table: a small file written again and again, with and without fsync, into directories
// holding 0 to 20000 other entries; median time per write. A one-off write lists the directory
// each time, so its cost grows with the number of entries; writes in a run (one TemporarySweep)
// list it once per run.
//
// Second table: a run that replaces each of the N files of one directory once, as an apply that
// changes every file of a large directory does (no fsync, so that the disk does not hide the
// rest). Time per write and directory listings made: in a run it stays flat as N grows, one-off
// writes grow with N (measured on the first 1000 writes only, the rest would take minutes).
#include "bench_timing.h"
#include "engine/util/atomic_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

constexpr int writesPerSample = 200;
constexpr int oneOffWritesPerRun = 1000;

fs::path makeDirectory(const char *name)
{
    const char *base = std::getenv("TMPDIR");
    std::string pattern = (fs::path(base ? base : "/tmp") / (std::string(name) + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
        return {};
    return pattern;
}

/// Microseconds per write of one pass over the first `count` files of directory; false when a write
/// failed.
bool replaceFiles(const fs::path &directory, int count, ccm::TemporarySweep *run, double &microseconds)
{
    ccm::AtomicWriteOptions options {0644, static_cast<uid_t>(-1), static_cast<gid_t>(-1), false};
    options.sweep = run;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
        if (!ccm::writeFileAtomically(directory / ("file-" + std::to_string(i) + ".conf"), "port = 8081\n", options))
            return false;
    }
    microseconds = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / count;
    return true;
}

} // namespace

int main()
{
    const fs::path directory = makeDirectory("bench_atomic_file");
    if (directory.empty()) {
        std::perror("mkdtemp");
        return 1;
    }
    std::printf("%-10s %-6s %20s %20s\n", "entries", "fsync", "µs per one-off write", "µs per write in run");
    int entries = 0;
    for (const int wanted : {0, 1000, 20000}) {
        for (; entries < wanted; ++entries)
            std::ofstream(directory / ("other-" + std::to_string(entries) + ".conf")) << "x\n";
        for (const bool flush : {false, true}) {
            const fs::path target = directory / "target.conf";
            double perWrite[2] = {};
            for (const bool inRun : {false, true}) {
                bool failed = false;
                const double milliseconds = ccm::bench::medianMilliseconds([&] {
                    ccm::TemporarySweep run;
                    ccm::AtomicWriteOptions options {0644, static_cast<uid_t>(-1), static_cast<gid_t>(-1), flush};
                    options.sweep = inRun ? &run : nullptr;
                    for (int i = 0; i < writesPerSample; ++i)
                        failed |= !ccm::writeFileAtomically(target, "port = 8080\n", options).ok();
                });
                if (failed) {
                    std::fprintf(stderr, "a write failed\n");
                    return 1;
                }
                perWrite[inRun ? 1 : 0] = milliseconds * 1000.0 / writesPerSample;
            }
            std::printf("%-10d %-6s %20.1f %20.1f\n", wanted, flush ? "yes" : "no", perWrite[0], perWrite[1]);
        }
    }
    std::error_code ignored;
    fs::remove_all(directory, ignored);

    std::printf("\n%-10s %-8s %14s %10s\n", "N files", "writes", "µs per write", "listings");
    for (const int files : {1000, 10000}) {
        const fs::path full = makeDirectory("bench_atomic_file_run");
        if (full.empty()) {
            std::perror("mkdtemp");
            return 1;
        }
        for (int i = 0; i < files; ++i)
            std::ofstream(full / ("file-" + std::to_string(i) + ".conf")) << "port = 8080\n";
        ccm::TemporarySweep run;
        double inRun = 0;
        double oneOff = 0;
        const int oneOffWrites = std::min(files, oneOffWritesPerRun);
        if (!replaceFiles(full, files, &run, inRun) || !replaceFiles(full, oneOffWrites, nullptr, oneOff)) {
            std::fprintf(stderr, "a write failed\n");
            return 1;
        }
        std::printf("%-10d %-8s %14.1f %10zu\n", files, "run", inRun, run.listings());
        std::printf("%-10d %-8s %14.1f %10d\n", files, "one-off", oneOff, oneOffWrites);
        fs::remove_all(full, ignored);
    }
    return 0;
}
