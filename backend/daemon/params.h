// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "protocol/protocol.h"

#include <string>
#include <string_view>

namespace ccm::daemon {

/// The invalid_params error of the request member params.`name`: the message says what is wrong
/// with it, data.path names it.
inline protocol::RpcError invalidParam(std::string_view name, std::string_view problem)
{
    return protocol::RpcError {protocol::ErrorCode::InvalidParams,
        "params." + std::string(name) + " " + std::string(problem), Json {{"path", std::string(name)}}};
}

} // namespace ccm::daemon
