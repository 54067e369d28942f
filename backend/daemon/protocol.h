// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ccm::daemon {

/// The longest message line accepted, newline excluded.
inline constexpr std::size_t kMaxLineBytes = 16 * 1024 * 1024;
/// What one connection may have waiting to be sent before it is dropped as not reading.
inline constexpr std::size_t kMaxOutputBytes = 64 * 1024 * 1024;
/// Connections served at once; more are accepted and closed.
inline constexpr std::size_t kMaxConnections = 64;
/// Connections one uid may hold at once, root included, so that no local user can take every
/// slot from the others; more are told why and closed.
inline constexpr std::size_t kMaxConnectionsPerUid = 16;
/// The protocol version backend.hello reports.
inline constexpr int kProtocolVersion = 1;

/// The closed list of error codes of the protocol.
enum class ErrorCode {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    Unauthorized = -32001,
    Busy = -32002,
    InvalidManifest = -32003,
    TooLarge = -32004,
    Cancelled = -32005,
    SourceUnavailable = -32006,
    InvalidBundle = -32007,
    Unreachable = -32008,
    AuthFailed = -32009,
    NoJetStream = -32010,
    NotFound = -32011,
    TransferFailed = -32012,
    InternalError = -32603,
};

/// The reason name of a code as sent in error.data.reason ("parse_error", "busy", ...).
std::string_view reasonName(ErrorCode code);

/// An error response to send: the code, a human message and extra members of error.data.
struct RpcError {
    ErrorCode code = ErrorCode::InternalError;
    std::string message;
    Json data = Json::object();
};

/// {"jsonrpc": "2.0", "id": id, "result": result} as one line without the newline.
std::string responseLine(const Json &id, const Json &result);

/// {"jsonrpc": "2.0", "id": id, "error": {code, message, data: {reason, ...}}} as one line.
std::string errorLine(const Json &id, const RpcError &error);

/// {"jsonrpc": "2.0", "method": method, "params": params} as one line.
std::string notificationLine(std::string_view method, const Json &params);

} // namespace ccm::daemon
