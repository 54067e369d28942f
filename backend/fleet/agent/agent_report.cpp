// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_report.h"

#include "base/file_reading.h"
#include "base/private_files.h"
#include "fleet/agent/agent_log.h"
#include "fleet/agent/agent_nats.h"
#include "fleet/agent/agent_worker.h"

#include <algorithm>
#include <set>
#include <utility>

namespace ccm::fleet {
namespace {

RunSummary addSummaries(RunSummary sum, const RunSummary &more)
{
    sum.total += more.total;
    sum.stable += more.stable;
    sum.changed += more.changed;
    sum.failed += more.failed;
    sum.skipped += more.skipped;
    sum.refreshed += more.refreshed;
    sum.unmetRequirements += more.unmetRequirements;
    sum.checksOk += more.checksOk;
    sum.checksWarning += more.checksWarning;
    sum.checksCritical += more.checksCritical;
    sum.checksUnknown += more.checksUnknown;
    sum.errors += more.errors;
    sum.runTime += more.runTime;
    return sum;
}

constexpr std::size_t kMaxOutboxFileBytes = 64ull * 1024 * 1024;

} // namespace

Json refusalToJson(const BundleRefusal &refusal)
{
    return Json {{"digest", refusal.digest}, {"reason", refusal.reason}, {"time", formatTimestamp(refusal.time)}};
}

std::optional<BundleRefusal> refusalFromJson(const Json &json)
{
    if (!json.is_object() || !json.contains("digest") || !json["digest"].is_string())
        return std::nullopt;
    BundleRefusal refusal;
    refusal.digest = json["digest"].get<std::string>();
    refusal.reason = json.value("reason", "");
    refusal.time = parseTimestamp(json.value("time", "")).value_or(std::chrono::system_clock::time_point {});
    if (refusal.digest.empty())
        return std::nullopt;
    return refusal;
}

std::string_view runModeName(RunMode mode)
{
    switch (mode) {
    case RunMode::Apply:
        return "apply";
    case RunMode::Health:
        return "health";
    case RunMode::Remediate:
        return "remediate";
    }
    return "apply";
}

Json runReportToJson(const SourceRunReport &report)
{
    Json json = {
        {"identity", report.identity},
        {"source", report.source},
        {"run", report.run},
        {"mode", runModeName(report.mode)},
        {"started", formatTimestamp(report.started)},
        {"duration_ms", report.duration.count()},
        {"manifest_digest", report.manifestDigest},
        {"summary", summaryToJson(report.summary)},
        {"failed_resources", report.failedResources},
        {"cancelled", report.cancelled},
        {"aborted", report.aborted},
    };
    if (!report.error.empty())
        json["error"] = report.error;
    if (report.refused)
        json["refused_bundle"] = refusalToJson(*report.refused);
    return json;
}

Json eventMessage(const SourceRunReport &run, const TransactionEvent &event)
{
    return Json {{"identity", run.identity}, {"source", run.source}, {"run", run.run}, {"mode", runModeName(run.mode)},
        {"event", eventToJson(event)}};
}

StatusBoard::StatusBoard(std::string identity)
    : m_identity(std::move(identity))
{
}

void StatusBoard::record(const SourceRunReport &report)
{
    const std::lock_guard lock(m_mutex);
    m_identity = report.identity;
    m_latestEnd = std::max(m_latestEnd, report.started + report.duration);
    m_runs[report.source] = report;
}

void StatusBoard::recordRefusal(const std::string &source, const std::optional<BundleRefusal> &refusal)
{
    const std::lock_guard lock(m_mutex);
    if (refusal)
        m_refusals[source] = *refusal;
    else
        m_refusals.erase(source);
}

Json StatusBoard::status(std::chrono::seconds interval, const std::string &version) const
{
    const std::lock_guard lock(m_mutex);
    RunSummary sum;
    std::set<std::string> failed;
    Json runs = Json::array();
    for (const auto &[source, report] : m_runs) {
        sum = addSummaries(sum, report.summary);
        failed.insert(report.failedResources.begin(), report.failedResources.end());
        runs.push_back(runReportToJson(report));
    }
    Json refused = Json::array();
    for (const auto &[source, refusal] : m_refusals) {
        Json entry = refusalToJson(refusal);
        entry["source"] = source;
        refused.push_back(std::move(entry));
    }
    return Json {{"identity", m_identity}, {"time", formatTimestamp(m_latestEnd)},
        {"interval_seconds", interval.count()}, {"version", version}, {"summary", summaryToJson(sum)},
        {"failed_resources", std::vector<std::string>(failed.begin(), failed.end())}, {"runs", runs},
        {"refused_bundles", refused}};
}

void ReportOutbox::persistTo(const std::filesystem::path &file, AgentLog &log)
{
    const std::lock_guard lock(m_mutex);
    if (file == m_file)
        return;
    const std::filesystem::path previous = std::exchange(m_file, file);
    if (!m_reports.empty()) {
        saveLocked(log);
        if (!previous.empty()) {
            std::error_code ignored;
            std::filesystem::remove(previous, ignored);
        }
        return;
    }
    auto text = readTextFile(file, kMaxOutboxFileBytes);
    if (!text)
        return;
    const Json saved = Json::parse(*text, nullptr, false);
    if (!saved.is_array()) {
        log.warn("ignoring the unsent reports in " + file.string() + ": not a JSON array");
        return;
    }
    for (const Json &entry : saved) {
        if (!entry.is_object() || !entry.contains("identity") || !entry["identity"].is_string()
            || !entry.contains("status") || !entry["status"].is_object())
            continue;
        const auto id = entry.find("id");
        m_reports.push_back(
            Report {m_nextSequence++, id != entry.end() && id->is_string() ? id->get<std::string>() : newEventId(),
                entry["identity"].get<std::string>(), entry.value("run", Json()), entry["status"]});
    }
    while (m_reports.size() > kMaxReports)
        m_reports.pop_front();
    if (!m_reports.empty())
        log.info(std::to_string(m_reports.size()) + " unsent report(s) of an earlier run queued from " + file.string());
}

void ReportOutbox::send(const std::string &identity, Json run, Json status, NatsLink &nats, AgentLog &log)
{
    {
        const std::lock_guard lock(m_mutex);
        m_reports.push_back(Report {m_nextSequence++, newEventId(), identity, std::move(run), std::move(status)});
        if (m_reports.size() > kMaxReports) {
            m_reports.pop_front();
            if (!std::exchange(m_dropping, true))
                log.warn("more than " + std::to_string(kMaxReports)
                    + " reports wait for NATS: the oldest go until it takes them again");
        }
        saveLocked(log);
    }
    flush(nats, log);
}

void ReportOutbox::flush(NatsLink &nats, AgentLog &log)
{
    const std::unique_lock sending(m_sending, std::try_to_lock);
    if (!sending.owns_lock())
        return;
    for (;;) {
        Report report;
        {
            const std::lock_guard lock(m_mutex);
            if (m_reports.empty()) {
                m_dropping = false;
                return;
            }
            report = m_reports.front();
        }
        const bool runWasPending = !report.run.is_null();
        auto delivered = deliver(report, nats, log);
        const std::lock_guard lock(m_mutex);
        // Only send() changes the queue meanwhile, and only at the back or by dropping the front.
        const bool stillFront = !m_reports.empty() && m_reports.front().sequence == report.sequence;
        if (delivered) {
            if (stillFront)
                m_reports.pop_front();
        } else if (stillFront && runWasPending && report.run.is_null()) {
            // The .run message went out; only the status is missing: it is not sent twice.
            m_reports.front().run = Json();
        }
        saveLocked(log);
        if (!delivered)
            return;
    }
}

std::size_t ReportOutbox::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_reports.size();
}

Result<void> ReportOutbox::deliver(Report &report, NatsLink &nats, AgentLog &log)
{
    if (!report.run.is_null()) {
        const std::string subject = "ccm.agent." + subjectToken(report.identity) + ".run";
        if (auto sent = nats.publish(subject, report.run.dump()); !sent) {
            log.debug(report.identity + ": run report not published, trying again: " + sent.error().message);
            return sent;
        }
        report.run = Json();
    }
    if (auto put = nats.kvPut(std::string(kStatusBucket), statusKey(report.identity), report.status.dump(), report.id);
        !put) {
        const std::string message = report.identity + ": status not stored, trying again: " + put.error().message;
        if (std::exchange(m_statusFailed, true))
            log.debug(message);
        else
            log.warn(message);
        return put;
    }
    m_statusFailed = false;
    return {};
}

void ReportOutbox::saveLocked(AgentLog &log)
{
    if (m_file.empty())
        return;
    Json saved = Json::array();
    for (const Report &report : m_reports)
        saved.push_back(
            Json {{"id", report.id}, {"identity", report.identity}, {"run", report.run}, {"status", report.status}});
    auto written = writePrivateFile(m_file, saved.dump() + "\n");
    if (!written) {
        if (written.error().message != m_saveError)
            log.warn("unsent reports are not kept for a restart: " + written.error().message);
        m_saveError = written.error().message;
        return;
    }
    m_saveError.clear();
}

} // namespace ccm::fleet
