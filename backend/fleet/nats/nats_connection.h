// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "fleet/nats/nats_context.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct __natsConnection;
struct __jsCtx;

namespace ccm::fleet {

/// An open connection to a NATS server with its JetStream context. Not copyable; closing happens
/// on destruction.
class NatsConnection {
public:
    /// How long a JetStream API call or a published message waits for its answer.
    static constexpr int kDefaultWaitMs = 5000;

    /// Connects with `settings`, whose `url` is one server URL or a comma-separated list of them
    /// (spaces around the commas allowed): cnats tries the servers of the list until one answers.
    /// Error codes: "unreachable" (no server of the list answers),
    /// "auth_failed" (the server refused the credentials), "tls_failed" (the TLS handshake or a
    /// client certificate the server wants failed), "bad_settings" (a credentials, key or
    /// certificate file cannot be used, an empty or invalid URL in the list), "nats" (anything
    /// else); messages name the URL or the whole list and the settings' source.
    static Result<std::unique_ptr<NatsConnection>> connect(const NatsSettings &settings, int waitMs = kDefaultWaitMs);

    ~NatsConnection();
    NatsConnection(const NatsConnection &) = delete;
    NatsConnection &operator=(const NatsConnection &) = delete;

    __natsConnection *connection() const { return m_connection; }
    __jsCtx *jetStream() const { return m_jetStream; }
    /// The URL of the server connected to, for messages.
    const std::string &url() const { return m_url; }
    /// The settings connected with.
    const NatsSettings &settings() const { return m_settings; }
    /// How many servers the connected server reports in its cluster: its INFO's connect_urls
    /// (which name every server of the cluster, itself included), 1 when it gives none (a server
    /// not in a cluster). When the settings listed several URLs, a second short connection to
    /// the connected server alone asks, so that URLs of the list are not counted as servers.
    int clusterSize() const;
    int waitMs() const { return m_waitMs; }
    /// The largest message payload the server accepts.
    std::int64_t maxPayload() const;

private:
    NatsConnection(__natsConnection *connection, __jsCtx *jetStream, std::string url, int waitMs);

    __natsConnection *m_connection;
    __jsCtx *m_jetStream;
    std::string m_url;
    int m_waitMs;
    NatsSettings m_settings;
    std::size_t m_serverCount = 1;
};

/// The URLs of a server list ("nats://a:4222, nats://b:4222"), trimmed of spaces; an empty
/// element stays as an empty string, for the caller to refuse.
std::vector<std::string> splitServerList(const std::string &list);

/// The error for a failed JetStream API call `what` (such as "create stream OBJ_b"): code
/// "no_jetstream" when nothing answers the JetStream API, else "nats" with cnats' own text.
/// `status` is a natsStatus, `jsErrorCode` a jsErrCode (0 when none).
Error jetStreamError(const NatsConnection &connection, const std::string &what, int status, int jsErrorCode);

} // namespace ccm::fleet
