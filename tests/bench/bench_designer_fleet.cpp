// SPDX-License-Identifier: Apache-2.0
// The designer's side of a fleet preview at scale: the Fleet dock's matrix (FleetPreviewModel
// behind the dock's QTableView, shown on the offscreen platform) fed with recorded fleet.host and
// fleet.event notifications of N hosts x 100 resources, as the user's backend forwards them.
// Notifications arrive in slices of 256 (about one 64 KiB socket read), one slice per turn of the
// event loop, each parsed from its JSON text; hosts answer 100 at a time, interleaved. Prints the
// time until the matrix is filled (the result taken in and shown), the peak RSS (VmHWM), and the
// longest turn of the event loop while feeding: how long a click could wait.
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
#include <string>
#include <vector>

using namespace ccm::designer;

namespace {

constexpr int kResources = 100;
constexpr int kSlice = 256; ///< notifications per turn of the event loop
constexpr int kConcurrentHosts = 100; ///< hosts answering at the same time
constexpr int kStepsPerHost = 2 + 2 * kResources; ///< accepted, (running, event) per resource, done

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

/// The recorded answers of one host, with its identity spliced in: a real event per resource in
/// both variants (stable and changed, with a diff), and the fleet.host reports.
class Recording {
public:
    /// With `classes`, each host's done carries its comparison: its changed resources classed,
    /// every other one drift, the rest intended.
    Recording(int hosts, bool classes)
        : m_hosts(hosts)
        , m_classes(classes)
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
    }

    int size() const { return m_hosts * kStepsPerHost; }

    /// The method and params text of notification `index` of the whole preview.
    std::pair<bool, std::string> at(int index) const
    {
        const int window = std::min(kConcurrentHosts, m_hosts);
        const int windowStart = index / (window * kStepsPerHost) * window;
        const int inWindow = index % (window * kStepsPerHost);
        const int width = std::min(window, m_hosts - windowStart);
        const int host = windowStart + inWindow % width;
        const int step = inWindow / width;
        const std::string head
            = R"({"request":"Zq3kV9pL0aXbT7mN","identity":"host-)" + std::to_string(host) + R"(.example.net",)";
        if (step == 0)
            return {false, head + R"("state":"accepted"})"};
        if (step == kStepsPerHost - 1)
            return {false, head + R"("state":"done")" + comparison(host) + "}"};
        const int resource = (step - 1) / 2;
        if ((step - 1) % 2 == 0)
            return {false,
                head + R"("state":"running","done":)" + std::to_string(resource)
                    + R"(,"total":100,"current":"file#/etc/app/conf.d/setting-)" + std::to_string(resource)
                    + R"(.conf"})"};
        const bool changed = (resource + host) % 10 == 0;
        return {true, head + R"("event":)" + m_events[changed][size_t(resource)] + "}"};
    }

    /// The fleet.preview result: every host done.
    std::string result() const
    {
        ccm::Json hosts = ccm::Json::array();
        for (int host = 0; host < m_hosts; ++host)
            hosts.push_back({{"identity", "host-" + std::to_string(host) + ".example.net"}, {"state", "done"},
                {"summary", {{"total", kResources}, {"changed", 10}, {"failed", 0}}}});
        return ccm::Json {{"request", "Zq3kV9pL0aXbT7mN"}, {"hosts", hosts},
            {"totals", {{"hosts", m_hosts}, {"answered", m_hosts}, {"silent", 0}}}}
            .dump();
    }

private:
    /// The compare and classes members of a host's done, with their leading comma; empty without.
    std::string comparison(int host) const
    {
        if (!m_classes)
            return {};
        ccm::Json classes = ccm::Json::object();
        int changed = 0;
        for (int resource = 0; resource < kResources; ++resource)
            if ((resource + host) % 10 == 0)
                classes["file#/etc/app/conf.d/setting-" + std::to_string(resource) + ".conf"]
                    = changed++ % 2 == 0 ? "drift" : "intended";
        const ccm::Json compare {{"state", "compared"}, {"source", "obj://SITE/site"}, {"digest", "SHA-256=x"},
            {"intended", changed / 2}, {"drift", changed - changed / 2}, {"added", 0}, {"failed", 0},
            {"uncompared", 0}};
        return R"(,"compare":)" + compare.dump() + R"(,"classes":)" + classes.dump();
    }

    int m_hosts;
    bool m_classes;
    std::vector<std::string> m_events[2];
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

/// Feeds one preview of `hosts` hosts to the window's Fleet dock and prints its figures.
int feed(int hosts, bool classes)
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    FleetDock *dock = window.fleetDock();
    showMatrix(dock);
    FleetPreviewModel *model = dock->previewModel();
    QApplication::processEvents();
    const Recording recording(hosts, classes);
    const std::string result = recording.result();
    const long rssBefore = peakRssKiB();

    QElapsedTimer clock;
    qint64 lastTurn = -1;
    qint64 longestTurn = 0;
    int next = 0;
    bool fed = false;
    std::function<void()> slice = [&] {
        const qint64 now = clock.nsecsElapsed();
        if (lastTurn >= 0)
            longestTurn = std::max(longestTurn, now - lastTurn);
        lastTurn = now;
        for (const int end = std::min(next + kSlice, recording.size()); next < end; ++next) {
            const auto [event, text] = recording.at(next);
            const ccm::Json params = ccm::parseJson(text);
            event ? model->addEventReport(params) : model->addHostReport(params);
        }
        if (next < recording.size())
            return QTimer::singleShot(0, slice);
        model->setResult(ccm::parseJson(result));
        fed = true;
    };
    clock.start();
    QTimer::singleShot(0, slice);
    while (!fed)
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    // The result's flush is the next turn's; then the view paints what it shows.
    QApplication::processEvents();
    dock->matrixView()->viewport()->repaint();
    const double totalMs = double(clock.nsecsElapsed()) / 1e6;

    const bool filled = model->hostCount() == hosts && model->resourceCount() == kResources
        && model->countIn(FleetHostState::Done) == hosts && model->isFinished()
        && dock->previewFilter()->rowCount() == hosts + 1 && (!classes || model->driftTotal() == hosts * 5);
    std::printf("  %6d hosts x %d resources%s: %8.1f ms to matrix filled  peak RSS %7.1f MiB (%.1f before)  "
                "longest stall %6.1f ms  %s\n",
        hosts, kResources, classes ? ", classed" : "", totalMs, double(peakRssKiB()) / 1024.0,
        double(rssBefore) / 1024.0, double(longestTurn) / 1e6, filled ? "" : "MATRIX INCOMPLETE");
    std::fflush(stdout);
    return filled ? 0 : 1;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList arguments = QApplication::arguments();
    if (arguments.size() >= 3 && arguments[1] == QLatin1String("--hosts"))
        return feed(arguments[2].toInt(), arguments.contains(QStringLiteral("--classes")));
    std::printf("designer fleet preview matrix, recorded notifications (slices of %d per event-loop turn):\n", kSlice);
    std::fflush(stdout);
    // Then 10,000 hosts whose done answers class their changes (drift versus intent).
    for (const auto &[hosts, classes] : {std::pair {20, false}, {1000, false}, {10000, false}, {10000, true}}) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        QStringList childArguments {QStringLiteral("--hosts"), QString::number(hosts)};
        if (classes)
            childArguments << QStringLiteral("--classes");
        child.start(QApplication::applicationFilePath(), childArguments);
        if (!child.waitForFinished(-1) || child.exitCode() != 0)
            return 1;
    }
    return 0;
}
