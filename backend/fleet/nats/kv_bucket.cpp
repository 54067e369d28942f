// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/kv_bucket.h"

#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <nats/nats.h>

namespace ccm::fleet {
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
    const natsStatus status = js_KeyValue(&store, connection.jetStream(), bucket.c_str());
    if (status == NATS_NOT_FOUND)
        return makeError(
            NatsErrc::BucketNotFound, "there is no key-value bucket '" + bucket + "' on " + connection.url());
    if (status != NATS_OK)
        return jetStreamError(connection, "open key-value bucket " + bucket, status, 0);
    return KvBucket(connection, bucket, store);
}

Result<KvBucket> KvBucket::openOrCreate(NatsConnection &connection, const std::string &bucket)
{
    auto opened = open(connection, bucket);
    if (opened || !hasCode(opened.error(), NatsErrc::BucketNotFound))
        return opened;
    kvConfig config;
    kvConfig_Init(&config);
    config.Bucket = bucket.c_str();
    config.History = 1;
    config.StorageType = js_FileStorage;
    kvStore *store = nullptr;
    const natsStatus status = js_CreateKeyValue(&store, connection.jetStream(), &config);
    if (status != NATS_OK)
        return jetStreamError(connection, "create key-value bucket " + bucket, status, 0);
    return KvBucket(connection, bucket, store);
}

Result<std::vector<std::string>> KvBucket::keys()
{
    kvKeysList list {};
    const natsStatus status = kvStore_Keys(&list, m_store.get(), nullptr);
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

} // namespace ccm::fleet
