// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/kv_bucket.h"

#include "fleet/nats/election_retry.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <chrono>
#include <nats/nats.h>

namespace ccm::fleet {

namespace {

/// Calls `call` with a handle of `bucket` on a JetStream context of its own, asked again as
/// retryConsumerCreation() says: for the calls that make an ordered consumer (listing the keys,
/// watching the values), whose wait for the consumer is the context's.
template<typename Call>
natsStatus withConsumerHandle(NatsConnection &connection, const std::string &bucket, Call &&call)
{
    return retryConsumerCreation(connection.waitMs(), [&](jsOptions *options) {
        jsCtx *rawContext = nullptr;
        natsStatus status = natsConnection_JetStream(&rawContext, connection.connection(), options);
        const JsCtxPtr context(rawContext);
        if (status != NATS_OK)
            return status;
        kvStore *rawStore = nullptr;
        status = js_KeyValue(&rawStore, context.get(), bucket.c_str());
        const KvStorePtr store(rawStore);
        return status == NATS_OK ? call(store.get()) : status;
    });
}

} // namespace

KvBucket::KvBucket(NatsConnection &connection, std::string bucket, kvStore *store)
    : m_connection(&connection)
    , m_bucket(std::move(bucket))
    , m_store(store)
{
}

KvBucket::~KvBucket() = default;

Result<KvBucket> KvBucket::open(NatsConnection &connection, const std::string &bucket)
{
    kvStore *store = nullptr;
    const natsStatus status
        = retryDuringElection([&] { return js_KeyValue(&store, connection.jetStream(), bucket.c_str()); });
    if (status == NATS_NOT_FOUND)
        return makeError(
            NatsErrc::BucketNotFound, "there is no key-value bucket '" + bucket + "' on " + connection.url());
    if (status != NATS_OK)
        return bucketLookupError(connection, bucket, status, 0);
    return KvBucket(connection, bucket, store);
}

Result<KvBucket> KvBucket::openOrCreate(
    NatsConnection &connection, const std::string &bucket, const BucketReplicas &replicas)
{
    if (auto ensured = ensureKvStream(connection, bucket, replicas); !ensured)
        return ensured.error();
    return open(connection, bucket);
}

Result<std::vector<std::string>> KvBucket::keys()
{
    kvKeysList list {};
    const natsStatus status = withConsumerHandle(
        *m_connection, m_bucket, [&](kvStore *store) { return kvStore_Keys(&list, store, nullptr); });
    if (status == NATS_NOT_FOUND)
        return std::vector<std::string>();
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "list the keys of key-value bucket " + m_bucket, status, 0);
    std::vector<std::string> keys;
    keys.reserve(static_cast<std::size_t>(list.Count));
    for (int i = 0; i < list.Count; ++i)
        keys.emplace_back(list.Keys[i]);
    kvKeysList_Destroy(&list);
    return keys;
}

Result<std::vector<std::pair<std::string, std::string>>> KvBucket::entries()
{
    kvWatchOptions options;
    kvWatchOptions_Init(&options);
    options.IgnoreDeletes = true;
    kvWatcher *raw = nullptr;
    natsStatus status = withConsumerHandle(*m_connection, m_bucket, [&](kvStore *store) {
        // The watcher keeps the handle (and its context) for as long as it lives.
        return kvStore_WatchAll(&raw, store, &options);
    });
    const KvWatcherPtr watcher(raw);
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "read key-value bucket " + m_bucket, status, 0);
    std::vector<std::pair<std::string, std::string>> entries;
    // The latest value of every key comes first; an entry of null marks the end of them.
    for (;;) {
        kvEntry *next = nullptr;
        status = kvWatcher_Next(&next, watcher.get(), m_connection->waitMs());
        const KvEntryPtr entry(next);
        if (status != NATS_OK)
            return jetStreamError(*m_connection, "read key-value bucket " + m_bucket, status, 0);
        if (entry == nullptr)
            return entries;
        const auto *data = static_cast<const char *>(kvEntry_Value(entry.get()));
        const int length = kvEntry_ValueLen(entry.get());
        entries.emplace_back(kvEntry_Key(entry.get()),
            data == nullptr || length <= 0 ? std::string() : std::string(data, static_cast<std::size_t>(length)));
    }
}

Result<std::optional<std::string>> KvBucket::get(const std::string &key)
{
    kvEntry *raw = nullptr;
    const natsStatus status = kvStore_Get(&raw, m_store.get(), key.c_str());
    const KvEntryPtr entry(raw);
    if (status == NATS_NOT_FOUND)
        return std::optional<std::string>();
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "get " + key + " from key-value bucket " + m_bucket, status, 0);
    const auto *data = static_cast<const char *>(kvEntry_Value(entry.get()));
    const int length = kvEntry_ValueLen(entry.get());
    if (data == nullptr || length <= 0)
        return std::optional<std::string>(std::string());
    return std::optional<std::string>(std::string(data, static_cast<std::size_t>(length)));
}

Result<void> KvBucket::put(const std::string &key, const std::string &value)
{
    const natsStatus status
        = kvStore_Put(nullptr, m_store.get(), key.c_str(), value.data(), static_cast<int>(value.size()));
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "put " + key + " into key-value bucket " + m_bucket, status, 0);
    return {};
}

Result<void> KvBucket::remove(const std::string &key)
{
    const natsStatus status = kvStore_Delete(m_store.get(), key.c_str());
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "delete " + key + " from key-value bucket " + m_bucket, status, 0);
    return {};
}

Result<std::optional<KvEntry>> KvBucket::entry(const std::string &key)
{
    kvEntry *raw = nullptr;
    const natsStatus status = kvStore_Get(&raw, m_store.get(), key.c_str());
    const KvEntryPtr found(raw);
    if (status == NATS_NOT_FOUND)
        return std::optional<KvEntry>();
    if (status != NATS_OK)
        return jetStreamError(*m_connection, "get " + key + " from key-value bucket " + m_bucket, status, 0);
    const auto *data = static_cast<const char *>(kvEntry_Value(found.get()));
    const int length = kvEntry_ValueLen(found.get());
    KvEntry entry;
    if (data != nullptr && length > 0)
        entry.value.assign(data, static_cast<std::size_t>(length));
    entry.revision = kvEntry_Revision(found.get());
    return std::optional<KvEntry>(std::move(entry));
}

Result<std::uint64_t> KvBucket::update(const std::string &key, const std::string &value, std::uint64_t revision)
{
    std::uint64_t written = 0;
    const int length = static_cast<int>(value.size());
    const natsStatus status = revision == 0
        ? kvStore_Create(&written, m_store.get(), key.c_str(), value.data(), length)
        : kvStore_Update(&written, m_store.get(), key.c_str(), value.data(), length, revision);
    if (status == NATS_OK)
        return written;
    // JetStream refuses with "wrong last sequence" when the key moved on; rather than match
    // the text, the revision is read back to tell that from any other failure.
    auto current = entry(key);
    if (current && (revision == 0 ? current->has_value() : (!current->has_value() || (*current)->revision != revision)))
        return makeError(NatsErrc::Changed,
            "the value of " + key + " in key-value bucket " + m_bucket
                + " was written by someone else since it was read");
    return jetStreamError(*m_connection, "update " + key + " in key-value bucket " + m_bucket, status, 0);
}

} // namespace ccm::fleet
