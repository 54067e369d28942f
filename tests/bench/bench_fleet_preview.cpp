// SPDX-License-Identifier: Apache-2.0
// Fleet preview aggregation: a recorded fleet (ccm-preview-fleet --recorded) of N identities
// answers with 100 events each; the requester collects them from a real nats-server. Prints the
// time from request to the last host finished and the answers per second.
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "core/model/transaction_event.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_requester.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sys/resource.h>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr int kEvents = 100;

/// CPU milliseconds this process (the requester) used so far, user and system.
double cpuMilliseconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

/// With `classes`, the done answer carries a comparison that classes every event (half drift, half
/// intended), as an agent that compared with its current bundle sends it.
void writeRecording(const std::string &path, bool classes)
{
    std::ofstream out(path);
    out << R"({"type":"accepted"})" << '\n';
    for (int i = 0; i < kEvents; ++i)
        out << Json {{"type", "event"},
            {"event",
                {{"resource", "file#/etc/f" + std::to_string(i)}, {"changed", true},
                    {"diff", "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n"}}}}
                   .dump()
            << '\n';
    Json done = parseJson(
        R"({"type":"done","summary":{"total":100,"changed":100,"failed":0},"cancelled":false,"aborted":false,"diagnostics":[]})");
    if (classes) {
        Json map = Json::object();
        for (int i = 0; i < kEvents; ++i)
            map["file#/etc/f" + std::to_string(i)] = i % 2 == 0 ? "drift" : "intended";
        done["compare"] = Json {{"state", "compared"}, {"source", "obj://SITE/site"},
            {"digest", "SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU="}, {"classes", std::move(map)}};
    }
    out << done.dump() << '\n';
}

/// One preview against `hosts` recorded identities; milliseconds, or a negative number on failure.
double measure(
    const ccm::test::NatsServer &server, QTemporaryDir &dir, const SigningKey &key, int hosts, const QString &recording)
{
    QProcess fleet;
    fleet.start(QStringLiteral(CCM_PREVIEW_FLEET_BIN),
        {QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"), dir.filePath(QStringLiteral("k.pub.pem")),
            QStringLiteral("--hosts"), QString::number(hosts), QStringLiteral("--prefix"), QStringLiteral("h"),
            QStringLiteral("--recorded"), dir.filePath(recording), QStringLiteral("--status"), QStringLiteral("yes")});
    QByteArray output;
    while (!output.contains("ready") && fleet.waitForReadyRead(60000))
        output += fleet.readAllStandardOutput();
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    PreviewRequestOptions options;
    options.source = dir.filePath(QStringLiteral("manifest.yaml")).toStdString();
    options.key = key;
    options.timeout = std::chrono::seconds(120);
    options.keepEvents = false;
    const auto start = std::chrono::steady_clock::now();
    const double cpuStart = cpuMilliseconds();
    auto preview = connection ? runFleetPreview(**connection, options) : Result<FleetPreview>(connection.error());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpuMilliseconds() - cpuStart;
    fleet.closeWriteChannel();
    fleet.waitForFinished(30000);
    if (!preview) {
        std::fprintf(stderr, "bench_fleet_preview: %s\n", preview.error().message.c_str());
        return -1;
    }
    const Json totals = fleetPreviewTotals(*preview);
    std::printf("  %6d hosts x %d events%s: %9.1f ms  %10.0f answers/s  requester CPU %9.1f ms  (%s)\n", hosts, kEvents,
        recording.contains(QStringLiteral("classes")) ? ", classed" : "", ms, hosts * (kEvents + 2) / (ms / 1000.0),
        cpu, totals.dump().c_str());
    return ms;
}

/// One preview run for real by `hosts` responders (ccm-preview-fleet) on a manifest of `files`
/// file resources; milliseconds, or a negative number on failure.
double measureReal(const ccm::test::NatsServer &server, QTemporaryDir &dir, const SigningKey &key, int hosts, int files)
{
    const std::string target = dir.filePath(QStringLiteral("targets")).toStdString();
    std::ofstream manifest(dir.filePath(QStringLiteral("real.yaml")).toStdString());
    manifest << "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < files; ++i)
        manifest
            << "        - " << target << "/f" << i << ":\n            ensure: present\n            owner: root\n"
            << "            group: root\n            mode: \"0644\"\n            content: \"{{ Facts.role }}\\n\"\n";
    manifest.close();
    QProcess fleet;
    fleet.start(QStringLiteral(CCM_PREVIEW_FLEET_BIN),
        {QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"), dir.filePath(QStringLiteral("k.pub.pem")),
            QStringLiteral("--hosts"), QString::number(hosts), QStringLiteral("--prefix"), QStringLiteral("real"),
            QStringLiteral("--work"), dir.filePath(QStringLiteral("work")), QStringLiteral("--status"),
            QStringLiteral("yes")});
    QByteArray output;
    while (!output.contains("ready") && fleet.waitForReadyRead(60000))
        output += fleet.readAllStandardOutput();
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    PreviewRequestOptions options;
    options.source = dir.filePath(QStringLiteral("real.yaml")).toStdString();
    options.key = key;
    options.timeout = std::chrono::seconds(300);
    const auto start = std::chrono::steady_clock::now();
    auto preview = connection ? runFleetPreview(**connection, options) : Result<FleetPreview>(connection.error());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    fleet.closeWriteChannel();
    fleet.waitForFinished(30000);
    if (!preview) {
        std::fprintf(stderr, "bench_fleet_preview: %s\n", preview.error().message.c_str());
        return -1;
    }
    std::printf(
        "  %6d real hosts x %d files: %9.1f ms  (%s)\n", hosts, files, ms, fleetPreviewTotals(*preview).dump().c_str());
    return ms;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (!ccm::test::NatsServer::available()) {
        std::fprintf(stderr, "bench_fleet_preview: nats-server is not installed\n");
        return 1;
    }
    ccm::test::NatsServer server;
    if (!server.start()) {
        std::fprintf(stderr, "bench_fleet_preview: %s\n", qPrintable(server.error()));
        return 1;
    }
    QTemporaryDir dir;
    const SigningKey key = generateSigningKey().value();
    (void)writeKeyPair(key, dir.filePath(QStringLiteral("k.pem")).toStdString(),
        dir.filePath(QStringLiteral("k.pub.pem")).toStdString(), false);
    writeRecording(dir.filePath(QStringLiteral("recorded.jsonl")).toStdString(), false);
    writeRecording(dir.filePath(QStringLiteral("recorded-classes.jsonl")).toStdString(), true);
    std::ofstream(dir.filePath(QStringLiteral("manifest.yaml")).toStdString())
        << "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n";
    std::printf("fleet preview, recorded fleet, request to last answer (classed: every done carries its 100 "
                "resources' classes):\n");
    for (const int hosts : {1000, 10000})
        for (const QString &recording : {QStringLiteral("recorded.jsonl"), QStringLiteral("recorded-classes.jsonl")})
            if (measure(server, dir, key, hosts, recording) < 0)
                return 1;
    std::printf("fleet preview, responders running the manifest in noop (2 cores shared), request to last answer:\n");
    // A server of its own: CCM_STATUS of the first lists the recorded hosts, gone by now.
    ccm::test::NatsServer realServer;
    if (!realServer.start() || measureReal(realServer, dir, key, 20, 100) < 0)
        return 1;
    return 0;
}
