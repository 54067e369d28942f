// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "daemon/peer.h"
#include "engine/capture/host_capture.h"
#include "protocol/protocol.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace ccm::daemon {

// host.inventory and host.capture (docs/protocol.md): what this host has that a capture can
// write down, and the capture itself as a manifest, for the designer's Add ▸ From This Machine.
// For a peer other than root and the backend's own user (a system backend) everything is read
// with the peer's rights: its commands run with the peer's credentials, its directories are
// listed and its files read with the peer's file system identity, so a peer never learns what it
// could not read itself.

/// The most entries one host.inventory of kind files lists; `max` may ask for fewer.
inline constexpr std::size_t kMaxInventoryEntries = 10'000;
/// The most patterns or paths each list of a host.capture may hold.
inline constexpr std::size_t kMaxCaptureSelection = 256;
/// The most bytes of one file a host.capture takes; a larger file is skipped as oversize.
inline constexpr std::size_t kMaxCaptureFileBytes = 4 * 1024 * 1024;
/// The most bytes of content one host.capture takes: its answer, with the content in base64,
/// must fit in a line of the protocol.
inline constexpr std::size_t kMaxCaptureTotalBytes = 8 * 1024 * 1024;

/// Checks host.inventory's params before any work: `kind` one of packages, services and files;
/// `path` (absolute) with kind files only and required there; `max` an integer from 1 to
/// kMaxInventoryEntries with kind files only; no other member. invalid_params naming the member.
protocol::RpcResult<void> checkInventoryParams(const Json &params);

/// Serves host.inventory for `peer`, whose role `role` an unauthorized error names. With
/// `someoneElse`, package and service queries run with the peer's credentials and a directory is
/// listed with its file system identity. An engine error is answered with its message and its
/// code in data.cause.
protocol::RpcResult<Json> hostInventoryResult(const Peer &peer, Role role, bool someoneElse, const Json &params);

/// The members of a capture's selection, as host.capture takes them and fleet.capture too.
inline constexpr std::string_view kCaptureSelectionMembers[]
    = {"packages", "services", "files", "excludes", "data", "pin", "include_private"};

/// Reads the selection members of `params` into a request: lists of at most kMaxCaptureSelection
/// non-empty strings without NUL, `files` absolute paths, the flags booleans, and at least one
/// of packages, services and files. Other members are not looked at. `command` gets the selection
/// as `ccm-backend capture` options, for the header comment.
protocol::RpcResult<engine::CaptureRequest> captureSelection(const Json &params);

/// Checks host.capture's params: captureSelection() and no other member.
protocol::RpcResult<void> checkCaptureParams(const Json &params);

/// Serves host.capture for `peer`: captureToJson() of the capture and its manifest as "yaml".
/// With `someoneElse` the files are read as the peer (CaptureRequest::reader) and the package and
/// service queries run with its credentials. The limits are the engine's but for the content,
/// which kMaxCaptureFileBytes and kMaxCaptureTotalBytes bound.
protocol::RpcResult<Json> hostCaptureResult(const Peer &peer, Role role, bool someoneElse, const Json &params);

} // namespace ccm::daemon
