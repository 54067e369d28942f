// SPDX-License-Identifier: Apache-2.0
// The release history of an object store bucket: records in CCM_RELEASES, bundles kept by digest.
#include "fleet/release/release_store.h"

#include "base/base64.h"
#include "base/sha256.h"
#include "base/temp_dir.h"
#include "core/model/transaction_event.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/rollout/rollout_record.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <tuple>

namespace ccm::fleet {
namespace {

constexpr std::string_view kDigestPrefix = "SHA-256=";
constexpr std::size_t kReleaseIdLength = 12;
/// Bounds on what a record may hold, whoever wrote it.
constexpr std::size_t kMaxRecordBytes = 256 * 1024;
constexpr std::size_t kMaxNameBytes = 1024;
constexpr std::size_t kMaxPublisherBytes = 512;
constexpr std::size_t kMaxMessageBytes = 64 * 1024;
constexpr std::size_t kFingerprintLength = 16;

constexpr std::array kFields {"name", "bucket", "digest", "size", "time", "publisher", "signer", "message", "archive"};

bool isBucketName(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

bool isReleaseId(std::string_view id)
{
    return id.size() == kReleaseIdLength
        && std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}

bool isFingerprint(std::string_view text)
{
    return text.size() == kFingerprintLength && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

/// No control characters: records are printed to terminals.
bool isPrintable(std::string_view text)
{
    return std::none_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
}

std::string newReleaseId()
{
    static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device random;
    std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
    std::string id;
    for (std::size_t i = 0; i < kReleaseIdLength; ++i)
        id += kAlphabet[pick(random)];
    return id;
}

/// "<bucket>.<base64url(name)>.": the keys of one name's releases start with it.
std::string keyPrefix(const std::string &bucket, const std::string &name)
{
    return bucket + "." + encodeBase64Url(name) + ".";
}

/// The bucket and name a key `<bucket>.<base64url(name)>.<id>` names.
struct ReleaseKey {
    std::string bucket;
    std::string name;
};

std::optional<ReleaseKey> parseReleaseKey(std::string_view key)
{
    const std::size_t first = key.find('.');
    const std::size_t last = key.rfind('.');
    if (first == std::string_view::npos || first == last)
        return std::nullopt;
    const std::string_view bucket = key.substr(0, first);
    const std::string_view encoded = key.substr(first + 1, last - first - 1);
    if (!isBucketName(bucket) || !isReleaseId(key.substr(last + 1)) || encoded.empty())
        return std::nullopt;
    auto name = decodeBase64Lenient(encoded);
    if (!name || name->empty() || encodeBase64Url(*name) != encoded)
        return std::nullopt;
    return ReleaseKey {std::string(bucket), std::move(*name)};
}

/// The object store digest and size of a file, read in pieces.
struct FileDigest {
    std::string digest;
    std::uint64_t size = 0;
};

Result<FileDigest> digestFile(const std::filesystem::path &file)
{
    std::ifstream input(file, std::ios::binary);
    if (!input)
        return Error {"io", file.string() + ": cannot be read"};
    Sha256 hash;
    FileDigest result;
    std::array<char, 64 * 1024> buffer {};
    while (input) {
        input.read(buffer.data(), buffer.size());
        const auto got = static_cast<std::size_t>(input.gcount());
        hash.add(buffer.data(), got);
        result.size += got;
        if (result.size > kMaxReleaseBytes)
            return Error {"too_large", file.string() + ": larger than the 1 GiB a release may be"};
    }
    if (input.bad())
        return Error {"io", file.string() + ": reading failed"};
    result.digest = std::string(kDigestPrefix) + encodeBase64Url(digestBytes(hash.finish()));
    return result;
}

/// Reads the members of one record, with messages naming the key and the field.
class RecordReader {
public:
    RecordReader(const Json &object, std::string_view key)
        : m_object(object)
        , m_key(key)
    {
    }

    Result<std::string> text(const char *field, std::size_t limit) const
    {
        const auto member = m_object.find(field);
        if (member == m_object.end())
            return bad(field, "is missing");
        if (!member->is_string() || member->get_ref<const std::string &>().size() > limit)
            return bad(field, "is not a string of at most " + std::to_string(limit) + " bytes");
        if (!isPrintable(member->get_ref<const std::string &>()))
            return bad(field, "holds control characters");
        return member->get<std::string>();
    }

    Error bad(const std::string &field, const std::string &what) const
    {
        return Error {"bad_release",
            "release record '" + std::string(m_key) + "' of " + std::string(kReleasesBucket) + ": "
                + (field.empty() ? what : field + " " + what)};
    }

private:
    const Json &m_object;
    std::string_view m_key;
};

Result<void> readTexts(const RecordReader &read, Release &release)
{
    const std::tuple<const char *, std::string *, std::size_t> texts[] {{"name", &release.name, kMaxNameBytes},
        {"bucket", &release.bucket, kMaxNameBytes}, {"digest", &release.digest, kMaxNameBytes},
        {"publisher", &release.publisher, kMaxPublisherBytes}, {"message", &release.message, kMaxMessageBytes}};
    for (const auto &[field, target, limit] : texts) {
        auto value = read.text(field, limit);
        if (!value)
            return value.error();
        *target = std::move(value).value();
    }
    return {};
}

Result<Release> readRecord(const RecordReader &read, const Json &json, const ReleaseKey &key)
{
    Release release;
    if (auto texts = readTexts(read, release); !texts)
        return texts.error();
    if (release.name != key.name)
        return read.bad("name", "is not the name its key gives ('" + key.name + "')");
    if (release.bucket != key.bucket)
        return read.bad("bucket", "is not the bucket its key gives ('" + key.bucket + "')");
    if (!isObjectDigest(release.digest))
        return read.bad("digest", "is not a SHA-256= digest of the object store");
    const auto size = json.find("size");
    if (size == json.end() || !size->is_number_unsigned() || size->get<std::uint64_t>() > kMaxReleaseBytes)
        return read.bad("size", "is not a count of at most 1 GiB");
    release.size = size->get<std::uint64_t>();
    auto time = read.text("time", 64);
    if (!time)
        return time.error();
    const auto parsed = parseTimestamp(*time);
    if (!parsed)
        return read.bad("time", "is not an RFC 3339 time");
    release.time = *parsed;
    const auto signer = json.find("signer");
    if (signer == json.end()
        || !(signer->is_null() || (signer->is_string() && isFingerprint(signer->get<std::string>()))))
        return read.bad("signer", "is neither null nor a key fingerprint (16 hexadecimal digits)");
    if (signer->is_string())
        release.signer = signer->get<std::string>();
    auto archive = read.text("archive", kMaxNameBytes);
    if (!archive)
        return archive.error();
    if (*archive != release.archive())
        return read.bad("archive", "is not " + release.archive());
    return release;
}

} // namespace

std::string Release::archive() const
{
    return releaseArchiveName(digest);
}

std::string releaseArchiveName(std::string_view digest)
{
    return std::string(kReleaseArchivePrefix) + std::string(digest);
}

bool isObjectDigest(std::string_view digest)
{
    if (!digest.starts_with(kDigestPrefix))
        return false;
    const std::string_view encoded = digest.substr(kDigestPrefix.size());
    const auto bytes = decodeBase64Lenient(encoded);
    return bytes && bytes->size() == 32 && encodeBase64Url(*bytes) == encoded;
}

bool isReleaseMessage(std::string_view message)
{
    return message.size() <= kMaxMessageBytes && isPrintable(message);
}

Json releaseToJson(const Release &release, bool withArchive)
{
    Json json = Json::object();
    appendMember(json, "name", release.name);
    appendMember(json, "bucket", release.bucket);
    appendMember(json, "digest", release.digest);
    appendMember(json, "size", release.size);
    appendMember(json, "time", formatTimestamp(release.time));
    appendMember(json, "publisher", release.publisher);
    appendMember(json, "signer", release.signer.empty() ? Json(nullptr) : Json(release.signer));
    appendMember(json, "message", release.message);
    if (withArchive)
        appendMember(json, "archive", release.archive());
    return json;
}

Result<Release> parseRelease(std::string_view key, std::string_view text)
{
    const Json empty = Json::object();
    const RecordReader keyReader(empty, key);
    const auto parsedKey = parseReleaseKey(key);
    if (!parsedKey)
        return keyReader.bad("", "has a key that is not <bucket>.<base64url(name)>.<id>");
    if (text.size() > kMaxRecordBytes)
        return keyReader.bad("", "is larger than 256 KiB");
    // Parsing deeper text would recurse as deep as it goes, past the stack's end; a record is flat.
    if (jsonNestingBeyond(text, 16))
        return keyReader.bad("", "is nested deeper than 16 levels");
    const Json json = parseJson(text, false);
    const RecordReader read(json, key);
    if (!json.is_object())
        return read.bad("", "is not a JSON object");
    for (const auto &member : json.items())
        if (std::find(kFields.begin(), kFields.end(), member.key()) == kFields.end())
            return read.bad("", "has the unknown field '" + member.key().substr(0, 64) + "'");
    auto release = readRecord(read, json, *parsedKey);
    if (release)
        release.value().key = std::string(key);
    return release;
}

ReleaseStore::ReleaseStore(NatsConnection &connection, ObjectStore objects, KvBucket records)
    : m_connection(&connection)
    , m_objects(std::move(objects))
    , m_records(std::move(records))
{
}

Result<ReleaseStore> ReleaseStore::open(
    NatsConnection &connection, const std::string &bucket, bool create, const BucketReplicas &replicas)
{
    auto objects = create ? ObjectStore::openOrCreate(connection, bucket, std::chrono::seconds(0), replicas)
                          : ObjectStore::open(connection, bucket);
    if (!objects)
        return objects.error();
    auto records = create ? KvBucket::openOrCreate(connection, std::string(kReleasesBucket), replicas)
                          : KvBucket::open(connection, std::string(kReleasesBucket));
    if (!records)
        return records.error();
    return ReleaseStore(connection, std::move(objects).value(), std::move(records).value());
}

Result<ObjectInfo> ReleaseStore::keep(const std::filesystem::path &file, PutReport *report)
{
    auto local = digestFile(file);
    if (!local)
        return local.error();
    const std::string archive = releaseArchiveName(local->digest);
    auto existing = m_objects.info(archive);
    if (existing && existing->digest == local->digest && existing->size == local->size)
        return existing;
    if (!existing && !hasCode(existing.error(), NatsErrc::ObjectNotFound)
        && !hasCode(existing.error(), NatsErrc::BadMeta))
        return existing.error().withContext("keeping the release " + local->digest);
    std::ifstream input(file, std::ios::binary);
    if (!input)
        return Error {"io", file.string() + ": cannot be read"};
    auto stored = m_objects.put(archive, input, {}, report);
    if (!stored)
        return stored.error().withContext("keeping the release " + local->digest + " as " + archive);
    if (stored->digest != local->digest)
        return Error {"changed", file.string() + ": the file changed while it was being published"};
    return stored;
}

Result<std::string> ReleaseStore::snapshot(const std::string &name)
{
    auto info = m_objects.info(name);
    if (!info && hasCode(info.error(), NatsErrc::ObjectNotFound))
        return std::string();
    if (!info)
        return info.error();
    if (auto kept = m_objects.info(releaseArchiveName(info->digest)); kept && kept->digest == info->digest)
        return info->digest;
    auto directory = TempDir::create("ccm-release");
    if (!directory)
        return directory.error();
    const std::filesystem::path file = directory->path() / "bundle";
    auto read = m_objects.getToFile(name, file);
    if (!read)
        return read.error().withContext("keeping the release of " + name);
    auto kept = keep(file);
    if (!kept)
        return kept.error();
    return kept->digest;
}

Result<PublishedRelease> ReleaseStore::publish(
    const std::string &name, const std::filesystem::path &file, const ReleaseDetails &details)
{
    if (name.empty() || name.starts_with(kReleaseArchivePrefix))
        return makeError(NatsErrc::BadName,
            "the object name '" + name + "' cannot be released: it is empty or under "
                + std::string(kReleaseArchivePrefix) + ", where released bundles are kept");
    PutReport keeping;
    auto kept = keep(file, &keeping);
    if (!kept)
        return kept.error();
    std::ifstream input(file, std::ios::binary);
    if (!input)
        return Error {"io", file.string() + ": cannot be read"};
    PublishedRelease published;
    auto object = m_objects.put(name, input, {}, &published.report);
    if (!object)
        return object.error();
    // Keeping the bundle was a put too, which may have removed the orphans this one would have.
    OrphanReport &orphans = published.report.orphans;
    orphans.objects += keeping.orphans.objects;
    orphans.chunks += keeping.orphans.chunks;
    orphans.bytes += keeping.orphans.bytes;
    if (!published.report.orphanCleanup)
        published.report.orphanCleanup = keeping.orphanCleanup;
    if (object->digest != kept->digest)
        return Error {"changed", file.string() + ": the file changed while it was being published"};
    published.object = std::move(object).value();
    Release &release = published.release;
    release.name = name;
    release.bucket = bucket();
    release.digest = published.object.digest;
    release.size = published.object.size;
    release.time = std::chrono::system_clock::now();
    release.publisher = details.publisher;
    release.signer = details.signer;
    release.message = details.message;
    if (auto recorded = record(release); !recorded)
        return recorded.error().withContext("the object " + name
            + " is published, but its release could not be recorded in " + std::string(kReleasesBucket));
    return published;
}

Result<ObjectInfo> ReleaseStore::restore(const std::string &digest, const std::filesystem::path &destination)
{
    if (!isObjectDigest(digest))
        return Error {"bad_release", "'" + digest + "' is not a SHA-256= digest of the object store"};
    const std::string archive = releaseArchiveName(digest);
    auto info = m_objects.info(archive);
    if (!info && hasCode(info.error(), NatsErrc::ObjectNotFound))
        return makeError(NatsErrc::ObjectNotFound,
            "the bundle of release " + digest + " is not kept in bucket '" + bucket() + "' (no object " + archive
                + ")");
    if (!info)
        return info.error().withContext("the kept release " + digest);
    if (info->digest != digest || info->size > kMaxReleaseBytes)
        return makeError(NatsErrc::DigestMismatch,
            "the kept bundle " + archive + " of bucket '" + bucket() + "' is refused: its meta record gives the digest "
                + info->digest + " and " + std::to_string(info->size) + " bytes");
    auto read = m_objects.getToFile(archive, destination);
    if (!read)
        return read.error().withContext("the kept release " + digest);
    if (read->digest != digest) {
        std::error_code ignored;
        std::filesystem::remove(destination, ignored);
        return makeError(NatsErrc::DigestMismatch, "the kept bundle " + archive + " has the digest " + read->digest);
    }
    return read;
}

Result<PublishedRelease> ReleaseStore::publishKept(
    const std::string &name, const std::string &digest, const ReleaseDetails &details)
{
    auto directory = TempDir::create("ccm-release");
    if (!directory)
        return directory.error();
    const std::filesystem::path file = directory->path() / "bundle.tar.gz";
    if (auto restored = restore(digest, file); !restored)
        return restored.error();
    return publish(name, file, details);
}

Result<void> ReleaseStore::record(Release &release)
{
    release.key = keyPrefix(release.bucket, release.name) + newReleaseId();
    auto written = m_records.update(release.key, releaseToJson(release).dump(), 0);
    if (!written)
        return written.error();
    release.revision = *written;
    return {};
}

Result<ReleaseList> ReleaseStore::list(const std::string &name)
{
    auto keys = m_records.keys();
    if (!keys)
        return keys.error();
    const std::string prefix = name.empty() ? bucket() + "." : keyPrefix(bucket(), name);
    ReleaseList list;
    for (const std::string &key : *keys) {
        if (!key.starts_with(prefix))
            continue;
        auto entry = m_records.entry(key);
        if (!entry)
            return entry.error();
        if (!entry->has_value())
            continue; // removed since the keys were listed
        auto release = parseRelease(key, (*entry)->value);
        if (!release) {
            list.skipped.push_back({key, release.error()});
            continue;
        }
        release.value().revision = (*entry)->revision;
        list.releases.push_back(std::move(release).value());
    }
    std::sort(list.releases.begin(), list.releases.end(),
        [](const Release &a, const Release &b) { return a.revision > b.revision; });
    return list;
}

Result<std::optional<Release>> ReleaseStore::find(const std::string &name, const std::string &digest)
{
    auto found = list(name);
    if (!found)
        return found.error();
    for (Release &release : found.value().releases)
        if (release.digest == digest)
            return std::optional<Release>(std::move(release));
    return std::optional<Release>();
}

namespace {

/// The digests the rollouts of `bucket` name (rolled out, and each ring's previous release):
/// rolling a ring back needs them kept.
Result<std::set<std::string>> rolloutDigests(NatsConnection &connection, const std::string &bucket)
{
    std::set<std::string> digests;
    auto rollouts = KvBucket::open(connection, std::string(kRolloutsBucket));
    if (!rollouts && hasCode(rollouts.error(), NatsErrc::BucketNotFound))
        return digests;
    if (!rollouts)
        return rollouts.error();
    auto entries = rollouts.value().entries();
    if (!entries)
        return entries.error();
    for (const auto &entry : *entries) {
        auto record = parseRollout(entry.second);
        if (!record || record->bucket != bucket)
            continue;
        digests.insert(record->digest);
        for (const RingRecord &ring : record->rings)
            digests.insert(ring.previous);
    }
    return digests;
}

} // namespace

Result<PruneReleasesReport> ReleaseStore::prune(
    std::size_t keep, const std::string &name, std::vector<SkippedRelease> *skipped)
{
    auto all = list();
    if (!all)
        return all.error();
    if (skipped)
        *skipped = all->skipped;
    std::map<std::string, std::size_t> seen; // releases per name so far, newest first
    std::vector<const Release *> removed;
    std::set<std::string> referenced;
    for (const Release &release : all->releases) {
        const bool pruned = ++seen[release.name] > keep && (name.empty() || release.name == name);
        if (pruned)
            removed.push_back(&release);
        else
            referenced.insert(release.digest);
    }
    for (const auto &[released, count] : seen) {
        if (auto current = m_objects.info(released); current)
            referenced.insert(current->digest);
        else if (!hasCode(current.error(), NatsErrc::ObjectNotFound))
            return current.error().withContext("pruning the releases of " + released);
    }
    auto rollouts = rolloutDigests(*m_connection, bucket());
    if (!rollouts)
        return rollouts.error().withContext("reading the rollouts that may need kept releases");
    referenced.insert(rollouts->begin(), rollouts->end());
    PruneReleasesReport report;
    for (const Release *release : removed) {
        if (auto gone = m_records.remove(release->key); !gone)
            return gone.error();
        ++report.records;
    }
    std::set<std::string> archivesGone;
    for (const Release *release : removed) {
        if (referenced.contains(release->digest) || !archivesGone.insert(release->digest).second)
            continue;
        auto info = m_objects.info(release->archive());
        if (!info && hasCode(info.error(), NatsErrc::ObjectNotFound))
            continue;
        if (auto gone = m_objects.remove(release->archive()); !gone)
            return gone.error().withContext("removing the kept release " + release->digest);
        ++report.archives;
        report.bytes += info ? info->size : 0;
    }
    return report;
}

} // namespace ccm::fleet
