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
#include "bench_fleet_agent.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_requester.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr int kAgents = 20;
constexpr int kResources = 100;
constexpr int kRuns = 5;
constexpr int kOld = 50; ///< files the current bundle wants as "ROLE-old"
constexpr int kDrift = 10; ///< files changed behind the agents' backs

using ccm::bench::BenchAgent;
using ccm::bench::BenchAgentOptions;
using ccm::bench::fileText;
using ccm::bench::writeFile;

/// Whether the agent applied its current bundle.
bool applied(const BenchAgent &agent)
{
    return fileText(agent.targets() + QStringLiteral("/f0")) == agent.role() + "-old\n"
        && fileText(agent.targets() + QStringLiteral("/f%1").arg(kResources - 1)) == agent.role() + "\n";
}

/// Changes files the current bundle manages: drift.
void drift(const BenchAgent &agent)
{
    for (int i = kOld; i < kOld + kDrift; ++i)
        writeFile(agent.targets() + QStringLiteral("/f%1").arg(i), "drifted\n");
}

/// Waits until every agent answers previews and has reported to CCM_STATUS.
bool waitForFleet(const std::vector<std::unique_ptr<BenchAgent>> &agents, NatsConnection &connection)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < deadline) {
        const bool answering = std::all_of(agents.begin(), agents.end(), [](const auto &a) { return a->answering(); });
        auto status = readFleetStatus(connection, std::chrono::system_clock::now());
        const bool current = std::all_of(agents.begin(), agents.end(), [](const auto &a) { return applied(*a); });
        if (answering && current && status && status->hosts.size() == agents.size())
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
        BenchAgentOptions agentOptions;
        agentOptions.index = i;
        agentOptions.natsUrl = server.url();
        agentOptions.role = i % 2 == 0 ? "web" : "db";
        agentOptions.manifests = {QStringLiteral("obj://BENCH/site")};
        agentOptions.localManifest = true;
        agentOptions.previewKey = publicKey;
        agents.push_back(std::make_unique<BenchAgent>(agentOptions));
        agents.back()->start(QStringLiteral(CCM_BACKEND_PATH));
    }
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    if (!connection || !waitForFleet(agents, **connection)) {
        std::fprintf(stderr, "bench_fleet_agents: the agents did not start\n");
        return 1;
    }
    for (const auto &agent : agents)
        drift(*agent);
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
