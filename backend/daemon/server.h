// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "daemon/peer.h"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <sys/types.h>

namespace ccm::daemon {

/// What one connection may have waiting to be sent before it is dropped as not reading.
inline constexpr std::size_t kMaxOutputBytes = 64 * 1024 * 1024;
/// Connections served at once; more are accepted and closed.
inline constexpr std::size_t kMaxConnections = 64;
/// Connections one uid may hold at once, root included, so that no local user can take every
/// slot from the others; more are told why and closed.
inline constexpr std::size_t kMaxConnectionsPerUid = 16;

/// How a Server runs.
struct ServerOptions {
    /// A listening AF_UNIX stream socket; the server owns it from now on.
    int listenFd = -1;
    AuthMode mode = AuthMode::System;
    /// The uid served in User mode.
    uid_t owner = 0;
    /// A connection that has sent no complete line for this long is closed (the owner of the
    /// running apply excepted).
    std::chrono::milliseconds idleTimeout {60000};
    /// Gathers the host's facts for facts.get, render and apply.start.
    std::function<Result<Json>()> facts;
};

/// Creates a listening socket at `path`: the parent directory is created (0700 in User mode),
/// a stale socket there is replaced, and the socket is made 0600 in User mode and 0666 in System
/// mode (where peers are told apart by their credentials). Errors name the path and the cause.
Result<int> listenAt(const std::filesystem::path &path, AuthMode mode);

/// The socket systemd passed (LISTEN_PID is this process and LISTEN_FDS >= 1: fd 3), with both
/// variables removed from the environment; nullopt when there is none.
std::optional<int> activatedSocket();

/// The daemon: one thread polling the listening socket and every connection, a small pool for the
/// requests that parse manifests, and the apply worker.
class Server {
public:
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    /// Serves until requestStop(): then stops accepting, cancels a run that is going, waits for it
    /// to answer, sends what is pending (for a few seconds at most) and returns.
    Result<void> run();

    /// Asks run() to return. Async-signal-safe.
    void requestStop();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace ccm::daemon
