// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error_code.h"
#include "base/result.h"
#include "core/model/json.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ccm {

/// What can go wrong talking to a server with RpcClient (its failures, not the error objects the
/// server answers with).
enum class RpcClientErrc {
    ConnectFailed, ///< no connection to the socket
    Closed, ///< the server closed the connection, or there is none
    TooLarge, ///< a line over the protocol's limit; the connection is closed
    InvalidMessage, ///< not a JSON object, or not a valid response or notification
    Timeout, ///< no answer in time
    Interrupted, ///< the interrupt descriptor became readable (setInterruptFd)
    IoError, ///< sending or receiving failed
    InvalidRequest, ///< what the caller asked to send cannot be sent
};

/// An error object a server answered with.
struct RpcError {
    int code = 0;
    std::string message;
    Json data; ///< null when the server sent none
};

/// The answer to one request: its result, or the error the server sent instead.
struct RpcResponse {
    Json id;
    Json result; ///< null when error is set
    std::optional<RpcError> error;
};

/// A connection to a JSON-RPC 2.0 server over an AF_UNIX stream socket, one JSON object per line
/// (docs/protocol.md). Sends requests, reads lines with the protocol's 16 MiB limit and matches
/// responses to requests by id, handing the notifications that arrive in between to a callback.
/// Failures are errors with the codes of RpcClientErrc: "connect_failed", "closed" (the server closed the
/// connection), "too_large" (a line over the limit; the connection is closed because the next
/// message boundary is lost), "invalid_message" (not a JSON object, or not a valid response or
/// notification), "timeout", "interrupted" (see setInterruptFd), "io_error", and for what the
/// caller asked to send, "invalid_request". Not thread-safe; one thread uses a client at a time.
class RpcClient {
public:
    /// Called with each notification (an object with "method" and no "id").
    using NotificationHandler = std::function<void(const Json &)>;

    RpcClient() = default;
    ~RpcClient();
    RpcClient(const RpcClient &) = delete;
    RpcClient &operator=(const RpcClient &) = delete;

    /// Connects to the socket at path, closing any previous connection.
    Result<void> connect(const std::string &path);
    /// Closes the connection and forgets what was read from it; harmless when not connected.
    void close();
    [[nodiscard]] bool connected() const { return m_fd >= 0; }

    /// A descriptor that interrupts waiting for the server when it becomes readable (a signal
    /// handler's self-pipe, say): readMessage() then fails with "interrupted" and leaves the
    /// descriptor unread. -1 for none.
    void setInterruptFd(int fd) { m_interruptFd = fd; }

    /// Sends a request with this id (a string or an integer) and params (an object).
    Result<void> sendRequest(const Json &id, std::string_view method, const Json &params);
    /// Sends a notification, which the server does not answer.
    Result<void> sendNotification(std::string_view method, const Json &params);

    /// The next message from the server, waiting at most timeout (forever when nullopt).
    /// Responses read earlier by waitForResponse() for other ids are not returned again.
    Result<Json> readMessage(std::optional<std::chrono::milliseconds> timeout = std::nullopt);

    /// Reads until the response to the request with id arrives, handing notifications to
    /// onNotification. Responses to other requests are kept for later calls. An error response
    /// with a null id (the server could not read the request's id) counts as the answer. timeout
    /// bounds the whole wait.
    Result<RpcResponse> waitForResponse(const Json &id, const NotificationHandler &onNotification = {},
        std::optional<std::chrono::milliseconds> timeout = std::nullopt);

    /// sendRequest() with an integer id counted from 1 by this client's calls, then waitForResponse(). Do
    /// not mix it with sendRequest() of integer ids on one connection.
    Result<RpcResponse> call(std::string_view method, const Json &params,
        const NotificationHandler &onNotification = {},
        std::optional<std::chrono::milliseconds> timeout = std::nullopt);

private:
    Result<void> sendMessage(const Json &message);
    /// Reads one line into line, waiting until deadline (forever when nullopt).
    Result<void> readLine(std::string &line, std::optional<std::chrono::steady_clock::time_point> deadline);
    Result<Json> readMessageUntil(std::optional<std::chrono::steady_clock::time_point> deadline);

    int m_fd = -1;
    int m_interruptFd = -1;
    long long m_nextId = 1;
    std::string m_buffer;
    /// How much of m_buffer is known to hold no newline.
    std::size_t m_scanned = 0;
    /// Responses read while waiting for another id.
    std::deque<RpcResponse> m_pending;
};

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::RpcClientErrc> {
    using E = ccm::RpcClientErrc;
    static constexpr std::array kNames {
        std::pair {E::ConnectFailed, std::string_view("connect_failed")},
        std::pair {E::Closed, std::string_view("closed")},
        std::pair {E::TooLarge, std::string_view("too_large")},
        std::pair {E::InvalidMessage, std::string_view("invalid_message")},
        std::pair {E::Timeout, std::string_view("timeout")},
        std::pair {E::Interrupted, std::string_view("interrupted")},
        std::pair {E::IoError, std::string_view("io_error")},
        std::pair {E::InvalidRequest, std::string_view("invalid_request")},
    };
};
