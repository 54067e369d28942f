// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/kv_reader.h"

#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <nats/nats.h>

namespace ccm::fleet {
namespace {

constexpr std::string_view kKvScheme = "kv://";

Result<std::string> readValue(NatsConnection &connection, const std::string &bucket, const std::string &key)
{
    kvStore *rawStore = nullptr;
    natsStatus status = js_KeyValue(&rawStore, connection.jetStream(), bucket.c_str());
    const KvStorePtr store(rawStore);
    if (status == NATS_NOT_FOUND)
        return makeError(
            NatsErrc::BucketNotFound, "there is no key-value bucket '" + bucket + "' on " + connection.url());
    if (status != NATS_OK)
        return jetStreamError(connection, "open key-value bucket " + bucket, status, 0);
    kvEntry *rawEntry = nullptr;
    status = kvStore_Get(&rawEntry, store.get(), key.c_str());
    const KvEntryPtr entry(rawEntry);
    if (status == NATS_NOT_FOUND)
        return makeError(NatsErrc::KeyNotFound, "the key-value bucket '" + bucket + "' has no key '" + key + "'");
    if (status != NATS_OK)
        return jetStreamError(connection, "get " + key + " from key-value bucket " + bucket, status, 0);
    const auto *data = static_cast<const char *>(kvEntry_Value(entry.get()));
    const int length = kvEntry_ValueLen(entry.get());
    return std::string(
        data == nullptr ? "" : data, data == nullptr || length < 0 ? 0 : static_cast<std::size_t>(length));
}

} // namespace

bool isKvUrl(const std::string &text)
{
    return text.starts_with(kKvScheme);
}

Result<KvUrl> parseKvUrl(const std::string &text)
{
    const Error bad {"bad_url", "invalid key-value URL '" + text + "': expected kv://BUCKET/KEY"};
    if (!isKvUrl(text))
        return bad;
    const std::string rest = text.substr(kKvScheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == rest.size())
        return bad;
    return KvUrl {rest.substr(0, slash), rest.substr(slash + 1)};
}

KvReader::KvReader(NatsSelection selection, ContextEnvironment environment)
    : m_selection(std::move(selection))
    , m_environment(std::move(environment))
{
}

KvReader::~KvReader() = default;

Result<void> KvReader::connect()
{
    if (m_connection)
        return {};
    if (m_connectError)
        return *m_connectError;
    auto settings = resolveNatsSettings(m_selection, m_environment);
    if (!settings) {
        m_connectError = settings.error().withContext("needs a NATS connection");
        return *m_connectError;
    }
    auto connection = NatsConnection::connect(settings.value());
    if (!connection) {
        m_connectError = connection.error().withContext("needs a NATS connection");
        return *m_connectError;
    }
    m_connection = std::move(connection).value();
    return {};
}

Result<std::string> KvReader::get(const std::string &bucket, const std::string &key)
{
    if (bucket.empty())
        return makeError(NatsErrc::BadName, "the bucket name is required");
    if (key.empty())
        return makeError(NatsErrc::BadName, "the key is required");
    const std::lock_guard lock(m_mutex);
    const auto cached = m_values.find({bucket, key});
    if (cached != m_values.end())
        return cached->second;
    auto connected = connect();
    if (!connected)
        return connected.error();
    Result<std::string> value = readValue(*m_connection, bucket, key);
    m_values.emplace(std::pair {bucket, key}, value);
    return value;
}

} // namespace ccm::fleet
