// SPDX-License-Identifier: Apache-2.0
// Whole-process cost of `ccm-backend apply --noop`: N file resources already in their desired state
// (N = 1,000 and 10,000; DESIGN.md: under 60 ms and 400 ms), and one file resource whose target is
// an 8 GiB sparse file (time and peak resident memory; the checksum must stream).
//
//   bench_apply                       run the benchmark
//   bench_apply --generate N DIR      only write DIR/manifest.yaml and its N files, for profiling
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

/// Writes DIR/manifest.yaml with n file resources under DIR/files and creates each file exactly as
/// the manifest wants it, so that a noop run finds everything stable.
bool generate(std::size_t n, const fs::path &dir)
{
    const fs::path files = dir / "files";
    fs::create_directories(files);
    const std::string owner = std::to_string(::getuid());
    const std::string group = std::to_string(::getgid());
    std::ofstream manifest(dir / "manifest.yaml");
    manifest << "ccm:\n  resources:\n    - file:\n";
    char name[32];
    for (std::size_t i = 0; i < n; ++i) {
        std::snprintf(name, sizeof name, "f%06zu.conf", i);
        const fs::path path = files / name;
        const std::string content = "setting_" + std::to_string(i) + " = enabled\n";
        manifest << "        - " << path.string() << ":\n"
                 << "            ensure: present\n"
                 << "            content: \"setting_" << i << " = enabled\\n\"\n"
                 << "            owner: \"" << owner << "\"\n"
                 << "            group: \"" << group << "\"\n"
                 << "            mode: \"0644\"\n";
        std::ofstream(path, std::ios::binary) << content;
        fs::permissions(path, fs::perms(0644));
    }
    return static_cast<bool>(manifest.flush());
}

struct ProcessRun {
    double milliseconds = 0;
    long peakKiB = 0;
    int status = -1;
    std::string output;
};

/// Runs argv with stdout captured and stderr discarded; wall time and the child's peak RSS.
ProcessRun runProcess(const std::vector<std::string> &argv)
{
    ProcessRun result;
    char outputTemplate[] = "/tmp/bench-apply-XXXXXX";
    const int outputFd = ::mkstemp(outputTemplate);
    if (outputFd < 0)
        return result;
    ::unlink(outputTemplate);
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(outputFd, STDOUT_FILENO);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDERR_FILENO);
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
    ::lseek(outputFd, 0, SEEK_SET);
    char buffer[65536];
    ssize_t got = 0;
    while ((got = ::read(outputFd, buffer, sizeof buffer)) > 0)
        result.output.append(buffer, static_cast<std::size_t>(got));
    ::close(outputFd);
    return result;
}

std::string summaryLine(const std::string &output)
{
    const std::size_t at = output.find("Resources: ");
    return at == std::string::npos ? std::string("(no summary)") : output.substr(at, output.find('\n', at) - at);
}

void benchmarkStable(const std::string &backend, std::size_t n)
{
    const fs::path dir = fs::temp_directory_path() / ("ccm-bench-apply-" + std::to_string(n));
    fs::remove_all(dir);
    generate(n, dir);
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
        return generate(n, argv[3]) ? 0 : 1;
    }
    const std::string backend = CCM_BACKEND_PATH;
    benchmarkStable(backend, 1000);
    benchmarkStable(backend, 10000);
    benchmarkSparse(backend);
    return 0;
}
