// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/rollout/rollout_runner.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace ccm::fleet {

class NatsConnection;

/// A bundle kept by its digest in the release history.
struct KeptRelease {
    std::string digest; ///< the object store's SHA-256= form
    std::uint64_t size = 0;
};

/// RolloutPublisher over the release history of one bucket (fleet/release): every publish is a
/// recorded release, and every release is kept by its digest, so rings can be put back.
class ReleasePublisher : public RolloutPublisher {
public:
    /// Binds to the release history of `bucket`, creating its buckets (with `replicas`) when missing.
    static Result<std::unique_ptr<ReleasePublisher>> open(
        NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas = {});
    ~ReleasePublisher() override;

    /// Keeps the bundle file by its digest, ready to be published to rings; the releases it makes
    /// record `signer` (the signing key's fingerprint).
    virtual Result<KeptRelease> keep(const std::filesystem::path &bundle, const std::string &signer) = 0;
};

} // namespace ccm::fleet
