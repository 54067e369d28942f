// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/nats_context.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace ccm::fleet {

class NatsConnection;

/// A value named by a kv://BUCKET/KEY URL.
struct KvUrl {
    std::string bucket;
    std::string key;
};

/// True when `text` starts with "kv://".
bool isKvUrl(const std::string &text);

/// Parses kv://BUCKET/KEY. Error code "bad_url" when the bucket or the key is missing.
Result<KvUrl> parseKvUrl(const std::string &text);

/// Reads values of NATS JetStream key-value buckets for one run: connects on the first read, with
/// the settings the selection resolves to, and keeps every value (and a failed connection) it
/// got, so a manifest that reads a key many times sees one value. Thread-safe.
class KvReader {
public:
    KvReader(NatsSelection selection, ContextEnvironment environment);
    ~KvReader();
    KvReader(const KvReader &) = delete;
    KvReader &operator=(const KvReader &) = delete;

    /// The value of `key` in `bucket`, as stored (bytes, not decoded). Error codes: "bad_name"
    /// (an empty bucket or key), "bucket_not_found", "key_not_found", and the connection's.
    Result<std::string> get(const std::string &bucket, const std::string &key);

private:
    Result<void> connect();

    std::mutex m_mutex;
    NatsSelection m_selection;
    ContextEnvironment m_environment;
    std::unique_ptr<NatsConnection> m_connection;
    std::optional<Error> m_connectError;
    std::map<std::pair<std::string, std::string>, Result<std::string>> m_values;
};

} // namespace ccm::fleet
