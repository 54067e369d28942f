// SPDX-License-Identifier: Apache-2.0
// Checksums an 8 GiB sparse file with sha256File and with sha256sum; prints the time and throughput
// of each and the peak resident memory of this process. Targets: under 32 MiB resident, at least
// 90 % of sha256sum's throughput.
#include "base/sha256.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr off_t fileSize = off_t(8) << 30;

double seconds(std::chrono::steady_clock::duration elapsed)
{
    return std::chrono::duration<double>(elapsed).count();
}

double throughput(double elapsedSeconds)
{
    return static_cast<double>(fileSize) / (1024.0 * 1024.0) / elapsedSeconds;
}

long peakResidentKiB(int who)
{
    rusage usage {};
    getrusage(who, &usage);
    return usage.ru_maxrss;
}

/// Runs sha256sum on path; its digest, or an empty string when it failed.
std::string runSha256sum(const std::string &path)
{
    int output[2];
    if (pipe(output) != 0)
        return {};
    const pid_t child = fork();
    if (child < 0)
        return {};
    if (child == 0) {
        dup2(output[1], STDOUT_FILENO);
        close(output[0]);
        close(output[1]);
        execlp("sha256sum", "sha256sum", "--", path.c_str(), static_cast<char *>(nullptr));
        _exit(127);
    }
    close(output[1]);
    char digest[64];
    std::size_t received = 0;
    while (received < sizeof digest) {
        const ssize_t count = read(output[0], digest + received, sizeof digest - received);
        if (count <= 0)
            break;
        received += static_cast<std::size_t>(count);
    }
    char rest[512];
    while (read(output[0], rest, sizeof rest) > 0) { }
    close(output[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || received != sizeof digest)
        return {};
    return std::string(digest, sizeof digest);
}

} // namespace

int main()
{
    char path[] = "/tmp/ccm-bench-checksum-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0 || ftruncate(fd, fileSize) != 0 || write(fd, "start", 5) != 5) {
        std::perror("cannot create the sparse file");
        return 1;
    }
    close(fd);

    // The first read of a hole makes the kernel allocate zeroed page-cache pages, which costs more
    // than hashing; the second sha256File run reads the same warm cache as sha256sum.
    double ours = 0;
    std::string ourDigest;
    for (const char *run : {"cold cache", "warm cache"}) {
        const auto start = std::chrono::steady_clock::now();
        const auto digest = ccm::sha256File(path);
        const double elapsed = seconds(std::chrono::steady_clock::now() - start);
        if (!digest.ok()) {
            std::fprintf(stderr, "%s\n", digest.error().message.c_str());
            unlink(path);
            return 1;
        }
        ourDigest = digest.value();
        ours = elapsed;
        std::printf("sha256File (%s): %.2f s, %.0f MiB/s\n", run, elapsed, throughput(elapsed));
    }
    const long ourPeak = peakResidentKiB(RUSAGE_SELF);

    const auto start = std::chrono::steady_clock::now();
    const std::string theirDigest = runSha256sum(path);
    const double theirs = seconds(std::chrono::steady_clock::now() - start);
    unlink(path);
    if (theirDigest.empty()) {
        std::fprintf(stderr, "sha256sum failed\n");
        return 1;
    }
    std::printf("sha256sum:              %.2f s, %.0f MiB/s\n", theirs, throughput(theirs));
    std::printf("throughput of sha256File: %.0f %% of sha256sum's (target: at least 90 %%)\n", 100.0 * theirs / ours);
    std::printf("peak resident memory: %.1f MiB (target: under 32 MiB); sha256sum: %.1f MiB\n",
        static_cast<double>(ourPeak) / 1024.0, static_cast<double>(peakResidentKiB(RUSAGE_CHILDREN)) / 1024.0);
    std::printf("digests %s: %s\n", ourDigest == theirDigest ? "agree" : "DIFFER", ourDigest.c_str());
    return ourDigest == theirDigest ? 0 : 1;
}
