// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/object_store.h"

#include "base/base64.h"
#include "base/sha256.h"
#include "fleet/nats/election_retry.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/partial_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <istream>
#include <limits>
#include <memory>
#include <nats/nats.h>
#include <openssl/rand.h>
#include <optional>
#include <ostream>
#include <set>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ccm::fleet {
namespace {

constexpr std::string_view kDigestPrefix = "SHA-256=";
/// A NUID-shaped identifier: 22 characters of base62, random enough to never repeat a subject.
std::string newNuid()
{
    constexpr std::string_view kDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::array<unsigned char, 22> random {};
    if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1)
        throw std::bad_alloc();
    std::string nuid;
    for (const unsigned char byte : random)
        nuid += kDigits[byte % kDigits.size()];
    return nuid;
}

std::string nowRfc3339()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    std::array<char, 40> text {};
    const std::size_t length = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%S", &utc);
    std::array<char, 16> fraction {};
    std::snprintf(fraction.data(), fraction.size(), ".%06lldZ", static_cast<long long>(micros));
    return std::string(text.data(), length) + fraction.data();
}

bool validBucketName(std::string_view bucket)
{
    return !bucket.empty() && std::all_of(bucket.begin(), bucket.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

/// A token of a NATS subject that matches only itself: what a nuid must be to name one object's
/// chunks, as ADR-20 and the subject rules have it.
bool isPlainSubjectToken(std::string_view token)
{
    return !token.empty() && std::none_of(token.begin(), token.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return c == '.' || c == '*' || c == '>' || byte <= 0x20 || byte == 0x7f;
    });
}

/// A value from a record, quoted and escaped for a message: records may come from anyone, so what
/// they hold must not reach a terminal raw.
std::string shown(const std::string &value)
{
    constexpr std::size_t kLongest = 80;
    const std::string quoted = nlohmann::json(value).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    return quoted.size() <= kLongest ? quoted : quoted.substr(0, kLongest) + "...";
}

/// The nuid a record names for its chunks, read without judging anything else: when deciding what
/// may be deleted, a record that is refused still keeps the chunks it names. Empty for a record
/// marked deleted, whose chunks are meant to go.
std::string referencedNuid(std::string_view text)
{
    const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
    if (!document.is_object())
        return {};
    if (const auto deleted = document.find("deleted"); deleted != document.end() && *deleted == true)
        return {};
    const auto nuid = document.find("nuid");
    return nuid != document.end() && nuid->is_string() ? nuid->get<std::string>() : std::string();
}

std::string metaJson(const ObjectInfo &info, std::size_t chunkSize)
{
    nlohmann::ordered_json meta;
    meta["name"] = info.name;
    meta["options"] = {{"max_chunk_size", chunkSize}};
    meta["bucket"] = info.bucket;
    meta["nuid"] = info.nuid;
    meta["size"] = info.size;
    meta["mtime"] = info.mtime;
    meta["chunks"] = info.chunks;
    meta["digest"] = info.digest;
    return meta.dump();
}

} // namespace

std::string objectDigest(std::string_view data)
{
    return std::string(kDigestPrefix) + encodeBase64Url(digestBytes(sha256(data)));
}

ObjectStore::ObjectStore(NatsConnection &connection, std::string bucket)
    : m_connection(&connection)
    , m_bucket(std::move(bucket))
    , m_stream("OBJ_" + m_bucket)
{
}

Result<ObjectStore> ObjectStore::open(NatsConnection &connection, const std::string &bucket)
{
    if (!validBucketName(bucket))
        return makeError(NatsErrc::BadName, "invalid bucket name '" + bucket + "': use letters, digits, '-' and '_'");
    ObjectStore store(connection, bucket);
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = retryDuringElection([&] {
        jsStreamInfo *info = nullptr;
        errorCode = static_cast<jsErrCode>(0);
        const natsStatus s
            = js_GetStreamInfo(&info, connection.jetStream(), store.m_stream.c_str(), nullptr, &errorCode);
        jsStreamInfo_Destroy(info);
        return s;
    });
    if (status == NATS_NOT_FOUND || errorCode == JSStreamNotFoundErr)
        return makeError(NatsErrc::BucketNotFound,
            "object store bucket '" + bucket + "' does not exist on " + connection.url() + " (no stream "
                + store.m_stream + "); publish to it to create it");
    if (status != NATS_OK)
        return bucketLookupError(connection, bucket, status, errorCode);
    return store;
}

namespace {

/// Gives an existing bucket's stream a maximum age of `ttl` unless it has one as short already.
Result<void> limitAge(
    NatsConnection &connection, const std::string &bucket, const std::string &stream, std::chrono::nanoseconds ttl)
{
    jsStreamInfo *raw = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    natsStatus status = js_GetStreamInfo(&raw, connection.jetStream(), stream.c_str(), nullptr, &errorCode);
    const StreamInfoPtr info(raw);
    if (status != NATS_OK || info == nullptr || info->Config == nullptr)
        return bucketLookupError(connection, bucket, status, errorCode);
    if (info->Config->MaxAge > 0 && info->Config->MaxAge <= ttl.count())
        return {};
    info->Config->MaxAge = ttl.count();
    jsStreamInfo *updated = nullptr;
    status = js_UpdateStream(&updated, connection.jetStream(), info->Config, nullptr, &errorCode);
    jsStreamInfo_Destroy(updated);
    if (status != NATS_OK)
        return jetStreamError(connection, "giving bucket '" + bucket + "' its time to live", status, errorCode);
    return {};
}

} // namespace

Result<ObjectStore> ObjectStore::openOrCreate(
    NatsConnection &connection, const std::string &bucket, std::chrono::seconds ttl, const BucketReplicas &replicas)
{
    auto existing = open(connection, bucket);
    // Best effort on a bucket that exists: credentials that may use a bucket need not be allowed
    // to change its stream, and the bucket is as usable without the time to live.
    if (existing && ttl.count() > 0)
        (void)limitAge(connection, bucket, existing->m_stream, ttl);
    if (existing)
        checkExistingReplicas(connection, bucket, existing->m_stream, replicas);
    if (existing || !hasCode(existing.error(), NatsErrc::BucketNotFound))
        return existing;

    ObjectStore store(connection, bucket);
    const std::string chunks = "$O." + bucket + ".C.>";
    const std::string meta = "$O." + bucket + ".M.>";
    std::array<const char *, 2> subjects {chunks.c_str(), meta.c_str()};
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    config.Name = store.m_stream.c_str();
    config.Subjects = subjects.data();
    config.SubjectsLen = static_cast<int>(subjects.size());
    config.Storage = js_FileStorage;
    const int count = replicasForNewBucket(connection, bucket, replicas);
    config.Replicas = count;
    config.MaxBytes = -1;
    config.MaxAge = std::chrono::duration_cast<std::chrono::nanoseconds>(ttl).count();
    config.Discard = js_DiscardNew;
    config.AllowRollup = true;
    config.AllowDirect = true;
    jsStreamInfo *info = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_AddStream(&info, connection.jetStream(), &config, nullptr, &errorCode);
    jsStreamInfo_Destroy(info);
    // Another client may have created it meanwhile, which is as good.
    if (status != NATS_OK && errorCode != JSStreamNameExistErr)
        return creatingBucketError(connection, bucket, count, status, errorCode);
    return store;
}

Result<void> ObjectStore::purgeSubject(const std::string &subject)
{
    jsOptions options;
    jsOptions_Init(&options);
    options.Stream.Purge.Subject = subject.c_str();
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_PurgeStream(m_connection->jetStream(), m_stream.c_str(), &options, &errorCode);
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "purging " + subject, status, errorCode);
    return {};
}

Result<ObjectInfo> parseObjectMeta(std::string_view json, std::string_view bucket, std::string_view name)
{
    const std::string where = "object '" + std::string(name) + "' in bucket '" + std::string(bucket) + "'";
    auto bad = [&](const std::string &what) {
        return makeError(NatsErrc::BadMeta, "the meta record of " + where + " is refused: " + what);
    };
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(json);
    } catch (const nlohmann::json::parse_error &e) {
        return bad("it is not JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const nlohmann::json::exception &) {
        // A number too large for a double is reported as out of range, without a position.
        return bad("it holds a number out of range");
    }
    if (!document.is_object())
        return bad("it is not a JSON object");

    auto text = [&](const char *field, std::string &target) -> std::optional<Error> {
        const auto value = document.find(field);
        if (value == document.end() || value->is_null())
            return std::nullopt;
        if (!value->is_string())
            return bad(std::string("its ") + field + " is not a string");
        target = value->get<std::string>();
        return std::nullopt;
    };
    auto count = [&](const char *field, std::uint64_t largest, std::uint64_t &target) -> std::optional<Error> {
        const auto value = document.find(field);
        if (value == document.end() || value->is_null())
            return std::nullopt;
        // A negative or fractional number would otherwise be cast into a huge count.
        if (!value->is_number_unsigned() || value->get<std::uint64_t>() > largest)
            return bad(std::string("its ") + field + " " + value->dump() + " is not a count");
        target = value->get<std::uint64_t>();
        return std::nullopt;
    };

    ObjectInfo info;
    std::uint64_t chunks = 0;
    for (const auto &failed :
        {text("name", info.name), text("bucket", info.bucket), text("nuid", info.nuid), text("digest", info.digest),
            text("mtime", info.mtime), count("size", std::numeric_limits<std::uint64_t>::max(), info.size),
            count("chunks", std::numeric_limits<std::uint32_t>::max(), chunks)}) {
        if (failed)
            return *failed;
    }
    info.chunks = static_cast<std::uint32_t>(chunks);
    if (const auto deleted = document.find("deleted"); deleted != document.end() && !deleted->is_null()) {
        if (!deleted->is_boolean())
            return bad("its deleted is not true or false");
        info.deleted = deleted->get<bool>();
    }

    // The record is stored under its name's subject by whoever may write the bucket; that it
    // describes this object of this bucket is only what it says, so it is checked.
    if (info.name != name)
        return bad("its name " + shown(info.name) + " is not the object's name");
    if (info.bucket != bucket || !validBucketName(info.bucket))
        return bad("its bucket " + shown(info.bucket) + " is not this bucket");
    if (const auto options = document.find("options");
        options != document.end() && options->is_object() && options->contains("link") && !(*options)["link"].is_null())
        return makeError(NatsErrc::BadMeta, where + " is a link to another object, which is not supported");
    // The nuid becomes the subject $O.<bucket>.C.<nuid> that reads, replacements and removals use:
    // a wildcard there would reach the chunks of every object.
    if (!isPlainSubjectToken(info.nuid))
        return bad("its nuid " + shown(info.nuid)
            + " is not a plain subject token (it must not be empty nor hold '.', '*', '>', spaces or control "
              "characters)");
    return info;
}

Result<void> ObjectStore::remove(const std::string &name)
{
    auto existing = info(name);
    if (!existing)
        return existing.error();
    if (auto purged = purgeSubject("$O." + m_bucket + ".C." + existing->nuid); !purged)
        return purged.error().withContext("removing " + name);
    return purgeSubject("$O." + m_bucket + ".M." + encodeBase64Url(name));
}

Result<ObjectInfo> ObjectStore::info(const std::string &name)
{
    const std::string where = "object '" + name + "' in bucket '" + m_bucket + "'";
    if (name.empty())
        return makeError(NatsErrc::BadName, "an object name must not be empty");
    const std::string subject = "$O." + m_bucket + ".M." + encodeBase64Url(name);
    natsMsg *raw = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status
        = js_GetLastMsg(&raw, m_connection->jetStream(), m_stream.c_str(), subject.c_str(), nullptr, &errorCode);
    const NatsMsgPtr message(raw);
    const Error notFound = makeError(NatsErrc::ObjectNotFound, "no " + where + " on " + m_connection->url());
    if (status == NATS_NOT_FOUND || errorCode == JSNoMessageFoundErr)
        return notFound;
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "reading the meta record of " + where, status, errorCode);
    auto info = parseObjectMeta(std::string_view(natsMsg_GetData(message.get()),
                                    static_cast<std::size_t>(natsMsg_GetDataLength(message.get()))),
        m_bucket, name);
    if (info && info->deleted)
        return notFound;
    return info;
}

namespace {

/// Stores `message` in the stream, offering it again under the same Nats-Msg-Id while the stream
/// does not answer (no leader, or the answer was lost) and the connection holds: the stream keeps
/// one copy, however many times it was offered. The error says when the connection was lost.
Result<void> storeOnce(NatsConnection &connection, natsMsg *message, const std::string &id, const std::string &what)
{
    jsPubOptions options {}; // what jsPubOptions_Init() makes: all zero
    options.MsgId = id.c_str();
    const auto deadline = std::chrono::steady_clock::now() + kElectionRetryFor;
    for (;;) {
        jsErrCode errorCode = static_cast<jsErrCode>(0);
        const natsStatus s = js_PublishMsg(nullptr, connection.jetStream(), message, &options, &errorCode);
        if (s == NATS_OK)
            return {};
        const bool connected = natsConnection_Status(connection.connection()) == NATS_CONN_STATUS_CONNECTED;
        if (!connected)
            return makeError(NatsErrc::Unreachable,
                what + ": lost the connection to " + connection.url() + " (" + natsStatus_GetText(s) + ")");
        if ((s != NATS_TIMEOUT && s != NATS_NO_RESPONDERS) || std::chrono::steady_clock::now() >= deadline)
            return jetStreamError(connection, what, s, errorCode);
        // No responders comes back at once: give the election a moment.
        if (s == NATS_NO_RESPONDERS)
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

/// Stores one message on `subject`, as storeOnce() does.
Result<void> storeData(NatsConnection &connection, const std::string &subject, const char *data, std::size_t size,
    const std::string &id, const std::string &what, const char *rollup = nullptr)
{
    natsMsg *raw = nullptr;
    if (natsStatus s = natsMsg_Create(&raw, subject.c_str(), nullptr, data, static_cast<int>(size)); s != NATS_OK)
        return makeError(NatsErrc::Nats, natsStatus_GetText(s));
    const NatsMsgPtr message(raw);
    if (rollup != nullptr)
        natsMsgHeader_Set(message.get(), "Nats-Rollup", rollup);
    return storeOnce(connection, message.get(), id, what);
}

/// Publishes an object's meta record as the only one left on its subject.
Result<void> publishMeta(
    NatsConnection &connection, const std::string &metaSubject, const std::string &meta, const std::string &nuid)
{
    // The rollup keeps only this record on the subject: the object's previous versions go.
    return storeData(
        connection, metaSubject, meta.data(), meta.size(), nuid + ".meta", "storing the meta record", "sub");
}

/// Decodes the SHA-256 digest an object's meta record gives.
Result<std::string> expectedDigest(const ObjectInfo &meta, const std::string &where)
{
    if (!meta.digest.starts_with(kDigestPrefix))
        return makeError(NatsErrc::BadMeta,
            "the meta record of " + where + " has an unknown digest '" + meta.digest + "' (expected SHA-256=...)");
    const auto expected = decodeBase64Lenient(std::string_view(meta.digest).substr(kDigestPrefix.size()));
    if (!expected || expected->size() != 32)
        return makeError(
            NatsErrc::BadMeta, "the meta record of " + where + " has an unreadable digest '" + meta.digest + "'");
    return *expected;
}

/// What has been read of an object so far.
struct ChunkTally {
    Sha256 sha;
    std::uint64_t size = 0;
    std::uint32_t chunks = 0;
};

using ChunkSink = std::function<bool(const char *, std::size_t)>;

/// An ordered consumer of `stream` for `subject`, which delivers every stored message once, in order.
Result<NatsSubscriptionPtr> subscribeOrdered(
    NatsConnection &connection, const std::string &stream, const std::string &subject, const std::string &what)
{
    jsSubOptions subscribeOptions;
    jsSubOptions_Init(&subscribeOptions);
    subscribeOptions.Stream = stream.c_str();
    subscribeOptions.Ordered = true;
    natsSubscription *raw = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    // Making the consumer needs the stream's leader and a running peer to hold the consumer.
    const natsStatus status = retryConsumerCreation(connection.waitMs(), [&](jsOptions *options) {
        errorCode = static_cast<jsErrCode>(0);
        return js_SubscribeSync(&raw, connection.jetStream(), subject.c_str(), options, &subscribeOptions, &errorCode);
    });
    if (status != NATS_OK)
        return jetStreamError(connection, what, status, errorCode);
    return NatsSubscriptionPtr(raw);
}

/// Reads an object's chunks in order into sink, counting and hashing them on the way.
Result<void> readChunks(NatsConnection &connection, const std::string &stream, const std::string &bucket,
    const ObjectInfo &meta, const std::string &where, const ChunkSink &sink, ChunkTally &tally)
{
    auto subscription
        = subscribeOrdered(connection, stream, "$O." + bucket + ".C." + meta.nuid, "reading the chunks of " + where);
    if (!subscription)
        return subscription.error();
    bool more = true;
    while (more) {
        natsMsg *next = nullptr;
        const natsStatus s = natsSubscription_NextMsg(&next, subscription->get(), connection.waitMs());
        const NatsMsgPtr message(next);
        if (s == NATS_TIMEOUT)
            return makeError(NatsErrc::SizeMismatch,
                where + " is incomplete: " + std::to_string(tally.chunks) + " of " + std::to_string(meta.chunks)
                    + " chunks arrived; it may have been replaced or removed meanwhile");
        if (s != NATS_OK)
            return jetStreamError(connection, "reading the chunks of " + where, s, 0);
        const auto length = static_cast<std::size_t>(natsMsg_GetDataLength(message.get()));
        tally.size += length;
        ++tally.chunks;
        if (tally.size > meta.size)
            return makeError(NatsErrc::SizeMismatch,
                where + " holds more data than its meta record's " + std::to_string(meta.size) + " bytes");
        tally.sha.add(natsMsg_GetData(message.get()), length);
        if (!sink(natsMsg_GetData(message.get()), length))
            return Error {"io", "writing the contents of " + where + " failed"};
        jsMsgMetaData *metaData = nullptr;
        if (natsMsg_GetMetaData(&metaData, message.get()) == NATS_OK) {
            more = metaData->NumPending > 0;
            jsMsgMetaData_Destroy(metaData);
        }
        more = more && tally.chunks < meta.chunks;
    }
    return {};
}

/// Lists the subjects of `stream` that match `filter`, with their message counts, from the
/// stream's state; no message is read.
Result<std::vector<std::pair<std::string, std::uint64_t>>> listSubjects(
    NatsConnection &connection, const std::string &stream, const std::string &filter)
{
    jsOptions options;
    jsOptions_Init(&options);
    options.Stream.Info.SubjectsFilter = filter.c_str();
    jsStreamInfo *raw = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_GetStreamInfo(&raw, connection.jetStream(), stream.c_str(), &options, &errorCode);
    const StreamInfoPtr info(raw);
    if (status != NATS_OK)
        return jetStreamError(connection, "listing the subjects " + filter, status, errorCode);
    std::vector<std::pair<std::string, std::uint64_t>> subjects;
    if (const jsStreamStateSubjects *list = info->State.Subjects) {
        for (int i = 0; i < list->Count; ++i)
            subjects.emplace_back(list->List[i].Subject, list->List[i].Msgs);
    }
    return subjects;
}

/// What one chunk subject holds, and when it was last written (server time, ns since the epoch).
struct SubjectTally {
    std::uint64_t chunks = 0;
    std::uint64_t bytes = 0;
    std::int64_t newest = 0;
};

/// Reads every message on `subject` to count them, their bytes and the newest one's time.
/// `expected` is how many the stream listed: fewer may arrive when the subject is purged meanwhile.
Result<SubjectTally> tallySubject(
    NatsConnection &connection, const std::string &stream, const std::string &subject, std::uint64_t expected)
{
    auto subscription = subscribeOrdered(connection, stream, subject, "reading " + subject);
    if (!subscription)
        return subscription.error();
    SubjectTally tally;
    bool more = expected > 0;
    while (more) {
        natsMsg *next = nullptr;
        const natsStatus s = natsSubscription_NextMsg(&next, subscription->get(), connection.waitMs());
        const NatsMsgPtr message(next);
        if (s == NATS_TIMEOUT)
            break;
        if (s != NATS_OK)
            return jetStreamError(connection, "reading " + subject, s, 0);
        ++tally.chunks;
        tally.bytes += static_cast<std::uint64_t>(natsMsg_GetDataLength(message.get()));
        more = false;
        jsMsgMetaData *metaData = nullptr;
        if (natsMsg_GetMetaData(&metaData, message.get()) == NATS_OK) {
            tally.newest = std::max(tally.newest, metaData->Timestamp);
            more = metaData->NumPending > 0;
            jsMsgMetaData_Destroy(metaData);
        }
    }
    return tally;
}

} // namespace

Result<ObjectInfo> ObjectStore::put(
    const std::string &name, std::istream &data, const std::function<void(std::uint64_t)> &progress, PutReport *report)
{
    const std::string where = "object '" + name + "' in bucket '" + m_bucket + "'";
    auto previous = info(name);
    // An unreadable or refused record is replaced like any other: publishing again is how it gets
    // fixed. Nothing is purged on its word, so a forged nuid cannot reach other objects' chunks.
    if (!previous && !hasCode(previous.error(), NatsErrc::ObjectNotFound)
        && !hasCode(previous.error(), NatsErrc::BadMeta))
        return previous.error().withContext("putting " + where);
    if (!previous && hasCode(previous.error(), NatsErrc::BadMeta) && report)
        report->refusedRecord = previous.error();

    ObjectInfo result;
    result.bucket = m_bucket;
    result.name = name;
    result.nuid = newNuid();
    const std::string chunkSubject = "$O." + m_bucket + ".C." + result.nuid;
    // A server's max_payload counts the headers too: the Nats-Msg-Id each chunk carries.
    constexpr std::int64_t kHeaderRoom = 256;
    const std::size_t chunkSize = std::min<std::size_t>(
        kChunkSize, static_cast<std::size_t>(std::max<std::int64_t>(1, m_connection->maxPayload() - kHeaderRoom)));

    auto fail = [&](const Error &error) -> Result<ObjectInfo> {
        if (result.chunks > 0)
            (void)purgeSubject(chunkSubject);
        return error.withContext("putting " + where);
    };
    // Chunks are offered again under the same ids while the stream elects a leader: stored once.
    const std::string idPrefix = result.nuid + ".";

    Sha256 sha;
    std::vector<char> chunk(chunkSize);
    while (data) {
        data.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto count = static_cast<std::size_t>(data.gcount());
        if (count == 0)
            break;
        sha.add(chunk.data(), count);
        ++result.chunks;
        const std::string number = std::to_string(result.chunks);
        if (auto stored
            = storeData(*m_connection, chunkSubject, chunk.data(), count, idPrefix + number, "storing chunk " + number);
            !stored)
            return fail(stored.error());
        result.size += count;
        if (progress)
            progress(result.size);
    }
    if (data.bad())
        return fail(Error {"io", "reading the data failed"});
    result.digest = std::string(kDigestPrefix) + encodeBase64Url(digestBytes(sha.finish()));
    result.mtime = nowRfc3339();

    const std::string metaSubject = "$O." + m_bucket + ".M." + encodeBase64Url(name);
    const std::string meta = metaJson(result, chunkSize);
    if (auto published = publishMeta(*m_connection, metaSubject, meta, result.nuid); !published) {
        // The record may be stored though its answer was lost: its chunks must then stay, or the
        // object would be listed without them. They go only once the record is known not to name
        // them; when that cannot be read, they stay for the next publish's orphan pruning.
        auto stored = info(name);
        if (!stored || stored->nuid != result.nuid) {
            if (stored || hasCode(stored.error(), NatsErrc::ObjectNotFound))
                return fail(published.error());
            return published.error().withContext(
                "putting " + where + " (it is listed whole or not at all: publish again to be sure)");
        }
    }

    if (previous && previous->nuid != result.nuid) {
        if (auto purged = purgeSubject("$O." + m_bucket + ".C." + previous->nuid); !purged)
            return purged.error().withContext("removing the replaced chunks of " + where);
    }
    // No record says which chunks an earlier, killed put of this name left, so the bucket's
    // orphans all go, each only once nothing has written to it for the orphan age.
    auto pruned = pruneOrphans(m_orphanAge);
    if (report) {
        if (pruned)
            report->orphans = pruned.value();
        else
            report->orphanCleanup = pruned.error();
    }
    return result;
}

Result<OrphanReport> ObjectStore::pruneOrphans(std::chrono::seconds minAge)
{
    const std::string chunkPrefix = "$O." + m_bucket + ".C.";
    // Chunks are listed before the records are read, so a put that stores its record in between
    // is seen with its record.
    auto chunkSubjects = listSubjects(*m_connection, m_stream, chunkPrefix + ">");
    if (!chunkSubjects)
        return chunkSubjects.error().withContext("finding orphaned chunks in bucket '" + m_bucket + "'");
    auto metaSubjects = listSubjects(*m_connection, m_stream, "$O." + m_bucket + ".M.>");
    if (!metaSubjects)
        return metaSubjects.error().withContext("finding orphaned chunks in bucket '" + m_bucket + "'");

    std::set<std::string, std::less<>> referenced;
    for (const auto &[subject, messages] : metaSubjects.value()) {
        natsMsg *raw = nullptr;
        jsErrCode errorCode = static_cast<jsErrCode>(0);
        const natsStatus status
            = js_GetLastMsg(&raw, m_connection->jetStream(), m_stream.c_str(), subject.c_str(), nullptr, &errorCode);
        const NatsMsgPtr message(raw);
        // Removed meanwhile: it refers to nothing any more.
        if (status == NATS_NOT_FOUND || errorCode == JSNoMessageFoundErr)
            continue;
        // Deleting on partial knowledge could take a live object's chunks, so nothing goes.
        if (status != NATS_OK)
            return jetStreamError(*m_connection, "reading the meta record on " + subject, status, errorCode)
                .withContext("finding orphaned chunks in bucket '" + m_bucket + "'");
        referenced.insert(referencedNuid(std::string_view(
            natsMsg_GetData(message.get()), static_cast<std::size_t>(natsMsg_GetDataLength(message.get())))));
    }

    const auto now
        = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
    const auto minAgeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(minAge).count();
    OrphanReport report;
    for (const auto &[subject, messages] : chunkSubjects.value()) {
        const std::string_view nuid = std::string_view(subject).substr(chunkPrefix.size());
        // Only subjects a put of ours or of an official client can write; each is purged by its
        // exact name, never by a pattern.
        if (!isPlainSubjectToken(nuid) || referenced.contains(nuid))
            continue;
        auto tally = tallySubject(*m_connection, m_stream, subject, messages);
        if (!tally)
            return tally.error().withContext("pruning orphaned chunks in bucket '" + m_bucket + "'");
        if (tally->chunks == 0 || now - tally->newest < minAgeNs)
            continue;
        if (auto purged = purgeSubject(subject); !purged)
            return purged.error().withContext("pruning orphaned chunks in bucket '" + m_bucket + "'");
        ++report.objects;
        report.chunks += tally->chunks;
        report.bytes += tally->bytes;
    }
    return report;
}

Result<ObjectInfo> ObjectStore::read(
    const std::string &name, const std::function<bool(const char *, std::size_t)> &sink)
{
    const std::string where = "object '" + name + "' in bucket '" + m_bucket + "'";
    auto found = info(name);
    if (!found)
        return found;
    const ObjectInfo &meta = found.value();
    const auto expected = expectedDigest(meta, where);
    if (!expected)
        return expected.error();

    ChunkTally tally;
    if (meta.chunks > 0) {
        if (auto copied = readChunks(*m_connection, m_stream, m_bucket, meta, where, sink, tally); !copied)
            return copied.error();
    }
    if (tally.size != meta.size || tally.chunks != meta.chunks)
        return makeError(NatsErrc::SizeMismatch,
            where + " is incomplete: " + std::to_string(tally.size) + " bytes in " + std::to_string(tally.chunks)
                + " chunks, its meta record says " + std::to_string(meta.size) + " bytes in "
                + std::to_string(meta.chunks));
    const std::string actual = digestBytes(tally.sha.finish());
    if (actual != expected.value())
        return makeError(NatsErrc::DigestMismatch,
            where + " is corrupt: its contents have digest SHA-256=" + encodeBase64Url(actual)
                + ", its meta record says " + meta.digest + "; publish it again");
    return found;
}

Result<ObjectInfo> ObjectStore::get(const std::string &name, std::ostream &out)
{
    auto result = read(name, [&out](const char *data, std::size_t size) {
        out.write(data, static_cast<std::streamsize>(size));
        return static_cast<bool>(out);
    });
    if (result && !out)
        return Error {"io", "writing the contents of object '" + name + "' in bucket '" + m_bucket + "' failed"};
    return result;
}

Result<ObjectInfo> ObjectStore::getToFile(const std::string &name, const std::filesystem::path &destination)
{
    std::filesystem::path partialPath = destination;
    partialPath += ".part";
    // Mode 0600 from creation: a later chmod would not take back a descriptor another user opened
    // meanwhile. O_EXCL never writes through a file or link that is already there.
    const int fd = ::open(partialPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        const int error = errno;
        if (error == EEXIST)
            return makeError(NatsErrc::Exists,
                "cannot download object '" + name + "' to " + partialPath.string()
                    + ": that file already exists (an interrupted download, or someone else's file); remove it "
                      "and try again");
        return Error {"io", "cannot create " + partialPath.string() + ": " + std::strerror(error)};
    }
    PartialFile partial(fd, partialPath);
    int writeError = 0;
    auto result = read(name, [&](const char *data, std::size_t size) {
        while (size > 0) {
            const ssize_t written = ::write(partial.fd(), data, size);
            if (written < 0 && errno == EINTR)
                continue;
            if (written < 0) {
                writeError = errno;
                return false;
            }
            data += written;
            size -= static_cast<std::size_t>(written);
        }
        return true;
    });
    if (!result && writeError != 0)
        return Error {"io", "writing " + partialPath.string() + " failed: " + std::strerror(writeError)};
    if (!result)
        return result;
    // On disk before the rename, so a crash never leaves the final name holding a short file.
    if (::fsync(partial.fd()) != 0 || !partial.close())
        return Error {"io", "writing " + partialPath.string() + " failed: " + std::strerror(errno)};
    std::error_code renamed;
    std::filesystem::rename(partialPath, destination, renamed);
    if (renamed)
        return Error {"io", "cannot move the download to " + destination.string() + ": " + renamed.message()};
    partial.keep();
    return result;
}

} // namespace ccm::fleet
