// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
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

/// A NATS JetStream object store bucket (ADR-20): stream OBJ_<bucket>, chunks on
/// $O.<bucket>.C.<nuid>, one meta record per object on $O.<bucket>.M.<base64url(name)>. Objects
/// written here are readable by the official clients and the other way round. The connection must
/// outlive the store.
class ObjectStore {
public:
    /// The chunk size official clients use; a server with a smaller max_payload gets smaller ones.
    static constexpr std::size_t kChunkSize = 128 * 1024;

    /// Binds to an existing bucket. Error codes: "bad_name" (not [A-Za-z0-9_-]+),
    /// "bucket_not_found", "no_jetstream", "nats".
    static Result<ObjectStore> open(NatsConnection &connection, const std::string &bucket);
    /// Binds to a bucket, creating it when missing with the stream settings official clients use.
    static Result<ObjectStore> openOrCreate(NatsConnection &connection, const std::string &bucket);

    const std::string &bucket() const { return m_bucket; }

    /// Stores `data` under `name`, replacing an object of that name (whose chunks are purged once
    /// the new meta record is stored; an unreadable record is replaced too). Chunks of a failed put
    /// are purged. `progress`, when set, is called with the bytes stored so far after each chunk.
    Result<ObjectInfo> put(
        const std::string &name, std::istream &data, const std::function<void(std::uint64_t)> &progress = {});
    /// The meta record of `name`. Error code "object_not_found" when there is none or it is deleted.
    Result<ObjectInfo> info(const std::string &name);
    /// Writes the contents of `name` to `out`, checking the chunk count, size and digest. Error
    /// codes: "object_not_found", "digest_mismatch", "size_mismatch", "bad_meta", "nats".
    /// On error, `out` may hold part of the contents.
    Result<ObjectInfo> get(const std::string &name, std::ostream &out);
    /// get() into the file `destination`, written beside it first and renamed once verified, so the
    /// file appears whole or not at all.
    Result<ObjectInfo> getToFile(const std::string &name, const std::filesystem::path &destination);
    /// Removes `name`: its chunks and its meta record are purged. Error code "object_not_found".
    Result<void> remove(const std::string &name);

private:
    ObjectStore(NatsConnection &connection, std::string bucket);

    Result<void> purgeSubject(const std::string &subject);

    NatsConnection *m_connection;
    std::string m_bucket;
    std::string m_stream;
};

/// base64url with padding, the encoding of object names in meta subjects and of digests.
std::string base64UrlEncode(std::string_view data);

/// The "SHA-256=..." digest of `data` as official clients write it.
std::string objectDigest(std::string_view data);

} // namespace ccm::fleet
