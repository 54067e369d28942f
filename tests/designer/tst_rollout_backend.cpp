// SPDX-License-Identifier: Apache-2.0
// Publish to Fleet with the fleet key, Fleet ▸ Releases… and Fleet ▸ Roll Out… against a real
// `ccm-backend serve --user`, a real nats-server and two real agents, one on each of two rings:
// signed releases with their messages, the diff of two releases' manifests, a roll back the agent
// follows, and a rollout through both rings followed live to its end.
#include "../fleet/agent_under_test.h"
#include "../fleet/nats_server.h"
#include "designer/core/fleet_history_models.h"
#include "designer/core/rollout_model.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/publish_dialog.h"
#include "designer/ui/dialogs/releases_dialog.h"
#include "designer/ui/dialogs/rollout_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// A manifest each agent applies to the file its facts name, saying `version` and its identity.
QByteArray versionedManifest(const QString &version)
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
           "            ensure: present\n            owner: root\n            group: root\n"
           "            mode: \"0644\"\n            content: \""
        + version.toUtf8() + " {{ Facts.tag }}\\n\"\n";
}

constexpr int kRolloutPatienceMs = 120000;

} // namespace

class TestRolloutBackend : public QObject {
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_work;
    NatsServer m_nats;
    QString m_key;
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<AgentUnderTest> m_canary;
    std::unique_ptr<AgentUnderTest> m_main;
    QString m_signer;

    bool managedIs(const AgentUnderTest &agent, const QString &version) const
    {
        return agent.managed() == version + QLatin1Char(' ') + agent.identity() + QLatin1Char('\n');
    }

    /// Opens the manifest of `version` in the window.
    bool openVersion(const QString &version)
    {
        const QString path = m_work.filePath(version + QStringLiteral("/site.yaml"));
        return QDir().mkpath(m_work.filePath(version)) && writeFile(path, versionedManifest(version))
            && m_window->openFile(path);
    }

    /// Publishes the open manifest as obj://bundles/`name` with `message`; the signer it reports.
    QString publish(const QString &name, const QString &message)
    {
        PublishDialog *dialog = m_window->fleetController()->showPublishDialog();
        dialog->bucketEdit()->setText(QStringLiteral("bundles"));
        dialog->objectNameEdit()->setText(name);
        dialog->releaseMessageEdit()->setText(message);
        if (!dialog->signBox()->isChecked() || !dialog->publishButton()->isEnabled())
            return QStringLiteral("not ready to publish");
        dialog->publishButton()->click();
        if (!QTest::qWaitFor([dialog] { return dialog->signerLabel()->isVisibleTo(dialog); }, kPatienceMs))
            return dialog->messageLabel()->text();
        const QString signer = dialog->signerLabel()->text();
        dialog->close();
        return signer;
    }

    static void confirm(QWidget *parent, const QString &name, const QString &button)
    {
        QMessageBox *box = nullptr;
        QVERIFY(
            QTest::qWaitFor([&] { return (box = parent->findChild<QMessageBox *>(name)) != nullptr; }, kPatienceMs));
        for (QAbstractButton *each : box->buttons()) {
            if (each->text() == button) {
                each->click();
                return;
            }
        }
        QFAIL("no such button");
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rollout_backend"));
        QSettings().clear();
        QVERIFY(m_config.isValid() && m_work.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        // The default context, which the dialogs offer first.
        QVERIFY(QDir().mkpath(m_config.filePath(QStringLiteral("nats/context"))));
        QVERIFY(writeFile(m_config.filePath(QStringLiteral("nats/context/CCM.json")),
            QStringLiteral("{\"url\": \"%1\"}").arg(m_nats.url()).toUtf8()));
        m_key = m_work.filePath(QStringLiteral("fleet.pem"));
        QProcess keygen;
        keygen.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), m_key});
        QVERIFY(keygen.waitForFinished(kPatienceMs) && keygen.exitCode() == 0);
        QSettings().setValue(QStringLiteral("fleet/previewKey"), m_key);
        m_window = std::make_unique<MainWindow>();
        useBackendIn(*m_window, m_work);
    }

    void cleanupTestCase()
    {
        m_canary.reset();
        m_main.reset();
        m_window.reset();
    }

    void publishedReleasesAreSignedAndAgentsRunThem()
    {
        QVERIFY(openVersion(QStringLiteral("v1")));
        m_signer = publish(QStringLiteral("canary.tgz"), QStringLiteral("first motd"));
        QVERIFY2(m_signer.startsWith(QStringLiteral("Signed by the key with fingerprint ")), qPrintable(m_signer));
        QCOMPARE(publish(QStringLiteral("main.tgz"), QStringLiteral("first motd")), m_signer);
        m_canary = std::make_unique<AgentUnderTest>(QStringLiteral("canary-1"), m_nats.url());
        m_canary->configure("manifests:\n  - obj://bundles/canary.tgz\n");
        m_main = std::make_unique<AgentUnderTest>(QStringLiteral("main-1"), m_nats.url());
        m_main->configure("manifests:\n  - obj://bundles/main.tgz\n");
        m_canary->start();
        m_main->start();
        QTRY_VERIFY_WITH_TIMEOUT(
            managedIs(*m_canary, QStringLiteral("v1")) && managedIs(*m_main, QStringLiteral("v1")), kConverge);
        QVERIFY(openVersion(QStringLiteral("v2")));
        QCOMPARE(publish(QStringLiteral("canary.tgz"), QStringLiteral("second motd")), m_signer);
        QTRY_VERIFY_WITH_TIMEOUT(managedIs(*m_canary, QStringLiteral("v2")), kConverge);
    }

    void releasesDiffAndRollBack()
    {
        ReleasesDialog *dialog = m_window->fleetController()->showReleasesDialog();
        const QString canary = QStringLiteral("obj://bundles/canary.tgz");
        QTRY_VERIFY_WITH_TIMEOUT(dialog->objectBox()->findText(canary) >= 0, kPatienceMs);
        QVERIFY(dialog->objectBox()->findText(QStringLiteral("obj://bundles/main.tgz")) >= 0);
        dialog->objectBox()->setCurrentText(canary);
        dialog->showButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->releasesModel()->rowCount(), 2, kPatienceMs);
        const ReleaseEntry newest = dialog->releasesModel()->release(0);
        QCOMPARE(newest.message, QStringLiteral("second motd"));
        QVERIFY(m_signer.contains(newest.signer) && !newest.signer.isEmpty());
        QCOMPARE(dialog->releasesModel()->release(1).message, QStringLiteral("first motd"));

        QItemSelectionModel *selection = dialog->releasesView()->selectionModel();
        const auto select = [&](int row) {
            selection->select(
                dialog->releasesModel()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        };
        select(0);
        select(1);
        dialog->diffButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(dialog->diffView()->unifiedView()->toPlainText().contains(
                                      QStringLiteral("+            content: \"v2 {{ Facts.tag }}\\n\"")),
            qPrintable(dialog->messageLabel()->text()), kPatienceMs);
        QVERIFY(dialog->diffView()->unifiedView()->toPlainText().contains(
            QStringLiteral("-            content: \"v1 {{ Facts.tag }}\\n\"")));

        selection->clearSelection();
        select(1);
        dialog->rollBackMessageEdit()->setText(QStringLiteral("back to the first motd"));
        dialog->rollBackButton()->click();
        confirm(dialog, QStringLiteral("rollBackConfirmation"), QStringLiteral("Roll Back"));
        QTRY_VERIFY2_WITH_TIMEOUT(dialog->messageLabel()->text().startsWith(QStringLiteral("Rolled back")),
            qPrintable(dialog->messageLabel()->text()), kPatienceMs);
        QCOMPARE(dialog->releasesModel()->rowCount(), 3);
        QCOMPARE(dialog->releasesModel()->release(0).message, QStringLiteral("back to the first motd"));
        QCOMPARE(dialog->releasesModel()->release(0).digest, dialog->releasesModel()->release(2).digest);
        QTRY_VERIFY_WITH_TIMEOUT(managedIs(*m_canary, QStringLiteral("v1")), kConverge);
        dialog->close();
    }

    void rolloutThroughTwoRings()
    {
        QVERIFY(openVersion(QStringLiteral("v3")));
        RolloutDialog *dialog = m_window->fleetController()->showRolloutDialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->objectBox()->count() >= 2, kPatienceMs);
        dialog->addRing(QStringLiteral("obj://bundles/canary.tgz"));
        dialog->addRing(QStringLiteral("obj://bundles/main.tgz"));
        dialog->ringTimeoutBox()->setValue(1);
        dialog->messageEdit()->setText(QStringLiteral("third motd"));
        QVERIFY(dialog->startButton()->isEnabled());
        dialog->startButton()->click();
        RolloutModel *model = dialog->model();
        QTRY_VERIFY2_WITH_TIMEOUT(model->isFinished(), qPrintable(dialog->reportLabel()->text()), kRolloutPatienceMs);
        QCOMPARE(model->state(), QStringLiteral("passed"));
        QVERIFY(dialog->reportLabel()->text().contains(QStringLiteral("Every ring passed")));
        QCOMPARE(model->ringNames(), QStringList({QStringLiteral("canary.tgz"), QStringLiteral("main.tgz")}));
        const QList<RolloutRing> rings = model->rings();
        QCOMPARE(rings.at(0).state, QStringLiteral("passed"));
        QCOMPARE(rings.at(0).hosts.size(), 1);
        QCOMPARE(rings.at(0).hosts.at(0).identity, QStringLiteral("canary-1"));
        QCOMPARE(rings.at(0).hosts.at(0).state, QStringLiteral("applied"));
        QVERIFY(!rings.at(1).verdict.isEmpty());
        QVERIFY(managedIs(*m_canary, QStringLiteral("v3")) && managedIs(*m_main, QStringLiteral("v3")));

        dialog->loadRollouts();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->rolloutsModel()->rowCount() >= 1, kPatienceMs);
        QCOMPARE(QString::fromStdString(dialog->rolloutsModel()->rollout(0).value("id", "")), model->id());
        dialog->openRollout(0);
        QCOMPARE(dialog->model()->state(), QStringLiteral("passed"));
        QVERIFY(!dialog->resumeButton()->isEnabled());
        dialog->close();
    }

    void rolloutPausedAndResumed()
    {
        QVERIFY(openVersion(QStringLiteral("v4")));
        RolloutDialog *dialog = m_window->fleetController()->showRolloutDialog();
        dialog->addRing(QStringLiteral("obj://bundles/canary.tgz"));
        dialog->addRing(QStringLiteral("obj://bundles/main.tgz"));
        dialog->ringTimeoutBox()->setValue(1);
        // The canary's gate holds a while, so the pause comes while the first ring runs.
        dialog->settleBox()->setValue(3);
        dialog->startButton()->click();
        RolloutModel *model = dialog->model();
        // Paused as soon as it runs: it stops after its first ring.
        QTRY_VERIFY_WITH_TIMEOUT(dialog->pauseButton()->isEnabled(), kRolloutPatienceMs);
        dialog->pauseButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(model->state() == QStringLiteral("paused"),
            qPrintable(model->state() + QLatin1Char(' ') + dialog->reportLabel()->text()), kRolloutPatienceMs);
        QCOMPARE(model->rings().at(0).state, QStringLiteral("passed"));
        QCOMPARE(model->rings().at(1).state, QStringLiteral("pending"));
        QVERIFY(managedIs(*m_canary, QStringLiteral("v4")) && managedIs(*m_main, QStringLiteral("v3")));
        QTRY_VERIFY_WITH_TIMEOUT(dialog->resumeButton()->isEnabled(), kPatienceMs);
        dialog->resumeButton()->click();
        QTRY_VERIFY2_WITH_TIMEOUT(model->isFinished(), qPrintable(dialog->reportLabel()->text()), kRolloutPatienceMs);
        QCOMPARE(model->state(), QStringLiteral("passed"));
        QVERIFY(managedIs(*m_main, QStringLiteral("v4")));
        dialog->close();
    }

    void aFailingRingIsRolledBack()
    {
        // An owner no host has: the file resource fails on the canary.
        const QString path = m_work.filePath(QStringLiteral("broken/site.yaml"));
        QVERIFY(QDir().mkpath(m_work.filePath(QStringLiteral("broken"))));
        QVERIFY(
            writeFile(path, versionedManifest(QStringLiteral("v5")).replace("owner: root", "owner: no-such-ccm-user")));
        QVERIFY(m_window->openFile(path));
        RolloutDialog *dialog = m_window->fleetController()->showRolloutDialog();
        dialog->addRing(QStringLiteral("obj://bundles/canary.tgz"));
        dialog->addRing(QStringLiteral("obj://bundles/main.tgz"));
        dialog->ringTimeoutBox()->setValue(1);
        dialog->startButton()->click();
        RolloutModel *model = dialog->model();
        QTRY_VERIFY2_WITH_TIMEOUT(model->isFinished(), qPrintable(dialog->reportLabel()->text()), kRolloutPatienceMs);
        QCOMPARE(model->state(), QStringLiteral("rolled_back"));
        const RolloutRing canary = model->rings().at(0);
        QCOMPARE(canary.state, QStringLiteral("restored"));
        QCOMPARE(canary.hosts.size(), 1);
        QVERIFY(!model->report().isEmpty());
        QVERIFY(dialog->reportLabel()->property("error").toBool());
        QVERIFY(dialog->reportLabel()->text().contains(model->report()));
        QCOMPARE(model->rings().at(1).state, QStringLiteral("pending"));
        QTRY_VERIFY_WITH_TIMEOUT(managedIs(*m_canary, QStringLiteral("v4")), kConverge);
        QVERIFY(managedIs(*m_main, QStringLiteral("v4")));
        dialog->close();
    }
};

CCM_TEST_MAIN(TestRolloutBackend)
#include "tst_rollout_backend.moc"
