// SPDX-License-Identifier: Apache-2.0
// The Fleet dock against a real `ccm-backend serve --user`, a real nats-server and two real
// `ccm-backend agent` processes with previews on: Refresh fills the status table from CCM_STATUS,
// Preview on Fleet fills the matrix with each host's real outcome, and a changed cell shows its diff.
#include "../fleet/fleet_agent_process.h"
#include "../fleet/nats_server.h"
#include "designer/core/backend_client.h"
#include "designer/core/fleet_preview_model.h"
#include "designer/core/fleet_status_model.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/fleet_dock.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>
#include <utility>
#include <vector>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// How many hosts `ccm-backend fleet status` lists from the server at `natsUrl`, or -1 when it fails.
int hostsInStatus(const QString &natsUrl)
{
    QProcess status;
    status.start(QStringLiteral(CCM_BACKEND_BIN),
        {QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--json"), QStringLiteral("--nats"),
            natsUrl});
    if (!status.waitForFinished(kPatienceMs) || status.exitCode() != 0)
        return -1;
    return int(QString::fromUtf8(status.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size());
}

/// The matrix row of the host `identity`, or -1.
int rowOf(const FleetPreviewModel *model, const QString &identity)
{
    for (int row = 0; row < model->rowCount(); ++row)
        if (row != FleetPreviewModel::kTotalsRow && model->identityAt(row) == identity)
            return row;
    return -1;
}

} // namespace

class TestFleetDockBackend : public QObject {
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_work;
    NatsServer m_nats;
    std::vector<std::unique_ptr<FleetAgent>> m_agents;

    /// A manifest whose file holds "role web": unchanged on host-0 (role web), changed on host-1.
    QString writeManifest()
    {
        const QString target = m_work.filePath(QStringLiteral("role"));
        writeFile(target, "role web\n");
        // The agents' preview user reads it for the diff.
        ::chmod(QFile::encodeName(target).constData(), 0644);
        const QString manifest = QStringLiteral("ccm:\n  resources:\n    - file:\n        - %1:\n"
                                                "            ensure: present\n            owner: %2\n"
                                                "            group: %3\n            mode: \"0644\"\n"
                                                "            content: \"role {{ Facts.role }}\\n\"\n")
                                     .arg(target, currentUserName(), currentGroupName());
        const QString path = m_work.filePath(QStringLiteral("site/site.yaml"));
        QDir().mkpath(m_work.filePath(QStringLiteral("site")));
        writeFile(path, manifest.toUtf8());
        return path;
    }

    bool connected(const MainWindow &window)
    {
        return QTest::qWaitFor([&window] { return window.previewController()->client()->isConnected(); }, kPatienceMs);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_fleet_dock_backend"));
        QSettings().clear();
        QVERIFY(m_config.isValid() && m_work.isValid());
        // The designer lists contexts here and the backend it starts reads them from here.
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        QDir().mkpath(m_config.filePath(QStringLiteral("nats/context")));
        writeFile(m_config.filePath(QStringLiteral("nats/context/fleet.json")),
            QStringLiteral("{\"url\": \"%1\"}").arg(m_nats.url()).toUtf8());

        const QString key = m_work.filePath(QStringLiteral("preview.pem"));
        QProcess keygen;
        keygen.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), key});
        QVERIFY(keygen.waitForFinished(kPatienceMs));
        QCOMPARE(keygen.exitCode(), 0);
        FleetKeyDialog::setKeyPath(key);
        // host-0 is a web server, host-1 a database: one manifest changes only host-1.
        ::chmod(QFile::encodeName(m_work.path()).constData(), 0711);
        const QByteArray preview = "  enabled: true\n  trusted_keys: ["
            + m_work.filePath(QStringLiteral("preview.pub.pem")).toUtf8() + "]\n  user: " + previewUser() + "\n";
        for (const auto &[identity, role] : {std::pair {"host-0", "web"}, std::pair {"host-1", "db"}}) {
            m_agents.push_back(std::make_unique<FleetAgent>(QString::fromLatin1(identity), role, m_nats.url()));
            m_agents.back()->configure(preview);
            m_agents.back()->start();
        }
        for (const auto &agent : m_agents)
            QVERIFY2(agent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(agent->log()));
        // Both have run. An agent logs its run before the run's status reaches the bucket, so the
        // test waits for both statuses there before the status table is read.
        for (const auto &agent : m_agents)
            QVERIFY2(agent->waitForLog(QStringLiteral(": apply: ")), qPrintable(agent->log()));
        QTRY_COMPARE_WITH_TIMEOUT(hostsInStatus(m_nats.url()), 2, kPatienceMs);
    }

    void refreshFillsTheStatusTable()
    {
        QTemporaryDir dir;
        MainWindow window;
        useBackendIn(window, dir);
        window.connectToBackend();
        QVERIFY(connected(window));
        FleetDock *dock = window.fleetDock();
        dock->contextBox()->setCurrentText(QStringLiteral("fleet"));
        dock->refreshButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(dock->statusModel()->rowCount(), 2, kPatienceMs);
        const FleetStatusModel *model = dock->statusModel();
        QCOMPARE(model->index(0, FleetStatusModel::HostColumn).data().toString(), QStringLiteral("host-0"));
        QCOMPARE(model->index(1, FleetStatusModel::HostColumn).data().toString(), QStringLiteral("host-1"));
        QCOMPARE(dock->statusMessage()->text(), QStringLiteral("Hosts: 2, stale: 0"));
    }

    void previewFillsTheMatrixWithEachHostsOutcome()
    {
        QTemporaryDir dir;
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(writeManifest()));
        window.connectToBackend();
        QVERIFY(connected(window));
        FleetDock *dock = window.fleetDock();
        dock->contextBox()->setCurrentText(QStringLiteral("fleet"));
        dock->timeoutBox()->setValue(20);
        dock->previewAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);
        QVERIFY2(dock->progressLabel()->text().contains(QStringLiteral("2 of 2 hosts answered")),
            qPrintable(dock->progressLabel()->text()));

        const FleetPreviewModel *model = dock->previewModel();
        QCOMPARE(model->hostCount(), 2);
        const int web = rowOf(model, QStringLiteral("host-0"));
        const int db = rowOf(model, QStringLiteral("host-1"));
        QVERIFY(web > 0 && db > 0);
        QCOMPARE(model->stateAt(web), FleetHostState::Done);
        QCOMPARE(model->stateAt(db), FleetHostState::Done);
        QCOMPARE(model->index(web, FleetPreviewModel::ChangedColumn).data().toInt(), 0);
        QCOMPARE(model->index(db, FleetPreviewModel::ChangedColumn).data().toInt(), 1);
        QCOMPARE(model->index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::ChangedColumn).data().toInt(), 1);
        QCOMPARE(model->resourceAt(FleetPreviewModel::FirstResourceColumn),
            QStringLiteral("file#") + m_work.filePath(QStringLiteral("role")));

        QTableView *view = dock->matrixView();
        view->setCurrentIndex(view->model()->index(db, FleetPreviewModel::FirstResourceColumn));
        QVERIFY2(dock->diffView()->unifiedView()->toPlainText().contains(QStringLiteral("+role db")),
            qPrintable(dock->diffView()->unifiedView()->toPlainText()));
        view->setCurrentIndex(view->model()->index(web, FleetPreviewModel::FirstResourceColumn));
        QVERIFY(!dock->diffView()->unifiedView()->toPlainText().contains(QStringLiteral("+role")));
    }

    void aHostsRefreshSaysWhatCausedIt()
    {
        // A reload subscribed to the file: it would refresh on host-1 only, whose file would change.
        const QString path = writeManifest();
        QFile manifest(path);
        QVERIFY(manifest.open(QIODevice::Append));
        const QString conf = QStringLiteral("file#") + m_work.filePath(QStringLiteral("role"));
        manifest.write(QStringLiteral("    - exec:\n        - reload:\n            command: /bin/true\n"
                                      "            refreshonly: true\n            subscribe: [%1]\n")
                           .arg(conf)
                           .toUtf8());
        manifest.close();
        QTemporaryDir dir;
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        window.connectToBackend();
        QVERIFY(connected(window));
        FleetDock *dock = window.fleetDock();
        dock->contextBox()->setCurrentText(QStringLiteral("fleet"));
        dock->timeoutBox()->setValue(20);
        dock->previewAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(dock->previewModel()->isFinished(), kPatienceMs);

        const FleetPreviewModel *model = dock->previewModel();
        const int web = rowOf(model, QStringLiteral("host-0"));
        const int db = rowOf(model, QStringLiteral("host-1"));
        const int reload = model->columnOf(QStringLiteral("exec#reload"));
        QVERIFY(web > 0 && db > 0 && reload > 0);
        const QString message = QStringLiteral("would refresh: subscribed to %1, which would change").arg(conf);
        QCOMPARE(model->messageAt(db, reload), message);
        QCOMPARE(model->messageAt(web, reload), QString());
        QTableView *view = dock->matrixView();
        view->setCurrentIndex(view->model()->index(db, reload));
        QCOMPARE(dock->diffView()->titleLabel()->text(), QStringLiteral("exec#reload on host-1\n") + message);
    }
};

CCM_TEST_MAIN(TestFleetDockBackend)
#include "tst_fleet_dock_backend.moc"
