// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/nats_errors.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct __natsSubscription;

namespace ccm::fleet {

/// A message received on a subscription.
struct NatsMessage {
    std::string subject;
    std::string reply; ///< empty when the sender wants no answer
    std::string data;
};

/// The agent's one NATS connection, made from a context and remade after the server goes away:
/// callers ask for it when they need it, and a lost connection is retried at most every
/// `retryDelay`. Subscriptions made here outlive reconnections (they are made again on every new
/// connection), so watchers and responders need not notice the server restarting. Thread-safe.
class NatsLink {
public:
    using Handler = std::function<void(const NatsMessage &)>;

    NatsLink(NatsSelection selection, ContextEnvironment environment,
        std::chrono::milliseconds retryDelay = std::chrono::seconds(2));
    ~NatsLink();
    NatsLink(const NatsLink &) = delete;
    NatsLink &operator=(const NatsLink &) = delete;

    /// The connection, connecting first when there is none or it was lost and the retry delay has
    /// passed; null while the server cannot be reached (lastError() says why). Holding the pointer
    /// keeps the connection open.
    std::shared_ptr<NatsConnection> connection();
    /// Why the last connection attempt failed.
    Error lastError() const;
    /// Counts connections made, so a caller can tell the server came back.
    std::uint64_t generation() const;

    /// Calls `handler` (on a NATS thread) for every message on `subject`, now and on every later
    /// connection. The subscription ends with the link.
    void subscribe(const std::string &subject, Handler handler);
    /// Publishes a core NATS message; an error when there is no connection.
    Result<void> publish(const std::string &subject, const std::string &data);
    /// Stores `value` under `key` in the key-value bucket `bucket`, creating the bucket (history 1,
    /// file storage, as official clients create one) when it is missing, with the replicas
    /// setBucketReplicas() gave (ensureKvStream()).
    /// A `messageId` goes out as Nats-Msg-Id: the bucket stores a put offered again under the same
    /// id within its duplicate window (two minutes) once.
    Result<void> kvPut(
        const std::string &bucket, const std::string &key, const std::string &value, const std::string &messageId = {});
    /// Gets (text, warning) once when the connection is lost and once when it is made again, on
    /// whichever server of the list answers: the log lines of a failover. Call before connecting.
    void setConnectionNotes(std::function<void(const std::string &, bool)> note)
    {
        const std::lock_guard lock(m_mutex);
        m_note = std::move(note);
    }
    /// The replicas of the buckets kvPut() creates (the agent's `replicas:`); call before kvPut().
    void setBucketReplicas(BucketReplicas replicas)
    {
        const std::lock_guard lock(m_mutex);
        m_bucketReplicas = std::move(replicas);
    }

private:
    struct Watch {
        std::string subject;
        Handler handler;
    };

    std::shared_ptr<NatsConnection> connectLocked();
    void subscribeLocked(NatsConnection &connection, Watch &watch);
    void dropLocked();

    mutable std::mutex m_mutex;
    NatsSelection m_selection;
    ContextEnvironment m_environment;
    std::chrono::milliseconds m_retryDelay;
    std::chrono::steady_clock::time_point m_lastAttempt {};
    std::shared_ptr<NatsConnection> m_connection;
    std::vector<__natsSubscription *> m_subscriptions;
    std::list<Watch> m_watches; ///< stable addresses: they are the subscriptions' closures
    std::vector<std::string> m_kvBuckets; ///< buckets known to exist on this connection
    BucketReplicas m_bucketReplicas {std::nullopt, "replicas:", {}};
    Error m_lastError = makeError(NatsErrc::Unreachable, "not connected yet");
    std::uint64_t m_generation = 0;
    std::function<void(const std::string &, bool)> m_note;
    std::optional<std::chrono::steady_clock::time_point> m_lostAt; ///< when the last connection was lost
};

} // namespace ccm::fleet
