// SPDX-License-Identifier: Apache-2.0
// Test helper for the daemon tests.
//   ccm_daemon_peer as USER SOCKET LINE...
//     becomes USER (groups, gid, uid; needs root), connects to SOCKET and sends each LINE,
//     printing every message received until the one that answers it (has an "id").
//   ccm_daemon_peer activate SOCKET PROGRAM ARG...
//     binds and listens on SOCKET, puts it on fd 3 and runs PROGRAM with LISTEN_PID and
//     LISTEN_FDS set, as systemd's socket activation does.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <grp.h>
#include <pwd.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

namespace {

int fail(const std::string &what)
{
    std::fprintf(stderr, "ccm_daemon_peer: %s: %s\n", what.c_str(), std::strerror(errno));
    return 1;
}

sockaddr_un addressOf(const char *path)
{
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    return address;
}

int runAs(const char *user, const char *socketPath, const std::vector<std::string> &lines)
{
    const passwd *entry = ::getpwnam(user);
    if (entry == nullptr)
        return fail(std::string("no user ") + user);
    if (::initgroups(entry->pw_name, entry->pw_gid) != 0 || ::setgid(entry->pw_gid) != 0
        || ::setuid(entry->pw_uid) != 0)
        return fail("cannot become " + std::string(user));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un address = addressOf(socketPath);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0)
        return fail(std::string("cannot connect to ") + socketPath);
    std::string buffer;
    for (const std::string &line : lines) {
        const std::string message = line + "\n";
        if (::send(fd, message.data(), message.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(message.size()))
            return fail("cannot send");
        bool answered = false;
        while (!answered) {
            std::size_t newline;
            while ((newline = buffer.find('\n')) == std::string::npos) {
                char chunk[65536];
                const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
                if (got <= 0)
                    return fail("connection ended");
                buffer.append(chunk, static_cast<std::size_t>(got));
            }
            const std::string received = buffer.substr(0, newline);
            buffer.erase(0, newline + 1);
            std::printf("%s\n", received.c_str());
            answered
                = received.find("\"id\":") != std::string::npos && received.find("\"method\":") == std::string::npos;
        }
    }
    std::fflush(stdout);
    return 0;
}

int activate(const char *socketPath, char **program)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    const sockaddr_un address = addressOf(socketPath);
    ::unlink(socketPath);
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0)
        return fail(std::string("cannot listen on ") + socketPath);
    if (fd != 3 && (::dup2(fd, 3) < 0 || ::close(fd) != 0))
        return fail("cannot move the socket to fd 3");
    ::setenv("LISTEN_FDS", "1", 1);
    ::setenv("LISTEN_PID", std::to_string(::getpid()).c_str(), 1);
    ::execv(program[0], program);
    return fail(std::string("cannot run ") + program[0]);
}

} // namespace

int main(int argc, char **argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "as" && argc >= 4)
        return runAs(argv[2], argv[3], std::vector<std::string>(argv + 4, argv + argc));
    if (mode == "activate" && argc >= 4)
        return activate(argv[2], argv + 3);
    std::fprintf(stderr, "usage: ccm_daemon_peer as USER SOCKET LINE... | activate SOCKET PROGRAM ARG...\n");
    return 2;
}
