// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "core/facts/facts.h"
#include "daemon/server.h"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <malloc.h>
#include <ostream>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <string_view>
#include <unistd.h>

namespace ccm::cli {
namespace {

constexpr std::string_view kServeUsage = R"(Usage: ccm-backend serve [--socket PATH] [--user] [--idle-timeout SECONDS]

Runs the backend daemon: JSON-RPC 2.0 over a Unix socket, one request or notification
per line. Peers are told apart by their credentials: root and group ccm-apply may apply,
group ccm-designer may preview (noop), everyone else may only say hello. With systemd
socket activation (LISTEN_PID, LISTEN_FDS) the passed socket is used.

Options:
  --socket PATH          the socket to listen on (default /run/ccm-designer/backend.sock,
                         or $XDG_RUNTIME_DIR/ccm-designer/backend.sock with --user)
  --user                 serve only the user running the daemon, with that user's rights;
                         the socket is made 0600 in a 0700 directory
  --idle-timeout SECONDS close a connection that sends no complete request for this
                         long (default 60)
  -h, --help             show this help

Logs go to stderr. SIGTERM or SIGINT stops the daemon: a running apply is cancelled
before its next resource and answered, then the daemon exits 0.
)";

std::atomic<daemon::Server *> g_server {nullptr};

extern "C" void stopServer(int)
{
    if (daemon::Server *server = g_server.load())
        server->requestStop();
}

/// The daemon now and then holds a buffer of many MiB (a line of up to 16 MiB, a large manifest
/// or render) and then runs for weeks. glibc raises its mmap threshold to the size of the first
/// such buffer freed, so the next ones come from the heap and its arenas and stay resident long
/// after they are freed. A fixed threshold keeps every allocation of 1 MiB or more in its own
/// mapping, given back to the system when it is freed.
void giveLargeBuffersBackWhenFreed()
{
    constexpr int kThreshold = 1024 * 1024;
    if (::mallopt(M_MMAP_THRESHOLD, kThreshold) != 1)
        spdlog::debug("the allocator does not take an mmap threshold; large freed buffers may stay resident");
}

/// Routes SIGINT and SIGTERM to the server for as long as it runs.
class StopOnSignal {
public:
    explicit StopOnSignal(daemon::Server &server)
    {
        g_server.store(&server);
        struct sigaction action { };
        action.sa_handler = stopServer;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_oldInt);
        ::sigaction(SIGTERM, &action, &m_oldTerm);
        struct sigaction ignore { };
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, &m_oldPipe);
    }
    ~StopOnSignal()
    {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
        ::sigaction(SIGPIPE, &m_oldPipe, nullptr);
        g_server.store(nullptr);
    }
    StopOnSignal(const StopOnSignal &) = delete;
    StopOnSignal &operator=(const StopOnSignal &) = delete;

private:
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
    struct sigaction m_oldPipe { };
};

struct ServeOptions {
    std::optional<std::filesystem::path> socketPath;
    bool userMode = false;
    long idleSeconds = 60;
};

/// Reads the command line into options; the exit code when the command ends there (help or a usage error).
std::optional<int> parseServeOptions(
    const std::vector<std::string> &args, ServeOptions &options, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kServeUsage;
            return Success;
        }
        if (arg == "--user") {
            options.userMode = true;
        } else if (arg == "--socket" || arg == "--idle-timeout") {
            if (i + 1 >= args.size()) {
                err << "ccm-backend serve: option " << arg << " needs a value\n";
                return UsageError;
            }
            const std::string &value = args[++i];
            if (arg == "--socket") {
                options.socketPath = value;
                continue;
            }
            char *end = nullptr;
            options.idleSeconds = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || options.idleSeconds < 1 || options.idleSeconds > 86400) {
                err << "ccm-backend serve: --idle-timeout expects whole seconds from 1 to 86400, not '" << value
                    << "'\n";
                return UsageError;
            }
        } else {
            err << "ccm-backend serve: unknown argument '" << arg << "'\n" << kServeUsage;
            return UsageError;
        }
    }
    return std::nullopt;
}

/// The socket the daemon serves, and the path it created for it, if any, to remove when it stops.
struct ListeningSocket {
    int fd = -1;
    std::optional<std::filesystem::path> ownPath;
};

/// Takes the socket passed by the service manager, or listens at the path given or the default one.
std::optional<ListeningSocket> openListeningSocket(ServeOptions &options, daemon::AuthMode mode, std::ostream &err)
{
    if (const auto activated = daemon::activatedSocket()) {
        spdlog::info("serving the socket passed by the service manager");
        return ListeningSocket {*activated, std::nullopt};
    }
    std::optional<std::filesystem::path> &socketPath = options.socketPath;
    if (!socketPath) {
        if (options.userMode) {
            const char *runtime = std::getenv("XDG_RUNTIME_DIR");
            if (runtime == nullptr || *runtime != '/') {
                err << "ccm-backend serve: --user needs XDG_RUNTIME_DIR or --socket\n";
                return std::nullopt;
            }
            socketPath = std::filesystem::path(runtime) / "ccm-designer" / "backend.sock";
        } else {
            socketPath = "/run/ccm-designer/backend.sock";
        }
    }
    auto listening = daemon::listenAt(*socketPath, mode);
    if (!listening) {
        err << "ccm-backend serve: " << listening.error().message << '\n';
        return std::nullopt;
    }
    spdlog::info("listening on {}", socketPath->string());
    return ListeningSocket {listening.value(), socketPath};
}

} // namespace

int serveCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ServeOptions serveOptions;
    if (const auto exitCode = parseServeOptions(args, serveOptions, out, err))
        return *exitCode;

    auto logger = spdlog::stderr_color_mt("ccm-backend");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");

    const daemon::AuthMode mode = serveOptions.userMode ? daemon::AuthMode::User : daemon::AuthMode::System;
    const auto listening = openListeningSocket(serveOptions, mode, err);
    if (!listening)
        return Failure;

    giveLargeBuffersBackWhenFreed();
    daemon::ServerOptions options;
    options.listenFd = listening->fd;
    options.mode = mode;
    options.owner = ::getuid();
    options.idleTimeout = std::chrono::seconds(serveOptions.idleSeconds);
    options.facts = [] { return gatherFacts(); };
    daemon::Server server(std::move(options));
    Result<void> served;
    {
        const StopOnSignal stopOnSignal(server);
        served = server.run();
    }
    if (listening->ownPath)
        ::unlink(listening->ownPath->c_str());
    if (!served) {
        spdlog::error("{}", served.error().message);
        return Failure;
    }
    spdlog::info("stopped");
    return Success;
}

} // namespace ccm::cli
