// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agent_report.h"
#include "result.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

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
    std::map<std::string, int> m_health; ///< by source: 0 ok, 1 warning, 2 critical, 3 unknown
};

/// Serves AgentMetrics on http://127.0.0.1:PORT/metrics (loopback only: a scraper on another host
/// reaches it through a proxy or tunnel the operator chooses, so the endpoint never widens the
/// host's exposure). Other paths get 404, other methods 405.
class MetricsServer {
public:
    static Result<std::unique_ptr<MetricsServer>> start(int port, const AgentMetrics &metrics);
    ~MetricsServer();
    MetricsServer(const MetricsServer &) = delete;
    MetricsServer &operator=(const MetricsServer &) = delete;

private:
    explicit MetricsServer(const AgentMetrics &metrics);

    const AgentMetrics &m_metrics;
    MHD_Daemon *m_daemon = nullptr;
};

} // namespace ccm::fleet
