// SPDX-License-Identifier: Apache-2.0
// The replica count of the JetStream buckets the product creates (the bundle object stores,
// CCM_STATUS, CCM_PREVIEW, CCM_RELEASES, CCM_ROLLOUTS): asked for (`--replicas N`, the agent's
// `replicas:`) or chosen from what the server reports, and what is said about it.
#pragma once

#include "base/result.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::fleet {

class NatsConnection;

/// How many replicas a bucket that has to be created gets, and where the notes about it go.
struct BucketReplicas {
    static constexpr int kMin = 1;
    static constexpr int kMax = 5;
    /// The number asked for, 1 to 5; unset: 3 when the server reports a cluster of three or more
    /// servers, else 1.
    std::optional<int> asked;
    /// The setting that asks, named in the notes ("--replicas", "replicas:").
    std::string setting = "--replicas";
    /// Gets the notes, one line each without a newline: why a bucket is created with the replicas
    /// it gets (`warning` false), and that an existing bucket has fewer replicas than asked or
    /// chosen (`warning` true). Unset: the notes go nowhere.
    std::function<void(const std::string &text, bool warning)> note;
};

/// The replica count for a new bucket with the reason for it.
struct ReplicaChoice {
    int replicas = 1;
    std::string reason; ///< "the server reports a cluster of 3 servers", "as --replicas asks"
};

/// Reads a replica count given as text (`--replicas 3`); `where` names the setting in the error
/// (code "usage"): not a whole number from 1 to 5.
Result<int> parseReplicaCount(std::string_view text, const std::string &where);

/// The replicas to create a bucket with: those asked for, or the default from
/// NatsConnection::clusterSize().
ReplicaChoice chooseReplicas(const NatsConnection &connection, const BucketReplicas &replicas);

/// "creating bucket 'CCM' with 3 replicas: the server reports a cluster of 3 servers".
std::string creatingBucketNote(const std::string &bucket, const ReplicaChoice &choice);

/// Notes the choice for `bucket`, to be created now, and returns its replica count.
int replicasForNewBucket(const NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas);

/// After binding to the existing `bucket` (stream `stream`): reads the stream's replica count and
/// warns through `replicas.note` when it has fewer than asked or chosen. The bucket is used as it
/// is; failing to read the stream's configuration says nothing (binding to it worked).
void checkExistingReplicas(
    NatsConnection &connection, const std::string &bucket, const std::string &stream, const BucketReplicas &replicas);

/// The error for a failed JetStream lookup of `bucket`: a timeout says what is likely (the
/// servers holding the bucket's stream do not answer); anything else is jetStreamError()'s.
Error bucketLookupError(const NatsConnection &connection, const std::string &bucket, int status, int jsErrorCode);

/// The error for a failed creation of `bucket` with `replicas` replicas: when the server cannot
/// place that many (not in a cluster, or a cluster too small), the server's text and what to do.
Error creatingBucketError(
    const NatsConnection &connection, const std::string &bucket, int replicas, int status, int jsErrorCode);

/// Creates the stream KV_<bucket> of a key-value bucket when it is missing, with the settings the
/// official clients use (history 1, file storage, rollups, direct gets, a 2-minute duplicate
/// window) and `replicas` replicas. The one place key-value streams are created: the agent's
/// reports and KvBucket::openOrCreate() both come here. Another client creating it meanwhile is
/// as good. Returns true when this call created it.
Result<bool> ensureKvStream(NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas);

} // namespace ccm::fleet
