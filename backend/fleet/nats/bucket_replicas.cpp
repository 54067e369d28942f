// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/bucket_replicas.h"

#include "fleet/nats/election_retry.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <array>
#include <charconv>
#include <chrono>
#include <nats/nats.h>

namespace ccm::fleet {
namespace {

/// Replicas a cluster of this many servers gets by default.
constexpr int kClusterReplicas = 3;

std::string replicaWord(int count)
{
    return std::to_string(count) + (count == 1 ? " replica" : " replicas");
}

void notify(const BucketReplicas &replicas, const std::string &text, bool warning)
{
    if (replicas.note)
        replicas.note(text, warning);
}

/// Warns when `existing` (the replicas of the stream of `bucket`) is fewer than asked or chosen.
void warnIfFewer(
    const NatsConnection &connection, const std::string &bucket, int existing, const BucketReplicas &replicas)
{
    // Without an ask, a bucket of 3 or more replicas is as many as the default ever gives.
    if (replicas.asked ? existing >= *replicas.asked : existing >= kClusterReplicas)
        return;
    const ReplicaChoice choice = chooseReplicas(connection, replicas);
    if (existing >= choice.replicas)
        return;
    const std::string wanted = replicas.asked
        ? "the " + std::to_string(choice.replicas) + " asked for"
        : "the " + std::to_string(choice.replicas) + " chosen because " + choice.reason;
    notify(replicas,
        "bucket '" + bucket + "' has " + replicaWord(existing) + ", fewer than " + wanted
            + "; it is used as it is: recreate it or edit its stream to change that",
        true);
}

} // namespace

Result<int> parseReplicaCount(std::string_view text, const std::string &where)
{
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < BucketReplicas::kMin
        || value > BucketReplicas::kMax)
        return Error {"usage",
            where + " must be a whole number from " + std::to_string(BucketReplicas::kMin) + " to "
                + std::to_string(BucketReplicas::kMax) + ", not '" + std::string(text.substr(0, 32)) + "'"};
    return value;
}

ReplicaChoice chooseReplicas(const NatsConnection &connection, const BucketReplicas &replicas)
{
    if (replicas.asked)
        return ReplicaChoice {*replicas.asked, "as " + replicas.setting + " asks"};
    const int servers = connection.clusterSize();
    if (servers >= kClusterReplicas)
        return ReplicaChoice {
            kClusterReplicas, "the server reports a cluster of " + std::to_string(servers) + " servers"};
    return ReplicaChoice {
        1, "the server is not in a cluster of three or more; give " + replicas.setting + " to choose"};
}

std::string creatingBucketNote(const std::string &bucket, const ReplicaChoice &choice)
{
    // "with 3 replicas, as --replicas asks" but "with 3 replicas: the server reports ...".
    const bool asked = choice.reason.starts_with("as ");
    return "creating bucket '" + bucket + "' with " + replicaWord(choice.replicas) + (asked ? ", " : ": ")
        + choice.reason;
}

int replicasForNewBucket(const NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas)
{
    const ReplicaChoice choice = chooseReplicas(connection, replicas);
    notify(replicas, creatingBucketNote(bucket, choice), false);
    return choice.replicas;
}

void checkExistingReplicas(
    NatsConnection &connection, const std::string &bucket, const std::string &stream, const BucketReplicas &replicas)
{
    jsStreamInfo *raw = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_GetStreamInfo(&raw, connection.jetStream(), stream.c_str(), nullptr, &errorCode);
    const StreamInfoPtr info(raw);
    if (status != NATS_OK || info == nullptr || info->Config == nullptr)
        return;
    warnIfFewer(connection, bucket, std::max(1, static_cast<int>(info->Config->Replicas)), replicas);
}

Error bucketLookupError(const NatsConnection &connection, const std::string &bucket, int status, int jsErrorCode)
{
    if (status != NATS_TIMEOUT)
        return jetStreamError(connection, "looking up bucket '" + bucket + "'", status, jsErrorCode);
    return makeError(NatsErrc::Nats,
        "looking up bucket '" + bucket + "' on " + connection.url() + ": no answer within "
            + std::to_string(connection.waitMs())
            + " ms: the servers holding the bucket's stream do not answer (with 1 replica, the bucket is"
              " unavailable while its server is down; give buckets 3 replicas on a cluster with --replicas 3)");
}

Error creatingBucketError(
    const NatsConnection &connection, const std::string &bucket, int replicas, int status, int jsErrorCode)
{
    Error error = jetStreamError(connection, "creating bucket '" + bucket + "'", status, jsErrorCode);
    if (replicas > 1 && (jsErrorCode == JSStreamReplicasNotSupportedErr || jsErrorCode == JSInsufficientResourcesErr))
        error.message += "; " + std::to_string(replicas)
            + " replicas need a JetStream cluster of at least as many servers: ask for 1 replica on a single server";
    return error;
}

Result<bool> ensureKvStream(NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas)
{
    const std::string stream = "KV_" + bucket;
    jsStreamInfo *rawInfo = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = retryDuringElection([&] {
        jsStreamInfo_Destroy(rawInfo);
        rawInfo = nullptr;
        errorCode = static_cast<jsErrCode>(0);
        return js_GetStreamInfo(&rawInfo, connection.jetStream(), stream.c_str(), nullptr, &errorCode);
    });
    const StreamInfoPtr existing(rawInfo);
    if (status == NATS_OK && existing != nullptr && existing->Config != nullptr) {
        warnIfFewer(connection, bucket, std::max(1, static_cast<int>(existing->Config->Replicas)), replicas);
        return false;
    }
    if (status != NATS_NOT_FOUND && errorCode != JSStreamNotFoundErr)
        return bucketLookupError(connection, bucket, status, errorCode);

    const std::string subjects = "$KV." + bucket + ".>";
    std::array<const char *, 1> subjectList {subjects.c_str()};
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    config.Name = stream.c_str();
    config.Subjects = subjectList.data();
    config.SubjectsLen = 1;
    config.Storage = js_FileStorage;
    const int count = replicasForNewBucket(connection, bucket, replicas);
    config.Replicas = count;
    config.MaxMsgsPerSubject = 1;
    config.MaxBytes = -1;
    config.MaxMsgSize = -1;
    config.Discard = js_DiscardNew;
    config.AllowRollup = true;
    config.DenyDelete = true;
    config.AllowDirect = true;
    config.Duplicates = static_cast<int64_t>(120) * 1000 * 1000 * 1000;
    jsStreamInfo *created = nullptr;
    errorCode = static_cast<jsErrCode>(0);
    const natsStatus added = js_AddStream(&created, connection.jetStream(), &config, nullptr, &errorCode);
    jsStreamInfo_Destroy(created);
    if (added != NATS_OK && errorCode != JSStreamNameExistErr)
        return creatingBucketError(connection, bucket, count, added, errorCode);
    return added == NATS_OK;
}

} // namespace ccm::fleet
