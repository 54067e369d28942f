// SPDX-License-Identifier: Apache-2.0
// The designer's side of a fleet preview at scale: the Fleet dock's matrix (FleetPreviewModel
// behind the dock's QTableView, shown on the offscreen platform) fed with recorded fleet.host and
// fleet.event notifications of N hosts x 100 resources (10 of them changed, with a diff), as the
// user's backend forwards them, in both preview answer formats:
// - format 1: per host accepted, then a running and an event per resource, then done;
// - format 2: per host accepted, one running, an event per changed resource only, then done
//   naming the 90 stable resources in its "stable" array.
// Notifications arrive in slices of about 64 KiB of text (one socket read), one slice per turn of
// the event loop, each parsed from its JSON text; hosts answer 100 at a time, interleaved. Prints
// the time until the matrix is filled (the result taken in and shown), the peak RSS (VmHWM) and
// that of the window alone before the preview, the longest turn of the event loop while the
// notifications arrive (how long a click could wait), and the turn that takes in the result.
//
// Each size runs in a process of its own, so each peak RSS is that size's own.
#include "designer/core/fleet_preview_model.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/fleet_dock.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <future>
#include <string>
#include <vector>

using namespace ccm::designer;

namespace {

constexpr int kResources = 100;
constexpr int kChangedPerHost = 10; ///< resource r changes on host h when (r + h) % 10 == 0
constexpr qsizetype kSliceBytes = 64 * 1024; ///< notification text per turn of the event loop
constexpr int kConcurrentHosts = 100; ///< hosts answering at the same time

/// Peak resident memory of this process in KiB, from /proc/self/status.
long peakRssKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLong();
    return -1;
}

std::string resourceName(int resource)
{
    return "file#/etc/app/conf.d/setting-" + std::to_string(resource) + ".conf";
}

bool changes(int host, int resource)
{
    return (resource + host) % kChangedPerHost == 0;
}

/// The recorded answers of one host, with its identity spliced in: a real event per resource in
/// both variants (stable and changed, with a diff), and the fleet.host reports, in answer format
/// 1 or 2.
class Recording {
public:
    /// With `classes`, each host's done carries its comparison: its changed resources classed,
    /// every other one drift, the rest intended.
    Recording(int hosts, int format, bool classes)
        : m_hosts(hosts)
        , m_format(format)
    {
        for (int r = 0; r < kResources; ++r) {
            const std::string name = "/etc/app/conf.d/setting-" + std::to_string(r) + ".conf";
            for (const bool changed : {false, true}) {
                ccm::Json event {{"protocol", "io.choria.ccm.v1.transaction.event"}, {"type", "file"},
                    {"provider", "posix"}, {"name", name}, {"resource", "file#" + name}, {"ensure", "present"},
                    {"changed", changed}, {"failed", false}, {"skipped", false}, {"noop", true}, {"duration", 0.0012},
                    {"errors", ccm::Json::array()}};
                if (changed)
                    event["diff"] = "--- " + name + "\n+++ " + name + "\n@@ -1 +1 @@\n-value old\n+value new\n";
                m_events[changed].push_back(event.dump());
            }
        }
        // Which resources change depends on host % 10 alone: so do the done's members.
        for (int phase = 0; phase < kChangedPerHost; ++phase)
            m_done.push_back(doneMembers(phase, format, classes));
    }

    int steps() const { return m_format == 1 ? 2 + 2 * kResources : 3 + kChangedPerHost; }
    int size() const { return m_hosts * steps(); }

    /// The method and params text of notification `index` of the whole preview.
    std::pair<bool, std::string> at(int index) const
    {
        const int window = std::min(kConcurrentHosts, m_hosts);
        const int windowStart = index / (window * steps()) * window;
        const int inWindow = index % (window * steps());
        const int width = std::min(window, m_hosts - windowStart);
        const int host = windowStart + inWindow % width;
        const int step = inWindow / width;
        const std::string head
            = R"({"request":"Zq3kV9pL0aXbT7mN","identity":"host-)" + std::to_string(host) + R"(.example.net",)";
        if (step == 0)
            return {false, head + R"("state":"accepted"})"};
        if (step == steps() - 1)
            return {false, head + R"("state":"done")" + m_done[size_t(host % kChangedPerHost)] + "}"};
        if (m_format == 2) {
            if (step == 1)
                return {false, running(head, 0)};
            // The host's changed resources, in order: the first is (10 - host % 10) % 10.
            const int resource
                = (kChangedPerHost - host % kChangedPerHost) % kChangedPerHost + kChangedPerHost * (step - 2);
            return {true, head + R"("event":)" + m_events[1][size_t(resource)] + "}"};
        }
        const int resource = (step - 1) / 2;
        if ((step - 1) % 2 == 0)
            return {false, running(head, resource)};
        return {true, head + R"("event":)" + m_events[changes(host, resource)][size_t(resource)] + "}"};
    }

    /// The fleet.preview result: every host done.
    std::string result() const
    {
        ccm::Json hosts = ccm::Json::array();
        for (int host = 0; host < m_hosts; ++host)
            hosts.push_back({{"identity", "host-" + std::to_string(host) + ".example.net"}, {"state", "done"},
                {"summary", {{"total", kResources}, {"changed", kChangedPerHost}, {"failed", 0}}}});
        return ccm::Json {{"request", "Zq3kV9pL0aXbT7mN"}, {"hosts", hosts},
            {"totals", {{"hosts", m_hosts}, {"answered", m_hosts}, {"silent", 0}}}}
            .dump();
    }

private:
    static std::string running(const std::string &head, int resource)
    {
        return head + R"("state":"running","done":)" + std::to_string(resource) + R"(,"total":100,"current":")"
            + resourceName(resource) + R"("})";
    }

    /// The members of the done of a host whose changed resources are those of `phase` (host % 10),
    /// with their leading commas: in format 2 its stable resources, with `classes` its comparison.
    static std::string doneMembers(int phase, int format, bool classes)
    {
        std::string members;
        if (format == 2) {
            ccm::Json stable = ccm::Json::array();
            for (int resource = 0; resource < kResources; ++resource)
                if (!changes(phase, resource))
                    stable.push_back(resourceName(resource));
            members += R"(,"stable":)" + stable.dump();
        }
        if (!classes)
            return members;
        ccm::Json classed = ccm::Json::object();
        int changed = 0;
        for (int resource = 0; resource < kResources; ++resource)
            if (changes(phase, resource))
                classed[resourceName(resource)] = changed++ % 2 == 0 ? "drift" : "intended";
        const ccm::Json compare {{"state", "compared"}, {"source", "obj://SITE/site"}, {"digest", "SHA-256=x"},
            {"intended", changed / 2}, {"drift", changed - changed / 2}, {"added", 0}, {"failed", 0},
            {"uncompared", 0}};
        return members + R"(,"compare":)" + compare.dump() + R"(,"classes":)" + classed.dump();
    }

    int m_hosts;
    int m_format;
    std::vector<std::string> m_events[2];
    std::vector<std::string> m_done;
};

/// Shows the dock's preview tab, the one holding the matrix.
void showMatrix(FleetDock *dock)
{
    dock->show();
    dock->raise();
    for (int tab = 0; tab < dock->tabs()->count(); ++tab)
        if (dock->tabs()->widget(tab)->isAncestorOf(dock->matrixView()))
            dock->tabs()->setCurrentIndex(tab);
}

/// Whether every cell of the matrix holds the outcome the recording gave it.
bool everyCellFilled(const FleetPreviewModel &model)
{
    for (int row = 1; row <= model.hostCount(); ++row) {
        const int host = model.identityAt(row).section(QLatin1Char('-'), 1).section(QLatin1Char('.'), 0, 0).toInt();
        for (int resource = 0; resource < kResources; ++resource) {
            const int column = model.columnOf(QString::fromStdString(resourceName(resource)));
            const Outcome expected = changes(host, resource) ? Outcome::Changed : Outcome::Stable;
            if (model.outcomeAt(row, column) != int(expected))
                return false;
        }
    }
    return true;
}

/// Feeds one preview of `hosts` hosts in answer `format` to the window's Fleet dock and prints its
/// figures.
int feed(int hosts, int format, bool classes)
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    FleetDock *dock = window.fleetDock();
    showMatrix(dock);
    FleetPreviewModel *model = dock->previewModel();
    QApplication::processEvents();
    const Recording recording(hosts, format, classes);
    const std::string result = recording.result();
    const long rssBefore = peakRssKiB();

    QElapsedTimer clock;
    qint64 lastTurn = -1;
    qint64 longestTurn = 0;
    qint64 resultStart = 0;
    qint64 resultTurnStart = 0;
    std::future<ccm::Json> parsedResult;
    std::function<void()> takeResult;
    int next = 0;
    bool fed = false;
    std::function<void()> slice = [&] {
        const qint64 now = clock.nsecsElapsed();
        if (lastTurn >= 0)
            longestTurn = std::max(longestTurn, now - lastTurn);
        lastTurn = now;
        for (qsizetype bytes = 0; bytes < kSliceBytes && next < recording.size(); ++next) {
            const auto [event, text] = recording.at(next);
            bytes += qsizetype(text.size()) + 1;
            const ccm::Json params = ccm::parseJson(text);
            event ? model->addEventReport(params) : model->addHostReport(params);
        }
        if (next < recording.size())
            return QTimer::singleShot(0, slice);
        // The result's line is long: the backend client parses it on a worker thread while the
        // event loop goes on (BackendClient::kBackgroundParseBytes), then the dock takes it in and
        // brings the views up to date at once.
        resultStart = clock.nsecsElapsed();
        parsedResult = std::async(std::launch::async, [&result] { return ccm::parseJson(result); });
        QTimer::singleShot(0, takeResult);
    };
    takeResult = [&] {
        const qint64 now = clock.nsecsElapsed();
        longestTurn = std::max(longestTurn, now - lastTurn);
        lastTurn = now;
        if (parsedResult.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready)
            return QTimer::singleShot(0, takeResult);
        resultTurnStart = clock.nsecsElapsed();
        model->setResult(parsedResult.get());
        model->flush();
        fed = true;
    };
    clock.start();
    QTimer::singleShot(0, slice);
    while (!fed)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    // The view lays out what the flush announced, then paints it.
    QApplication::processEvents();
    // The result's turn: the parsed result (all hosts with their summaries) taken in and laid out.
    const qint64 resultTurn = clock.nsecsElapsed() - resultTurnStart;
    const qint64 resultParse = resultTurnStart - resultStart;
    dock->matrixView()->viewport()->repaint();
    const double totalMs = double(clock.nsecsElapsed()) / 1e6;

    const bool filled = model->hostCount() == hosts && model->resourceCount() == kResources
        && model->countIn(FleetHostState::Done) == hosts && model->isFinished()
        && dock->previewFilter()->rowCount() == hosts + 1
        && model->index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::ChangedColumn).data().toInt()
            == hosts * kChangedPerHost
        && (!classes || model->driftTotal() == hosts * kChangedPerHost / 2) && everyCellFilled(*model);
    std::printf("  format %d, %6d hosts x %d resources%s: %8.1f ms to matrix filled  peak RSS %7.1f MiB (window "
                "alone %.1f)  longest stall %6.1f ms (the result's turn %.1f ms, after %.1f ms "
                "parsing it on a worker)  %s\n",
        format, hosts, kResources, classes ? ", classed" : "", totalMs, double(peakRssKiB()) / 1024.0,
        double(rssBefore) / 1024.0, double(longestTurn) / 1e6, double(resultTurn) / 1e6, double(resultParse) / 1e6,
        filled ? "" : "MATRIX INCOMPLETE");
    std::fflush(stdout);
    return filled ? 0 : 1;
}

} // namespace

/// Without arguments, every size in both formats, each in a process of its own; with
/// `--hosts N [--format 1|2] [--classes]`, that one.
int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList arguments = QApplication::arguments();
    if (arguments.size() >= 3 && arguments[1] == QLatin1String("--hosts")) {
        const qsizetype format = arguments.indexOf(QStringLiteral("--format"));
        return feed(arguments[2].toInt(), format > 0 ? arguments.value(format + 1).toInt() : 1,
            arguments.contains(QStringLiteral("--classes")));
    }
    std::printf("designer fleet preview matrix, recorded notifications (about %lld KiB per event-loop turn):\n",
        static_cast<long long>(kSliceBytes / 1024));
    std::fflush(stdout);
    // Each format at 20, 1,000 and 10,000 hosts, then 10,000 hosts whose done answers class their
    // changes (drift versus intent).
    for (const int format : {1, 2}) {
        for (const auto &[hosts, classes] : {std::pair {20, false}, {1000, false}, {10000, false}, {10000, true}}) {
            QProcess child;
            child.setProcessChannelMode(QProcess::ForwardedChannels);
            QStringList childArguments {
                QStringLiteral("--hosts"), QString::number(hosts), QStringLiteral("--format"), QString::number(format)};
            if (classes)
                childArguments << QStringLiteral("--classes");
            child.start(QApplication::applicationFilePath(), childArguments);
            if (!child.waitForFinished(-1) || child.exitCode() != 0)
                return 1;
        }
    }
    return 0;
}
