// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "protocol/protocol.h"

#include <string_view>

namespace ccm::daemon {

// How the errors of the fleet library (NATS, the object store, preview signing keys) and of local
// files reach a client of the fleet and bundle methods. Each mapping takes the producing module's
// typed codes one by one: a switch without default, so that a new code must be placed.

/// The JSON-RPC error code of a failed fleet operation: NATS's codes one by one, a local file that
/// is missing as NotFound, anything else as TransferFailed.
protocol::ErrorCode fleetErrorCode(const Error &error);

/// A failed fleet operation as the client sees it: fleetErrorCode(), the fleet library's message
/// (which already says what to check) and data.cause, the error's own code.
protocol::RpcError fleetError(const Error &error);

/// A bucket that could not be opened or created: a name the store does not take is the
/// invalid_params of params.bucket, anything else fleetError().
protocol::RpcError bucketError(const Error &error);

/// A signing key that could not be made, read or written, as an error on the param `param` that
/// named its file: a key file that exists as the invalid_params of params.overwrite, OpenSSL
/// failing as internal_error, anything else as the invalid_params of `param`.
protocol::RpcError keyError(std::string_view param, const Error &error);

} // namespace ccm::daemon
