// SPDX-License-Identifier: Apache-2.0
// The designer's fleet features against a real `ccm-backend serve --user` and a real nats-server:
// Export Bundle, Publish to Fleet, Open Location, and documents that came from a bundle.
#include "../fleet/http_server.h"
#include "../fleet/nats_server.h"
#include "designer/core/backend_client.h"
#include "designer/core/manifest_document.h"
#include "designer/core/resource_list_model.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/export_bundle_dialog.h"
#include "designer/ui/dialogs/publish_dialog.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// A site whose manifest reaches a file by `source` and a template by template().
QString writeSite(const QTemporaryDir &dir, const QString &target)
{
    QDir().mkpath(dir.filePath(QStringLiteral("site/files")));
    QDir().mkpath(dir.filePath(QStringLiteral("site/templates")));
    writeFile(dir.filePath(QStringLiteral("site/files/motd")), "from the bundle\n");
    writeFile(dir.filePath(QStringLiteral("site/templates/issue.templ")), "templated issue\n");
    const QString entry = QStringLiteral("            ensure: present\n            owner: %1\n            group: %2\n"
                                         "            mode: \"0644\"\n")
                              .arg(currentUserName(), currentGroupName());
    const QString manifest = QStringLiteral("ccm:\n  resources:\n    - file:\n        - %1/motd:\n").arg(target) + entry
        + QStringLiteral("            source: files/motd\n        - %1/issue:\n").arg(target) + entry
        + QStringLiteral("            content: \"{{ template('templates/issue.templ') }}\"\n");
    const QString path = dir.filePath(QStringLiteral("site/site.yaml"));
    writeFile(path, manifest.toUtf8());
    return path;
}

/// Runs ccm-backend with `arguments`; its exit code, with its stderr in *err.
int backend(const QStringList &arguments, QString *err = nullptr)
{
    QProcess process;
    process.start(QStringLiteral(CCM_BACKEND_BIN), arguments);
    if (!process.waitForFinished(kPatienceMs))
        return -1;
    if (err)
        *err = QString::fromUtf8(process.readAllStandardError());
    return process.exitCode();
}

/// The member `name` of a bundle, read by tar.
QByteArray memberOf(const QString &bundle, const QString &name)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-xzOf"), bundle, name});
    tar.waitForFinished(kPatienceMs);
    return tar.readAllStandardOutput();
}

/// A host that is not a window: what the fleet controller asks of whoever holds the document.
struct RecordingHost : DocumentHost {
    bool settle = true;
    bool open = true;
    int settleCalls = 0;
    QStringList opened;
    ManifestDocument *document = nullptr;

    bool settleUnsavedChanges() override
    {
        ++settleCalls;
        return settle;
    }
    bool openManifestFile(const QString &path, QString *error) override
    {
        opened << path;
        if (!open) {
            *error = QStringLiteral("the host refused %1").arg(path);
            return false;
        }
        return document->load(path, error);
    }
};

} // namespace

class TestFleetUi : public QObject {
    Q_OBJECT

    QTemporaryDir m_config;
    NatsServer m_nats;

    void writeContext(const QString &name, const QString &url)
    {
        QDir().mkpath(m_config.filePath(QStringLiteral("nats/context")));
        writeFile(m_config.filePath(QStringLiteral("nats/context/%1.json").arg(name)),
            QStringLiteral("{\"url\": \"%1\"}").arg(url).toUtf8());
    }

    /// Opens `location` through the controller and waits for the outcome.
    bool openLocation(MainWindow &window, const QString &location, const QString &context, QString *error)
    {
        bool finished = false;
        bool opened = false;
        window.fleetController()->openLocation(location, context, [&](bool ok, const QString &why) {
            finished = true;
            opened = ok;
            *error = why;
        });
        return QTest::qWaitFor([&] { return finished; }, kPatienceMs) && opened;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_fleet_ui"));
        QSettings().clear();
        QVERIFY(m_config.isValid());
        // The designer lists contexts here and the backends it starts read them from here.
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        writeContext(QStringLiteral("fleet"), m_nats.url());
    }

    void exportListsMembersAndWritesTheCliBundle()
    {
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));

        ExportBundleDialog *dialog = window.fleetController()->showExportDialog();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->membersView()->count(), 4, kPatienceMs);
        QStringList members;
        for (int row = 0; row < dialog->membersView()->count(); ++row)
            members << dialog->membersView()->item(row)->text();
        QCOMPARE(members,
            QStringList({QStringLiteral("files/motd"), QStringLiteral("manifest.yaml"),
                QStringLiteral("templates/issue.templ"), QStringLiteral("SHA256SUMS")}));
        QVERIFY(dialog->exportButton()->isEnabled());

        const QString output = dir.filePath(QStringLiteral("designer.tar.gz"));
        window.fleetController()->exportTo(output, dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->text().contains(QStringLiteral("written to")), kPatienceMs);
        QVERIFY(dialog->messageLabel()->text().contains(output));

        const QString cli = dir.filePath(QStringLiteral("cli.tar.gz"));
        QString err;
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), cli}, &err), 0);
        QVERIFY(!readAll(cli).isEmpty());
        QCOMPARE(readAll(output), readAll(cli));
    }

    void exportShowsWhyAManifestCannotBeBundled()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("site"))));
        const QString manifest = dir.filePath(QStringLiteral("site/site.yaml"));
        QVERIFY(writeFile(manifest,
            "ccm:\n  resources:\n    - file:\n        - /tmp/x:\n            ensure: present\n"
            "            owner: root\n            group: root\n            mode: \"0644\"\n"
            "            source: ../outside\n"));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));
        ExportBundleDialog *dialog = window.fleetController()->showExportDialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->findingsView()->count() > 0, kPatienceMs);
        QVERIFY(dialog->findingsView()->item(0)->text().contains(QStringLiteral("leaves the manifest's directory")));
        QVERIFY(!dialog->exportButton()->isEnabled());
    }

    void publishEndsWithTheUrl()
    {
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));

        PublishDialog *dialog = window.fleetController()->showPublishDialog();
        QCOMPARE(dialog->objectNameEdit()->text(), QStringLiteral("site.tar.gz"));
        QCOMPARE(dialog->contextBox()->itemText(0), QStringLiteral("fleet"));
        dialog->contextBox()->setCurrentIndex(0);
        dialog->bucketEdit()->setText(QStringLiteral("sites"));
        QVERIFY(dialog->publishButton()->isEnabled());
        dialog->publishButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->resultEdit()->text(), QStringLiteral("obj://sites/site.tar.gz"), kPatienceMs);
        QVERIFY(dialog->copyButton()->isVisibleTo(dialog));
        dialog->copyButton()->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("obj://sites/site.tar.gz"));

        // What went up is the bundle the CLI makes of the manifest.
        const QString cli = dir.filePath(QStringLiteral("cli.tar.gz"));
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), cli}), 0);
        QString error;
        QVERIFY2(openLocation(window, QStringLiteral("obj://sites/site.tar.gz"), QStringLiteral("fleet"), &error),
            qPrintable(error));
        QCOMPARE(readAll(window.document()->filePath()), memberOf(cli, QStringLiteral("manifest.yaml")));

        // Saving a document from a remote location asks where to; publishing again is one answer.
        window.document()->setText(window.document()->text() + QStringLiteral("# edited\n"));
        QTimer::singleShot(0, [] {
            QTRY_VERIFY(qobject_cast<QMessageBox *>(QApplication::activeModalWidget()));
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            for (QAbstractButton *button : box->buttons()) {
                if (button->text().contains(QStringLiteral("Publish")))
                    button->click();
            }
        });
        QVERIFY(window.fleetController()->saveToBundle());
        QVERIFY(!window.document()->isModified());
        QVERIFY(readAll(window.document()->filePath()).endsWith("# edited\n"));
        PublishDialog *again = nullptr;
        for (PublishDialog *found : window.findChildren<PublishDialog *>()) {
            if (found != dialog)
                again = found;
        }
        QVERIFY(again);
        QCOMPARE(again->bucket(), QStringLiteral("sites"));
        QCOMPARE(again->objectName(), QStringLiteral("site.tar.gz"));
    }

    void opensAnHttpBundle()
    {
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        HttpServer http;
        QVERIFY2(http.start(), qPrintable(http.error()));
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"),
                     http.root() + QStringLiteral("/site.tgz")}),
            0);
        MainWindow window;
        useBackendIn(window, dir);
        QString error;
        QVERIFY2(
            openLocation(window, http.url(QStringLiteral("/files/site.tgz")), QString(), &error), qPrintable(error));
        QCOMPARE(window.document()->bundleLocation(), http.url(QStringLiteral("/files/site.tgz")));
        QVERIFY(QFileInfo::exists(window.document()->baseDirectory() + QStringLiteral("/templates/issue.templ")));
        QVERIFY(!openLocation(window, http.url(QStringLiteral("/files/absent.tgz")), QString(), &error));
        QVERIFY2(error.contains(QStringLiteral("404")), qPrintable(error));
    }

    void publishFailuresSayWhy()
    {
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));
        PublishDialog *dialog = window.fleetController()->showPublishDialog();
        dialog->contextBox()->setCurrentIndex(dialog->contextBox()->count() - 1);
        QVERIFY(dialog->serverUrlEdit()->isEnabled());
        dialog->serverUrlEdit()->setText(QStringLiteral("nats://127.0.0.1:1"));
        dialog->bucketEdit()->setText(QStringLiteral("sites"));
        dialog->publishButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog->messageLabel()->text().contains(QStringLiteral("check that the server runs")), kPatienceMs);
        QVERIFY(dialog->resultEdit()->text().isEmpty());
        QVERIFY(dialog->publishButton()->isEnabled());
    }

    void openedLocalBundlePreviewsAndSavesBack()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(target));
        const QString manifest = writeSite(dir, target);
        const QString bundle = dir.filePath(QStringLiteral("site.tar.gz"));
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), bundle}), 0);
        // The files now live only in the bundle.
        QVERIFY(QDir(dir.filePath(QStringLiteral("site"))).removeRecursively());

        MainWindow window;
        useBackendIn(window, dir);
        QString error;
        QVERIFY2(openLocation(window, bundle, QString(), &error), qPrintable(error));
        ManifestDocument *document = window.document();
        QCOMPARE(document->bundleLocation(), bundle);
        const QString unpacked = document->bundleDirectory();
        QVERIFY(QFileInfo(unpacked).isDir());
        QCOMPARE(document->baseDirectory(), unpacked);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("site.tar.gz")));

        // The preview reads the source and the template from the unpacked bundle.
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(ended.wait(kPatienceMs));
        for (int entry : {0, 1}) {
            QCOMPARE(
                window.resourceList()->model()->indexFor({0, entry}).data(ResourceListModel::OutcomeRole).toString(),
                QStringLiteral("changed"));
        }

        // Save writes the edited manifest back into the bundle it came from.
        document->setText(document->text() + QStringLiteral("# edited\n"));
        window.fleetController()->saveToBundle();
        QVERIFY(!document->isModified());
        QVERIFY(memberOf(bundle, QStringLiteral("manifest.yaml")).endsWith("# edited\n"));
        QCOMPARE(memberOf(bundle, QStringLiteral("templates/issue.templ")).isEmpty(), false);

        // Closing the document removes the unpacked files.
        document->newDocument();
        QVERIFY(!QFileInfo::exists(unpacked));
    }

    void theControllerWorksThroughItsHostOnly()
    {
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        const QString bundle = dir.filePath(QStringLiteral("site.tar.gz"));
        QCOMPARE(backend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), bundle}), 0);

        QWidget parent;
        ManifestDocument document;
        BackendClient preview;
        preview.setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
        preview.setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
        preview.setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
        RecordingHost host;
        host.document = &document;
        auto *controller = new FleetController(&document, &preview, &host, &parent);

        // A host that keeps its unsaved changes stops Open Location before any dialog.
        host.settle = false;
        bool dialogShown = false;
        QTimer::singleShot(0, &parent, [&] {
            if (QWidget *modal = QApplication::activeModalWidget()) {
                dialogShown = true;
                modal->close();
            }
        });
        controller->openLocationWithDialog();
        QCOMPARE(host.settleCalls, 1);
        QVERIFY(!dialogShown);

        // The host opens the unpacked manifest; when it refuses, its reason is the outcome and the
        // unpacked files go.
        host.open = false;
        bool finished = false;
        bool ok = true;
        QString error;
        controller->openLocation(bundle, QString(), [&](bool opened, const QString &why) {
            finished = true;
            ok = opened;
            error = why;
        });
        QVERIFY(QTest::qWaitFor([&] { return finished; }, kPatienceMs));
        QVERIFY(!ok);
        QCOMPARE(host.opened.size(), 1);
        QVERIFY(host.opened.first().endsWith(QStringLiteral("/manifest.yaml")));
        QCOMPARE(error, QStringLiteral("the host refused %1").arg(host.opened.first()));
        QVERIFY(!QFileInfo::exists(host.opened.first()));

        // When the host opens it, the document learns where it came from.
        host.open = true;
        finished = false;
        controller->openLocation(bundle, QString(), [&](bool opened, const QString &why) {
            finished = true;
            ok = opened;
            error = why;
        });
        QVERIFY(QTest::qWaitFor([&] { return finished; }, kPatienceMs));
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(host.opened.size(), 2);
        QCOMPARE(document.bundleLocation(), bundle);
        QCOMPARE(document.filePath(), host.opened.last());
        QVERIFY(QFileInfo::exists(host.opened.last()));
    }

    void fleetCallsGoToTheUserBackend()
    {
        if (::geteuid() != 0)
            QSKIP("a system backend needs root");
        QTemporaryDir dir;
        const QString manifest = writeSite(dir, dir.filePath(QStringLiteral("out")));
        QProcess system;
        const QString systemSocket = dir.filePath(QStringLiteral("system.sock"));
        system.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        system.start(
            QStringLiteral(CCM_BACKEND_BIN), {QStringLiteral("serve"), QStringLiteral("--socket"), systemSocket});
        QVERIFY(system.waitForStarted(kPatienceMs));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(systemSocket), kPatienceMs);

        MainWindow window;
        useBackendIn(window, dir);
        BackendClient *preview = window.previewController()->client();
        preview->setSystemSocket(systemSocket);
        QVERIFY(window.openFile(manifest));
        QSignalSpy connected(preview, &BackendClient::connected);
        window.connectToBackend();
        QVERIFY(connected.wait(kPatienceMs));
        QCOMPARE(preview->info().socketPath, systemSocket);

        ExportBundleDialog *dialog = window.fleetController()->showExportDialog();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->membersView()->count(), 4, kPatienceMs);
        BackendClient *fleet = window.fleetController()->fleetClient();
        QVERIFY(fleet != nullptr && fleet != preview);
        QCOMPARE(fleet->info().socketPath, dir.filePath(QStringLiteral("run/backend.sock")));
        QVERIFY(fleet->embeddedProcessId() != 0);
        system.terminate();
        QVERIFY(system.waitForFinished(kPatienceMs));
    }
};

CCM_TEST_MAIN(TestFleetUi)
#include "tst_fleet_ui.moc"
