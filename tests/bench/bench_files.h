// SPDX-License-Identifier: Apache-2.0
// The stable-file workload the whole-process benchmarks share (bench_apply, bench_noop_report):
// N small files under DIR/files, each declared by a file resource that wants exactly what is on
// disk, and a way to run a command as a whole process and measure it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ccm::bench {

/// One file of the workload and the content its resource wants.
struct BenchFile {
    std::filesystem::path path;
    std::string content;
};

/// The n files of the workload under DIR/files: f000000.conf, f000001.conf, ... with a line each.
inline std::vector<BenchFile> benchFiles(std::size_t n, const std::filesystem::path &dir)
{
    std::vector<BenchFile> files;
    files.reserve(n);
    char name[32];
    for (std::size_t i = 0; i < n; ++i) {
        std::snprintf(name, sizeof name, "f%06zu.conf", i);
        files.push_back({dir / "files" / name, "setting_" + std::to_string(i) + " = enabled\n"});
    }
    return files;
}

/// Writes a CCM manifest declaring each file present with its content, owned by this user and
/// group, mode 0644.
inline bool writeFileManifest(const std::vector<BenchFile> &files, const std::filesystem::path &manifestPath)
{
    const std::string owner = std::to_string(::getuid());
    const std::string group = std::to_string(::getgid());
    std::ofstream manifest(manifestPath);
    manifest << "ccm:\n  resources:\n    - file:\n";
    for (const BenchFile &file : files) {
        // The content is one line of letters, digits, '_', ' ' and '=' ending in a newline.
        manifest << "        - " << file.path.string() << ":\n"
                 << "            ensure: present\n"
                 << "            content: \"" << file.content.substr(0, file.content.size() - 1) << "\\n\"\n"
                 << "            owner: \"" << owner << "\"\n"
                 << "            group: \"" << group << "\"\n"
                 << "            mode: \"0644\"\n";
    }
    return static_cast<bool>(manifest.flush());
}

/// Creates each file as its resource wants it, so that a noop run finds everything stable.
inline void writeWantedFiles(const std::vector<BenchFile> &files)
{
    for (const BenchFile &file : files) {
        std::filesystem::create_directories(file.path.parent_path());
        std::ofstream(file.path, std::ios::binary | std::ios::trunc) << file.content;
        std::filesystem::permissions(file.path, std::filesystem::perms(0644));
    }
}

/// Writes DIR/manifest.yaml with n file resources under DIR/files and creates each file exactly as
/// the manifest wants it.
inline bool generateStableFiles(std::size_t n, const std::filesystem::path &dir)
{
    const std::vector<BenchFile> files = benchFiles(n, dir);
    std::filesystem::create_directories(dir / "files");
    writeWantedFiles(files);
    return writeFileManifest(files, dir / "manifest.yaml");
}

struct ProcessRun {
    double milliseconds = 0;
    long peakKiB = 0;
    int status = -1;
    std::string output;
};

namespace detail {

/// Forks, runs argv with stdout and stderr to `outputFd`, and waits: wall time, peak RSS, status.
inline ProcessRun forkAndWait(const std::vector<std::string> &argv, const std::string &workingDirectory, int outputFd)
{
    ProcessRun result;
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(outputFd, STDOUT_FILENO);
        ::dup2(outputFd, STDERR_FILENO);
        if (!workingDirectory.empty() && ::chdir(workingDirectory.c_str()) != 0)
            ::_exit(126);
        std::vector<char *> args;
        for (const std::string &arg : argv)
            args.push_back(const_cast<char *>(arg.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage {};
    ::wait4(child, &status, 0, &usage);
    result.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result.peakKiB = usage.ru_maxrss;
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

inline bool writeAll(int fd, const void *data, std::size_t size)
{
    const auto *bytes = static_cast<const char *>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd, bytes, size);
        if (written <= 0)
            return false;
        bytes += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}

inline bool readAll(int fd, void *data, std::size_t size)
{
    auto *bytes = static_cast<char *>(data);
    while (size > 0) {
        const ssize_t got = ::read(fd, bytes, size);
        if (got <= 0)
            return false;
        bytes += got;
        size -= static_cast<std::size_t>(got);
    }
    return true;
}

inline bool writeString(int fd, const std::string &text)
{
    const std::uint32_t size = static_cast<std::uint32_t>(text.size());
    return writeAll(fd, &size, sizeof size) && writeAll(fd, text.data(), text.size());
}

inline bool readString(int fd, std::string &text)
{
    std::uint32_t size = 0;
    if (!readAll(fd, &size, sizeof size))
        return false;
    text.resize(size);
    return readAll(fd, text.data(), size);
}

/// The socket to the launcher process; -1 when there is none.
inline int &launcherSocket()
{
    static int fd = -1;
    return fd;
}

} // namespace detail

/// Starts the process that runProcess() forks the measured commands from, and must be called at
/// the start of main(), while the benchmark is still small. A child's peak RSS (ru_maxrss) starts
/// at the size of the process it was forked from: forked from a benchmark that holds large
/// workloads, every command would report at least the benchmark's own size.
inline void startLauncher()
{
    int sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0)
        return;
    if (::fork() != 0) {
        ::close(sockets[1]);
        detail::launcherSocket() = sockets[0];
        return;
    }
    ::close(sockets[0]);
    const int fd = sockets[1];
    // Request: the output file, the working directory, the argument count and the arguments.
    // Answer: wall milliseconds, peak KiB and status.
    for (;;) {
        std::string outputPath;
        std::string workingDirectory;
        std::uint32_t count = 0;
        if (!detail::readString(fd, outputPath) || !detail::readString(fd, workingDirectory)
            || !detail::readAll(fd, &count, sizeof count))
            ::_exit(0);
        std::vector<std::string> argv(count);
        for (std::string &arg : argv) {
            if (!detail::readString(fd, arg))
                ::_exit(0);
        }
        const int outputFd = ::open(outputPath.c_str(), O_WRONLY | O_CLOEXEC);
        ProcessRun run;
        if (outputFd >= 0) {
            run = detail::forkAndWait(argv, workingDirectory, outputFd);
            ::close(outputFd);
        }
        if (!detail::writeAll(fd, &run.milliseconds, sizeof run.milliseconds)
            || !detail::writeAll(fd, &run.peakKiB, sizeof run.peakKiB)
            || !detail::writeAll(fd, &run.status, sizeof run.status))
            ::_exit(0);
    }
}

/// Runs argv (argv[0] a path) in `workingDirectory` (empty: this one) with stdout and stderr
/// captured together; wall time and the child's peak RSS. Through the launcher when
/// startLauncher() started one.
inline ProcessRun runProcess(const std::vector<std::string> &argv, const std::string &workingDirectory = {})
{
    ProcessRun result;
    char outputTemplate[] = "/tmp/ccm-bench-output-XXXXXX";
    const int outputFd = ::mkstemp(outputTemplate);
    if (outputFd < 0)
        return result;
    if (const int launcher = detail::launcherSocket(); launcher >= 0) {
        const auto count = static_cast<std::uint32_t>(argv.size());
        bool sent = detail::writeString(launcher, outputTemplate) && detail::writeString(launcher, workingDirectory)
            && detail::writeAll(launcher, &count, sizeof count);
        for (const std::string &arg : argv)
            sent = sent && detail::writeString(launcher, arg);
        const bool answered = sent && detail::readAll(launcher, &result.milliseconds, sizeof result.milliseconds)
            && detail::readAll(launcher, &result.peakKiB, sizeof result.peakKiB)
            && detail::readAll(launcher, &result.status, sizeof result.status);
        if (!answered)
            result = ProcessRun {};
    } else {
        result = detail::forkAndWait(argv, workingDirectory, outputFd);
    }
    ::unlink(outputTemplate);
    ::lseek(outputFd, 0, SEEK_SET);
    char buffer[65536];
    ssize_t got = 0;
    while ((got = ::read(outputFd, buffer, sizeof buffer)) > 0)
        result.output.append(buffer, static_cast<std::size_t>(got));
    ::close(outputFd);
    return result;
}

/// The "Resources: total=..." line of an apply's summary.
inline std::string summaryLine(const std::string &output)
{
    const std::size_t at = output.find("Resources: ");
    return at == std::string::npos ? std::string("(no summary)") : output.substr(at, output.find('\n', at) - at);
}

} // namespace ccm::bench
