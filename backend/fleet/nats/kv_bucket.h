// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/nats/nats_handles.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ccm::fleet {

class NatsConnection;

/// A value with the revision (the stream sequence) that wrote it.
struct KvEntry {
    std::string value;
    std::uint64_t revision = 0;
};

/// One NATS JetStream key-value bucket, for reading it whole (fleet status) and for writing a
/// value. The connection must outlive the bucket.
class KvBucket {
public:
    /// Binds to an existing bucket. Error codes "bucket_not_found", "no_jetstream", "nats".
    static Result<KvBucket> open(NatsConnection &connection, const std::string &bucket);
    /// Binds to a bucket, creating it when missing (history 1, file storage, as the agent does)
    /// with the replicas `replicas` asks for or chooses (ensureKvStream()); an existing bucket with
    /// fewer replicas is used with a warning through `replicas.note`.
    static Result<KvBucket> openOrCreate(
        NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas = {});

    KvBucket(KvBucket &&) noexcept = default;
    KvBucket &operator=(KvBucket &&) noexcept = default;
    ~KvBucket();

    const std::string &name() const { return m_bucket; }
    /// Every key that holds a value (deleted and purged keys are left out), unsorted.
    Result<std::vector<std::string>> keys();
    /// Every key that holds a value with its value, in one pass over the bucket (a watch of its
    /// latest values) rather than a request per key: what reading a whole bucket costs.
    Result<std::vector<std::pair<std::string, std::string>>> entries();
    /// The value of `key` as stored; nullopt when the key holds none.
    Result<std::optional<std::string>> get(const std::string &key);
    /// Stores `value` under `key`.
    Result<void> put(const std::string &key, const std::string &value);
    /// Deletes the value of `key` (a delete marker; keys() leaves it out).
    Result<void> remove(const std::string &key);
    /// The value of `key` with its revision; nullopt when the key holds none.
    Result<std::optional<KvEntry>> entry(const std::string &key);
    /// Stores `value` under `key` only when the key's latest revision is `revision` (0: only when
    /// the key holds no value), so that two writers cannot both think they own it. Returns the new
    /// revision; error code "changed" when another writer came first.
    Result<std::uint64_t> update(const std::string &key, const std::string &value, std::uint64_t revision);

private:
    KvBucket(NatsConnection &connection, std::string bucket, kvStore *store);

    NatsConnection *m_connection;
    std::string m_bucket;
    KvStorePtr m_store;
};

} // namespace ccm::fleet
