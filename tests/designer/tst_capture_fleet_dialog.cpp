// SPDX-License-Identifier: Apache-2.0
// Edit ▸ Add ▸ From a Fleet Host… against a real `ccm-backend serve --user`, a real nats-server
// and a real agent with preview.capture on: the agent's capture of a temp tree added to the open
// manifest in one undo step (its binary file as a source beside the manifest), a preview right
// after that changes nothing, and the same capture opened as a new manifest.
#include "../fleet/fleet_agent_process.h"
#include "../fleet/nats_server.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/capture_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/fleet_capture_dialog.h"
#include "designer/ui/main_window.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>
#include <set>
#include <sys/stat.h>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// How long the agent may take to answer a capture and a preview to run it.
constexpr int kFleetCaptureTimeoutMs = 120000;

std::set<QString> fleetResourceLabels(const MainWindow &window)
{
    std::set<QString> labels;
    for (const ccm::FlatResource &resource : window.document()->resources())
        labels.insert(q(resource.label()));
    return labels;
}

/// Fills the dialog: the host, the key, the server by URL and the tree as the one path.
void fillFleetDialog(FleetCaptureDialog &dialog, const QString &key, const QString &url, const QString &tree)
{
    dialog.hostEdit()->setText(s("cap-host"));
    dialog.keyEdit()->setText(key);
    dialog.contextBox()->setCurrentIndex(dialog.contextBox()->count() - 1);
    dialog.serverUrlEdit()->setText(url);
    dialog.filesEdit()->setPlainText(tree);
}

} // namespace

class TestCaptureFleetDialog : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_config;
    QTemporaryDir m_work;
    QTemporaryDir m_tree;
    NatsServer m_nats;
    QString m_key;
    std::unique_ptr<FleetAgent> m_agent;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(s("CCM Designer"));
        QCoreApplication::setApplicationName(s("tst_capture_fleet_dialog"));
        QSettings().clear();
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        m_key = m_work.filePath(s("signer.pem"));
        QProcess keygen;
        keygen.start(s(CCM_BACKEND_BIN), {s("fleet"), s("keygen"), s("--out"), m_key});
        QVERIFY(keygen.waitForFinished(kPatienceMs));
        QCOMPARE(keygen.exitCode(), 0);

        // The tree the agent's preview user may read: text and a binary file.
        ::chmod(QFile::encodeName(m_tree.path()).constData(), 0755);
        QVERIFY(writeFile(m_tree.filePath(s("motd")), "welcome to the golden host\n"));
        QVERIFY(writeFile(m_tree.filePath(s("blob.bin")), QByteArray("\0\1\2 binary", 10)));
        for (const char *name : {"motd", "blob.bin"})
            ::chmod(QFile::encodeName(m_tree.filePath(s(name))).constData(), 0644);

        m_agent = std::make_unique<FleetAgent>(s("cap-host"), "web", m_nats.url());
        m_agent->configure("  enabled: true\n  trusted_keys: [" + m_work.filePath(s("signer.pub.pem")).toUtf8()
            + "]\n  user: " + previewUser() + "\n  capture: true\n");
        m_agent->start();
        QVERIFY2(m_agent->waitForLog(s("fleet preview: answering requests")), qPrintable(m_agent->log()));
    }

    void addsTheAgentsCaptureInOneStep()
    {
        QTemporaryDir dir;
        const QString manifest = dir.filePath(s("site/manifest.yaml"));
        QVERIFY(QDir(dir.path()).mkpath(s("site")));
        QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));
        window.connectToBackend();

        FleetCaptureDialog *dialog = window.captureController()->showFleetDialog();
        QVERIFY(!dialog->addButton()->isEnabled());
        fillFleetDialog(*dialog, m_key, m_nats.url(), m_tree.path());
        QCOMPARE(dialog->willAddList()->count(), 1);
        QCOMPARE(dialog->willAddList()->item(0)->text(), s("file %1 and everything below it").arg(m_tree.path()));
        QVERIFY(dialog->addButton()->isEnabled());

        QSignalSpy added(dialog, &FleetCaptureDialog::added);
        dialog->addButton()->click();
        QVERIFY2(added.wait(kFleetCaptureTimeoutMs), qPrintable(dialog->messageLabel()->text()));
        const std::set<QString> labels = fleetResourceLabels(window);
        for (const char *name : {"", "/motd", "/blob.bin"})
            QVERIFY2(labels.count(s("file#") + m_tree.path() + s(name)), name);
        QCOMPARE(window.document()->undoStack()->count(), 1);
        QCOMPARE(readAll(dir.filePath(s("site/files")) + m_tree.path() + s("/blob.bin")),
            readAll(m_tree.filePath(s("blob.bin"))));

        // The golden host is this one: a preview right after changes nothing.
        QVERIFY(window.saveFile(manifest));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(ended.wait(kFleetCaptureTimeoutMs));
        RunResults *results = window.previewController()->results();
        QVERIFY(results->rowCount() >= int(labels.size()));
        for (int row = 0; row < results->rowCount(); ++row)
            QVERIFY2(results->outcomeAt(row) == Outcome::Stable, results->eventAt(row).dump().c_str());

        window.document()->undoStack()->undo();
        QVERIFY(window.document()->resources().empty());
    }

    void opensTheCaptureAsANewManifest()
    {
        QTemporaryDir dir;
        MainWindow window;
        useBackendIn(window, dir);
        window.connectToBackend();
        FleetCaptureDialog *dialog = window.captureController()->showFleetDialog();
        fillFleetDialog(*dialog, m_key, m_nats.url(), m_tree.path());
        const QString path = dir.filePath(s("golden/cap-host.yaml"));
        QVERIFY(QDir(dir.path()).mkpath(s("golden")));
        dialog->captureAsNewManifest(path);
        QTRY_VERIFY_WITH_TIMEOUT(window.document()->filePath() == path, kFleetCaptureTimeoutMs);
        const std::set<QString> labels = fleetResourceLabels(window);
        QVERIFY2(labels.count(s("file#") + m_tree.path() + s("/motd")), qPrintable(window.document()->text()));
        QVERIFY2(window.document()->text().contains(s("cap-host")), qPrintable(window.document()->text()));
        QCOMPARE(readAll(dir.filePath(s("golden/files")) + m_tree.path() + s("/blob.bin")),
            readAll(m_tree.filePath(s("blob.bin"))));
    }

    void incompleteFormsCannotAsk_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("files");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no host") << QString() << s("/etc") << s("Name the host to capture.");
        QTest::newRow("nothing chosen") << s("cap-host") << QString()
                                        << s("Type at least one package, service or path.");
        QTest::newRow("relative path") << s("cap-host") << s("etc/motd") << s("etc/motd is not an absolute path.");
    }

    void incompleteFormsCannotAsk()
    {
        QFETCH(QString, host);
        QFETCH(QString, files);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        MainWindow window;
        FleetCaptureDialog *dialog = window.captureController()->showFleetDialog();
        fillFleetDialog(*dialog, m_key, m_nats.url(), files);
        dialog->hostEdit()->setText(host);
        QVERIFY(!dialog->addButton()->isEnabled());
        QVERIFY(!dialog->openButton()->isEnabled());
        QCOMPARE(dialog->addButton()->toolTip(), problem);
        dialog->close();
    }
};

CCM_TEST_MAIN(TestCaptureFleetDialog)
#include "tst_capture_fleet_dialog.moc"
