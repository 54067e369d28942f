// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/bucket_replicas.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::fleet {

class NatsConnection;

/// The meta record of an object, as every NATS client writes it.
struct ObjectInfo {
    std::string bucket;
    std::string name;
    std::string nuid; ///< names the subject of the object's chunks
    std::uint64_t size = 0;
    std::uint32_t chunks = 0;
    std::string digest; ///< "SHA-256=" and the base64url SHA-256 of the contents
    std::string mtime;
    bool deleted = false;
};

/// Reads the meta record `json` of the object `name` in `bucket`. This is the one place a record
/// becomes an ObjectInfo, so every later use of its nuid in a subject (reading, replacing,
/// removing) sees only checked values. Refused with code "bad_meta" and a message naming the
/// object and the field: text that is not a JSON object; a `name` other than `name`; a `bucket`
/// other than `bucket` (or not a valid bucket name); a `nuid` that is not a plain subject token
/// (empty, or holding '.', '*', '>', whitespace or control characters), which could otherwise
/// turn a purge of one object's chunks into a purge of the whole bucket; `size` or `chunks` that
/// are not unsigned numbers in range; a link to another object.
Result<ObjectInfo> parseObjectMeta(std::string_view json, std::string_view bucket, std::string_view name);

/// Chunks that no meta record refers to, as a publish killed before its meta record leaves them.
struct OrphanReport {
    std::uint64_t objects = 0; ///< chunk subjects, one per abandoned put
    std::uint64_t chunks = 0;
    std::uint64_t bytes = 0; ///< the chunks' contents
};

/// What put() did besides storing the object, for the caller to report.
struct PutReport {
    /// The name's previous meta record was refused (see parseObjectMeta) and replaced; no chunk was
    /// purged on its word.
    std::optional<Error> refusedRecord;
    /// Orphaned chunks removed after the object was stored.
    OrphanReport orphans;
    /// Why removing orphaned chunks failed; the object itself was stored.
    std::optional<Error> orphanCleanup;
};

/// A NATS JetStream object store bucket (ADR-20): stream OBJ_<bucket>, chunks on
/// $O.<bucket>.C.<nuid>, one meta record per object on $O.<bucket>.M.<base64url(name)>. Objects
/// written here are readable by the official clients and the other way round. The connection must
/// outlive the store.
class ObjectStore {
public:
    /// The chunk size official clients use; a server with a smaller max_payload gets smaller ones.
    static constexpr std::size_t kChunkSize = 128 * 1024;
    /// How long chunks no meta record refers to must have been left alone before they count as
    /// orphaned: a put writes its chunks back to back, each waiting at most a few seconds for the
    /// server, so a put still running elsewhere is never taken for a dead one, even with clocks
    /// some minutes apart.
    static constexpr std::chrono::seconds kOrphanAge {15 * 60};

    /// Binds to an existing bucket. Error codes: "bad_name" (not [A-Za-z0-9_-]+),
    /// "bucket_not_found", "no_jetstream", "nats".
    static Result<ObjectStore> open(NatsConnection &connection, const std::string &bucket);
    /// Binds to a bucket, creating it when missing with the stream settings official clients use.
    /// A `ttl` makes the server remove every object (chunks and meta record) that long after it was
    /// written, as the official clients' TTL option does; an existing bucket with no TTL or a longer
    /// one is given it when these credentials may update its stream (and used as it is otherwise).
    /// A new bucket gets the replicas `replicas` asks for or chooses; an existing one with fewer is
    /// used with a warning through `replicas.note`.
    static Result<ObjectStore> openOrCreate(NatsConnection &connection, const std::string &bucket,
        std::chrono::seconds ttl = std::chrono::seconds(0), const BucketReplicas &replicas = {});

    const std::string &bucket() const { return m_bucket; }

    /// Stores `data` under `name`, replacing an object of that name (whose chunks are purged once
    /// the new meta record is stored). A previous record that parseObjectMeta() refuses is replaced
    /// without purging anything on its word, and noted in `report`. Chunks of a failed put are
    /// purged. Once stored, orphaned chunks of the bucket are removed as pruneOrphans() does, with
    /// the age setOrphanAge() gave (kOrphanAge unless set), so the chunks of an earlier put of this
    /// name that was killed go at the next one; a failure there is noted in `report` and does not
    /// fail the put. `progress`, when set, is called with the bytes stored so far after each chunk.
    Result<ObjectInfo> put(const std::string &name, std::istream &data,
        const std::function<void(std::uint64_t)> &progress = {}, PutReport *report = nullptr);
    /// The meta record of `name`. Error code "object_not_found" when there is none or it is deleted.
    Result<ObjectInfo> info(const std::string &name);
    /// Writes the contents of `name` to `out`, checking the chunk count, size and digest. Error
    /// codes: "object_not_found", "digest_mismatch", "size_mismatch", "bad_meta", "nats".
    /// On error, `out` may hold part of the contents.
    Result<ObjectInfo> get(const std::string &name, std::ostream &out);
    /// get() into the file `destination`. The contents go to `destination` + ".part", created with
    /// O_EXCL and mode 0600 from the start (so no other user can open it while it fills, and a
    /// file or link someone placed there is never written through), synced and renamed over
    /// `destination` once verified, so the file appears whole or not at all. On any later failure
    /// the ".part" file is removed. Error code "exists" when the ".part" file is already there
    /// (it is left as it is).
    Result<ObjectInfo> getToFile(const std::string &name, const std::filesystem::path &destination);
    /// Removes `name`: its chunks and its meta record are purged. Error code "object_not_found".
    Result<void> remove(const std::string &name);
    /// Removes every orphaned chunk of the bucket and says how much went. Orphaned are the chunks
    /// on a subject $O.<bucket>.C.<nuid> (nuid a plain token) that no meta record refers to (records
    /// marked deleted refer to nothing; a record parseObjectMeta() refuses still keeps the chunks
    /// it names) and to which nothing was written for `minAge`, by the server's timestamps against
    /// this host's clock. Each subject is purged by its exact name. A `minAge` of 0 also takes the
    /// chunks of a put running right now.
    Result<OrphanReport> pruneOrphans(std::chrono::seconds minAge);

    /// The age put() gives pruneOrphans(); kOrphanAge unless set.
    void setOrphanAge(std::chrono::seconds age) { m_orphanAge = age; }

private:
    ObjectStore(NatsConnection &connection, std::string bucket);

    Result<void> purgeSubject(const std::string &subject);
    /// Reads `name`'s contents into `sink`, which returns false when it cannot take them.
    Result<ObjectInfo> read(const std::string &name, const std::function<bool(const char *, std::size_t)> &sink);

    NatsConnection *m_connection;
    std::string m_bucket;
    std::string m_stream;
    std::chrono::seconds m_orphanAge = kOrphanAge;
};

/// The "SHA-256=..." digest of `data` as official clients write it.
std::string objectDigest(std::string_view data);

} // namespace ccm::fleet
