// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "fleet/agent/agent_config.h"
#include "fleet/agent/agent_log.h"
#include "fleet/agent/agent_nats.h"
#include "fleet/agent/agent_worker.h"
#include "fleet/agent/metrics_server.h"

#include <memory>
#include <string>
#include <vector>

namespace ccm::fleet {

class Agent;

/// Something that runs beside the workers on the agent's connection, such as the fleet preview
/// responder: started once the agent has started (subscribe through Agent::nats(), which keeps
/// subscriptions across reconnections), stopped before the agent stops.
class AgentService {
public:
    virtual ~AgentService();
    virtual void start(Agent &agent) = 0;
    virtual void stop() = 0;
};

/// The fleet agent: one SourceWorker per manifest source sharing one NATS connection, the facts,
/// the status value and the metrics. Not copyable.
class Agent {
public:
    /// What an agent needs from its process.
    struct Environment {
        ContextEnvironment nats = ContextEnvironment::fromProcess();
        FactSources facts;
        std::string version;
    };

    /// `metrics` and `outbox` outlive the agent: a reload keeps the counters and the reports that
    /// NATS has not taken yet.
    Agent(AgentConfig config, ManifestRunner runner, AgentLog &log, AgentMetrics &metrics, ReportOutbox &outbox,
        Environment environment);
    ~Agent();
    Agent(const Agent &) = delete;
    Agent &operator=(const Agent &) = delete;

    /// Adds a service started by start(); call before start().
    void addService(std::unique_ptr<AgentService> service);
    /// Creates the cache directory (0700), keeps the outbox's reports in it (reports.json, 0600)
    /// and starts the workers, then the services. With `once` each worker fetches and applies its
    /// source once and ends.
    Result<void> start(bool once);
    /// Stops the services, then the workers after their current run; with `cancelRuns` runs stop
    /// before their next resource. Returns once every thread has ended.
    void stop(bool cancelRuns);
    /// True when every worker has ended (with start(true): every source ran once).
    bool finished() const;
    /// True when every worker's latest run ran and no resource failed.
    bool succeeded() const;

    const AgentConfig &config() const { return m_shared->config; }
    AgentLog &log() { return m_shared->log; }
    /// The agent's NATS connection (one per agent, remade after the server goes away).
    NatsLink &nats() { return m_shared->nats; }
    /// The host's facts, refreshed at most every two minutes. Thread-safe.
    Json facts() { return m_shared->facts.get(); }

private:
    std::unique_ptr<AgentShared> m_shared;
    std::vector<std::unique_ptr<SourceWorker>> m_workers;
    std::vector<std::unique_ptr<AgentService>> m_services;
    bool m_servicesStarted = false;
};

} // namespace ccm::fleet
