// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ccm::protocol {

/// The longest message line either side sends or accepts, newline excluded.
inline constexpr std::size_t kMaxLineBytes = 16 * 1024 * 1024;
/// Deeper JSON than this is refused before parsing, by the server and its clients alike: no
/// message of the protocol needs it, parsing and destroying recurse that deep, and the facts and
/// data maps a request carries are merged recursively.
inline constexpr int kMaxNesting = 256;
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

/// A value, or the error response to send instead.
template<typename T> using RpcResult = Result<T, RpcError>;

/// {"jsonrpc": "2.0", "id": id, "result": result} as one line without the newline.
std::string responseLine(const Json &id, const Json &result);

/// {"jsonrpc": "2.0", "id": id, "error": {code, message, data: {reason, ...}}} as one line.
std::string errorLine(const Json &id, const RpcError &error);

/// {"jsonrpc": "2.0", "method": method, "params": params} as one line.
std::string notificationLine(std::string_view method, const Json &params);

/// {"jsonrpc": "2.0", "id": id, "method": method, "params": params} as one line.
std::string requestLine(const Json &id, std::string_view method, const Json &params);

/// What a message read from the other side is. Only the shape is told here: whether the members
/// of a response or a request have the right types is for the reader to check.
enum class MessageKind {
    /// Has "id" and "method": a client's call.
    Request,
    /// Has "method" and no "id": nobody answers it.
    Notification,
    /// Has "id" and no "method": answers a request.
    Response,
    /// Not an object, or neither an id nor a string method.
    Invalid,
};

/// Classifies a parsed message by its members.
MessageKind classify(const Json &message);

} // namespace ccm::protocol
