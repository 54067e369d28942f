// SPDX-License-Identifier: Apache-2.0
#include "agent_report.h"

#include <algorithm>
#include <set>

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

} // namespace

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
    return json;
}

Json eventMessage(const SourceRunReport &run, const TransactionEvent &event)
{
    return Json {{"identity", run.identity}, {"source", run.source}, {"run", run.run}, {"mode", runModeName(run.mode)},
        {"event", eventToJson(event)}};
}

void StatusBoard::record(const SourceRunReport &report)
{
    const std::lock_guard lock(m_mutex);
    m_identity = report.identity;
    m_latestEnd = std::max(m_latestEnd, report.started + report.duration);
    m_runs[report.source] = report;
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
    return Json {{"identity", m_identity}, {"time", formatTimestamp(m_latestEnd)},
        {"interval_seconds", interval.count()}, {"version", version}, {"summary", summaryToJson(sum)},
        {"failed_resources", std::vector<std::string>(failed.begin(), failed.end())}, {"runs", runs}};
}

} // namespace ccm::fleet
