// SPDX-License-Identifier: Apache-2.0
// A rollout's overhead per ring: 20 real `ccm-backend agent` processes in 4 rings of 5, each
// keeping a 50-file manifest applied from its ring's object, and `ccm-backend rollout --json` of a
// new release through the 4 rings, 3 times. For each ring it takes the time from the publish to the
// gate's verdict (as the rollout's events arrive) and the longest run of the release among the
// ring's agents (their `duration_ms` in CCM_STATUS); the overhead is the difference: fetching,
// reporting and the rollout's own publishing, waiting and judging. Prints the medians.
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "core/model/json.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr int kRings = 4;
constexpr int kPerRing = 5;
constexpr int kFiles = 50;
constexpr int kRuns = 3;
using Clock = std::chrono::steady_clock;

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QString ringName(int ring)
{
    return QStringLiteral("ring-%1.tgz").arg(ring);
}

/// A manifest of kFiles files holding "VERSION".
QByteArray manifest(const QByteArray &version)
{
    QByteArray text = "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < kFiles; ++i)
        text += "        - \"{{ Facts.target }}/f" + QByteArray::number(i)
            + "\":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \""
            + version + "\\n\"\n";
    return text;
}

class BenchAgent {
public:
    BenchAgent(int index, const QString &natsUrl, const QString &source)
    {
        m_targets = m_dir.filePath(QStringLiteral("targets"));
        QDir().mkpath(m_targets);
        writeFile(m_dir.filePath(QStringLiteral("config/choria/ccm/facts.json")),
            "{\"target\": \"" + m_targets.toUtf8() + "\"}");
        writeFile(
            m_dir.filePath(QStringLiteral("config/nats/context/CCM.json")), "{\"url\": \"" + natsUrl.toUtf8() + "\"}");
        writeFile(m_dir.filePath(QStringLiteral("agent.yaml")),
            "identity: agent-" + QByteArray::number(index) + "\ncache_dir: "
                + m_dir.filePath(QStringLiteral("cache")).toUtf8() + "\nmanifests: [" + source.toUtf8() + "]\n");
    }
    ~BenchAgent()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished();
    }

    void start()
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        m_process.setProcessEnvironment(environment);
        m_process.setStandardErrorFile(m_dir.filePath(QStringLiteral("agent.log")));
        m_process.start(QStringLiteral(CCM_BACKEND_PATH),
            {QStringLiteral("agent"), QStringLiteral("--config"), m_dir.filePath(QStringLiteral("agent.yaml"))});
    }

    bool holds(const QByteArray &version) const
    {
        QFile file(m_targets + QStringLiteral("/f%1").arg(kFiles - 1));
        return file.open(QIODevice::ReadOnly) && file.readAll() == version + "\n";
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_targets;
};

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/// The longest run of `digest` among the hosts of `source` in CCM_STATUS, in ms.
double slowestRun(NatsConnection &connection, const std::string &source, const std::string &digest)
{
    double slowest = 0;
    auto status = readFleetStatus(connection, std::chrono::system_clock::now());
    if (!status)
        return 0;
    for (const HostStatus &host : status->hosts)
        for (const Json &run : host.value.value("runs", Json::array()))
            if (stringMember(run, "source") == source && stringMember(run, "manifest_digest") == digest)
                slowest = std::max(slowest, run.value("duration_ms", 0.0));
    return slowest;
}

struct RingTiming {
    double ringMs = 0;
    double slowestRunMs = 0;
};

/// Runs one rollout of `version`; the timing of each ring.
std::vector<RingTiming> rollOut(const QString &natsUrl, const QString &key, const QString &directory,
    const QByteArray &version, NatsConnection &connection)
{
    const QString file
        = directory + QStringLiteral("/site-") + QString::fromUtf8(version) + QStringLiteral("/site.yaml");
    writeFile(file, manifest(version));
    QStringList arguments {QStringLiteral("rollout"), file, QStringLiteral("--bucket"), QStringLiteral("bench"),
        QStringLiteral("--sign"), key, QStringLiteral("--json"), QStringLiteral("--nats"), natsUrl};
    for (int ring = 0; ring < kRings; ++ring)
        arguments << QStringLiteral("--ring") << ringName(ring);
    QProcess rollout;
    rollout.start(QStringLiteral(CCM_BACKEND_PATH), arguments);
    std::map<std::string, Clock::time_point> published;
    std::vector<RingTiming> timings;
    std::string digest;
    while (rollout.state() != QProcess::NotRunning || rollout.canReadLine()) {
        if (!rollout.canReadLine() && !rollout.waitForReadyRead(100))
            continue;
        while (rollout.canReadLine()) {
            const Json event = parseJson(rollout.readLine().toStdString(), false);
            const std::string kind = stringMember(event, "event");
            const std::string ring = stringMember(event, "ring");
            if (kind == "started")
                digest = stringMember(event, "digest");
            if (kind == "published")
                published[ring] = Clock::now();
            if (kind == "gate" && published.contains(ring)) {
                RingTiming timing;
                timing.ringMs = std::chrono::duration<double, std::milli>(Clock::now() - published[ring]).count();
                timing.slowestRunMs = slowestRun(connection, "obj://bench/" + ring, digest);
                timings.push_back(timing);
            }
        }
    }
    if (rollout.exitCode() != 0)
        std::fprintf(stderr, "rollout of %s ended with %d: %s\n", version.constData(), rollout.exitCode(),
            rollout.readAllStandardError().constData());
    return timings;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    ccm::test::NatsServer server;
    if (!server.start()) {
        std::fprintf(stderr, "bench_rollout: cannot start nats-server: %s\n", qPrintable(server.error()));
        return 1;
    }
    QTemporaryDir dir;
    const QString key = dir.filePath(QStringLiteral("release.pem"));
    auto made = generateSigningKey();
    if (!made || !writeKeyPair(*made, key.toStdString(), (key + QStringLiteral(".pub")).toStdString(), false))
        return 1;
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    if (!connection)
        return 1;
    {
        // The first release, put on every ring by hand.
        writeFile(dir.filePath(QStringLiteral("v0/site.yaml")), manifest("v0"));
        QProcess bundle;
        bundle.start(QStringLiteral(CCM_BACKEND_PATH),
            {QStringLiteral("bundle"), dir.filePath(QStringLiteral("v0/site.yaml")), QStringLiteral("-o"),
                dir.filePath(QStringLiteral("v0.tgz"))});
        bundle.waitForFinished(60000);
        QFile file(dir.filePath(QStringLiteral("v0.tgz")));
        auto store = ObjectStore::openOrCreate(**connection, "bench");
        if (!file.open(QIODevice::ReadOnly) || !store)
            return 1;
        const std::string bytes = file.readAll().toStdString();
        for (int ring = 0; ring < kRings; ++ring) {
            std::istringstream data(bytes);
            if (!store.value().put(ringName(ring).toStdString(), data))
                return 1;
        }
    }
    std::vector<std::unique_ptr<BenchAgent>> agents;
    for (int i = 0; i < kRings * kPerRing; ++i)
        agents.push_back(
            std::make_unique<BenchAgent>(i, server.url(), QStringLiteral("obj://bench/") + ringName(i / kPerRing)));
    for (auto &agent : agents)
        agent->start();
    const auto deadline = Clock::now() + std::chrono::minutes(2);
    while (Clock::now() < deadline) {
        auto status = readFleetStatus(**connection, std::chrono::system_clock::now());
        const bool ready = std::all_of(agents.begin(), agents.end(), [](const auto &a) { return a->holds("v0"); });
        if (ready && status && status->hosts.size() == agents.size())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::vector<double> rings;
    std::vector<double> runs;
    std::vector<double> overheads;
    for (int run = 1; run <= kRuns; ++run) {
        const auto timings = rollOut(server.url(), key, dir.path(), "v" + QByteArray::number(run), **connection);
        for (const RingTiming &timing : timings) {
            rings.push_back(timing.ringMs);
            runs.push_back(timing.slowestRunMs);
            overheads.push_back(timing.ringMs - timing.slowestRunMs);
        }
    }
    std::printf("rollout of a 50-file manifest through %d rings of %d real agents, %d rollouts (%zu rings timed)\n",
        kRings, kPerRing, kRuns, rings.size());
    std::printf("  ring, publish to gate verdict:        median %8.1f ms\n", median(rings));
    std::printf("  slowest agent run of the release:     median %8.1f ms\n", median(runs));
    std::printf("  overhead per ring beyond that run:    median %8.1f ms\n", median(overheads));
    return rings.size() == std::size_t(kRings * kRuns) ? 0 : 1;
}
