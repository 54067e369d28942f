// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/bundle/bundle.h"
#include "core/model/json.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/nats/nats_context.h"
#include "protocol/protocol.h"

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

namespace ccm::daemon {

/// The bundle and fleet methods: bundle.list, bundle.export, bundle.publish, bundle.open,
/// fleet.status, fleet.preview, fleet.keygen and fleet.keyinfo. They
/// read and write files and reach NATS servers with the daemon's own identity and NATS contexts,
/// which is why the dispatcher serves them only to a peer of the daemon's own uid.

/// Sends one notification line to the caller while a method runs; may be called on any thread.
using Notify = std::function<void(std::string line)>;

/// Runs a fleet method with `params` (checked here): its result, or an error saying what is wrong
/// and what to do. Blocks on files and the network: call it off the I/O thread. Never throws for
/// any input. Setting `cancel` (from any thread) ends a fleet.preview early: its client has gone.
protocol::RpcResult<Json> runFleetMethod(
    std::string_view method, const Json &params, const Notify &notify, const std::atomic<bool> &cancel);

class Params;

/// What bundle.list, bundle.export and fleet.preview bundle: the plan of params.manifest (with
/// base_dir, name and include), checked.
protocol::RpcResult<BundlePlan> bundlePlanOfParams(const Params &params);
/// A plan's findings as the bundle methods answer them.
Json bundleFindingsJson(const std::vector<BundleFinding> &findings);
/// The NATS settings of params.context or params.nats (the default context when neither).
protocol::RpcResult<fleet::NatsSettings> natsSettingsOfParams(const Params &params);
/// The optional `replicas` param of the methods that create buckets: 1 to 5; unset, the count is
/// chosen from the server. The notes about it go to the log.
protocol::RpcResult<fleet::BucketReplicas> fleetBucketReplicas(const Params &params);

} // namespace ccm::daemon
