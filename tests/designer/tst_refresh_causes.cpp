// SPDX-License-Identifier: Apache-2.0
// A refresh says what caused it in the designer: the Preview Results rows, the report text, and
// the fleet matrix's cell tooltip and details, fed with the events of a real `ccm-backend apply`.
#include "designer/core/backend_client.h"
#include "designer/core/fleet_preview_model.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/fleet_dock.h"
#include "fake_server.h"
#include "gui_test_support.h"
#include "scripted_backend.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// A configuration file and the reload that subscribes to it, in `dir`.
QString writeManifest(const QTemporaryDir &dir)
{
    const QString manifest = dir.filePath(s("manifest.yaml"));
    const QString text = s("ccm:\n  resources:\n    - file:\n        - %1:\n            ensure: present\n"
                           "            content: \"worker_processes 2;\\n\"\n            owner: %2\n"
                           "            group: %3\n            mode: \"0644\"\n"
                           "    - exec:\n        - reload:\n            command: /bin/true\n"
                           "            refreshonly: true\n            subscribe: [file#%1]\n")
                             .arg(dir.filePath(s("nginx.conf")), currentUserName(), currentGroupName());
    writeFile(manifest, text.toUtf8());
    return manifest;
}

/// The events `ccm-backend apply --json` prints for the manifest, with `--noop` when asked.
std::vector<Json> applyEvents(const QString &manifest, bool noop)
{
    QStringList arguments {s("apply"), s("--json")};
    if (noop)
        arguments << s("--noop");
    QProcess process;
    process.start(s(CCM_BACKEND_BIN), arguments << manifest);
    process.waitForFinished(60000);
    std::vector<Json> events;
    for (const QByteArray &line : process.readAllStandardOutput().split('\n')) {
        const Json json = Json::parse(line.toStdString(), nullptr, false);
        if (json.is_object() && json.contains("event_id"))
            events.push_back(json);
    }
    return events;
}

/// A fleet preview in which web1 sends `events` and is done.
Responder previewOf(std::vector<Json> events)
{
    return [events = std::move(events)](const Json &request) {
        const auto params = [](const char *key, Json value) {
            return Json {{"request", "r-0123456789abcdef"}, {"identity", "web1"}, {key, std::move(value)}};
        };
        std::vector<Json> replies {notification("fleet.host", params("state", "running"))};
        for (const Json &event : events)
            replies.push_back(notification("fleet.event", params("event", event)));
        replies.push_back(notification("fleet.host", params("state", "done")));
        replies.push_back(answer(request,
            {{"request", "r-0123456789abcdef"}, {"hosts", {{{"identity", "web1"}, {"state", "done"}}}},
                {"totals",
                    {{"hosts", 1}, {"answered", 1}, {"silent", 0}, {"declined", 0}, {"failed", 0}, {"changed", 1},
                        {"resources_failed", 0}}}}));
        return replies;
    };
}

} // namespace

class TestRefreshCauses : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_manifest;
    QString m_conf;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(s("CCM Designer"));
        QCoreApplication::setApplicationName(s("tst_refresh_causes"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
        m_manifest = writeManifest(m_dir);
        m_conf = s("file#") + m_dir.filePath(s("nginx.conf"));
    }

    void previewResultsSayWhatWouldRefresh()
    {
        RunResults results;
        results.startRun(m_manifest, true);
        for (const Json &event : applyEvents(m_manifest, true))
            results.addEvent(event);
        const int row = results.rowOf(s("exec#reload"));
        QVERIFY(row >= 0);
        QCOMPARE(results.outcomeAt(row), Outcome::Refreshed);
        const QString message = s("would refresh: subscribed to %1, which would change").arg(m_conf);
        QCOMPARE(results.index(row, RunResults::OutcomeColumn).data().toString(), s("would refresh"));
        QCOMPARE(results.index(row, RunResults::MessageColumn).data().toString(), message);
        // The message may be wider than its column: the tooltip has all of it.
        QCOMPARE(results.index(row, RunResults::MessageColumn).data(Qt::ToolTipRole).toString(), message);
        QVERIFY2(results.toText().contains(s("exec#reload  ") + message), qPrintable(results.toText()));
    }

    void applyResultsSayWhatRefreshed()
    {
        QTemporaryDir dir;
        const QString manifest = writeManifest(dir);
        RunResults results;
        results.startRun(manifest, false);
        for (const Json &event : applyEvents(manifest, false))
            results.addEvent(event);
        const int row = results.rowOf(s("exec#reload"));
        QVERIFY(row >= 0);
        QCOMPARE(results.outcomeAt(row), Outcome::Refreshed);
        const QString message = s("refreshed: subscribed to file#%1, which changed").arg(dir.filePath(s("nginx.conf")));
        QCOMPARE(results.index(row, RunResults::MessageColumn).data().toString(), message);
        QVERIFY2(results.toText().contains(message), qPrintable(results.toText()));
        // The file's own row has nothing to explain.
        QCOMPARE(results.index(results.rowOf(s("file#") + dir.filePath(s("nginx.conf"))), RunResults::MessageColumn)
                     .data()
                     .toString(),
            QString());
    }

    void fleetCellsSayWhatWouldRefresh()
    {
        FleetPreviewModel model;
        for (const Json &event : applyEvents(m_manifest, true))
            model.addEventReport(Json {{"identity", "web1"}, {"event", event}});
        model.flush();
        const int row = model.rowOf(s("web1"));
        const int column = model.columnOf(s("exec#reload"));
        QVERIFY(row > 0 && column >= FleetPreviewModel::FirstResourceColumn);
        const QString message = s("would refresh: subscribed to %1, which would change").arg(m_conf);
        QCOMPARE(model.messageAt(row, column), message);
        QCOMPARE(model.index(row, column).data(Qt::ToolTipRole).toString(),
            s("exec#reload on web1: would refresh\n") + message);
        // A cell without an event says nothing more than its outcome.
        QCOMPARE(model.messageAt(row, FleetPreviewModel::HostColumn), QString());
    }

    void fleetCellDetailsSayWhatWouldRefresh()
    {
        QTemporaryDir keys;
        QVERIFY(writeFile(
            keys.filePath(s("preview.pem")), "-----BEGIN PRIVATE KEY-----\nscripted\n-----END PRIVATE KEY-----\n"));
        FleetKeyDialog::setKeyPath(keys.filePath(s("preview.pem")));
        ScriptedWindow scripted({{"fleet.preview", previewOf(applyEvents(m_manifest, true))}});
        QVERIFY(scripted.connected());

        FleetDock *dock = scripted.dock();
        dock->startPreview();
        QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
        QTableView *view = dock->matrixView();
        const int column = dock->previewModel()->columnOf(s("exec#reload"));
        QVERIFY(column >= 0);
        view->setCurrentIndex(view->model()->index(1, column));
        QCOMPARE(dock->diffView()->titleLabel()->text(),
            s("exec#reload on web1\nwould refresh: subscribed to %1, which would change").arg(m_conf));
    }
};

CCM_TEST_MAIN(TestRefreshCauses)
#include "tst_refresh_causes.moc"
