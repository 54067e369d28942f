// SPDX-License-Identifier: Apache-2.0
#include "metrics_server.h"

#include <array>
#include <cstring>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sstream>

namespace ccm::fleet {
namespace {

constexpr std::array<double, 10> kDurationBuckets {0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900};

/// A label value escaped as the text format wants: backslash, double quote and newline.
std::string labelValue(const std::string &value)
{
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c == '\n' ? std::string("\\n") : std::string(1, c);
    }
    return '"' + out + '"';
}

std::string runOutcome(const SourceRunReport &report)
{
    if (!report.error.empty())
        return "error";
    if (report.cancelled)
        return "cancelled";
    if (report.summary.failed > 0 || report.aborted)
        return "failed";
    return report.summary.changed > 0 ? "changed" : "stable";
}

int healthStatus(const RunSummary &summary)
{
    if (summary.checksCritical > 0)
        return 2;
    if (summary.checksWarning > 0)
        return 1;
    if (summary.checksUnknown > 0)
        return 3;
    return 0;
}

void header(std::ostringstream &out, const char *name, const char *type, const char *help)
{
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

} // namespace

void AgentMetrics::recordRun(const SourceRunReport &report)
{
    const std::lock_guard lock(m_mutex);
    ++m_runs[{report.source, std::string(runModeName(report.mode)), runOutcome(report)}];
    const RunSummary &s = report.summary;
    m_resources[{report.source, "stable"}] += s.stable;
    m_resources[{report.source, "changed"}] += s.changed;
    m_resources[{report.source, "failed"}] += s.failed;
    m_resources[{report.source, "skipped"}] += s.skipped;
    Duration &duration = m_durations[report.source];
    const double seconds = static_cast<double>(report.duration.count()) / 1000.0;
    for (const double bound : kDurationBuckets)
        duration.buckets[bound] += seconds <= bound ? 1 : 0;
    duration.sum += seconds;
    ++duration.count;
    const auto end = report.started + report.duration;
    m_lastRun[report.source]
        = static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(end.time_since_epoch()).count())
        / 1000.0;
    if (s.checksOk + s.checksWarning + s.checksCritical + s.checksUnknown > 0)
        m_health[report.source] = healthStatus(s);
}

void AgentMetrics::recordFetchError(const std::string &source)
{
    const std::lock_guard lock(m_mutex);
    ++m_fetchErrors[source];
}

void AgentMetrics::recordRefusedBundle(const std::string &source)
{
    const std::lock_guard lock(m_mutex);
    ++m_refusedBundles[source];
}

std::string AgentMetrics::renderRuns() const
{
    std::ostringstream out;
    header(out, "ccm_agent_runs_total", "counter", "Runs by source, mode (apply, health, remediate) and outcome.");
    for (const auto &[key, count] : m_runs)
        out << "ccm_agent_runs_total{source=" << labelValue(std::get<0>(key))
            << ",mode=" << labelValue(std::get<1>(key)) << ",outcome=" << labelValue(std::get<2>(key)) << "} " << count
            << '\n';
    header(out, "ccm_agent_resources_total", "counter", "Resources run, by source and outcome.");
    for (const auto &[key, count] : m_resources)
        out << "ccm_agent_resources_total{source=" << labelValue(key.first) << ",outcome=" << labelValue(key.second)
            << "} " << count << '\n';
    header(out, "ccm_agent_source_fetch_errors_total", "counter", "Failed fetches of a source's bundle.");
    for (const auto &[source, count] : m_fetchErrors)
        out << "ccm_agent_source_fetch_errors_total{source=" << labelValue(source) << "} " << count << '\n';
    header(out, "ccm_agent_bundles_refused_total", "counter",
        "Bundles of a source refused (too large, hostile or invalid); runs went on from the last good one.");
    for (const auto &[source, count] : m_refusedBundles)
        out << "ccm_agent_bundles_refused_total{source=" << labelValue(source) << "} " << count << '\n';
    header(out, "ccm_agent_health_status", "gauge",
        "The latest health check status of a source: 0 ok, 1 warning, 2 critical, 3 unknown.");
    for (const auto &[source, status] : m_health)
        out << "ccm_agent_health_status{source=" << labelValue(source) << "} " << status << '\n';
    return out.str();
}

std::string AgentMetrics::renderDurations() const
{
    std::ostringstream out;
    header(out, "ccm_agent_run_duration_seconds", "histogram", "How long runs take, by source.");
    for (const auto &[source, duration] : m_durations) {
        const std::string label = "source=" + labelValue(source);
        for (const auto &[bound, count] : duration.buckets)
            out << "ccm_agent_run_duration_seconds_bucket{" << label << ",le=\"" << bound << "\"} " << count << '\n';
        out << "ccm_agent_run_duration_seconds_bucket{" << label << ",le=\"+Inf\"} " << duration.count << '\n';
        out << "ccm_agent_run_duration_seconds_sum{" << label << "} " << duration.sum << '\n';
        out << "ccm_agent_run_duration_seconds_count{" << label << "} " << duration.count << '\n';
    }
    header(out, "ccm_agent_last_run_timestamp_seconds", "gauge", "When the latest run of a source ended (Unix time).");
    for (const auto &[source, time] : m_lastRun)
        out << "ccm_agent_last_run_timestamp_seconds{source=" << labelValue(source) << "} " << std::fixed << time
            << std::defaultfloat << '\n';
    return out.str();
}

std::string AgentMetrics::render() const
{
    const std::lock_guard lock(m_mutex);
    return renderRuns() + renderDurations();
}

namespace {

MHD_Result respond(MHD_Connection *connection, unsigned int status, const std::string &body, const char *type)
{
    MHD_Response *response
        = MHD_create_response_from_buffer(body.size(), const_cast<char *>(body.data()), MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    const MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

extern "C" MHD_Result onRequest(void *closure, MHD_Connection *connection, const char *url, const char *method,
    const char *, const char *, size_t *, void **)
{
    const auto *metrics = static_cast<const AgentMetrics *>(closure);
    if (std::strcmp(method, "GET") != 0 && std::strcmp(method, "HEAD") != 0)
        return respond(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n", "text/plain");
    if (std::strcmp(url, "/metrics") != 0)
        return respond(connection, MHD_HTTP_NOT_FOUND, "see /metrics\n", "text/plain");
    return respond(connection, MHD_HTTP_OK, metrics->render(), "text/plain; version=0.0.4; charset=utf-8");
}

} // namespace

MetricsServer::MetricsServer(const AgentMetrics &metrics)
    : m_metrics(metrics)
{
}

MetricsServer::~MetricsServer()
{
    if (m_daemon)
        MHD_stop_daemon(m_daemon);
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(int port, const AgentMetrics &metrics)
{
    std::unique_ptr<MetricsServer> server(new MetricsServer(metrics));
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    server->m_daemon
        = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, static_cast<std::uint16_t>(port),
            nullptr, nullptr, onRequest, const_cast<AgentMetrics *>(&metrics), MHD_OPTION_SOCK_ADDR, &address,
            MHD_OPTION_CONNECTION_LIMIT, 16u, MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
    if (!server->m_daemon)
        return Error {"metrics",
            "cannot serve metrics on 127.0.0.1:" + std::to_string(port)
                + ": the port is in use or cannot be bound; choose another monitor_port"};
    return server;
}

} // namespace ccm::fleet
