// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "daemon/fleet_methods.h"
#include "fleet/release/release_store.h"

#include <atomic>
#include <string_view>

namespace ccm::daemon {

/// Whether `method` is one of the release and rollout methods: fleet.releases, fleet.rollback,
/// fleet.rollouts, fleet.rollout and fleet.rollout.control (docs/protocol.md).
bool isReleaseMethod(std::string_view method);

/// A release as fleet.releases, fleet.rollback and bundle.publish answer it: its record, with
/// signer "" when unsigned and the obj:// `location` of its kept copy.
Json releaseResultJson(const fleet::Release &release);

/// Runs a release or rollout method as runFleetMethod() runs the others: params checked here,
/// errors that say what to do, progress as notifications (fleet.rollout.progress). Setting `cancel`
/// stops following a rollout; it stays recorded and resumable.
protocol::RpcResult<Json> runReleaseMethod(
    std::string_view method, const Json &params, const Notify &notify, const std::atomic<bool> &cancel);

} // namespace ccm::daemon
