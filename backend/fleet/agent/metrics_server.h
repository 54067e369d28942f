// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rate_limited_log.h"
#include "base/result.h"
#include "core/bundle/bundle_signature.h"
#include "fleet/agent/agent_report.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

struct MHD_Connection;
struct MHD_Daemon;

namespace ccm::fleet {

/// The agent's Prometheus metrics, all named ccm_agent_*. Thread-safe.
class AgentMetrics {
public:
    /// Counts a finished run (by source, mode and outcome), its resources by outcome, its duration
    /// and time, and for health runs the health status of the source.
    void recordRun(const SourceRunReport &report);
    /// Counts a failed fetch of `source`.
    void recordFetchError(const std::string &source);
    /// Counts a bundle of `source` refused (too large, hostile or invalid): once per bundle.
    void recordRefusedBundle(const std::string &source);
    /// Counts a bundle of `source` refused for its signature (bundle_keys), by why: once per bundle.
    void recordSignatureRefusal(const std::string &source, BundleSignatureErrc reason);
    /// The exposition text (Prometheus text format 0.0.4).
    std::string render() const;

private:
    struct Duration {
        std::map<double, std::uint64_t> buckets; ///< upper bound -> observations at most that
        double sum = 0;
        std::uint64_t count = 0;
    };

    std::string renderRuns() const;
    std::string renderDurations() const;

    mutable std::mutex m_mutex;
    std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t> m_runs; ///< source, mode, outcome
    std::map<std::pair<std::string, std::string>, std::uint64_t> m_resources; ///< source, outcome
    std::map<std::string, Duration> m_durations; ///< by source
    std::map<std::string, double> m_lastRun; ///< by source, Unix seconds
    std::map<std::string, std::uint64_t> m_fetchErrors; ///< by source
    std::map<std::string, std::uint64_t> m_refusedBundles; ///< by source
    std::map<std::pair<std::string, std::string>, std::uint64_t> m_signatureRefusals; ///< source, reason
    std::map<std::string, int> m_health; ///< by source: 0 ok, 1 warning, 2 critical, 3 unknown
};

/// Serves AgentMetrics on http://127.0.0.1:PORT/metrics (loopback only: a scraper on another host
/// reaches it through a proxy or tunnel the operator chooses, so the endpoint never widens the
/// host's exposure). Other paths get 404, other methods 405.
///
/// Any local user can connect, so no client may keep a scrape out: a request gets
/// kRequestDeadline from when its connection was accepted or its previous answer sent (a
/// connection past it is closed when the next one arrives), and at most kMaxClients connections
/// are served at once; a new one past that closes the connection that has waited longest for its
/// request. What the server logs (and libmicrohttpd with it) goes to `log` (by default stderr),
/// rate-limited per message.
class MetricsServer {
public:
    using Clock = std::chrono::steady_clock;

    /// Connections served at once; a scrape needs one for a few milliseconds.
    static constexpr std::size_t kMaxClients = 16;
    /// How long a connection may take to send a whole request (a scrape needs milliseconds).
    static constexpr std::chrono::seconds kRequestDeadline {10};

    /// Receives each line the server logs; called on the server's polling thread.
    using LogSink = std::function<void(const std::string &line)>;

    static Result<std::unique_ptr<MetricsServer>> start(int port, const AgentMetrics &metrics, LogSink log = {});
    ~MetricsServer();
    MetricsServer(const MetricsServer &) = delete;
    MetricsServer &operator=(const MetricsServer &) = delete;

private:
    /// libmicrohttpd's callbacks, which reach the members below.
    struct Callbacks;
    /// A connection open now: its socket, when its current request began, whether it is closing.
    struct Client {
        int fd = -1;
        Clock::time_point since;
        bool closing = false;
    };

    MetricsServer(const AgentMetrics &metrics, LogSink log);
    /// Takes `connection` on, closing those past their deadline and, over kMaxClients, the one
    /// that has waited longest.
    void connectionStarted(MHD_Connection *connection);
    /// Shuts the socket of `client` down; libmicrohttpd then closes the connection as one the
    /// client closed.
    void close(Client &client, std::string_view reason, std::string_view message);

    const AgentMetrics &m_metrics;
    RateLimitedLog m_log;
    /// Touched only from libmicrohttpd's callbacks: on its polling thread, and in the thread that
    /// stops it once that thread has ended.
    std::map<MHD_Connection *, Client> m_clients;
    MHD_Daemon *m_daemon = nullptr;
};

} // namespace ccm::fleet
