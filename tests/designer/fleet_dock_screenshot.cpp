// SPDX-License-Identifier: Apache-2.0
// Shows the designer with the Fleet dock filled by a recorded preview of a small web fleet, for
// the screenshot in docs/designer.md. Not a test and not shipped: it talks to a scripted backend
// on a FakeServer. Prints "ready" once the matrix and a diff are on screen; quits after a minute.
//   Xvfb :99 & DISPLAY=:99 fleet_dock_screenshot resources/examples/static-site.yaml
//   import -display :99 -window root docs/images/designer-fleet.png
#include "designer/core/backend_client.h"
#include "designer/core/fleet_preview_model.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/fleet_dock.h"
#include "scripted_backend.h"

#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

const char *const kRequest = "r-5f0c1e2d3b4a69788796a5b4";

Json siteEvent(const std::string &resource, const char *outcome, const char *diff = nullptr)
{
    const std::string type = resource.substr(0, resource.find('#'));
    Json event {{"resource", resource}, {"type", type}, {"name", resource.substr(type.size() + 1)}, {"changed", false},
        {"failed", false}, {"skipped", false}, {"refreshed", false}, {"noop", true}, {"error", Json::array()},
        {"unmet_requirements", Json::array()}, {"properties", {{"ensure", "present"}}}};
    if (std::string(outcome) != "stable")
        event[outcome] = true;
    if (diff)
        event["diff"] = diff;
    return event;
}

/// A preview of static-site.yaml on six web servers: two still serve the old front page; on web02
/// the edit changes it (intended), on web04 someone changed it by hand (drift); web06 follows no
/// published bundle, so it has nothing to compare with.
std::vector<Json> recordedPreview(const Json &request)
{
    const char *diff = "--- /srv/www/demo/index.html\n+++ /srv/www/demo/index.html\n@@ -1,4 +1,4 @@\n"
                       " <!doctype html>\n-<title>Demo</title>\n+<title>Demo site</title>\n"
                       " <h1>Demo site</h1>\n-<p>Questions to root@localhost.</p>\n"
                       "+<p>Served by web02. Questions to webmaster@example.net.</p>\n";
    std::vector<Json> out;
    Json hosts = Json::array();
    for (int n = 1; n <= 6; ++n) {
        const std::string identity = "web0" + std::to_string(n) + ".example.net";
        const auto host = [&](Json fields) {
            Json params {{"request", kRequest}, {"identity", identity}};
            params.update(fields);
            out.push_back(notification("fleet.host", params));
        };
        if (n == 5) {
            hosts.push_back({{"identity", identity}, {"state", "silent"}});
            continue;
        }
        host({{"state", "accepted"}});
        const bool old = n == 2 || n == 4;
        for (const auto &event : {siteEvent("file#/srv/www/demo", "stable"),
                 siteEvent("file#/srv/www/demo/index.html", old ? "changed" : "stable", old ? diff : nullptr),
                 siteEvent("file#/srv/www/demo/robots.txt", "stable"), siteEvent("file#/var/log/demo", "stable"),
                 siteEvent("exec#rebuild-site-index", old ? "refreshed" : "skipped")})
            out.push_back(
                notification("fleet.event", {{"request", kRequest}, {"identity", identity}, {"event", event}}));
        const char *change = n == 4 ? "drift" : "intended";
        const Json compared {{"state", "compared"}, {"source", "obj://SITES/static-site"}, {"digest", "SHA-256=x"},
            {"intended", old && n == 2 ? 2 : 0}, {"drift", n == 4 ? 2 : 0}, {"added", 0}, {"failed", 0},
            {"uncompared", 0}};
        const Json none {{"state", "none"}, {"reason", "no current bundle: this agent follows no remote source"}};
        Json done {{"state", "done"}, {"compare", n == 6 ? none : compared}};
        if (old)
            done["classes"] = {{"file#/srv/www/demo/index.html", change}, {"exec#rebuild-site-index", change}};
        host(done);
        hosts.push_back({{"identity", identity}, {"state", "done"}, {"compare", n == 6 ? none : compared}});
    }
    hosts.push_back({{"identity", "db01.example.net"}, {"state", "declined"}});
    out.push_back(answer(request,
        {{"request", kRequest}, {"hosts", hosts},
            {"totals",
                {{"hosts", 7}, {"answered", 6}, {"silent", 1}, {"declined", 1}, {"failed", 0}, {"changed", 4},
                    {"resources_failed", 0}, {"intended", 2}, {"drift", 2}, {"uncompared_hosts", 1}}}}));
    return out;
}

void showDiffWhenDone(MainWindow &window)
{
    FleetDock *dock = window.fleetDock();
    QObject::connect(dock->previewModel(), &FleetPreviewModel::updated, &window, [&window, dock] {
        if (!dock->previewModel()->isFinished())
            return;
        QTableView *view = dock->matrixView();
        view->setCurrentIndex(view->model()->index(2, FleetPreviewModel::FirstResourceColumn + 1));
        QTimer::singleShot(500, &window, [] {
            std::puts("ready");
            std::fflush(stdout);
        });
    });
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QCoreApplication::setApplicationName(QStringLiteral("fleet_dock_screenshot"));
    QTemporaryDir dir;
    const QString key = dir.filePath(QStringLiteral("preview.pem"));
    QFile keyFile(key);
    if (!keyFile.open(QIODevice::WriteOnly))
        return 1;
    keyFile.close();
    FleetKeyDialog::setKeyPath(key);
    FakeServer server(dir.filePath(QStringLiteral("backend.sock")),
        scriptedBackend({{"fleet.preview", recordedPreview}}, std::make_shared<Recorder>(), 6));

    MainWindow window;
    if (argc > 1)
        window.openFile(QString::fromLocal8Bit(argv[1]));
    BackendClient *client = window.previewController()->client();
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("backend.sock")));
    window.resize(1400, 900);
    window.show();
    showDiffWhenDone(window);
    QObject::connect(client, &BackendClient::connected, &window, [&window] {
        window.resizeDocks({window.fleetDock()}, {560}, Qt::Vertical);
        window.fleetDock()->selectorEdit()->setText(QStringLiteral("Facts.host.info.hostname != \"db01.example.net\""));
        window.fleetDock()->previewAction()->trigger();
    });
    window.connectToBackend();
    QTimer::singleShot(60000, &app, &QApplication::quit);
    return app.exec();
}
