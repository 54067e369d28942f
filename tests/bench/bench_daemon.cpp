// SPDX-License-Identifier: Apache-2.0
// `ccm-backend serve` under load: how long another client's backend.hello takes while one client's
// manifest.render of KEYS data keys runs, and how many log bytes N garbage lines cost.
//
//   bench_daemon [KEYS [GARBAGE_LINES]]      defaults: 80000 keys, 10000 lines
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

int connectTo(const std::string &path)
{
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    path.copy(address.sun_path, sizeof address.sun_path - 1);
    for (int attempt = 0; attempt < 500; ++attempt) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0)
            return fd;
        ::close(fd);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
}

bool sendAll(int fd, const std::string &bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t sent = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (sent <= 0)
            return false;
        done += static_cast<std::size_t>(sent);
    }
    return true;
}

/// Reads until `lines` newlines have come; false when the connection ends first.
bool readLines(int fd, std::size_t lines)
{
    std::vector<char> chunk(1 << 20);
    while (lines > 0) {
        const ssize_t got = ::recv(fd, chunk.data(), chunk.size(), 0);
        if (got <= 0)
            return false;
        lines -= std::min<std::size_t>(lines, std::count(chunk.data(), chunk.data() + got, '\n'));
    }
    return true;
}

bool readable(int fd)
{
    pollfd entry {fd, POLLIN, 0};
    return ::poll(&entry, 1, 0) > 0;
}

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char **argv)
{
    const long keys = argc > 1 ? std::atol(argv[1]) : 80000;
    const long garbage = argc > 2 ? std::atol(argv[2]) : 10000;
    char pattern[] = "/tmp/bench_daemon.XXXXXX";
    const fs::path dir = ::mkdtemp(pattern);
    const std::string socket = (dir / "backend.sock").string();
    const std::string logPath = (dir / "daemon.log").string();

    const pid_t daemon = ::fork();
    if (daemon == 0) {
        std::freopen(logPath.c_str(), "w", stderr);
        ::execl(CCM_BACKEND_PATH, "ccm-backend", "serve", "--socket", socket.c_str(), "--user", nullptr);
        ::_exit(127);
    }
    const int heavy = connectTo(socket);
    const int probe = connectTo(socket);
    if (heavy < 0 || probe < 0) {
        std::fprintf(stderr, "bench_daemon: cannot connect to the daemon at %s\n", socket.c_str());
        return 1;
    }
    const std::string hello
        = R"({"jsonrpc":"2.0","id":1,"method":"backend.hello","params":{"client":"bench","version":"1"}})"
          "\n";
    std::string manifest = "data:\\n";
    for (long i = 0; i < keys; ++i)
        manifest += "  k" + std::to_string(i) + ": v" + std::to_string(i) + "\\n";
    manifest += "ccm:\\n  resources: []\\n";
    const std::string render
        = R"({"jsonrpc":"2.0","id":1,"method":"manifest.render","params":{"manifest":")" + manifest + "\"}}\n";

    const auto start = Clock::now();
    sendAll(heavy, render);
    std::vector<double> latencies;
    while (!readable(heavy)) {
        const auto sent = Clock::now();
        if (!sendAll(probe, hello) || !readLines(probe, 1))
            return 1;
        latencies.push_back(millisecondsSince(sent));
    }
    readLines(heavy, 1);
    const double renderMs = millisecondsSince(start);
    std::sort(latencies.begin(), latencies.end());
    std::printf("render of %ld keys: %.0f ms; %zu hellos meanwhile: median %.2f ms, slowest %.2f ms\n", keys, renderMs,
        latencies.size(), latencies.empty() ? 0.0 : latencies[latencies.size() / 2],
        latencies.empty() ? 0.0 : latencies.back());

    const auto logBefore = fs::file_size(logPath);
    std::string lines;
    for (long i = 0; i < garbage; ++i)
        lines += "garbage\n";
    sendAll(probe, lines);
    readLines(probe, static_cast<std::size_t>(garbage));
    ::kill(daemon, SIGTERM);
    ::waitpid(daemon, nullptr, 0);
    std::printf(
        "%ld garbage lines: %ju log bytes\n", garbage, static_cast<std::uintmax_t>(fs::file_size(logPath) - logBefore));
    fs::remove_all(dir);
    return 0;
}
