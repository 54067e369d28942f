// SPDX-License-Identifier: Apache-2.0
// Fleet preview with real agents: 20 `ccm-backend agent` processes with preview on, each with its
// own identity, facts and NATS context, answer a 100-resource manifest from a real nats-server.
// Prints the time from request to the last answer of 5 previews and their median, without and
// with drift classes. Each agent keeps a published current bundle applied (f0-f49 hold "ROLE-old",
// f50-f99 "ROLE"), and f50-f59 are then changed behind its back: the proposal ("ROLE" everywhere)
// changes 60 files, 50 intended and 10 drift, and classing them runs the current bundle's 60 again.
// The agents are started, have applied it and reported to CCM_STATUS before the clock runs.
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_requester.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <pwd.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr int kAgents = 20;
constexpr int kResources = 100;
constexpr int kRuns = 5;
constexpr int kOld = 50; ///< files the current bundle wants as "ROLE-old"
constexpr int kDrift = 10; ///< files changed behind the agents' backs

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

/// One agent process: its directory holds its configuration home, cache, log and target files.
class BenchAgent {
public:
    BenchAgent(int index, const QString &natsUrl, const QString &trustedKey, const QString &source)
    {
        ::chmod(m_dir.path().toUtf8().constData(), 0711);
        const QString targets = m_dir.filePath(QStringLiteral("targets"));
        QDir().mkpath(targets);
        ::chmod(targets.toUtf8().constData(), 0755);
        const QByteArray role = index % 2 == 0 ? "web" : "db";
        m_targets = targets;
        m_role = role;
        writeFile(m_dir.filePath(QStringLiteral("config/choria/ccm/facts.json")),
            "{\"role\": \"" + role + "\", \"target\": \"" + targets.toUtf8() + "\"}");
        writeFile(
            m_dir.filePath(QStringLiteral("config/nats/context/CCM.json")), "{\"url\": \"" + natsUrl.toUtf8() + "\"}");
        writeFile(m_dir.filePath(QStringLiteral("local.yaml")), "ccm:\n  resources: []\n");
        const passwd *user = ::getpwuid(::geteuid());
        const QByteArray previewUser = ::geteuid() == 0 || user == nullptr ? "nobody" : user->pw_name;
        writeFile(m_dir.filePath(QStringLiteral("agent.yaml")),
            "identity: agent-" + QByteArray::number(index)
                + "\ncache_dir: " + m_dir.filePath(QStringLiteral("cache")).toUtf8() + "\nmanifests: ["
                + m_dir.filePath(QStringLiteral("local.yaml")).toUtf8() + ", " + source.toUtf8()
                + "]\npreview:\n  enabled: true\n" + "  trusted_keys: [" + trustedKey.toUtf8()
                + "]\n  user: " + previewUser + "\n");
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

    bool answering() const
    {
        QFile log(m_dir.filePath(QStringLiteral("agent.log")));
        return log.open(QIODevice::ReadOnly) && log.readAll().contains("fleet preview: answering requests");
    }

    /// Whether the agent applied its current bundle.
    bool applied() const
    {
        return fileText(m_targets + QStringLiteral("/f0")) == m_role + "-old\n"
            && fileText(m_targets + QStringLiteral("/f%1").arg(kResources - 1)) == m_role + "\n";
    }

    /// Changes files the current bundle manages: drift.
    void drift() const
    {
        for (int i = kOld; i < kOld + kDrift; ++i)
            writeFile(m_targets + QStringLiteral("/f%1").arg(i), "drifted\n");
    }

private:
    static QByteArray fileText(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    QString m_targets;
    QByteArray m_role;
};

/// Waits until every agent answers previews and has reported to CCM_STATUS.
bool waitForFleet(const std::vector<std::unique_ptr<BenchAgent>> &agents, NatsConnection &connection)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < deadline) {
        const bool answering = std::all_of(agents.begin(), agents.end(), [](const auto &a) { return a->answering(); });
        auto status = readFleetStatus(connection, std::chrono::system_clock::now());
        const bool applied = std::all_of(agents.begin(), agents.end(), [](const auto &a) { return a->applied(); });
        if (answering && applied && status && status->hosts.size() == agents.size())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

/// The manifest of the 100 files; the first `old` hold "ROLE-old".
QString writeManifest(const QTemporaryDir &dir, const QString &name, int old)
{
    QByteArray manifest = "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < kResources; ++i)
        manifest += "        - \"{{ Facts.target }}/f" + QByteArray::number(i)
            + "\":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \"{{ Facts.role }}"
            + (i < old ? "-old" : "") + "\\n\"\n";
    const QString path = dir.filePath(name);
    writeFile(path, manifest);
    return path;
}

/// Bundles and publishes the current bundle as obj://BENCH/site.
bool publishCurrent(const QTemporaryDir &dir, const QString &natsUrl)
{
    const QString bundle = dir.filePath(QStringLiteral("current.tar.gz"));
    const QStringList steps[]
        = {{QStringLiteral("bundle"), writeManifest(dir, QStringLiteral("current/manifest.yaml"), kOld),
               QStringLiteral("-o"), bundle},
            {QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QStringLiteral("BENCH"),
                QStringLiteral("--name"), QStringLiteral("site"), QStringLiteral("--nats"), natsUrl}};
    for (const QStringList &arguments : steps) {
        QProcess process;
        process.start(QStringLiteral(CCM_BACKEND_PATH), arguments);
        if (!process.waitForFinished(60000) || process.exitCode() != 0) {
            std::fprintf(stderr, "bench_fleet_agents: %s\n", process.readAllStandardError().constData());
            return false;
        }
    }
    return true;
}

/// kRuns previews; their median in milliseconds, or a negative number on failure.
double medianOf(NatsConnection &connection, const PreviewRequestOptions &options)
{
    std::vector<double> samples;
    for (int run = 0; run < kRuns; ++run) {
        const auto start = std::chrono::steady_clock::now();
        auto preview = runFleetPreview(connection, options);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!preview) {
            std::fprintf(stderr, "bench_fleet_agents: %s\n", preview.error().message.c_str());
            return -1;
        }
        std::printf("  run %d: %9.1f ms  (%s)\n", run + 1, ms, fleetPreviewTotals(*preview).dump().c_str());
        samples.push_back(ms);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    ccm::test::NatsServer server;
    if (!ccm::test::NatsServer::available() || !server.start()) {
        std::fprintf(stderr, "bench_fleet_agents: needs nats-server: %s\n", qPrintable(server.error()));
        return 1;
    }
    QTemporaryDir dir;
    const SigningKey key = generateSigningKey().value();
    const QString publicKey = dir.filePath(QStringLiteral("k.pub.pem"));
    (void)writeKeyPair(key, dir.filePath(QStringLiteral("k.pem")).toStdString(), publicKey.toStdString(), false);
    if (!publishCurrent(dir, server.url()))
        return 1;
    std::vector<std::unique_ptr<BenchAgent>> agents;
    for (int i = 0; i < kAgents; ++i) {
        agents.push_back(std::make_unique<BenchAgent>(i, server.url(), publicKey, QStringLiteral("obj://BENCH/site")));
        agents.back()->start();
    }
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    if (!connection || !waitForFleet(agents, **connection)) {
        std::fprintf(stderr, "bench_fleet_agents: the agents did not start\n");
        return 1;
    }
    for (const auto &agent : agents)
        agent->drift();
    PreviewRequestOptions options;
    options.source = writeManifest(dir, QStringLiteral("manifest.yaml"), 0).toStdString();
    options.key = key;
    options.timeout = std::chrono::seconds(300);
    std::printf("fleet preview, %d real agents x %d file resources (noop as the preview user), request to last "
                "answer:\n",
        kAgents, kResources);
    for (const bool compare : {false, true}) {
        options.compare = compare;
        std::printf(" %s\n",
            compare ? "with drift classes (the current bundle's 60 changed resources run again)"
                    : "without drift classes (as before)");
        const double median = medianOf(**connection, options);
        if (median < 0)
            return 1;
        std::printf("  median of %d: %9.1f ms\n", kRuns, median);
    }
    return 0;
}
