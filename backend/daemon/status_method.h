// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "daemon/peer.h"
#include "protocol/protocol.h"

#include <filesystem>
#include <functional>

namespace ccm::daemon {

// resource.status: the current state of one resource on the host the backend runs on, as its
// provider reports it, and how it differs from the properties the designer's form holds. The
// properties are taken as resolved (what manifest.render gives); a string still holding a template
// ("{{") is left out of the comparison and named in the notes.

/// Checks resource.status's params before any work is done: `type` and `name` strings,
/// `properties` a map when given, `base_dir` absolute when given. invalid_params naming the param.
protocol::RpcResult<void> checkStatusParams(const Json &params);

/// Serves resource.status for `peer`. For somebody other than root and the backend's own user the
/// provider's commands run with the peer's credentials, the files are looked at with the peer's
/// file system identity, and a file's content (its checksum) is read only when the peer may read
/// it; the notes say what was not read. Errors of the params (unknown type, invalid property) are
/// invalid_params; a state that cannot be told, or a provider that could not look, is a result
/// with supported false and the reason.
protocol::RpcResult<Json> resourceStatusResult(
    const Peer &peer, bool someoneElse, const Json &params, const std::function<Result<Json>()> &facts);

} // namespace ccm::daemon
