// SPDX-License-Identifier: Apache-2.0
// SourceWorker: when to run, running, and reporting runs.
#include "base/base64.h"
#include "base/file_reading.h"
#include "fleet/agent/agent_registration.h"
#include "fleet/agent/agent_worker.h"
#include "fleet/nats/object_store.h"

#include <algorithm>
#include <utility>

namespace ccm::fleet {
namespace {

using SteadyClock = std::chrono::steady_clock;

/// Checks the loop makes at least this often, so a server coming back is noticed.
constexpr std::chrono::seconds kTick {2};
constexpr std::chrono::seconds kFirstBackoff {5};

std::string metaSubject(const std::string &source)
{
    const std::string rest = source.substr(std::string_view("obj://").size());
    const std::size_t slash = rest.find('/');
    return "$O." + rest.substr(0, slash) + ".M." + encodeBase64Url(rest.substr(slash + 1));
}

/// Forwards a run's events to NATS and its logs to the agent's log.
class AgentObserver : public engine::RunObserver {
public:
    AgentObserver(AgentShared &shared, SourceRunReport &report)
        : m_shared(shared)
        , m_report(report)
    {
    }

    void message(std::string_view text) override { m_shared.log.info(m_report.source + ": " + std::string(text)); }

    void resourceFinished(const TransactionEvent &event) override
    {
        if (event.failed)
            m_report.failedResources.push_back(event.resource());
        const std::string subject = "ccm.agent." + subjectToken(m_report.identity) + ".event";
        if (auto sent = m_shared.nats.publish(subject, eventMessage(m_report, event).dump()); !sent)
            m_shared.log.debug("event of " + event.resource() + " not published: " + sent.error().message);
        publishRegistrations(event);
    }

    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        const std::string line = std::string(resource) + ": " + std::string(message);
        switch (level) {
        case engine::LogLevel::Debug:
            return m_shared.log.debug(line);
        case engine::LogLevel::Info:
            return m_shared.log.info(line);
        case engine::LogLevel::Warning:
            return m_shared.log.warn(line);
        case engine::LogLevel::Error:
            return m_shared.log.error(line);
        }
    }

private:
    /// register_when_stable entries of a stable resource go to the configured destination.
    void publishRegistrations(const TransactionEvent &event)
    {
        const RegistrationDestination destination = m_shared.config.registration;
        if (destination == RegistrationDestination::None)
            return;
        for (const RegistrationMessage &message : registrationMessages(event)) {
            if (auto sent = publishRegistration(m_shared.nats, destination, message); !sent)
                m_shared.log.warn(event.resource() + ": registration not published: " + sent.error().message);
        }
    }

    AgentShared &m_shared;
    SourceRunReport &m_report;
};

} // namespace

void SourceWorker::loop()
{
    if (sourceKind(m_source) == SourceKind::ObjectBundle && m_source.find('/', 6) != std::string::npos) {
        m_shared.nats.subscribe(metaSubject(m_source), [this](const NatsMessage &) {
            const std::lock_guard lock(m_mutex);
            m_changed = true;
            m_wake.notify_all();
        });
    }
    const auto now = SteadyClock::now();
    m_nextApply = now;
    m_nextPoll = now;
    m_nextHealth = now + m_shared.config.healthCheckInterval;
    for (;;) {
        {
            const std::lock_guard lock(m_mutex);
            if (m_stop)
                return;
        }
        loopIteration();
        auto deadline = std::min({m_nextApply, SteadyClock::now() + kTick});
        if (m_shared.config.healthCheckInterval.count() > 0)
            deadline = std::min(deadline, m_nextHealth);
        waitUntil(deadline);
    }
}

void SourceWorker::loopIteration()
{
    // Reports that waited and are now taken: JetStream was out of reach behind a live connection (a
    // leaf node cut off from its hub) and is back, and the watch heard nothing meanwhile.
    const bool reportsWaited = m_shared.outbox.size() > 0;
    m_shared.outbox.flush(m_shared.nats, m_shared.log);
    bool refreshDue = reportsWaited && m_shared.outbox.size() == 0;
    {
        const std::lock_guard lock(m_mutex);
        refreshDue = std::exchange(m_changed, false) || refreshDue;
    }
    if (sourceKind(m_source) == SourceKind::ObjectBundle) {
        // Reconnects when due; a new connection may have missed updates, so catch up.
        const bool connected = m_shared.nats.connection() != nullptr;
        const std::uint64_t generation = m_shared.nats.generation();
        refreshDue = refreshDue || (connected && generation != m_generation);
        m_generation = generation;
    }
    const auto now = SteadyClock::now();
    if (isRemote() && (refreshDue || now >= m_nextPoll)) {
        m_fetchFailed = false;
        const bool changed = refresh();
        m_nextPoll = now + nextPollDelay();
        if (changed)
            m_nextApply = now;
    }
    if (SteadyClock::now() >= m_nextApply) {
        const SourceRunReport report = run(RunMode::Apply);
        const bool ok = report.error.empty() && report.summary.failed == 0 && !report.aborted;
        m_nextApply = SteadyClock::now() + nextApplyDelay(ok);
        return;
    }
    const auto healthInterval = m_shared.config.healthCheckInterval;
    if (healthInterval.count() > 0 && SteadyClock::now() >= m_nextHealth) {
        m_nextHealth = SteadyClock::now() + healthInterval;
        const SourceRunReport report = run(RunMode::Health);
        if (report.summary.checksCritical > 0) {
            m_shared.log.warn(m_shown + ": a health check is critical; remediating");
            run(RunMode::Remediate);
        }
    }
}

std::chrono::milliseconds SourceWorker::nextPollDelay()
{
    const auto interval = std::chrono::duration_cast<std::chrono::milliseconds>(m_shared.config.pollInterval);
    if (!m_fetchFailed) {
        m_fetchRetry = std::chrono::milliseconds(1000);
        return interval;
    }
    const auto delay = std::min(m_fetchRetry, interval);
    m_fetchRetry = std::min(m_fetchRetry * 2, interval);
    return delay;
}

std::chrono::milliseconds SourceWorker::nextApplyDelay(bool ok)
{
    const auto interval = m_shared.config.interval;
    if (ok) {
        m_failures = 0;
        std::uniform_int_distribution<long long> jitter(0, interval.count() / 10);
        return interval + std::chrono::milliseconds(jitter(m_random));
    }
    ++m_failures;
    auto delay = std::chrono::duration_cast<std::chrono::milliseconds>(kFirstBackoff);
    for (int i = 1; i < m_failures && delay < interval; ++i)
        delay *= 2;
    return std::min(delay, interval);
}

SourceRunReport SourceWorker::run(RunMode mode)
{
    SourceRunReport report;
    report.identity = m_shared.config.identity;
    report.source = m_shown;
    report.run = newEventId();
    report.mode = mode;
    report.started = std::chrono::system_clock::now();
    report.refused = m_refused;
    const auto start = SteadyClock::now();
    const std::filesystem::path manifest = isRemote() ? m_cacheFile : std::filesystem::path(m_source);
    auto bytes = readTextFile(manifest, kMaxBundleBytes);
    if (!bytes) {
        std::string why = m_lastFetchError;
        if (why.empty() && m_refused)
            why = "refused " + m_refused->digest + ": " + m_refused->reason;
        report.error
            = isRemote() ? "no good bundle fetched yet" + (why.empty() ? "" : ": " + why) : bytes.error().message;
    } else {
        report.manifestDigest = objectDigest(*bytes);
        const std::lock_guard lock(m_shared.runMutex);
        AgentObserver observer(m_shared, report);
        ManifestRunRequest request {manifest, m_shown, mode, m_shared.facts.get(), m_shared.config.externalDataUrl,
            m_shared.config.natsContext, &m_shared.cancel};
        if (isRemote())
            request.requiredSigners = m_shared.config.bundleKeys;
        auto result = m_shared.runner(request, observer);
        if (!result) {
            report.error = result.error().message;
        } else {
            report.summary = result->summary;
            report.cancelled = result->cancelled;
            report.aborted = result->aborted;
        }
    }
    report.duration = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start);
    m_succeeded = report.error.empty() && report.summary.failed == 0 && !report.aborted && !report.cancelled;
    publishRun(report);
    return report;
}

void SourceWorker::publishRun(const SourceRunReport &report)
{
    // Counted before it is logged, so that whoever reads the log line finds the run counted.
    m_shared.metrics.recordRun(report);
    m_shared.status.record(report);
    const std::string what = m_shown + ": " + std::string(runModeName(report.mode));
    std::string summary = summaryText(report.summary);
    while (!summary.empty() && summary.back() == '\n')
        summary.pop_back();
    if (!report.error.empty())
        m_shared.log.error(what + " could not run: " + report.error);
    else if (report.summary.failed > 0 || report.aborted)
        m_shared.log.error(what + ": " + summary);
    else
        m_shared.log.info(what + ": " + summary);
    const auto interval = std::chrono::duration_cast<std::chrono::seconds>(m_shared.config.interval);
    m_shared.outbox.send(report.identity, runReportToJson(report), m_shared.status.status(interval, m_shared.version),
        m_shared.nats, m_shared.log);
}

void SourceWorker::publishStatus()
{
    const auto interval = std::chrono::duration_cast<std::chrono::seconds>(m_shared.config.interval);
    m_shared.outbox.send(m_shared.config.identity, Json(), m_shared.status.status(interval, m_shared.version),
        m_shared.nats, m_shared.log);
}

} // namespace ccm::fleet
