// SPDX-License-Identifier: Apache-2.0
#include "protocol/protocol.h"

namespace ccm::protocol {

std::string_view reasonName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::ParseError:
        return "parse_error";
    case ErrorCode::InvalidRequest:
        return "invalid_request";
    case ErrorCode::MethodNotFound:
        return "method_not_found";
    case ErrorCode::InvalidParams:
        return "invalid_params";
    case ErrorCode::Unauthorized:
        return "unauthorized";
    case ErrorCode::Busy:
        return "busy";
    case ErrorCode::InvalidManifest:
        return "invalid_manifest";
    case ErrorCode::TooLarge:
        return "too_large";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::SourceUnavailable:
        return "source_unavailable";
    case ErrorCode::InvalidBundle:
        return "invalid_bundle";
    case ErrorCode::Unreachable:
        return "unreachable";
    case ErrorCode::AuthFailed:
        return "auth_failed";
    case ErrorCode::NoJetStream:
        return "no_jetstream";
    case ErrorCode::NotFound:
        return "not_found";
    case ErrorCode::TransferFailed:
        return "transfer_failed";
    case ErrorCode::InternalError:
        return "internal_error";
    }
    return "internal_error";
}

namespace {

// Strings from the peer (ids, manifests echoed in messages) may hold anything; replacing invalid
// UTF-8 on output keeps dump() from throwing.
std::string dumpLine(const Json &message)
{
    return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

std::string responseLine(const Json &id, const Json &result)
{
    Json message = Json::object();
    message["jsonrpc"] = "2.0";
    message["id"] = id;
    message["result"] = result;
    return dumpLine(message);
}

std::string errorLine(const Json &id, const RpcError &error)
{
    Json data = Json::object();
    data["reason"] = reasonName(error.code);
    if (error.data.is_object()) {
        for (const auto &[key, value] : error.data.items())
            data[key] = value;
    }
    Json message = Json::object();
    message["jsonrpc"] = "2.0";
    message["id"] = id;
    message["error"] = {{"code", static_cast<int>(error.code)}, {"message", error.message}, {"data", data}};
    return dumpLine(message);
}

std::string notificationLine(std::string_view method, const Json &params)
{
    Json message = Json::object();
    message["jsonrpc"] = "2.0";
    message["method"] = method;
    message["params"] = params;
    return dumpLine(message);
}

std::string requestLine(const Json &id, std::string_view method, const Json &params)
{
    Json message = Json::object();
    message["jsonrpc"] = "2.0";
    message["id"] = id;
    message["method"] = method;
    message["params"] = params;
    return dumpLine(message);
}

MessageKind classify(const Json &message)
{
    if (!message.is_object())
        return MessageKind::Invalid;
    const bool hasId = message.contains("id");
    const auto method = message.find("method");
    if (method == message.end())
        return hasId ? MessageKind::Response : MessageKind::Invalid;
    if (hasId)
        return MessageKind::Request;
    return method->is_string() ? MessageKind::Notification : MessageKind::Invalid;
}

} // namespace ccm::protocol
