// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_nats.h"

#include <algorithm>
#include <array>
#include <nats/nats.h>

namespace ccm::fleet {
namespace {

extern "C" void onWatchMessage(natsConnection *, natsSubscription *, natsMsg *message, void *closure)
{
    const auto *handler = static_cast<const NatsLink::Handler *>(closure);
    NatsMessage received;
    received.subject = natsMsg_GetSubject(message);
    if (const char *reply = natsMsg_GetReply(message))
        received.reply = reply;
    if (const char *data = natsMsg_GetData(message))
        received.data.assign(data, static_cast<std::size_t>(natsMsg_GetDataLength(message)));
    natsMsg_Destroy(message);
    (*handler)(received);
}

bool isConnected(const NatsConnection &connection)
{
    return natsConnection_Status(connection.connection()) == NATS_CONN_STATUS_CONNECTED;
}

} // namespace

NatsLink::NatsLink(NatsSelection selection, ContextEnvironment environment, std::chrono::milliseconds retryDelay)
    : m_selection(std::move(selection))
    , m_environment(std::move(environment))
    , m_retryDelay(retryDelay)
{
}

NatsLink::~NatsLink()
{
    const std::lock_guard lock(m_mutex);
    // What was published last (the run of a cancelled apply) reaches the server before the exit.
    if (m_connection && isConnected(*m_connection))
        natsConnection_FlushTimeout(m_connection->connection(), 2000);
    dropLocked();
}

void NatsLink::dropLocked()
{
    for (natsSubscription *subscription : m_subscriptions) {
        natsSubscription_Unsubscribe(subscription);
        natsSubscription_Destroy(subscription);
    }
    m_subscriptions.clear();
    m_kvBuckets.clear();
    m_connection.reset();
}

std::shared_ptr<NatsConnection> NatsLink::connection()
{
    const std::lock_guard lock(m_mutex);
    return connectLocked();
}

std::shared_ptr<NatsConnection> NatsLink::connectLocked()
{
    if (m_connection && isConnected(*m_connection))
        return m_connection;
    const auto now = std::chrono::steady_clock::now();
    if (m_connection) {
        m_lastError = makeError(NatsErrc::Unreachable, "lost the connection to " + m_connection->url());
        m_lostAt = now;
        if (m_note)
            m_note(m_lastError.message + "; connecting again", true);
    }
    dropLocked();
    if (m_lastAttempt != std::chrono::steady_clock::time_point {} && now - m_lastAttempt < m_retryDelay)
        return nullptr;
    m_lastAttempt = now;
    auto settings = resolveNatsSettings(m_selection, m_environment);
    if (!settings) {
        m_lastError = settings.error();
        return nullptr;
    }
    auto connected = NatsConnection::connect(settings.value());
    if (!connected) {
        m_lastError = connected.error();
        return nullptr;
    }
    m_connection = std::shared_ptr<NatsConnection>(std::move(connected).value());
    ++m_generation;
    if (m_lostAt && m_note) {
        const auto tenths
            = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - *m_lostAt)
                  .count()
            / 100;
        m_note("connected to " + m_connection->url() + " again, " + std::to_string(tenths / 10) + "."
                + std::to_string(tenths % 10) + " s after the connection was lost",
            false);
    }
    m_lostAt.reset();
    for (Watch &watch : m_watches)
        subscribeLocked(*m_connection, watch);
    return m_connection;
}

void NatsLink::subscribeLocked(NatsConnection &connection, Watch &watch)
{
    natsSubscription *subscription = nullptr;
    if (natsConnection_Subscribe(
            &subscription, connection.connection(), watch.subject.c_str(), onWatchMessage, &watch.handler)
        == NATS_OK)
        m_subscriptions.push_back(subscription);
}

Error NatsLink::lastError() const
{
    const std::lock_guard lock(m_mutex);
    return m_lastError;
}

std::uint64_t NatsLink::generation() const
{
    const std::lock_guard lock(m_mutex);
    return m_generation;
}

void NatsLink::subscribe(const std::string &subject, Handler handler)
{
    const std::lock_guard lock(m_mutex);
    Watch &watch = m_watches.emplace_back(Watch {subject, std::move(handler)});
    if (m_connection && isConnected(*m_connection))
        subscribeLocked(*m_connection, watch);
}

Result<void> NatsLink::publish(const std::string &subject, const std::string &data)
{
    auto connection = this->connection();
    if (!connection)
        return lastError();
    const natsStatus status
        = natsConnection_Publish(connection->connection(), subject.c_str(), data.data(), static_cast<int>(data.size()));
    if (status != NATS_OK)
        return makeError(NatsErrc::Nats, "publishing to " + subject + ": " + natsStatus_GetText(status));
    return {};
}

Result<void> NatsLink::kvPut(
    const std::string &bucket, const std::string &key, const std::string &value, const std::string &messageId)
{
    const std::lock_guard lock(m_mutex);
    const auto connection = connectLocked();
    if (!connection)
        return m_lastError;
    if (std::find(m_kvBuckets.begin(), m_kvBuckets.end(), bucket) == m_kvBuckets.end()) {
        if (auto created = ensureKvStream(*connection, bucket, m_bucketReplicas); !created)
            return created.error();
        m_kvBuckets.push_back(bucket);
    }
    const std::string subject = "$KV." + bucket + "." + key;
    jsPubOptions options {}; // what jsPubOptions_Init() makes: all zero
    if (!messageId.empty())
        options.MsgId = messageId.c_str();
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    const natsStatus status = js_Publish(nullptr, connection->jetStream(), subject.c_str(), value.data(),
        static_cast<int>(value.size()), &options, &errorCode);
    if (status != NATS_OK)
        return jetStreamError(*connection, "storing " + bucket + "/" + key, status, errorCode);
    return {};
}

} // namespace ccm::fleet
