// SPDX-License-Identifier: Apache-2.0
#include "daemon/fleet_errors.h"

#include "base/file_reading.h"
#include "base/signing_key.h"
#include "daemon/params.h"
#include "fleet/nats/nats_errors.h"

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::RpcError;

ErrorCode fleetErrorCode(const Error &error)
{
    if (const auto nats = errorCodeOf<fleet::NatsErrc>(error)) {
        switch (*nats) {
        case fleet::NatsErrc::Unreachable:
            return ErrorCode::Unreachable;
        case fleet::NatsErrc::AuthFailed:
            return ErrorCode::AuthFailed;
        case fleet::NatsErrc::NoJetStream:
            return ErrorCode::NoJetStream;
        case fleet::NatsErrc::ContextNotFound:
        case fleet::NatsErrc::BucketNotFound:
        case fleet::NatsErrc::KeyNotFound:
        case fleet::NatsErrc::ObjectNotFound:
            return ErrorCode::NotFound;
        case fleet::NatsErrc::TlsFailed:
        case fleet::NatsErrc::Nats:
        case fleet::NatsErrc::DigestMismatch:
        case fleet::NatsErrc::SizeMismatch:
        case fleet::NatsErrc::BadMeta:
        case fleet::NatsErrc::BadName:
        case fleet::NatsErrc::Exists:
        case fleet::NatsErrc::Changed:
            return ErrorCode::TransferFailed;
        }
    }
    return hasCode(error, ReadErrc::NotFound) ? ErrorCode::NotFound : ErrorCode::TransferFailed;
}

RpcError fleetError(const Error &error)
{
    return RpcError {fleetErrorCode(error), error.message, Json {{"cause", error.code}}};
}

RpcError bucketError(const Error &error)
{
    if (hasCode(error, fleet::NatsErrc::BadName))
        return Params::invalid("bucket", "may hold only letters, digits, '-' and '_'");
    return fleetError(error);
}

RpcError keyError(std::string_view param, const Error &error)
{
    const RpcError onParam {
        ErrorCode::InvalidParams, error.message, Json {{"path", std::string(param)}, {"cause", error.code}}};
    const auto code = errorCodeOf<SigningErrc>(error);
    if (!code)
        return onParam;
    switch (*code) {
    case SigningErrc::Exists: {
        const std::string message
            = error.message.substr(0, error.message.find("; use --force")) + "; send overwrite: true to replace it";
        return RpcError {ErrorCode::InvalidParams, message, Json {{"path", "overwrite"}, {"cause", error.code}}};
    }
    case SigningErrc::Crypto:
        return RpcError {ErrorCode::InternalError, error.message, Json {{"cause", error.code}}};
    case SigningErrc::KeyNotFound:
    case SigningErrc::Io:
    case SigningErrc::BadKey:
        break;
    }
    return onParam;
}

} // namespace ccm::daemon
