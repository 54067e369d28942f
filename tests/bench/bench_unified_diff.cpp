// SPDX-License-Identifier: Apache-2.0
// Diffs generated texts of 1k, 10k and 100k lines with few changes (one line in a thousand), many
// (one line in ten) and all lines different; prints the median time of each and the peak resident
// memory of the process that ran it.
#include "bench_timing.h"
#include "engine/util/unified_diff.h"

#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Case {
    const char *name;
    int lines;
    int changeEvery; ///< every n-th line differs; 1 for all of them
};

std::string text(int lines, int changeEvery, bool changed)
{
    std::string out;
    for (int i = 0; i < lines; ++i) {
        const bool differs = changed && i % changeEvery == changeEvery / 2;
        out += (differs ? "changed line " : "line ") + std::to_string(i) + " of the generated configuration file\n";
    }
    return out;
}

/// Runs the case in a child process, so that each peak memory figure is that case's alone.
void run(const Case &benchCase)
{
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        const std::string oldText = text(benchCase.lines, benchCase.changeEvery, false);
        const std::string newText = text(benchCase.lines, benchCase.changeEvery, true);
        std::size_t size = 0;
        const double ms = ccm::bench::medianMilliseconds(
            [&] { size = ccm::unifiedDiff(oldText, newText, "old", "new").size(); }, 5);
        std::printf("%-22s %9.2f ms  %9zu bytes of diff", benchCase.name, ms, size);
        std::fflush(stdout);
        _exit(0);
    }
    int status = 0;
    rusage usage {};
    wait4(child, &status, 0, &usage);
    std::printf("  peak %7ld KiB\n", usage.ru_maxrss);
}

} // namespace

int main()
{
    const Case cases[] = {
        {"1k lines, few", 1000, 1000},
        {"1k lines, many", 1000, 10},
        {"1k lines, all", 1000, 1},
        {"10k lines, few", 10000, 1000},
        {"10k lines, many", 10000, 10},
        {"10k lines, all", 10000, 1},
        {"100k lines, few", 100000, 1000},
        {"100k lines, many", 100000, 10},
        {"100k lines, all", 100000, 1},
    };
    for (const Case &benchCase : cases)
        run(benchCase);
    return 0;
}
