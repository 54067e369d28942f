// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent.h"

#include "base/private_files.h"

namespace ccm::fleet {

AgentService::~AgentService() = default;

Agent::Agent(AgentConfig config, ManifestRunner runner, AgentLog &log, AgentMetrics &metrics, ReportOutbox &outbox,
    Environment environment)
{
    m_shared = std::make_unique<AgentShared>(std::move(config), log, metrics, outbox, environment.nats,
        std::move(environment.facts), std::move(runner), std::move(environment.version));
}

Agent::~Agent()
{
    stop(true);
    m_services.clear();
    // The workers' watches are subscriptions of the link: they end before the workers go.
    m_shared.reset();
}

void Agent::addService(std::unique_ptr<AgentService> service)
{
    m_services.push_back(std::move(service));
}

Result<void> Agent::start(bool once)
{
    const std::filesystem::path &cacheDir = m_shared->config.cacheDir;
    if (auto created = createPrivateDirectory(cacheDir); !created)
        return created.error().withContext("cache_dir");
    m_shared->outbox.persistTo(cacheDir / "reports.json", m_shared->log);
    m_shared->log.info("agent " + m_shared->config.identity + " starting with "
        + std::to_string(m_shared->config.manifests.size()) + " manifest source(s)");
    for (const std::string &source : m_shared->config.manifests) {
        m_workers.push_back(std::make_unique<SourceWorker>(*m_shared, source));
        m_workers.back()->start(once);
    }
    for (const auto &service : m_services)
        service->start(*this);
    m_servicesStarted = true;
    return {};
}

void Agent::stop(bool cancelRuns)
{
    if (m_servicesStarted) {
        for (const auto &service : m_services)
            service->stop();
        m_servicesStarted = false;
    }
    if (cancelRuns)
        m_shared->cancel = true;
    for (const auto &worker : m_workers)
        worker->requestStop();
    for (const auto &worker : m_workers)
        worker->join();
}

bool Agent::finished() const
{
    for (const auto &worker : m_workers)
        if (!worker->finished())
            return false;
    return true;
}

bool Agent::succeeded() const
{
    for (const auto &worker : m_workers)
        if (!worker->succeeded())
            return false;
    return true;
}

} // namespace ccm::fleet
