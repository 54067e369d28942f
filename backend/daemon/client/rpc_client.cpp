// SPDX-License-Identifier: Apache-2.0
#include "daemon/client/rpc_client.h"

#include "protocol/protocol.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace ccm {
namespace {

using protocol::kMaxLineBytes;
using protocol::kMaxNesting;

constexpr std::size_t kReadChunk = 64 * 1024;

using Clock = std::chrono::steady_clock;
using Deadline = std::optional<Clock::time_point>;

Error ioError(const std::string &what)
{
    return makeError(RpcClientErrc::IoError, what + ": " + std::strerror(errno));
}

Deadline deadlineAfter(std::optional<std::chrono::milliseconds> timeout)
{
    if (!timeout)
        return std::nullopt;
    return Clock::now() + *timeout;
}

/// Milliseconds left for poll(): -1 for no deadline, 0 when it has passed.
int pollTimeout(const Deadline &deadline)
{
    if (!deadline)
        return -1;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, INT_MAX));
}

bool isValidId(const Json &id)
{
    return id.is_string() || id.is_number_integer();
}

/// The response a message is, or an error saying why it is none.
Result<RpcResponse> toResponse(const Json &message)
{
    RpcResponse response;
    response.id = message["id"];
    if (!response.id.is_null() && !isValidId(response.id))
        return makeError(RpcClientErrc::InvalidMessage, "response id is " + describeJsonType(response.id));
    const bool hasResult = message.contains("result");
    const bool hasError = message.contains("error");
    if (hasResult == hasError)
        return makeError(RpcClientErrc::InvalidMessage, "a response needs exactly one of \"result\" and \"error\"");
    if (hasResult) {
        response.result = message["result"];
        return response;
    }
    const Json &error = message["error"];
    if (!error.is_object() || !error.contains("code") || !error["code"].is_number_integer()
        || !error.contains("message") || !error["message"].is_string())
        return makeError(RpcClientErrc::InvalidMessage,
            "the error of a response needs an integer \"code\" and a string \"message\"");
    const auto code = error["code"].get<long long>();
    if (code < INT_MIN || code > INT_MAX)
        return makeError(RpcClientErrc::InvalidMessage, "error code " + std::to_string(code) + " is out of range");
    response.error
        = RpcError {static_cast<int>(code), error["message"].get<std::string>(), error.value("data", Json())};
    return response;
}

} // namespace

RpcClient::~RpcClient()
{
    close();
}

Result<void> RpcClient::connect(const std::string &path)
{
    close();
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    if (path.empty() || path.size() >= sizeof(address.sun_path))
        return makeError(RpcClientErrc::ConnectFailed, "socket path '" + path + "' is empty or too long");
    std::memcpy(address.sun_path, path.data(), path.size());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return makeError(RpcClientErrc::ConnectFailed, std::string("cannot create a socket: ") + std::strerror(errno));
    int rc = 0;
    do {
        rc = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address));
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        const int saved = errno;
        ::close(fd);
        return makeError(RpcClientErrc::ConnectFailed, "cannot connect to " + path + ": " + std::strerror(saved));
    }
    m_fd = fd;
    return {};
}

void RpcClient::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_buffer.clear();
    m_scanned = 0;
    m_pending.clear();
}

Result<void> RpcClient::sendRequest(const Json &id, std::string_view method, const Json &params)
{
    if (!isValidId(id))
        return makeError(
            RpcClientErrc::InvalidRequest, "a request id must be a string or an integer, not " + describeJsonType(id));
    if (!params.is_object())
        return makeError(RpcClientErrc::InvalidRequest, "params must be a map, not " + describeJsonType(params));
    return sendMessage(Json {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

Result<void> RpcClient::sendNotification(std::string_view method, const Json &params)
{
    if (!params.is_object())
        return makeError(RpcClientErrc::InvalidRequest, "params must be a map, not " + describeJsonType(params));
    return sendMessage(Json {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

Result<void> RpcClient::sendMessage(const Json &message)
{
    if (m_fd < 0)
        return makeError(RpcClientErrc::Closed, "not connected");
    std::string line;
    try {
        line = message.dump();
    } catch (const nlohmann::json::exception &) {
        return makeError(RpcClientErrc::InvalidRequest, "the message holds text that is not valid UTF-8");
    }
    if (line.size() > kMaxLineBytes) {
        return makeError(RpcClientErrc::InvalidRequest,
            "the message is " + std::to_string(line.size()) + " bytes long, more than the protocol's limit of "
                + std::to_string(kMaxLineBytes));
    }
    line += '\n';
    std::size_t sent = 0;
    while (sent < line.size()) {
        const ssize_t n = ::send(m_fd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE || errno == ECONNRESET)
                return makeError(RpcClientErrc::Closed, "the server closed the connection");
            return ioError("cannot send to the server");
        }
        sent += static_cast<std::size_t>(n);
    }
    return {};
}

Result<void> RpcClient::readLine(std::string &line, Deadline deadline)
{
    while (true) {
        const std::size_t newline = m_buffer.find('\n', m_scanned);
        if (newline != std::string::npos) {
            if (newline > kMaxLineBytes)
                break;
            line.assign(m_buffer, 0, newline);
            m_buffer.erase(0, newline + 1);
            m_scanned = 0;
            return {};
        }
        m_scanned = m_buffer.size();
        if (m_buffer.size() > kMaxLineBytes)
            break;

        pollfd fds[2] = {{m_fd, POLLIN, 0}, {m_interruptFd, POLLIN, 0}};
        const nfds_t count = m_interruptFd >= 0 ? 2 : 1;
        const int ready = ::poll(fds, count, pollTimeout(deadline));
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return ioError("cannot wait for the server");
        }
        if (count == 2 && (fds[1].revents & (POLLIN | POLLHUP)) != 0)
            return makeError(RpcClientErrc::Interrupted, "interrupted while waiting for the server");
        if (ready == 0)
            return makeError(RpcClientErrc::Timeout, "the server did not answer in time");

        const std::size_t old = m_buffer.size();
        m_buffer.resize(old + kReadChunk);
        const ssize_t n = ::read(m_fd, m_buffer.data() + old, kReadChunk);
        m_buffer.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            if (errno == ECONNRESET) {
                close();
                return makeError(RpcClientErrc::Closed, "the server reset the connection");
            }
            return ioError("cannot read from the server");
        }
        if (n == 0) {
            const std::size_t partial = m_buffer.size();
            close();
            if (partial > 0) {
                return makeError(RpcClientErrc::Closed,
                    "the server closed the connection in the middle of a message (" + std::to_string(partial)
                        + " bytes without a newline)");
            }
            return makeError(RpcClientErrc::Closed, "the server closed the connection");
        }
    }
    close();
    return makeError(RpcClientErrc::TooLarge,
        "the server sent a line longer than " + std::to_string(kMaxLineBytes) + " bytes; the connection is closed");
}

Result<Json> RpcClient::readMessage(std::optional<std::chrono::milliseconds> timeout)
{
    return readMessageUntil(deadlineAfter(timeout));
}

Result<Json> RpcClient::readMessageUntil(Deadline deadline)
{
    if (m_fd < 0)
        return makeError(RpcClientErrc::Closed, "not connected");
    std::string line;
    if (auto read = readLine(line, deadline); !read)
        return read.error();
    if (const auto deep = jsonNestingBeyond(line, kMaxNesting)) {
        return makeError(RpcClientErrc::InvalidMessage,
            "the server sent JSON nested deeper than " + std::to_string(kMaxNesting) + " levels (at byte "
                + std::to_string(*deep + 1) + ")");
    }
    Json message = parseJson(line, false);
    if (message.is_discarded())
        return makeError(RpcClientErrc::InvalidMessage, "the server sent a line that is not JSON (or not valid UTF-8)");
    if (!message.is_object())
        return makeError(
            RpcClientErrc::InvalidMessage, "the server sent " + describeJsonType(message) + " instead of an object");
    if (message.value("jsonrpc", Json()) != "2.0")
        return makeError(RpcClientErrc::InvalidMessage, "the server sent a message without \"jsonrpc\": \"2.0\"");
    return message;
}

Result<RpcResponse> RpcClient::waitForResponse(
    const Json &id, const NotificationHandler &onNotification, std::optional<std::chrono::milliseconds> timeout)
{
    const auto kept = std::find_if(
        m_pending.begin(), m_pending.end(), [&](const RpcResponse &response) { return response.id == id; });
    if (kept != m_pending.end()) {
        RpcResponse response = std::move(*kept);
        m_pending.erase(kept);
        return response;
    }
    const Deadline deadline = deadlineAfter(timeout);
    while (true) {
        auto message = readMessageUntil(deadline);
        if (!message)
            return message.error();
        const Json &value = message.value();
        switch (protocol::classify(value)) {
        case protocol::MessageKind::Notification:
            if (onNotification)
                onNotification(value);
            continue;
        case protocol::MessageKind::Request:
            return makeError(
                RpcClientErrc::InvalidMessage, "the server sent a request, which this protocol does not have");
        case protocol::MessageKind::Invalid:
            return makeError(
                RpcClientErrc::InvalidMessage, "the server sent a message with neither an id nor a method");
        case protocol::MessageKind::Response:
            break;
        }
        auto response = toResponse(value);
        if (!response)
            return response.error();
        if (response->id == id || (response->id.is_null() && response->error))
            return std::move(response).value();
        m_pending.push_back(std::move(response).value());
    }
}

Result<RpcResponse> RpcClient::call(std::string_view method, const Json &params,
    const NotificationHandler &onNotification, std::optional<std::chrono::milliseconds> timeout)
{
    const Json id = m_nextId++;
    if (auto sent = sendRequest(id, method, params); !sent)
        return sent.error();
    return waitForResponse(id, onNotification, timeout);
}

} // namespace ccm
