// SPDX-License-Identifier: Apache-2.0
// The fleet at scale on one machine: N real `ccm-backend agent` processes (--agents N, 200 unless
// told) against one real nats-server, each with its own identity, facts, NATS context, cache and
// target directory, preview on (as nobody when run as root), keeping obj://SCALE/site applied: a
// bundle of 100 files under the agent's own target directory.
//
// The agents are started in batches (--batch B, 20 unless told); each batch has reported the first
// bundle to CCM_STATUS and answers previews before the next starts, and the clock starts once all
// have. Then it measures and prints:
// - each agent's memory (VmRSS and VmHWM of /proc/PID/status) after start-up and after the runs:
//   min, median, p95, max and the total;
// - 3 times: the time from the start of `ccm-backend publish` of a new version (all 100 files
//   changed) to the last agent's CCM_STATUS report of a run of the new bundle's digest, as the
//   reports arrive on $KV.CCM_STATUS.>, with the median and slowest agent;
// - 3 fleet previews of a 100-resource manifest (10 files changed) through the library requester,
//   request to last answer, and their median;
// - the agents' threads, open descriptors and CPU time per publish, the nats-server's memory,
//   threads and descriptors, and the load average before and after.
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "bench_fleet_agent.h"
#include "core/model/json.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/object_store.h"
#include "fleet/preview/preview_requester.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <nats/nats.h>
#include <optional>
#include <set>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace ccm;
using namespace ccm::fleet;
using ccm::bench::BenchAgent;
using ccm::bench::BenchAgentOptions;
using ccm::bench::fileText;
using ccm::bench::writeFile;

namespace {

constexpr int kScaleFiles = 100;
constexpr int kScaleRounds = 3;
constexpr int kScalePreviewChanges = 10; ///< files the preview's proposal changes
constexpr const char *kScaleSource = "obj://SCALE/site";
using ScaleClock = std::chrono::steady_clock;

/// The nats-server to stop when the benchmark is interrupted; the agents stop on their own then
/// (they get SIGTERM when their parent dies).
volatile std::sig_atomic_t scaleServerPid = 0;

void stopServerAndExit(int signal)
{
    if (scaleServerPid > 0)
        ::kill(static_cast<pid_t>(scaleServerPid), SIGTERM);
    ::_exit(128 + signal);
}

struct ScaleOptions {
    int agents = 200;
    int batch = 20;
};

std::optional<ScaleOptions> parseScaleOptions(const QStringList &arguments)
{
    ScaleOptions options;
    for (int i = 1; i < arguments.size(); ++i) {
        const QString &name = arguments[i];
        bool ok = false;
        const int value = i + 1 < arguments.size() ? arguments[i + 1].toInt(&ok) : 0;
        if ((name != QStringLiteral("--agents") && name != QStringLiteral("--batch")) || !ok || value < 1) {
            std::fprintf(stderr, "usage: bench_fleet_scale [--agents N] [--batch B]  (N, B >= 1)\n");
            return std::nullopt;
        }
        (name == QStringLiteral("--agents") ? options.agents : options.batch) = value;
        ++i;
    }
    return options;
}

/// Lets the process hold as many descriptors as the hard limit allows (the server it starts
/// inherits it): returns the soft limit then in force.
rlim_t raiseFileLimit()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 0;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
        ::getrlimit(RLIMIT_NOFILE, &limit);
    }
    return limit.rlim_cur;
}

std::string loadAverage()
{
    return fileText(QStringLiteral("/proc/loadavg")).trimmed().toStdString();
}

/// What /proc says of a process: VmRSS and VmHWM in KiB, threads, open descriptors and the CPU
/// time used (user and system) in seconds; zeros when it is gone.
struct ProcessFigures {
    long rssKb = 0;
    long peakKb = 0;
    long threads = 0;
    long descriptors = 0;
    double cpuSeconds = 0;
};

ProcessFigures processFigures(qint64 pid)
{
    ProcessFigures figures;
    const QString directory = QStringLiteral("/proc/%1").arg(pid);
    for (const QByteArray &line : fileText(directory + QStringLiteral("/status")).split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 2)
            continue;
        if (fields[0] == "VmRSS:")
            figures.rssKb = fields[1].toLong();
        else if (fields[0] == "VmHWM:")
            figures.peakKb = fields[1].toLong();
        else if (fields[0] == "Threads:")
            figures.threads = fields[1].toLong();
    }
    figures.descriptors = static_cast<long>(QDir(directory + QStringLiteral("/fd"))
                                                .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System)
                                                .size());
    // "PID (COMM) STATE ...": utime and stime are the 14th and 15th fields, the 12th and 13th
    // after the command's ')'.
    const QByteArray stat = fileText(directory + QStringLiteral("/stat"));
    const QList<QByteArray> rest = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (rest.size() > 12)
        figures.cpuSeconds = static_cast<double>(rest[11].toLongLong() + rest[12].toLongLong())
            / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return figures;
}

/// The CPU seconds the agents have used so far, together.
double agentCpuSeconds(const std::vector<std::unique_ptr<BenchAgent>> &agents)
{
    double total = 0;
    for (const auto &agent : agents)
        total += processFigures(agent->processId()).cpuSeconds;
    return total;
}

/// The nats-server this process started: the child named nats-server.
qint64 natsServerPid()
{
    QDirIterator entries(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (entries.hasNext()) {
        const QString directory = entries.next();
        bool number = false;
        const qint64 pid = entries.fileName().toLongLong(&number);
        if (!number)
            continue;
        const QByteArray stat = fileText(directory + QStringLiteral("/stat"));
        // "PID (COMM) STATE PPID ...": the command may hold spaces, so split after its ')'.
        const qsizetype close = stat.lastIndexOf(')');
        const QList<QByteArray> rest = stat.mid(close + 2).split(' ');
        if (stat.contains("(nats-server)") && rest.size() > 1 && rest[1].toLongLong() == ::getpid())
            return pid;
    }
    return 0;
}

double percentile(std::vector<double> values, double fraction)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(index, values.size() - 1)];
}

void printMemory(const char *what, const std::vector<double> &kb)
{
    double total = 0;
    for (const double value : kb)
        total += value;
    std::printf("  %-9s min %7.1f  median %7.1f  p95 %7.1f  max %7.1f MiB; total %8.1f MiB over %zu agents\n", what,
        percentile(kb, 0) / 1024, percentile(kb, 0.5) / 1024, percentile(kb, 0.95) / 1024, percentile(kb, 1) / 1024,
        total / 1024, kb.size());
}

void printAgentFigures(const char *when, const std::vector<std::unique_ptr<BenchAgent>> &agents)
{
    std::vector<double> rss;
    std::vector<double> peak;
    std::vector<double> threads;
    std::vector<double> descriptors;
    for (const auto &agent : agents) {
        const ProcessFigures figures = processFigures(agent->processId());
        rss.push_back(static_cast<double>(figures.rssKb));
        peak.push_back(static_cast<double>(figures.peakKb));
        threads.push_back(static_cast<double>(figures.threads));
        descriptors.push_back(static_cast<double>(figures.descriptors));
    }
    std::printf("agent memory %s:\n", when);
    printMemory("RSS", rss);
    printMemory("peak RSS", peak);
    std::printf("  per agent: threads median %.0f, max %.0f; open descriptors median %.0f, max %.0f\n",
        percentile(threads, 0.5), percentile(threads, 1), percentile(descriptors, 0.5), percentile(descriptors, 1));
}

void printServerFigures()
{
    const ProcessFigures server = processFigures(natsServerPid());
    const ProcessFigures self = processFigures(::getpid());
    std::printf("nats-server: RSS %.1f MiB, peak RSS %.1f MiB, %ld threads, %ld open descriptors, %.1f s CPU\n",
        static_cast<double>(server.rssKb) / 1024, static_cast<double>(server.peakKb) / 1024, server.threads,
        server.descriptors, server.cpuSeconds);
    std::printf("this benchmark: RSS %.1f MiB, %ld open descriptors\n", static_cast<double>(self.rssKb) / 1024,
        self.descriptors);
}

/// The manifest of the 100 files: each holds "ROLE VERSION", the first `proposed` "ROLE
/// VERSION-proposed".
QByteArray scaleManifest(const QByteArray &version, int proposed = 0)
{
    QByteArray manifest = "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < kScaleFiles; ++i)
        manifest += "        - \"{{ Facts.target }}/f" + QByteArray::number(i)
            + "\":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \"{{ Facts.role }} "
            + version + (i < proposed ? "-proposed" : "") + "\\n\"\n";
    return manifest;
}

bool runBackend(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(CCM_BACKEND_PATH), arguments);
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::fprintf(stderr, "bench_fleet_scale: ccm-backend %s: %s\n", qPrintable(arguments.join(QLatin1Char(' '))),
            process.readAllStandardError().constData());
        return false;
    }
    return true;
}

/// Bundles the manifest of `version` into DIR/VERSION.tar.gz; its path, empty on failure.
QString bundleVersion(const QTemporaryDir &dir, const QByteArray &version)
{
    const QString manifest = dir.filePath(QStringLiteral("%1/site.yaml").arg(QString::fromUtf8(version)));
    const QString bundle = dir.filePath(QStringLiteral("%1.tar.gz").arg(QString::fromUtf8(version)));
    if (!writeFile(manifest, scaleManifest(version))
        || !runBackend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), bundle}))
        return {};
    return bundle;
}

bool publishBundle(const QString &bundle, const QString &natsUrl)
{
    return runBackend({QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QStringLiteral("SCALE"),
        QStringLiteral("--name"), QStringLiteral("site"), QStringLiteral("--nats"), natsUrl});
}

/// Every CCM_STATUS report as it is written ($KV.CCM_STATUS.>), with when it arrived: which
/// agents have reported a run of a digest of obj://SCALE/site, and when each first did.
class ScaleStatusFeed {
public:
    explicit ScaleStatusFeed(NatsConnection &connection)
    {
        natsSubscription *raw = nullptr;
        if (natsConnection_SubscribeSync(&raw, connection.connection(), "$KV.CCM_STATUS.>") == NATS_OK) {
            m_subscription.reset(raw);
            natsSubscription_SetPendingLimits(raw, 1'000'000, 1024 * 1024 * 1024);
        }
    }

    bool valid() const { return static_cast<bool>(m_subscription); }

    /// Takes the reports that arrive within `wait`.
    void poll(std::chrono::milliseconds wait)
    {
        natsMsg *raw = nullptr;
        auto remaining = wait;
        const auto deadline = ScaleClock::now() + wait;
        while (natsSubscription_NextMsg(&raw, m_subscription.get(), std::max<long>(1, remaining.count())) == NATS_OK) {
            const NatsMsgPtr message(raw);
            take(std::string_view(
                natsMsg_GetData(message.get()), static_cast<std::size_t>(natsMsg_GetDataLength(message.get()))));
            remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ScaleClock::now());
            if (remaining.count() <= 0)
                break;
        }
    }

    /// When `identity` first reported a run of `digest`, if it has.
    std::optional<ScaleClock::time_point> reported(const std::string &identity, const std::string &digest) const
    {
        const auto found = m_firstReport.find({identity, digest});
        return found == m_firstReport.end() ? std::nullopt : std::optional(found->second);
    }

    /// Agents whose run of `digest` had a failure or an error.
    std::size_t failures(const std::string &digest) const
    {
        return static_cast<std::size_t>(
            std::count_if(m_failed.begin(), m_failed.end(), [&](const auto &key) { return key.second == digest; }));
    }

private:
    void take(std::string_view text)
    {
        const Json status = parseJson(text, false);
        if (!status.is_object() || !status.contains("runs") || !status["runs"].is_array())
            return;
        const std::string identity = stringMember(status, "identity");
        for (const Json &run : status["runs"]) {
            if (stringMember(run, "source") != kScaleSource)
                continue;
            const std::pair key {identity, stringMember(run, "manifest_digest")};
            m_firstReport.emplace(key, ScaleClock::now());
            if (run.contains("error") || summaryCount(run.value("summary", Json()), "failed") > 0)
                m_failed.insert(key);
        }
    }

    NatsSubscriptionPtr m_subscription;
    std::map<std::pair<std::string, std::string>, ScaleClock::time_point> m_firstReport;
    std::set<std::pair<std::string, std::string>> m_failed;
};

std::string digestOf(const QString &file)
{
    return objectDigest(fileText(file).toStdString());
}

/// Waits until every agent of [first, end) has reported a run of `digest` and answers previews.
bool waitForBatch(const std::vector<std::unique_ptr<BenchAgent>> &agents, std::size_t first, ScaleStatusFeed &feed,
    const std::string &digest)
{
    std::vector<BenchAgent *> pending;
    for (std::size_t i = first; i < agents.size(); ++i)
        pending.push_back(agents[i].get());
    const auto deadline = ScaleClock::now() + std::chrono::minutes(3);
    while (!pending.empty() && ScaleClock::now() < deadline) {
        feed.poll(std::chrono::milliseconds(200));
        QCoreApplication::processEvents(); // lets each QProcess see its agent exit
        std::erase_if(pending, [&](BenchAgent *agent) {
            return feed.reported(agent->identity().toStdString(), digest) && agent->answering();
        });
        for (BenchAgent *agent : pending)
            if (!agent->running()) {
                std::fprintf(stderr, "bench_fleet_scale: %s exited:\n%s\n", qPrintable(agent->identity()),
                    agent->log().constData());
                return false;
            }
    }
    if (!pending.empty())
        std::fprintf(stderr, "bench_fleet_scale: %zu agents did not report and answer within 3 minutes, %s first\n",
            pending.size(), qPrintable(pending.front()->identity()));
    return pending.empty();
}

/// Starts the agents in batches, each batch once the one before has reported `digest`.
bool startFleet(std::vector<std::unique_ptr<BenchAgent>> &agents, const ScaleOptions &options, const QString &natsUrl,
    const QString &previewKey, ScaleStatusFeed &feed, const std::string &digest)
{
    const auto start = ScaleClock::now();
    for (int first = 0; first < options.agents; first += options.batch) {
        const std::size_t begin = agents.size();
        for (int i = first; i < std::min(options.agents, first + options.batch); ++i) {
            BenchAgentOptions agent;
            agent.index = i;
            agent.natsUrl = natsUrl;
            agent.role = i % 2 == 0 ? "web" : "db";
            agent.manifests = {QString::fromUtf8(kScaleSource)};
            agent.previewKey = previewKey;
            // Only the publishes start runs while the clock runs.
            agent.extraConfig = "interval: 24h\n";
            agents.push_back(std::make_unique<BenchAgent>(agent));
            agents.back()->start(QStringLiteral(CCM_BACKEND_PATH));
        }
        if (!waitForBatch(agents, begin, feed, digest))
            return false;
    }
    std::printf("%d agents started in batches of %d, each applied the first bundle and reported: %.1f s\n",
        options.agents, options.batch, std::chrono::duration<double>(ScaleClock::now() - start).count());
    return true;
}

/// One publish of `version`: from the start of `publish` to the last agent's report. False on failure.
bool publishRound(const std::vector<std::unique_ptr<BenchAgent>> &agents, const QTemporaryDir &dir,
    const QString &natsUrl, ScaleStatusFeed &feed, int round, std::vector<double> &lastMs)
{
    const QString bundle = bundleVersion(dir, "v" + QByteArray::number(round));
    if (bundle.isEmpty())
        return false;
    const std::string digest = digestOf(bundle);
    const double cpuBefore = agentCpuSeconds(agents);
    const auto start = ScaleClock::now();
    if (!publishBundle(bundle, natsUrl))
        return false;
    const double publishMs = std::chrono::duration<double, std::milli>(ScaleClock::now() - start).count();
    std::vector<double> latencies;
    const auto deadline = ScaleClock::now() + std::chrono::minutes(5);
    while (latencies.size() < agents.size() && ScaleClock::now() < deadline) {
        feed.poll(std::chrono::milliseconds(100));
        latencies.clear();
        for (const auto &agent : agents)
            if (const auto when = feed.reported(agent->identity().toStdString(), digest))
                latencies.push_back(std::chrono::duration<double, std::milli>(*when - start).count());
    }
    if (latencies.size() < agents.size()) {
        std::fprintf(stderr, "bench_fleet_scale: round %d: %zu of %zu agents reported within 5 minutes\n", round,
            latencies.size(), agents.size());
        return false;
    }
    const double cpu = agentCpuSeconds(agents) - cpuBefore;
    std::printf("  round %d: publish %6.1f ms; reported: median %8.1f ms, p95 %8.1f ms, last %8.1f ms; agents' CPU "
                "%.1f s (%.0f ms each); runs with a failure: %zu\n",
        round, publishMs, percentile(latencies, 0.5), percentile(latencies, 0.95), percentile(latencies, 1), cpu,
        1000 * cpu / static_cast<double>(agents.size()), feed.failures(digest));
    lastMs.push_back(percentile(latencies, 1));
    return feed.failures(digest) == 0;
}

/// kScaleRounds previews of the proposal; false on failure.
bool previewRounds(NatsConnection &connection, const QTemporaryDir &dir, const SigningKey &key,
    const std::vector<std::unique_ptr<BenchAgent>> &agents)
{
    const QString proposal = dir.filePath(QStringLiteral("proposal/site.yaml"));
    writeFile(proposal, scaleManifest("v" + QByteArray::number(kScaleRounds), kScalePreviewChanges));
    PreviewRequestOptions options;
    options.source = proposal.toStdString();
    options.key = key;
    options.timeout = std::chrono::seconds(600);
    std::printf("fleet preview, %zu agents x %d file resources (%d changed), request to last answer:\n", agents.size(),
        kScaleFiles, kScalePreviewChanges);
    std::vector<double> samples;
    for (int run = 1; run <= kScaleRounds; ++run) {
        const double cpuBefore = agentCpuSeconds(agents);
        const auto start = ScaleClock::now();
        auto preview = runFleetPreview(connection, options);
        const double ms = std::chrono::duration<double, std::milli>(ScaleClock::now() - start).count();
        if (!preview) {
            std::fprintf(stderr, "bench_fleet_scale: preview: %s\n", preview.error().message.c_str());
            return false;
        }
        const Json totals = fleetPreviewTotals(*preview);
        const double cpu = agentCpuSeconds(agents) - cpuBefore;
        std::printf("  run %d: %8.1f ms; agents' CPU %.1f s (%.0f ms each); %s\n", run, ms, cpu,
            1000 * cpu / static_cast<double>(agents.size()), totals.dump().c_str());
        if (totals.value("answered", 0) != static_cast<int>(agents.size()))
            return false;
        samples.push_back(ms);
    }
    std::printf("  median of %d: %9.1f ms\n", kScaleRounds, percentile(samples, 0.5));
    return true;
}

/// Stops every agent: all are told first, then each is waited for.
void stopFleet(std::vector<std::unique_ptr<BenchAgent>> &agents)
{
    const auto start = ScaleClock::now();
    for (const auto &agent : agents)
        agent->terminate();
    for (const auto &agent : agents)
        agent->waitForExit();
    std::printf("%zu agents stopped: %.1f s\n", agents.size(),
        std::chrono::duration<double>(ScaleClock::now() - start).count());
    agents.clear();
}

/// Everything after the server is up; false on failure. The agents are stopped on every path.
bool runScale(const ScaleOptions &options, const ccm::test::NatsServer &server)
{
    QTemporaryDir dir;
    const SigningKey key = generateSigningKey().value();
    const QString publicKey = dir.filePath(QStringLiteral("preview.pub.pem"));
    if (!writeKeyPair(key, dir.filePath(QStringLiteral("preview.pem")).toStdString(), publicKey.toStdString(), false))
        return false;
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    if (!connection)
        return false;
    ScaleStatusFeed feed(**connection);
    const QString first = bundleVersion(dir, "v0");
    if (!feed.valid() || first.isEmpty() || !publishBundle(first, server.url()))
        return false;
    std::vector<std::unique_ptr<BenchAgent>> agents;
    bool ok = startFleet(agents, options, server.url(), publicKey, feed, digestOf(first));
    if (ok) {
        printAgentFigures("after start-up", agents);
        std::printf(
            "publish of a new version (100 files changed) to the last agent's report, %d rounds:\n", kScaleRounds);
        std::vector<double> lastMs;
        for (int round = 1; ok && round <= kScaleRounds; ++round)
            ok = publishRound(agents, dir, server.url(), feed, round, lastMs);
        if (ok)
            std::printf("  median of the last agent's report: %8.1f ms\n", percentile(lastMs, 0.5));
    }
    ok = ok && previewRounds(**connection, dir, key, agents);
    if (ok)
        printAgentFigures("after the publishes and previews", agents);
    printServerFigures();
    stopFleet(agents);
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const auto options = parseScaleOptions(app.arguments());
    if (!options)
        return 2;
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as it comes, also into a file
    const rlim_t files = raiseFileLimit();
    std::printf("fleet at scale: %d real agents, one nats-server; open files limit %llu; load average %s\n",
        options->agents, static_cast<unsigned long long>(files), loadAverage().c_str());
    ccm::test::NatsServer server;
    if (!ccm::test::NatsServer::available() || !server.start()) {
        std::fprintf(stderr, "bench_fleet_scale: needs nats-server: %s\n", qPrintable(server.error()));
        return 1;
    }
    scaleServerPid = static_cast<std::sig_atomic_t>(natsServerPid());
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
        std::signal(signal, stopServerAndExit);
    const bool ok = runScale(*options, server);
    std::printf("load average at the end: %s\n", loadAverage().c_str());
    return ok ? 0 : 1;
}
