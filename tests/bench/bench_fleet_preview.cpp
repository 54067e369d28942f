// SPDX-License-Identifier: Apache-2.0
// Fleet preview aggregation: a recorded fleet (ccm-preview-fleet --recorded) of N identities
// answers a 100-resource preview, 10 resources changed (each with a diff) and 90 stable, in answer
// format 1 (a progress and an event per resource, as agents that predate format 2 answer) or in
// format 2 (one batch of events for the 10 changed, the 90 stable named in done); the requester collects them
// from a real nats-server. Prints the time from request to the last host finished, the answers per
// second, the requester's CPU time and its peak resident memory (VmHWM) during the preview.
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "core/model/transaction_event.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_requester.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/resource.h>

using namespace ccm;
using namespace ccm::fleet;

namespace {

constexpr int kResources = 100;
constexpr int kChanged = 10;

/// CPU milliseconds this process (the requester) used so far, user and system.
double cpuMilliseconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

/// Resets the peak resident size the kernel keeps for this process (Linux 4.0 and later).
void resetPeakMemory()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

/// This process's peak resident size in MiB since the last reset, from /proc/self/status.
double peakMemoryMiB()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmHWM:"))
            return std::stod(line.substr(6)) / 1024.0;
    return -1;
}

/// The event of resource `index` as a noop run writes it: the first kChanged would change (with
/// a diff), the others are stable.
TransactionEvent recordedEvent(int index)
{
    TransactionEvent event;
    event.eventId = newEventId();
    event.timestamp = std::chrono::system_clock::now();
    event.type = "file";
    event.provider = "posix";
    event.name = "/etc/app/conf.d/f" + std::to_string(index) + ".conf";
    event.requestedEnsure = "present";
    event.finalEnsure = "present";
    event.duration = std::chrono::microseconds(350);
    event.properties = Json {{"ensure", "present"}, {"owner", "root"}, {"group", "root"}, {"mode", "0644"}};
    event.noop = true;
    if (index < kChanged) {
        event.changed = true;
        event.noopMessage = "Would have changed the content";
        event.diff = "--- " + event.name + "\n+++ " + event.name
            + "\n@@ -1,3 +1,3 @@\n listen 80\n-workers 4\n+workers 8\n" + " log info\n";
    }
    return event;
}

/// The answers of one host in `format` (1 or 2), one JSON object a line, without id, identity
/// and seq; `done` carries the classes of the changed resources (half drift, half intended), as
/// an agent that compared sends them.
void writeRecording(const std::string &path, int format)
{
    std::ofstream out(path);
    out << R"({"type":"accepted","facts_digest":"SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU="})" << '\n';
    RunSummary summary;
    Json stable = Json::array();
    Json classes = Json::object();
    Json batch = Json::array();
    for (int i = 0; i < kResources; ++i) {
        const TransactionEvent event = recordedEvent(i);
        summary.add(event);
        if (format == 1 || i == 0)
            out << Json {{"type", "progress"}, {"done", i}, {"total", kResources}, {"current", event.resource()}}.dump()
                << '\n';
        if (event.changed)
            classes[event.resource()] = i % 2 == 0 ? "drift" : "intended";
        if (format == 1)
            out << Json {{"type", "event"}, {"event", eventToJson(event)}}.dump() << '\n';
        else if (isStableEvent(event))
            stable.push_back(event.resource());
        else
            batch.push_back(eventToJson(event));
    }
    // Format 2: the changed resources' events in one batch, as an agent sends those of a run that
    // takes less than the batch interval.
    if (format == 2)
        out << Json {{"type", "events"}, {"events", batch}}.dump() << '\n';
    Json done {{"type", "done"}, {"summary", summaryToJson(summary)}, {"cancelled", false}, {"aborted", false},
        {"diagnostics", Json::array()},
        {"compare",
            {{"state", "compared"}, {"source", "obj://SITE/site"},
                {"digest", "SHA-256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU="}, {"classes", classes}}}};
    if (format == 2) {
        done["answers"] = 2;
        done["stable"] = std::move(stable);
    }
    out << done.dump() << '\n';
}

/// Answer messages per host in `format`.
int answersPerHost(int format)
{
    return format == 1 ? 2 + 2 * kResources : 4;
}

/// One preview against `hosts` recorded identities answering in `format`; the totals, or null on
/// failure.
Json measure(const ccm::test::NatsServer &server, QTemporaryDir &dir, const SigningKey &key, int hosts, int format)
{
    QStringList arguments {QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
        dir.filePath(QStringLiteral("k.pub.pem")), QStringLiteral("--hosts"), QString::number(hosts),
        QStringLiteral("--prefix"), QStringLiteral("h"), QStringLiteral("--recorded"),
        dir.filePath(QStringLiteral("format1.jsonl")), QStringLiteral("--status"), QStringLiteral("yes")};
    if (format == 2)
        arguments << QStringLiteral("--recorded2") << dir.filePath(QStringLiteral("format2.jsonl"));
    QProcess fleet;
    fleet.start(QStringLiteral(CCM_PREVIEW_FLEET_BIN), arguments);
    QByteArray output;
    while (!output.contains("ready") && fleet.waitForReadyRead(60000))
        output += fleet.readAllStandardOutput();
    NatsSettings settings;
    settings.url = server.urlString();
    auto connection = NatsConnection::connect(settings);
    PreviewRequestOptions options;
    options.source = dir.filePath(QStringLiteral("manifest.yaml")).toStdString();
    options.key = key;
    options.timeout = std::chrono::seconds(60);
    options.keepEvents = false;
    resetPeakMemory();
    const auto start = std::chrono::steady_clock::now();
    const double cpuStart = cpuMilliseconds();
    // Before the request goes out: the bundle is made and stored, CCM_STATUS read.
    double publishedMs = 0;
    PreviewCallbacks callbacks;
    callbacks.published = [&](const std::string &) {
        publishedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    auto preview
        = connection ? runFleetPreview(**connection, options, callbacks) : Result<FleetPreview>(connection.error());
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpuMilliseconds() - cpuStart;
    const double peak = peakMemoryMiB();
    fleet.closeWriteChannel();
    fleet.waitForFinished(30000);
    if (!preview) {
        std::fprintf(stderr, "bench_fleet_preview: %s\n", preview.error().message.c_str());
        return nullptr;
    }
    Json totals = fleetPreviewTotals(*preview);
    std::printf("  %6d hosts, format %d: %9.1f ms (request sent after %6.1f ms)  %9.0f answers/s  requester CPU %8.1f "
                "ms  peak RSS %6.1f MiB\n    %s\n",
        hosts, format, ms, publishedMs, hosts * answersPerHost(format) / (ms / 1000.0), cpu, peak,
        totals.dump().c_str());
    return totals;
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
    writeRecording(dir.filePath(QStringLiteral("format1.jsonl")).toStdString(), 1);
    writeRecording(dir.filePath(QStringLiteral("format2.jsonl")).toStdString(), 2);
    std::ofstream(dir.filePath(QStringLiteral("manifest.yaml")).toStdString())
        << "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n";
    std::printf("fleet preview, recorded fleet, %d resources a host (%d changed with a diff, %d stable), classes in "
                "done, %lld bytes a host in format 1 and %lld in format 2, request to last answer:\n",
        kResources, kChanged, kResources - kChanged,
        static_cast<long long>(QFileInfo(dir.filePath(QStringLiteral("format1.jsonl"))).size()),
        static_cast<long long>(QFileInfo(dir.filePath(QStringLiteral("format2.jsonl"))).size()));
    // "bench_fleet_preview HOSTS FORMAT" measures that one case alone (for profiling).
    if (argc == 3)
        return measure(server, dir, key, std::atoi(argv[1]), std::atoi(argv[2])).is_null() ? 1 : 0;
    for (const int hosts : {1000, 10000}) {
        const Json format1 = measure(server, dir, key, hosts, 1);
        const Json format2 = measure(server, dir, key, hosts, 2);
        if (format1.is_null() || format2.is_null())
            return 1;
        if (format2["answered"] != hosts || format2["stable"] != hosts * (kResources - kChanged)
            || format2["changed"] != hosts * kChanged) {
            std::fprintf(stderr, "bench_fleet_preview: the totals of format 2 are wrong\n");
            return 1;
        }
        // Format 1 sends 6 times the bytes: a requester that falls more than its pending limit
        // behind drops answers, and those hosts end silent. The totals agree when none was lost.
        if (format1["answered"] != hosts)
            std::printf("    format 1: %d of %d hosts silent, their answers dropped by the requester\n",
                hosts - format1["answered"].get<int>(), hosts);
        else if (format1 != format2) {
            std::fprintf(stderr, "bench_fleet_preview: the totals of the two formats differ\n");
            return 1;
        }
    }
    std::printf("fleet preview, responders running the manifest in noop (2 cores shared), request to last answer:\n");
    // A server of its own: CCM_STATUS of the first lists the recorded hosts, gone by now.
    ccm::test::NatsServer realServer;
    if (!realServer.start() || measureReal(realServer, dir, key, 20, 100) < 0)
        return 1;
    return 0;
}
