// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "base/file_reading.h"
#include "daemon/client/rpc_client.h"
#include "protocol/protocol.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <optional>
#include <ostream>
#include <string_view>
#include <unistd.h>

namespace ccm::cli {
namespace {

constexpr std::string_view kClientUsage
    = R"(Usage: ccm-backend client [--socket PATH | --user] [--manifest FILE] METHOD [PARAMS]

Calls one method of a running backend (ccm-backend serve) and prints what it answers:
each notification as one JSON line as it arrives, then the result as one JSON line.
An error answer is printed as {"error": {...}} and the exit code is 1. PARAMS is a JSON
object, or '-' to read it from standard input. Ctrl-C during apply.start asks the
backend to cancel the run and waits for its answer; a second Ctrl-C stops waiting.
See docs/protocol.md.

Options:
  --socket PATH       the backend's socket; by default the system backend's
                      (/run/ccm-designer/backend.sock) when it exists, else the
                      user backend's ($XDG_RUNTIME_DIR/ccm-designer/backend.sock)
  --user              use the user backend's socket
  --manifest FILE     read FILE into params.manifest and set params.base_dir to
                      the directory of FILE
)";

constexpr std::string_view kSystemSocket = "/run/ccm-designer/backend.sock";
constexpr std::size_t kMaxInputBytes = protocol::kMaxLineBytes;

/// The self-pipe SIGINT writes to; its read end interrupts the client's wait.
int g_interruptPipe[2] = {-1, -1};

extern "C" void onInterrupt(int)
{
    const int saved = errno;
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_interruptPipe[1], &byte, 1);
    errno = saved;
}

/// Catches SIGINT while it lives, so that an apply can be cancelled instead of abandoned.
class InterruptGuard {
public:
    InterruptGuard()
    {
        if (::pipe2(g_interruptPipe, O_CLOEXEC | O_NONBLOCK) != 0)
            return;
        struct sigaction action { };
        action.sa_handler = onInterrupt;
        sigemptyset(&action.sa_mask);
        m_installed = ::sigaction(SIGINT, &action, &m_previous) == 0;
    }
    ~InterruptGuard()
    {
        if (m_installed)
            ::sigaction(SIGINT, &m_previous, nullptr);
        for (int &fd : g_interruptPipe) {
            if (fd >= 0)
                ::close(fd);
            fd = -1;
        }
    }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

    [[nodiscard]] int fd() const { return m_installed ? g_interruptPipe[0] : -1; }
    /// Empties the pipe so that the next wait blocks again.
    void drain() const
    {
        char bytes[64];
        while (::read(g_interruptPipe[0], bytes, sizeof(bytes)) > 0) { }
    }

private:
    struct sigaction m_previous { };
    bool m_installed = false;
};

std::optional<std::string> userSocket()
{
    const char *runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime == nullptr || *runtime == '\0')
        return std::nullopt;
    return std::string(runtime) + "/ccm-designer/backend.sock";
}

void printError(std::ostream &out, std::ostream &err, const std::string &method, const RpcError &error)
{
    Json object = {{"code", error.code}, {"message", error.message}};
    if (!error.data.is_null())
        object["data"] = error.data;
    out << Json {{"error", object}}.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
    err << "ccm-backend client: " << method << " failed: " << error.message << " (code " << error.code;
    if (error.data.is_object() && error.data.contains("reason") && error.data["reason"].is_string())
        err << ", " << error.data["reason"].get<std::string>();
    err << ")\n";
}

struct Options {
    std::optional<std::string> socket;
    bool user = false;
    std::optional<std::string> manifest;
    std::string method;
    std::optional<std::string> params;
};

/// Reads the command line into options; an error message for a usage error.
std::optional<std::string> parseOptions(const std::vector<std::string> &args, Options &options, bool &help)
{
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        const auto value
            = [&](std::string_view name, std::optional<std::string> &target) -> std::optional<std::string> {
            if (arg.starts_with(std::string(name) + "=")) {
                target = arg.substr(name.size() + 1);
            } else if (i + 1 < args.size()) {
                target = args[++i];
            } else {
                return std::string(name) + " needs a value";
            }
            if (target->empty())
                return std::string(name) + " needs a non-empty value";
            return std::nullopt;
        };
        std::optional<std::string> problem;
        if (arg == "-h" || arg == "--help") {
            help = true;
            return std::nullopt;
        }
        if (arg == "--socket" || arg.starts_with("--socket="))
            problem = value("--socket", options.socket);
        else if (arg == "--manifest" || arg.starts_with("--manifest="))
            problem = value("--manifest", options.manifest);
        else if (arg == "--user")
            options.user = true;
        else if (arg.size() > 1 && arg.front() == '-')
            problem = "unknown option '" + arg + "'";
        else
            positional.push_back(arg);
        if (problem)
            return problem;
    }
    if (options.socket && options.user)
        return "--socket and --user cannot be used together";
    if (positional.empty())
        return "a METHOD is needed";
    if (positional.size() > 2)
        return "unexpected argument '" + positional[2] + "'";
    options.method = positional[0];
    if (positional.size() == 2)
        options.params = positional[1];
    return std::nullopt;
}

/// The socket to use: the one given, else the system backend's if it exists, else the user's.
Result<std::string> socketPath(const Options &options)
{
    if (options.socket)
        return *options.socket;
    const auto user = userSocket();
    if (options.user) {
        if (!user)
            return Error {"usage", "--user needs XDG_RUNTIME_DIR to be set"};
        return *user;
    }
    std::error_code error;
    if (std::filesystem::exists(kSystemSocket, error) || !user)
        return std::string(kSystemSocket);
    return *user;
}

/// Runs apply.start, turning Ctrl-C into apply.cancel for the run and waiting for the outcome.
Result<RpcResponse> runApply(RpcClient &client, const Json &params, std::ostream &out, std::ostream &err)
{
    InterruptGuard guard;
    client.setInterruptFd(guard.fd());
    const Json startId = 1;
    const Json cancelId = 2;
    std::optional<std::string> run;
    bool cancelWanted = false;
    bool cancelSent = false;
    std::optional<std::string> cancelFailure;
    const auto sendCancel = [&] {
        if (cancelSent || !run)
            return;
        cancelSent = true;
        err << "ccm-backend client: cancelling run " << *run << '\n';
        if (auto sent = client.sendRequest(cancelId, "apply.cancel", Json {{"run", *run}}); !sent)
            cancelFailure = sent.error().message;
    };
    const auto onNotification = [&](const Json &notification) {
        out << notification.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
        const Json &notificationParams = notification.value("params", Json());
        if (!run && notificationParams.is_object() && notificationParams.contains("run")
            && notificationParams["run"].is_string()) {
            run = notificationParams["run"].get<std::string>();
            if (cancelWanted)
                sendCancel();
        }
    };
    if (auto sent = client.sendRequest(startId, "apply.start", params); !sent)
        return sent.error();
    while (true) {
        auto response = client.waitForResponse(startId, onNotification);
        if (response || !hasCode(response.error(), RpcClientErrc::Interrupted)) {
            client.setInterruptFd(-1);
            if (cancelFailure)
                err << "ccm-backend client: cannot send apply.cancel: " << *cancelFailure << '\n';
            return response;
        }
        guard.drain();
        if (cancelWanted) {
            client.setInterruptFd(-1);
            return makeError(RpcClientErrc::Interrupted, "interrupted again; the run may still be stopping");
        }
        cancelWanted = true;
        if (!run)
            err << "ccm-backend client: cancelling as soon as the run starts\n";
        sendCancel();
    }
}

/// Reads PARAMS, from standard input for '-', as a JSON object; the exit code when it is not one.
std::optional<int> readParams(const Options &options, Json &params, std::ostream &err)
{
    if (!options.params)
        return std::nullopt;
    std::string text = *options.params;
    if (text == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        if (text.size() > kMaxInputBytes) {
            err << "ccm-backend client: the params on standard input are longer than " << kMaxInputBytes << " bytes\n";
            return UsageError;
        }
    }
    if (const auto deep = jsonNestingBeyond(text, 256)) {
        err << "ccm-backend client: PARAMS are nested too deeply (at byte " << *deep + 1 << ")\n";
        return UsageError;
    }
    params = parseJson(text, false);
    if (params.is_discarded()) {
        err << "ccm-backend client: PARAMS are not valid JSON\n";
        return UsageError;
    }
    if (!params.is_object()) {
        err << "ccm-backend client: PARAMS must be a JSON object, not " << describeJsonType(params) << '\n';
        return UsageError;
    }
    return std::nullopt;
}

/// Puts the --manifest file and its directory into params; the exit code when that fails.
std::optional<int> addManifest(const Options &options, Json &params, std::ostream &err)
{
    if (!options.manifest)
        return std::nullopt;
    if (params.contains("manifest") || params.contains("base_dir")) {
        err << "ccm-backend client: --manifest sets params.manifest and params.base_dir; PARAMS gives them "
               "too\n";
        return UsageError;
    }
    auto text = readTextFile(*options.manifest, kMaxInputBytes);
    if (!text) {
        err << "ccm-backend client: " << text.error().message << '\n';
        return Failure;
    }
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(*options.manifest, error);
    params["manifest"] = std::move(text).value();
    params["base_dir"] = absolute.parent_path().lexically_normal().string();
    return std::nullopt;
}

/// Calls the method and waits for its answer, printing each notification as it arrives.
Result<RpcResponse> callMethod(
    RpcClient &client, const std::string &method, const Json &params, std::ostream &out, std::ostream &err)
{
    if (method == "apply.start")
        return runApply(client, params, out, err);
    if (auto sent = client.sendRequest(1, method, params); !sent)
        return sent.error();
    return client.waitForResponse(1, [&](const Json &notification) {
        out << notification.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
    });
}

} // namespace

int clientCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    Options options;
    bool help = false;
    if (const auto problem = parseOptions(args, options, help)) {
        err << "ccm-backend client: " << *problem << "\n\n" << kClientUsage;
        return UsageError;
    }
    if (help) {
        out << kClientUsage;
        return Success;
    }

    Json params = Json::object();
    if (const auto exitCode = readParams(options, params, err))
        return *exitCode;
    if (const auto exitCode = addManifest(options, params, err))
        return *exitCode;

    auto path = socketPath(options);
    if (!path) {
        err << "ccm-backend client: " << path.error().message << '\n';
        return UsageError;
    }
    RpcClient client;
    if (auto connected = client.connect(*path); !connected) {
        err << "ccm-backend client: " << connected.error().message << '\n';
        return Failure;
    }

    const Result<RpcResponse> response = callMethod(client, options.method, params, out, err);
    if (!response) {
        err << "ccm-backend client: " << response.error().message << '\n';
        return Failure;
    }
    if (response->error) {
        printError(out, err, options.method, *response->error);
        return Failure;
    }
    out << response->result.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n' << std::flush;
    return Success;
}

} // namespace ccm::cli
