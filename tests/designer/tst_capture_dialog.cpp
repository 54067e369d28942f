// SPDX-License-Identifier: Apache-2.0
// Edit ▸ Add ▸ From This Machine… against a real `ccm-backend serve --user`: the packages dpkg
// reports, the Files tab browsing a tree in a temp dir, the checked items added in one undo step
// with their source files beside the manifest, and a preview right after that changes nothing.
#include "designer/core/backend_client.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/capture_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/capture_dialog.h"
#include "designer/ui/main_window.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItem>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <set>

using ccm::Json;
using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// How long a noop run of the captured resources may take.
constexpr int kCaptureRunTimeoutMs = 120000;

QString installedVersion(const QString &package)
{
    QProcess query;
    query.start(s("dpkg-query"), {s("-W"), s("-f=${Version}"), package});
    if (!query.waitForFinished(kPatienceMs) || query.exitCode() != 0)
        return {};
    return QString::fromUtf8(query.readAllStandardOutput());
}

QStringList willAdd(const CaptureDialog &dialog)
{
    QStringList lines;
    for (int row = 0; row < dialog.willAddList()->count(); ++row)
        lines.append(dialog.willAddList()->item(row)->text());
    return lines;
}

std::set<QString> resourceLabels(const MainWindow &window)
{
    std::set<QString> labels;
    for (const ccm::FlatResource &resource : window.document()->resources())
        labels.insert(q(resource.label()));
    return labels;
}

/// The document's errors, one a line, for a failure message.
QString documentErrors(const ManifestDocument &document)
{
    QStringList lines;
    for (const ccm::Diagnostic &diagnostic : document.diagnostics()) {
        if (diagnostic.severity == ccm::Severity::Error)
            lines.append(q(diagnostic.path + ": " + diagnostic.message));
    }
    return lines.join(QLatin1Char('\n'));
}

/// A tree of what a capture meets: text, binary and empty files, a nested directory, an odd
/// name, a private file and a symbolic link.
bool makeTree(const QString &root)
{
    const QDir dir(root);
    if (!dir.mkpath(s("conf.d")))
        return false;
    const QByteArray binary("\x7f"
                            "ELF\0\1\2\3 binary",
        16);
    const bool written = writeFile(dir.filePath(s("app.conf")), "listen = 8080\nworkers = 4\n")
        && writeFile(dir.filePath(s("blob.bin")), binary) && writeFile(dir.filePath(s("empty")), QByteArray())
        && writeFile(dir.filePath(s("conf.d/größe mit space.conf")), "size = 1\n")
        && writeFile(dir.filePath(s("secret.key")), "key material\n");
    const QFile::Permissions readable = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther;
    return written && QFile::setPermissions(dir.filePath(s("app.conf")), readable)
        && QFile::setPermissions(dir.filePath(s("blob.bin")), readable | QFile::ExeOwner | QFile::ExeGroup)
        && QFile::setPermissions(dir.filePath(s("secret.key")), QFile::ReadOwner | QFile::WriteOwner)
        && QFile::link(dir.filePath(s("app.conf")), dir.filePath(s("link.conf")));
}

/// Waits until the dialog's row of `path` is listed.
QStandardItem *waitForFile(CaptureDialog &dialog, const QString &path)
{
    QStandardItem *item = nullptr;
    const bool listed
        = QTest::qWaitFor([&] { return (item = dialog.fileItem(path)) != nullptr && !dialog.isBusy(); }, kPatienceMs);
    return listed ? item : nullptr;
}

} // namespace

class TestCaptureDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(s("CCM Designer"));
        QCoreApplication::setApplicationName(s("tst_capture_dialog"));
        QSettings().clear();
    }

    void theEditMenuOffersBoth()
    {
        MainWindow window;
        const QAction *machine = window.findChild<QAction *>(s("addFromMachineAction"));
        const QAction *fleet = window.findChild<QAction *>(s("addFromFleetAction"));
        QVERIFY(machine != nullptr && fleet != nullptr);
        QMenu *add = window.findChild<QMenu *>(s("addMenu"));
        QVERIFY(add != nullptr);
        bool inEdit = false;
        for (QAction *action : window.menuBar()->actions()) {
            if (action->menu() != nullptr && action->text() == s("&Edit"))
                inEdit = action->menu()->actions().contains(add->menuAction());
        }
        QVERIFY(inEdit);
    }

    void listsThePackagesDpkgReports()
    {
        const QString version = installedVersion(s("dpkg"));
        if (version.isEmpty())
            QSKIP("dpkg is not installed here");
        QTemporaryDir dir;
        MainWindow window;
        useBackendIn(window, dir);
        window.connectToBackend();
        CaptureDialog *dialog = window.captureController()->showMachineDialog();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->packageItem(s("dpkg")) != nullptr, kPatienceMs);
        QStandardItem *dpkg = dialog->packageItem(s("dpkg"));
        QCOMPARE(dpkg->model()->item(dpkg->row(), 1)->text(), version);
        const auto *proxy = qobject_cast<QSortFilterProxyModel *>(dialog->packageView()->model());
        const int all = proxy->rowCount();
        QVERIFY(all > 10);

        // The search filters the rows; the checks stay through it.
        dialog->packageFilter()->setText(s("dpkg"));
        QVERIFY(proxy->rowCount() >= 1 && proxy->rowCount() < all);
        dpkg->setCheckState(Qt::Checked);
        dialog->packageFilter()->setText(s("no-such-package-anywhere"));
        QCOMPARE(proxy->rowCount(), 0);
        dialog->packageFilter()->clear();
        QCOMPARE(proxy->rowCount(), all);
        QCOMPARE(dpkg->checkState(), Qt::Checked);
        QCOMPARE(willAdd(*dialog), QStringList {s("package dpkg")});

        // Enter toggles the selected rows and adds nothing yet.
        const QModelIndex row = proxy->mapFromSource(dpkg->index());
        dialog->packageView()->setCurrentIndex(row);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy(), kPatienceMs);
        QTest::keyClick(dialog->packageView(), Qt::Key_Return);
        QCOMPARE(dpkg->checkState(), Qt::Unchecked);
        QVERIFY(dialog->isVisible() && !dialog->isBusy());
        QVERIFY(dialog->messageLabel()->text().isEmpty());
        QTest::keyClick(dialog->packageView(), Qt::Key_Return);
        QCOMPARE(dpkg->checkState(), Qt::Checked);
        QCOMPARE(dialog->selection().packages, QStringList {s("dpkg")});
        QVERIFY(dialog->addButton()->isEnabled());
        dialog->close();
    }

    void addsFilesInOneStepAndAPreviewChangesNothing()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(s("tree"));
        QVERIFY(makeTree(tree));
        QVERIFY(QDir(dir.path()).mkpath(s("site")));
        const QString manifest = dir.filePath(s("site/manifest.yaml"));
        QVERIFY(writeFile(manifest,
            s("ccm:\n  resources:\n    - file:\n        - %1:\n            ensure: directory\n"
              "            owner: %2\n            group: %3\n            mode: \"0755\"\n")
                .arg(dir.filePath(s("other")), currentUserName(), currentGroupName())
                .toUtf8()));
        QVERIFY(QDir(dir.path()).mkpath(s("other")));
        QVERIFY(QFile::setPermissions(dir.filePath(s("other")),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                | QFile::ReadOther | QFile::ExeOther));

        MainWindow window;
        useBackendIn(window, dir);
        QVERIFY(window.openFile(manifest));
        window.connectToBackend();
        const std::set<QString> before = resourceLabels(window);
        const QString textBefore = window.document()->text();
        const int steps = window.document()->undoStack()->count();

        CaptureDialog *dialog = window.captureController()->showMachineDialog();
        dialog->pathEdit()->setText(tree);
        QTest::keyClick(dialog->pathEdit(), Qt::Key_Return);
        QStandardItem *treeItem = waitForFile(*dialog, tree);
        QVERIFY(treeItem != nullptr);
        QVERIFY(waitForFile(*dialog, tree + s("/app.conf")) != nullptr);
        const QModelIndex current = dialog->fileView()->currentIndex();
        QCOMPARE(current.data(CaptureDialog::kKeyRole).toString(), tree);

        // Browsing: owner, mode and size columns; the link and the private file marked.
        dialog->fileView()->expand(treeItem->index());
        QStandardItem *conf = waitForFile(*dialog, tree + s("/app.conf"));
        const auto column = [&](QStandardItem *item, int c) {
            return item->model()->itemFromIndex(item->index().siblingAtColumn(c))->text();
        };
        QCOMPARE(column(conf, 1), currentUserName());
        QCOMPARE(column(conf, 3), s("0644"));
        QVERIFY(!column(conf, 4).isEmpty());
        QStandardItem *link = dialog->fileItem(tree + s("/link.conf"));
        QVERIFY(link != nullptr);
        QVERIFY(!link->isEnabled() && !link->isCheckable());
        QVERIFY2(link->toolTip().contains(s("symbolic link")), qPrintable(link->toolTip()));
        QCOMPARE(column(dialog->fileItem(tree + s("/secret.key")), 5), s("private"));
        // Nested directories are listed as they are expanded.
        QStandardItem *confD = dialog->fileItem(tree + s("/conf.d"));
        dialog->fileView()->expand(confD->index());
        QVERIFY(waitForFile(*dialog, tree + s("/conf.d/größe mit space.conf")) != nullptr);

        // The whole tree and the existing directory (already in the manifest).
        treeItem->setCheckState(Qt::Checked);
        dialog->revealPath(dir.filePath(s("other")));
        QStandardItem *other = waitForFile(*dialog, dir.filePath(s("other")));
        other->setCheckState(Qt::Checked);
        QCOMPARE(willAdd(*dialog),
            (QStringList {s("file %1 and everything below it").arg(dir.filePath(s("other"))),
                s("file %1 and everything below it").arg(tree)}));
        // A file inside a checked directory adds nothing more.
        conf->setCheckState(Qt::Checked);
        QCOMPARE(dialog->selection().files, (QStringList {dir.filePath(s("other")), tree}));

        // A package too, as dpkg reports it.
        const bool withPackage = !installedVersion(s("dpkg")).isEmpty();
        if (withPackage) {
            QTRY_VERIFY_WITH_TIMEOUT(dialog->packageItem(s("dpkg")) != nullptr, kPatienceMs);
            dialog->packageItem(s("dpkg"))->setCheckState(Qt::Checked);
        }

        QSignalSpy added(dialog, &CaptureDialog::added);
        dialog->addButton()->click();
        QVERIFY(added.wait(kPatienceMs));
        // Skipped and warned about: the link and the private file; reported, the dialog stays.
        QVERIFY(dialog->reportView()->isVisible());
        const QString report = dialog->reportView()->toPlainText();
        QVERIFY2(report.contains(s("link.conf")) && report.contains(s("symlink")), qPrintable(report));
        QVERIFY2(report.contains(s("secret.key")) && report.contains(s("private")), qPrintable(report));
        QVERIFY2(report.contains(s("Already in the manifest")) && report.contains(dir.filePath(s("other"))),
            qPrintable(report));

        // One step of the history.
        QCOMPARE(window.document()->undoStack()->count(), steps + 1);
        const std::set<QString> after = resourceLabels(window);
        for (const char *name : {"", "/app.conf", "/blob.bin", "/empty", "/conf.d", "/conf.d/größe mit space.conf"})
            QVERIFY2(after.count(s("file#") + tree + s(name)), name);
        QVERIFY(!after.count(s("file#") + tree + s("/link.conf")));
        QVERIFY(!after.count(s("file#") + tree + s("/secret.key")));
        QCOMPARE(after.count(s("package#dpkg")), std::size_t(withPackage ? 1 : 0));
        QCOMPARE(int(after.size()), int(before.size()) + 6 + (withPackage ? 1 : 0));
        QVERIFY2(documentErrors(*window.document()).isEmpty(), qPrintable(documentErrors(*window.document())));

        // The binary file went to a source file beside the manifest, with the same bytes.
        const QString source = dir.filePath(s("site/files")) + tree + s("/blob.bin");
        QCOMPARE(readAll(source), readAll(tree + s("/blob.bin")));

        // A preview right after changes nothing.
        QVERIFY(window.saveFile(manifest));
        QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
        window.previewController()->preview();
        QVERIFY(ended.wait(kCaptureRunTimeoutMs));
        RunResults *results = window.previewController()->results();
        QVERIFY(results->rowCount() >= int(after.size()));
        for (int row = 0; row < results->rowCount(); ++row)
            QVERIFY2(results->outcomeAt(row) == Outcome::Stable, results->eventAt(row).dump().c_str());

        // One undo takes every added resource back.
        window.document()->undoStack()->undo();
        QCOMPARE(resourceLabels(window), before);
        QCOMPARE(window.document()->text(), textBefore);
        dialog->close();
    }

    void anUnsavedManifestIsSavedFirstForSourceFiles()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(s("tree"));
        QVERIFY(makeTree(tree));
        MainWindow window;
        useBackendIn(window, dir);
        window.connectToBackend();
        CaptureDialog *dialog = window.captureController()->showMachineDialog();
        QVERIFY(dialog->findChild<QLabel *>(s("captureUnsavedNote")) != nullptr);
        dialog->revealPath(tree);
        QStandardItem *blob = waitForFile(*dialog, tree + s("/blob.bin"));
        QVERIFY(blob != nullptr);
        blob->setCheckState(Qt::Checked);
        dialog->addButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(dialog->messageLabel()->text().contains(s("save the manifest first")), kPatienceMs);
        QCOMPARE(window.document()->undoStack()->count(), 0);
        QVERIFY(window.document()->resources().empty());

        // Inline content needs no directory.
        blob->setCheckState(Qt::Unchecked);
        waitForFile(*dialog, tree + s("/app.conf"))->setCheckState(Qt::Checked);
        QSignalSpy added(dialog, &CaptureDialog::added);
        dialog->addButton()->click();
        QVERIFY(added.wait(kPatienceMs));
        QCOMPARE(int(window.document()->resources().size()), 1);
        QCOMPARE(q(window.document()->resources().front().properties["content"].dump()),
            q(Json("listen = 8080\nworkers = 4\n").dump()));
    }
};

CCM_TEST_MAIN(TestCaptureDialog)
#include "tst_capture_dialog.moc"
