// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/metrics_server.h"

#include "base/library_check.h"

#include <array>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

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

void AgentMetrics::recordSignatureRefusal(const std::string &source, BundleSignatureErrc reason)
{
    const std::lock_guard lock(m_mutex);
    ++m_signatureRefusals[{source, std::string(codeName(reason))}];
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
    header(out, "ccm_agent_bundle_signature_refusals_total", "counter",
        "Bundles of a source refused by bundle_keys: unsigned, untrusted_signer or invalid_signature.");
    for (const auto &[key, count] : m_signatureRefusals)
        out << "ccm_agent_bundle_signature_refusals_total{source=" << labelValue(key.first)
            << ",reason=" << labelValue(key.second) << "} " << count << '\n';
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

/// Connections libmicrohttpd holds at most: above kMaxClients, for the moments between a new
/// connection closing an old one and the old one being gone. Beyond it new connections wait in
/// the listen queue.
constexpr unsigned int kMaxConnections = 2 * MetricsServer::kMaxClients;

/// Writes a log line to stderr in one write, as libmicrohttpd's own log did, so that it does not
/// interleave with the agent's lines.
void writeToStderr(const std::string &line)
{
    const std::string text = line + '\n';
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t written = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        done += static_cast<std::size_t>(written);
    }
}

} // namespace

struct MetricsServer::Callbacks {
    static MHD_Result onRequest(void *closure, MHD_Connection *connection, const char *url, const char *method,
        const char *, const char *, size_t *, void **)
    {
        const auto *server = static_cast<const MetricsServer *>(closure);
        if (std::strcmp(method, "GET") != 0 && std::strcmp(method, "HEAD") != 0)
            return respond(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n", "text/plain");
        if (std::strcmp(url, "/metrics") != 0)
            return respond(connection, MHD_HTTP_NOT_FOUND, "see /metrics\n", "text/plain");
        return respond(connection, MHD_HTTP_OK, server->m_metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
    }

    static void onConnection(void *closure, MHD_Connection *connection, void **, MHD_ConnectionNotificationCode code)
    {
        auto *server = static_cast<MetricsServer *>(closure);
        if (code == MHD_CONNECTION_NOTIFY_STARTED)
            server->connectionStarted(connection);
        else
            server->m_clients.erase(connection);
    }

    /// A request was answered (or abandoned): the connection's next request starts now.
    static void onCompleted(void *closure, MHD_Connection *connection, void **, MHD_RequestTerminationCode)
    {
        auto *server = static_cast<MetricsServer *>(closure);
        if (const auto found = server->m_clients.find(connection); found != server->m_clients.end())
            found->second.since = Clock::now();
    }

    /// libmicrohttpd's messages, counted per message so that a flood of connections cannot
    /// flood the log through them.
    static void onLog(void *closure, const char *format, va_list arguments)
    {
        std::array<char, 512> text {};
        std::vsnprintf(text.data(), text.size(), format, arguments);
        std::string_view message(text.data());
        std::string_view reason(format);
        for (std::string_view *part : {&message, &reason})
            while (!part->empty() && (part->back() == '\n' || part->back() == '.'))
                part->remove_suffix(1);
        static_cast<MetricsServer *>(closure)->m_log.write(
            "metrics", loggableText(reason, 80), loggableText(message, 400));
    }
};

MetricsServer::MetricsServer(const AgentMetrics &metrics, LogSink log)
    : m_metrics(metrics)
    , m_log(log ? std::move(log) : LogSink(writeToStderr), std::chrono::seconds(10), 5, "messages")
{
}

MetricsServer::~MetricsServer()
{
    if (m_daemon)
        MHD_stop_daemon(m_daemon);
}

void MetricsServer::connectionStarted(MHD_Connection *connection)
{
    const Clock::time_point now = Clock::now();
    const MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    m_clients[connection] = Client {info == nullptr ? -1 : info->connect_fd, now, false};
    std::size_t open = 0;
    for (auto &[other, client] : m_clients) {
        if (other != connection && !client.closing && now - client.since > kRequestDeadline)
            close(client, "slow request",
                "closed a connection that took more than " + std::to_string(kRequestDeadline.count())
                    + " s over its request");
        open += client.closing ? 0 : 1;
    }
    // Over the limit the connection that has waited longest goes, whoever holds it: a client
    // that keeps connections open without finishing its requests cannot keep a scrape out.
    for (; open > kMaxClients; --open) {
        Client *oldest = nullptr;
        for (auto &[other, client] : m_clients)
            if (other != connection && !client.closing && (oldest == nullptr || client.since < oldest->since))
                oldest = &client;
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - oldest->since);
        close(*oldest, "endpoint full",
            "closed the connection that had waited longest for its request (" + std::to_string(waited.count())
                + " ms): more than " + std::to_string(kMaxClients) + " were open");
    }
}

void MetricsServer::close(Client &client, std::string_view reason, std::string_view message)
{
    m_log.write("metrics", reason, message);
    client.closing = true;
    // The descriptor stays libmicrohttpd's: it sees the end of the stream on its next poll and
    // closes the connection on this same thread, so the descriptor cannot have been reused.
    if (client.fd >= 0)
        ::shutdown(client.fd, SHUT_RDWR);
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(int port, const AgentMetrics &metrics, LogSink log)
{
    if (auto loaded = requireLibrary(lazy::libmicrohttpd); !loaded)
        return loaded.error();
    std::unique_ptr<MetricsServer> server(new MetricsServer(metrics, std::move(log)));
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // poll(), not select(): the agent may hold descriptors above FD_SETSIZE. Every callback runs
    // on the one polling thread. The logger comes first: libmicrohttpd reports problems with the
    // options after it there.
    server->m_daemon
        = MHD_start_daemon(MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, static_cast<std::uint16_t>(port), nullptr,
            nullptr, &Callbacks::onRequest, server.get(), MHD_OPTION_EXTERNAL_LOGGER, &Callbacks::onLog, server.get(),
            MHD_OPTION_SOCK_ADDR, &address, MHD_OPTION_CONNECTION_LIMIT, kMaxConnections, MHD_OPTION_CONNECTION_TIMEOUT,
            static_cast<unsigned int>(kRequestDeadline.count()), MHD_OPTION_NOTIFY_CONNECTION, &Callbacks::onConnection,
            server.get(), MHD_OPTION_NOTIFY_COMPLETED, &Callbacks::onCompleted, server.get(), MHD_OPTION_END);
    if (!server->m_daemon)
        return Error {"metrics",
            "cannot serve metrics on 127.0.0.1:" + std::to_string(port)
                + ": the port is in use or cannot be bound; choose another monitor_port"};
    return server;
}

} // namespace ccm::fleet
