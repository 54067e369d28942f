// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/object_store.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

class NatsConnection;

/// The key-value bucket that records every release of every object store bucket.
inline constexpr std::string_view kReleasesBucket = "CCM_RELEASES";
/// Where a released bundle is kept in its own object store bucket: `.releases/<digest>`, a name no
/// agent watches. Stored once per digest, whichever names it was released as.
inline constexpr std::string_view kReleaseArchivePrefix = ".releases/";
/// The largest release recorded or restored (agents take bundles of up to 256 MiB).
inline constexpr std::uint64_t kMaxReleaseBytes = 1ULL << 30;

/// One release: a bundle published as the object `name` of `bucket`. Stored as one JSON object
/// under the key `<bucket>.<base64url(name)>.<id>` of CCM_RELEASES (docs/fleet.md, Releases and
/// rollback).
struct Release {
    std::string name; ///< the object agents watch
    std::string bucket;
    std::string digest; ///< the object store's "SHA-256=<base64url>" form
    std::uint64_t size = 0;
    std::chrono::system_clock::time_point time;
    std::string publisher; ///< user@host
    std::string signer; ///< the signing key's fingerprint; empty when unsigned
    std::string message;
    std::string key; ///< of the key-value entry (not stored in the record)
    std::uint64_t revision = 0; ///< of the key-value entry, which orders releases (not stored)

    /// Where its bundle is kept: releaseArchiveName(digest).
    [[nodiscard]] std::string archive() const;
};

/// `.releases/<digest>`.
std::string releaseArchiveName(std::string_view digest);
/// True for exactly the digest form the object store writes: "SHA-256=" and 44 base64url
/// characters of a 32-byte digest.
bool isObjectDigest(std::string_view digest);
/// Whether `message` may be recorded: at most 64 KiB, no control characters (one line).
bool isReleaseMessage(std::string_view message);
/// The record as stored, and as `releases --json` prints it (name, bucket, digest, size, time,
/// publisher, signer (null when unsigned), message; plus archive when `withArchive`).
Json releaseToJson(const Release &release, bool withArchive = true);
/// Reads the record stored under `key` strictly: the key's form, every field present, of the right
/// kind and bounded, no other field, the name and bucket those of the key, the digest one the
/// object store writes, the archive the digest's. Error code "bad_release" naming the key and field.
Result<Release> parseRelease(std::string_view key, std::string_view text);

/// Who publishes, with which signature and why.
struct ReleaseDetails {
    std::string publisher; ///< user@host
    std::string signer; ///< fingerprint, empty when unsigned
    std::string message;
};

/// A record of CCM_RELEASES that could not be read, and why.
struct SkippedRelease {
    std::string key;
    Error error;
};

/// The releases found, newest first (by the revision that wrote them), and the records skipped.
struct ReleaseList {
    std::vector<Release> releases;
    std::vector<SkippedRelease> skipped;
};

/// What a publish did.
struct PublishedRelease {
    ObjectInfo object; ///< the object as stored
    Release release; ///< its record
    PutReport report; ///< of the object's put
};

/// What a prune removed.
struct PruneReleasesReport {
    std::uint64_t records = 0;
    std::uint64_t archives = 0;
    std::uint64_t bytes = 0; ///< of the archives
};

/// The release history of one object store bucket: records in the key-value bucket CCM_RELEASES
/// and an immutable copy of every released bundle in the object store itself, so any release can
/// be put back. Everything read from either is checked before use: anyone who may write the
/// buckets can store anything there. The connection must outlive the store.
class ReleaseStore {
public:
    /// Binds to the object store `bucket` and to CCM_RELEASES, creating them when `create`
    /// (CCM_RELEASES: file storage, history 1, since each release has its own key) with the
    /// replicas `replicas` asks for or chooses.
    static Result<ReleaseStore> open(
        NatsConnection &connection, const std::string &bucket, bool create, const BucketReplicas &replicas = {});

    [[nodiscard]] const std::string &bucket() const { return m_objects.bucket(); }
    ObjectStore &objects() { return m_objects; }

    /// Keeps the bundle `file` as `.releases/<digest>` unless a copy of that digest is there, and
    /// returns its meta record. The digest is computed here first; a copy whose stored digest
    /// differs (the file changed meanwhile) is an error. `report`, when given, tells what the
    /// put did besides (orphaned chunks it removed).
    Result<ObjectInfo> keep(const std::filesystem::path &file, PutReport *report = nullptr);
    /// Keeps the object `name` holds now (see keep()) and returns its digest; empty when there is
    /// no such object.
    Result<std::string> snapshot(const std::string &name);
    /// Publishes `file` as the object `name`: keeps it, puts it, and records the release. The
    /// report holds what both puts did besides.
    Result<PublishedRelease> publish(
        const std::string &name, const std::filesystem::path &file, const ReleaseDetails &details);
    /// Writes the kept bundle of `digest` to `destination` (see ObjectStore::getToFile), refused
    /// unless its contents have exactly that digest and at most kMaxReleaseBytes.
    Result<ObjectInfo> restore(const std::string &digest, const std::filesystem::path &destination);
    /// Publishes the kept bundle `digest` as `name` (restore() into a private directory, then
    /// publish()), recording it with `details`.
    Result<PublishedRelease> publishKept(
        const std::string &name, const std::string &digest, const ReleaseDetails &details);

    /// Writes the record of `release` under a new key; fills its key and revision.
    Result<void> record(Release &release);
    /// The releases of `name` (every name of the bucket when empty), newest first.
    Result<ReleaseList> list(const std::string &name = {});
    /// The newest release of `name` with `digest`; nullopt when there is none.
    Result<std::optional<Release>> find(const std::string &name, const std::string &digest);
    /// Keeps the newest `keep` releases of `name` (of each name when empty), removes older records,
    /// and removes the kept bundles of removed releases that no remaining release of the bucket,
    /// no current object of a released name and no rollout of the bucket (CCM_ROLLOUTS) refers to.
    Result<PruneReleasesReport> prune(std::size_t keep, const std::string &name, std::vector<SkippedRelease> *skipped);

private:
    ReleaseStore(NatsConnection &connection, ObjectStore objects, KvBucket records);

    NatsConnection *m_connection;
    ObjectStore m_objects;
    KvBucket m_records;
};

} // namespace ccm::fleet
