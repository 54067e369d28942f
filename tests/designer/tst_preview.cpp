// SPDX-License-Identifier: Apache-2.0
// The designer's preview and apply against a real `ccm-backend serve --user` on a temp socket.
#include "designer/core/backend_client.h"
#include "designer/core/manifest_document.h"
#include "designer/core/resource_list_model.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLocalServer>
#include <QLocalSocket>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

constexpr int kRunTimeoutMs = 30000;

QString fileEntry(const QString &path, const QString &content)
{
    return QStringLiteral("        - %1:\n            ensure: present\n            owner: %2\n            group: %3\n"
                          "            mode: \"0644\"\n            content: \"%4\"\n")
        .arg(path, currentUserName(), currentGroupName(), content);
}

/// Ten exec resources whose guards take a second each: guards run in a preview too, so the run is
/// still going when a test cancels it or stops the backend.
QByteArray slowManifest()
{
    QString manifest = QStringLiteral("ccm:\n  resources:\n    - exec:\n");
    for (int i = 0; i < 10; ++i)
        manifest += QStringLiteral("        - /bin/echo %1:\n            unless: /bin/sleep 1\n").arg(i);
    return manifest.toUtf8();
}

QString outcomeOf(MainWindow &window, EntryRef entry)
{
    return window.resourceList()->model()->indexFor(entry).data(ResourceListModel::OutcomeRole).toString();
}

bool waitForRunEnd(MainWindow &window, QSignalSpy &ended, int count = 1)
{
    Q_UNUSED(window);
    return QTest::qWaitFor([&] { return ended.size() >= count; }, kRunTimeoutMs);
}

} // namespace

class TestPreview : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_preview"));
    }

    void init()
    {
        // The what-if overrides persist; each test starts without them.
        QSettings().clear();
    }

    void previewMarksTheOutcomes()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("stable")), "same\n"));
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("stable")),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("changed")), "old\n"));
        QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("changed")),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const QString manifest = QStringLiteral("ccm:\n  resources:\n    - file:\n")
            + fileEntry(dir.filePath(QStringLiteral("stable")), QStringLiteral("same\\n"))
            + fileEntry(dir.filePath(QStringLiteral("changed")), QStringLiteral("new\\n"))
            + QStringLiteral("        - %1:\n            ensure: present\n            owner: no-such-user-here\n"
                             "            group: %2\n            mode: \"0644\"\n            content: \"x\"\n")
                  .arg(dir.filePath(QStringLiteral("failing")), currentGroupName())
            + QStringLiteral("    - exec:\n        - /bin/true:\n            require:\n              - file#%1\n")
                  .arg(dir.filePath(QStringLiteral("failing")));
        const QString path = dir.filePath(QStringLiteral("site.yaml"));
        QVERIFY(writeFile(path, manifest.toUtf8()));

        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->previewAction()->trigger();
        QVERIFY(waitForRunEnd(window, ended));

        QCOMPARE(outcomeOf(window, {0, 0}), QStringLiteral("stable"));
        QCOMPARE(outcomeOf(window, {0, 1}), QStringLiteral("changed"));
        QCOMPARE(outcomeOf(window, {0, 2}), QStringLiteral("failed"));
        QCOMPARE(outcomeOf(window, {1, 0}), QStringLiteral("unmet_requirements"));
        QCOMPARE(window.previewController()->results()->rowCount(), 4);
        // Nothing was changed: it was a preview.
        QFile changed(dir.filePath(QStringLiteral("changed")));
        QVERIFY(changed.open(QIODevice::ReadOnly));
        QCOMPARE(changed.readAll(), QByteArray("old\n"));
        QVERIFY2(window.previewController()->statusLabel()->text().contains(currentUserName()),
            qPrintable(window.previewController()->statusLabel()->text()));

        // The diff of the changed file, when its row is chosen.
        emit window.resultsPanel()->resourceSelected(1);
        QVERIFY2(window.resultsPanel()->diffView()->unifiedView()->toPlainText().contains(QStringLiteral("+new")),
            qPrintable(window.resultsPanel()->diffView()->unifiedView()->toPlainText()));

        // The manifest changes: the results are out of date.
        QVERIFY(!window.resourceList()->outcomesStale());
        window.document()->setProperty({0, 0}, "mode", ccm::Json("0600"));
        QVERIFY(window.resourceList()->outcomesStale());
        QVERIFY(window.previewController()->results()->isStale());

        // Exported as the event stream and as a report.
        QString error;
        const QString json = dir.filePath(QStringLiteral("results.jsonl"));
        QVERIFY2(window.previewController()->exportResults(json, true, &error), qPrintable(error));
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = jsonFile.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines.first().contains("io.choria.ccm.v1.transaction.event"));
        QVERIFY(lines.last().contains("\"summary\""));
        const QString text = dir.filePath(QStringLiteral("results.txt"));
        QVERIFY(window.previewController()->exportResults(text, false, &error));
        QFile textFile(text);
        QVERIFY(textFile.open(QIODevice::ReadOnly));
        QVERIFY(textFile.readAll().contains(dir.filePath(QStringLiteral("changed")).toUtf8()));
    }

    void unsavedEditsAndWhatIfFactsArePreviewed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("site.yaml"));
        QVERIFY(writeFile(path, "ccm:\n  resources: []\n"));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        // Relative to the manifest's directory, and only for a pretended platform family.
        window.document()->setText(QStringLiteral(
            "ccm:\n  resources:\n    - file:\n        - %1:\n            ensure: present\n            content: \"x\"\n"
            "            owner: %2\n            group: %3\n            mode: \"0644\"\n"
            "            control:\n              if: Facts.host.info.platformFamily == \"rhel\"\n")
                                       .arg(dir.filePath(QStringLiteral("made")), currentUserName(),
                                           currentGroupName()));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(waitForRunEnd(window, ended));
        const QString here = outcomeOf(window, {0, 0});
        window.whatIfPanel()->addFact(QStringLiteral("host.info.platformFamily"), QStringLiteral("rhel"));
        window.whatIfPanel()->setOverridesEnabled(true);
        window.previewController()->preview();
        QVERIFY(waitForRunEnd(window, ended, 2));
        QCOMPARE(outcomeOf(window, {0, 0}), QStringLiteral("changed"));
        QVERIFY(here == QStringLiteral("skipped") || QSysInfo::productType() == QStringLiteral("rhel"));
    }

    void cancelStopsTheRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slow.yaml"));
        QVERIFY(writeFile(path, slowManifest()));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QTRY_VERIFY_WITH_TIMEOUT(window.previewController()->results()->rowCount() >= 1, kRunTimeoutMs);
        QVERIFY(window.previewController()->cancelAction()->isEnabled());
        window.previewController()->cancelAction()->trigger();
        QVERIFY(waitForRunEnd(window, ended));
        QVERIFY(window.previewController()->results()->rowCount() < 10);
        QVERIFY(window.previewController()->results()->result().value("cancelled", false));
        QVERIFY(!window.previewController()->isRunning());
    }

    void applyChangesTheFilesAndASecondPreviewIsStable()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("motd"));
        const QString manifest
            = QStringLiteral("ccm:\n  resources:\n    - file:\n") + fileEntry(target, QStringLiteral("hello\\n"));
        const QString path = dir.filePath(QStringLiteral("site.yaml"));
        QVERIFY(writeFile(path, manifest.toUtf8()));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(waitForRunEnd(window, ended));
        QCOMPARE(outcomeOf(window, {0, 0}), QStringLiteral("changed"));
        QVERIFY(!QFile::exists(target));

        answerNextMessageBox(QMessageBox::Yes);
        window.previewController()->applyAction()->trigger();
        QVERIFY(waitForRunEnd(window, ended, 2));
        QFile written(target);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), QByteArray("hello\n"));

        window.previewController()->preview();
        QVERIFY(waitForRunEnd(window, ended, 3));
        QCOMPARE(outcomeOf(window, {0, 0}), QStringLiteral("stable"));
    }

    void backendKilledMidRunReconnects()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slow.yaml"));
        QVERIFY(writeFile(path, slowManifest()));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(path));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QTRY_VERIFY_WITH_TIMEOUT(window.previewController()->results()->rowCount() >= 1, kRunTimeoutMs);

        QProcess kill;
        kill.start(QStringLiteral("pkill"),
            {QStringLiteral("-KILL"), QStringLiteral("-f"), dir.filePath(QStringLiteral("run/backend.sock"))});
        QVERIFY(kill.waitForFinished());
        QVERIFY(waitForRunEnd(window, ended));
        QVERIFY2(window.resultsPanel()->summary().contains(QStringLiteral("stopped")),
            qPrintable(window.resultsPanel()->summary()));
        QTRY_VERIFY_WITH_TIMEOUT(window.previewController()->client()->isConnected(), kRunTimeoutMs);

        // The restarted backend previews again.
        QVERIFY(writeFile(path, "ccm:\n  resources:\n    - exec:\n        - /bin/true: {}\n"));
        QVERIFY(window.openFile(path));
        window.previewController()->preview();
        QVERIFY(waitForRunEnd(window, ended, 2));
        QCOMPARE(outcomeOf(window, {0, 0}), QStringLiteral("changed"));
    }

    void applyIsRefusedForAPreviewRole()
    {
        QTemporaryDir dir;
        // A system backend that lets this user preview only.
        QLocalServer server;
        const QString socket = dir.filePath(QStringLiteral("system.sock"));
        QVERIFY(server.listen(socket));
        QByteArray received;
        connect(&server, &QLocalServer::newConnection, &server, [&] {
            QLocalSocket *peer = server.nextPendingConnection();
            connect(peer, &QLocalSocket::readyRead, peer, [&received, peer] {
                const QByteArray lines = peer->readAll();
                received += lines;
                for (const QByteArray &line : lines.split('\n')) {
                    const bool hello = line.contains("backend.hello");
                    if (!hello && !line.contains("test.marker"))
                        continue;
                    const ccm::Json request = ccm::Json::parse(line.toStdString(), nullptr, false);
                    const ccm::Json result = hello ? ccm::Json {{"server", "ccm-backend"}, {"version", "0.1.0"},
                                                 {"protocol", 1}, {"role", "preview"}, {"user", "alice"}, {"uid", 1000}}
                                                   : ccm::Json::object();
                    const ccm::Json answer
                        = {{"jsonrpc", "2.0"}, {"id", request.value("id", ccm::Json())}, {"result", result}};
                    peer->write(QByteArray::fromStdString(answer.dump()) + '\n');
                }
            });
        });
        MainWindow window;
        BackendClient *client = window.previewController()->client();
        client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
        client->setSystemSocket(socket);
        client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
        window.connectToBackend();
        QTRY_VERIFY_WITH_TIMEOUT(client->isConnected(), kRunTimeoutMs);
        QVERIFY(window.previewController()->statusLabel()->text().contains(QStringLiteral("preview only")));
        QVERIFY(window.previewController()->statusLabel()->text().contains(QStringLiteral("alice")));

        answerNextMessageBox(QMessageBox::Ok);
        window.previewController()->apply();
        // Requests go out in order on the one connection: once the server has answered one sent
        // after apply(), an apply.start sent by apply() would have reached it before.
        bool markerAnswered = false;
        client->call(QStringLiteral("test.marker"), ccm::Json::object(),
            [&markerAnswered](const BackendClient::Answer &answer) { markerAnswered = answer.ok; });
        QTRY_VERIFY_WITH_TIMEOUT(markerAnswered, kRunTimeoutMs);
        QVERIFY(received.contains("test.marker"));
        QVERIFY(!received.contains("apply.start"));
        QVERIFY(!window.previewController()->isRunning());
    }
};

CCM_TEST_MAIN(TestPreview)
#include "tst_preview.moc"
