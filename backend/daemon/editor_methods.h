// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "core/model/resolve.h"
#include "protocol/protocol.h"

#include <string>
#include <string_view>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::RpcError;
using protocol::RpcResult;

// The methods that serve the designer's editors: template.render, expression.evaluate and
// data.resolve. Each reads a manifest's text and never changes anything on the host.

/// Checks the params of an editor method beyond `manifest`, `base_dir` and `facts`, before any
/// work is done: invalid_params naming the param that is wrong.
RpcResult<void> checkEditorParams(std::string_view method, const Json &params);

/// Serves an editor method whose params passed checkEditorParams(): the result object. `manifest`
/// is the manifest's text; `inputs` holds the facts, environment and base directory it resolves
/// against. Problems in the manifest or the template are diagnostics of the result, not errors.
Json runEditorMethod(
    std::string_view method, const Json &params, std::string_view manifest, const ResolveOptions &inputs);

} // namespace ccm::daemon
