// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_worker.h"

#include "base/file_reading.h"
#include "base/sha256.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::fleet {

std::filesystem::path cacheFileFor(const std::filesystem::path &cacheDir, const std::string &source)
{
    return cacheDir / (sha256Hex(source) + ".tar.gz");
}

namespace {

NatsSelection contextSelection(const std::string &context)
{
    NatsSelection selection;
    selection.context = context;
    return selection;
}

} // namespace

AgentShared::AgentShared(AgentConfig config_, AgentLog &log_, AgentMetrics &metrics_, ReportOutbox &outbox_,
    const ContextEnvironment &natsEnvironment, FactSources facts_, ManifestRunner runner_, std::string version_)
    : config(std::move(config_))
    , log(log_)
    , metrics(metrics_)
    , outbox(outbox_)
    , nats(contextSelection(config.natsContext), natsEnvironment)
    , facts(std::move(facts_), log_)
    , status(config.identity)
    , runner(std::move(runner_))
    , version(std::move(version_))
{
    const auto note = [this](const std::string &text, bool warning) {
        if (warning)
            log.warn(text);
        else
            log.info(text);
    };
    nats.setBucketReplicas(BucketReplicas {config.replicas, "replicas:", note});
    nats.setConnectionNotes(note);
}

FactsCache::FactsCache(FactSources sources, AgentLog &log)
    : m_sources(std::move(sources))
    , m_log(log)
{
}

Json FactsCache::get()
{
    const std::lock_guard lock(m_mutex);
    const auto now = std::chrono::steady_clock::now();
    if (!m_facts.is_null() && now - m_gathered < kMaxAge)
        return m_facts;
    auto gathered = gatherFacts(m_sources);
    if (!gathered) {
        m_log.error("gathering facts failed, using the previous ones: " + gathered.error().message);
        return m_facts.is_null() ? Json::object() : m_facts;
    }
    m_facts = std::move(gathered).value();
    m_gathered = now;
    return m_facts;
}

SourceWorker::SourceWorker(AgentShared &shared, std::string source)
    : m_shared(shared)
    , m_source(std::move(source))
    , m_shown(redactUrl(m_source))
    , m_cacheFile(cacheFileFor(shared.config.cacheDir, m_source))
    , m_downloadFile(std::filesystem::path(m_cacheFile).replace_extension().replace_extension(".download.tar.gz"))
{
}

SourceWorker::~SourceWorker()
{
    requestStop();
    join();
}

void SourceWorker::start(bool once)
{
    m_thread = std::thread([this, once] {
        loadCacheMeta();
        if (once) {
            if (isRemote())
                refresh();
            run(RunMode::Apply);
        } else {
            loop();
        }
        m_finished = true;
    });
}

void SourceWorker::requestStop()
{
    const std::lock_guard lock(m_mutex);
    m_stop = true;
    m_wake.notify_all();
}

void SourceWorker::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool SourceWorker::isRemote() const
{
    const SourceKind kind = sourceKind(m_source);
    return kind == SourceKind::HttpBundle || kind == SourceKind::ObjectBundle;
}

void SourceWorker::waitUntil(std::chrono::steady_clock::time_point deadline)
{
    std::unique_lock lock(m_mutex);
    m_wake.wait_until(lock, deadline, [this] { return m_stop || m_changed; });
}

} // namespace ccm::fleet
