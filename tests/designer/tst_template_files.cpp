// SPDX-License-Identifier: Apache-2.0
// Template and file editing in the designer: the Files dock, file tabs rendered live by a real
// `ccm-backend serve --user`, resources_jet_file, moving content to a template, saving, recovery.
#include "designer/core/backend_client.h"
#include "designer/core/manifest_document.h"
#include "designer/core/problems_model.h"
#include "designer/core/recovery_store.h"
#include "designer/ui/controllers/files_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/template_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/what_if_panel.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"
#include "window_test_support.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

using namespace ccm::designer;
using namespace ccm::test;

namespace {

/// Starting the user backend and the first render take a while on a loaded machine.
constexpr int kRenderTimeoutMs = 30000;

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// Replaces the editor's text as typing would, so that it is rendered after the edit delay.
void type(TemplateEditor *editor, const QString &text)
{
    QTextCursor cursor(editor->sourceEditor()->document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
}

/// The row of the Problems panel's model positioned in `path`, or -1.
int fileProblemRow(MainWindow &window, const QString &path)
{
    ProblemsModel *model = window.problemsPanel()->problemsModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->filePathOf(row) == path)
            return row;
    }
    return -1;
}

} // namespace

class TestTemplateFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_template_files"));
    }

    void init()
    {
        QSettings().clear();
        QDir(RecoveryStore::defaultDirectory()).removeRecursively();
    }

    void filesDockListsAndOpensFiles();
    void editingATemplateRendersIt();
    void templateErrorsShowAtTheirPosition_data();
    void templateErrorsShowAtTheirPosition();
    void resourcesJetFileLinksResourcesToLines();
    void moveContentToTemplateFile();
    void modifiedTemplateIsSavedAndRecovered();
    void recoveryOffersFileCopiesWithTheirManifest();
    void closingAsksAboutModifiedFiles();
    void whatIfFactsRenderAgain();
    void eachFileHasItsOwnUndo();
};

void TestTemplateFiles::filesDockListsAndOpensFiles()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("files")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("files/robots.txt")), "User-agent: *\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("files/robots.txt~")), "backup\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    FilesDock *dock = window.filesController()->dock();
    QCOMPARE(dock->rootDirectory(), QFileInfo(dir.path()).absoluteFilePath());

    // Listed as the file system model reads the directory; backups are not.
    QTRY_VERIFY(dock->indexOf(dir.filePath(QStringLiteral("files/robots.txt"))).isValid());
    QVERIFY(!dock->indexOf(dir.filePath(QStringLiteral("files/robots.txt~"))).isValid());
    // A file that appears later is listed too.
    QVERIFY(writeFile(dir.filePath(QStringLiteral("files/later.txt")), "later\n"));
    QTRY_VERIFY(dock->indexOf(dir.filePath(QStringLiteral("files/later.txt"))).isValid());

    // Activating opens a tab beside the manifest's views; a plain file has no rendered pane.
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("editorTabs"));
    const int manifestTabs = tabs->count();
    emit dock->view()->activated(dock->indexOf(dir.filePath(QStringLiteral("files/robots.txt"))));
    TemplateEditor *editor = window.filesController()->currentEditor();
    QVERIFY(editor);
    QCOMPARE(tabs->count(), manifestTabs + 1);
    QCOMPARE(editor->kind(), TemplateEditor::Kind::PlainFile);
    QCOMPARE(editor->text(), QStringLiteral("User-agent: *\n"));
    QVERIFY(!editor->outputView());
    // Opening it again shows the same tab.
    emit dock->view()->activated(dock->indexOf(dir.filePath(QStringLiteral("files/robots.txt"))));
    QCOMPARE(tabs->count(), manifestTabs + 1);
}

void TestTemplateFiles::editingATemplateRendersIt()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "data:\n  port: 8080\nccm:\n  resources: []\n"));
    const QString jet = dir.filePath(QStringLiteral("templates/site.jet"));
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("templates")));
    QVERIFY(writeFile(jet, "listen [[ Data.port ]]\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    QString error;
    TemplateEditor *editor = window.filesController()->openFile(jet, &error);
    QVERIFY2(editor, qPrintable(error));
    QCOMPARE(editor->kind(), TemplateEditor::Kind::Template);
    QTRY_COMPARE_WITH_TIMEOUT(editor->outputView()->toPlainText(), QStringLiteral("listen 8080\n"), kRenderTimeoutMs);

    // Typing renders again, unsaved.
    type(editor, QStringLiteral("port [[ Data.port + 1 ]]\n"));
    QTRY_COMPARE_WITH_TIMEOUT(editor->outputView()->toPlainText(), QStringLiteral("port 8081\n"), kRenderTimeoutMs);
    QVERIFY(editor->isModified());
    // A change of the manifest's data renders it again too.
    window.document()->setText(QStringLiteral("data:\n  port: 9000\nccm:\n  resources: []\n"));
    QTRY_COMPARE_WITH_TIMEOUT(editor->outputView()->toPlainText(), QStringLiteral("port 9001\n"), kRenderTimeoutMs);

    // A .templ file is resolved as template() resolves it: expressions, not Go actions.
    const QString templ = dir.filePath(QStringLiteral("templates/motd.templ"));
    QVERIFY(writeFile(templ, "port {{ Data.port }} on {{ lookup('data.port') }}\n"));
    TemplateEditor *resolved = window.filesController()->openFile(templ, &error);
    QVERIFY2(resolved, qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(
        resolved->outputView()->toPlainText(), QStringLiteral("port 9000 on 9000\n"), kRenderTimeoutMs);
}

void TestTemplateFiles::templateErrorsShowAtTheirPosition_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    // Jet through template.render; a .templ resolved as template() does it.
    QTest::newRow("jet") << QStringLiteral("site.jet") << QStringLiteral("first\nport [[ Data.port + ]]\n") << 2 << 0;
    QTest::newRow("templ") << QStringLiteral("motd.templ") << QStringLiteral("first\nport {{ Data.port + }}\n") << 2
                           << 0;
}

void TestTemplateFiles::templateErrorsShowAtTheirPosition()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(int, line);
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "data:\n  port: 8080\nccm:\n  resources: []\n"));
    const QString path = dir.filePath(name);
    QVERIFY(writeFile(path, "ok\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    QString error;
    TemplateEditor *editor = window.filesController()->openFile(path, &error);
    QVERIFY2(editor, qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(editor->outputView()->toPlainText(), QStringLiteral("ok\n"), kRenderTimeoutMs);

    type(editor, text);
    QTRY_VERIFY_WITH_TIMEOUT(!editor->problems().empty(), kRenderTimeoutMs);
    const ccm::Diagnostic problem = editor->problems().front();
    QCOMPARE(problem.position.line, line);
    QVERIFY(problem.position.column > 1);
    // Underlined in the editor, with the message as its tooltip.
    QVERIFY(!editor->sourceEditor()->diagnosticMessagesAt(problem.position.line, problem.position.column).isEmpty());
    // Listed in the Problems panel under the file's name, and activating it goes there.
    const int row = fileProblemRow(window, editor->filePath());
    QVERIFY(row >= 0);
    const QString location
        = window.problemsPanel()->problemsModel()->index(row, ProblemsModel::LocationColumn).data().toString();
    QCOMPARE(location, QStringLiteral("%1:%2:%3").arg(name).arg(line).arg(problem.position.column));
    editor->sourceEditor()->goToLine(1);
    emit window.problemsPanel()->fileProblemActivated(editor->filePath(), problem);
    QCOMPARE(editor->sourceEditor()->currentLine(), line);

    // Fixed: the problem goes away and the output is back.
    type(editor, QStringLiteral("fixed\n"));
    QTRY_COMPARE_WITH_TIMEOUT(editor->outputView()->toPlainText(), QStringLiteral("fixed\n"), kRenderTimeoutMs);
    QVERIFY(editor->problems().empty());
    QCOMPARE(fileProblemRow(window, editor->filePath()), -1);
}

void TestTemplateFiles::resourcesJetFileLinksResourcesToLines()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "data:\n  packages: [vim, curl]\nccm:\n  resources_jet_file: resources.jet\n"));
    const QString jet = dir.filePath(QStringLiteral("resources.jet"));
    QVERIFY(writeFile(jet,
        "{* the packages *}\n"
        "[[ range Data.packages ]]\n"
        "- package:\n"
        "    - \"[[ . ]]\":\n"
        "        ensure: present\n"
        "[[ end ]]\n"
        "- file:\n"
        "    - /tmp/motd:\n"
        "        ensure: absent\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    // The Jet file opens by itself, with the rendered resources.
    TemplateEditor *editor = window.filesController()->editorFor(jet);
    QVERIFY(editor);
    QCOMPARE(editor->kind(), TemplateEditor::Kind::ResourceList);
    QTreeWidget *resources = editor->resourceView();
    QTRY_COMPARE_WITH_TIMEOUT(resources->topLevelItemCount(), 3, kRenderTimeoutMs);
    QCOMPARE(resources->topLevelItem(0)->text(0), QStringLiteral("package#vim"));
    QCOMPARE(resources->topLevelItem(1)->text(0), QStringLiteral("package#curl"));
    QCOMPARE(resources->topLevelItem(2)->text(0), QStringLiteral("file#/tmp/motd"));
    QCOMPARE(resources->topLevelItem(0)->data(0, Qt::UserRole).toInt(), 4);
    QCOMPARE(resources->topLevelItem(2)->data(0, Qt::UserRole).toInt(), 8);
    QCOMPARE(
        editor->resourcesFromLine(4), QStringList({QStringLiteral("package#vim"), QStringLiteral("package#curl")}));

    // A rendered resource goes to its Jet line; the Jet line selects its resources.
    emit resources->itemClicked(resources->topLevelItem(2), 0);
    QCOMPARE(editor->sourceEditor()->currentLine(), 8);
    QVERIFY(resources->topLevelItem(2)->isSelected());
    editor->sourceEditor()->goToLine(4);
    QVERIFY(resources->topLevelItem(0)->isSelected());
    QVERIFY(resources->topLevelItem(1)->isSelected());
    QVERIFY(!resources->topLevelItem(2)->isSelected());
}

void TestTemplateFiles::moveContentToTemplateFile()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest,
        "data:\n  name: demo\nccm:\n  resources:\n    - file:\n        - /tmp/motd:\n"
        "            ensure: present\n            content: \"Welcome to {{ Data.name }}\\n\"\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    FilesController *files = window.filesController();
    const QString original = window.document()->text();
    QString error;
    QVERIFY(!files->moveContentToTemplate({0, 0}, QStringLiteral("../outside"), &error));
    QVERIFY2(error.contains(QStringLiteral("../outside")), qPrintable(error));

    QVERIFY2(files->moveContentToTemplate({0, 0}, QStringLiteral("motd"), &error), qPrintable(error));
    const QString templatePath = dir.filePath(QStringLiteral("templates/motd.templ"));
    QCOMPARE(readText(templatePath), QStringLiteral("Welcome to {{ Data.name }}\n"));
    const ccm::Json content = window.document()->blocks()[0].entries[0].properties["content"];
    QCOMPARE(q(content.get<std::string>()), QStringLiteral("{{ template('templates/motd.templ') }}"));
    // The name is taken now.
    QVERIFY(!files->moveContentToTemplate({0, 0}, QStringLiteral("motd"), &error));

    // One step: undo brings back the content and removes the file; redo does both again.
    window.document()->undoStack()->undo();
    QCOMPARE(window.document()->text(), original);
    QVERIFY(!QFileInfo::exists(templatePath));
    window.document()->undoStack()->redo();
    QCOMPARE(readText(templatePath), QStringLiteral("Welcome to {{ Data.name }}\n"));
    QVERIFY(window.document()->text().contains(QStringLiteral("template(")));
}

void TestTemplateFiles::modifiedTemplateIsSavedAndRecovered()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    const QString path = dir.filePath(QStringLiteral("motd.txt"));
    QVERIFY(writeFile(path, "old\n"));
    const RecoveryStore store;
    {
        MainWindow window;
        useBackendIn(window, dir);
        window.setAutosaveDelay(0);
        QVERIFY(window.openFile(manifest));
        QString error;
        TemplateEditor *editor = window.filesController()->openFile(path, &error);
        QVERIFY2(editor, qPrintable(error));
        type(editor, QStringLiteral("unsaved\n"));
        QVERIFY(editor->isModified());
        QVERIFY(window.isWindowModified());
        // The recovery copy names the file and its manifest.
        QTRY_COMPARE(window.filesController()->fileRecoveryCopies().size(), 1);
        const RecoveryCopy copy = window.filesController()->fileRecoveryCopies().front();
        QCOMPARE(copy.originalPath, QFileInfo(path).absoluteFilePath());
        QCOMPARE(copy.manifestPath, QFileInfo(manifest).absoluteFilePath());
        QCOMPARE(readText(path), QStringLiteral("old\n"));
        // The window goes away as a crash would leave it: the copy stays.
    }
    QCOMPARE(store.list().size(), 1);

    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    FilesController *files = window.filesController();
    QString error;
    QVERIFY2(files->restoreCopy(files->fileRecoveryCopies().front(), &error), qPrintable(error));
    TemplateEditor *editor = files->editorFor(path);
    QVERIFY(editor);
    QCOMPARE(editor->text(), QStringLiteral("unsaved\n"));
    QVERIFY(editor->isModified());

    // Saving writes the file and drops the copy; undo of the file's own history still works.
    QVERIFY(files->saveAll(true));
    QCOMPARE(readText(path), QStringLiteral("unsaved\n"));
    QVERIFY(!editor->isModified());
    QVERIFY(!window.isWindowModified());
    QVERIFY(files->fileRecoveryCopies().isEmpty());
}

void TestTemplateFiles::recoveryOffersFileCopiesWithTheirManifest()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    const QString path = dir.filePath(QStringLiteral("motd.txt"));
    QVERIFY(writeFile(path, "old\n"));
    // What a crash leaves behind: the copy of a file, naming its manifest.
    const RecoveryStore store;
    QString error;
    QVERIFY2(store.write(store.recoveryPathFor(path), path, QStringLiteral("recovered\n"), &error, manifest),
        qPrintable(error));

    // At the next start the manifest opens with the file, which holds the recovered text.
    MainWindow window;
    useBackendIn(window, dir);
    answerNextMessageBox(QMessageBox::Yes);
    window.offerRecovery();
    QCOMPARE(window.document()->filePath(), QFileInfo(manifest).absoluteFilePath());
    TemplateEditor *editor = window.filesController()->editorFor(path);
    QVERIFY(editor);
    QCOMPARE(editor->text(), QStringLiteral("recovered\n"));
    QVERIFY(editor->isModified());
    QCOMPARE(readText(path), QStringLiteral("old\n"));
}

void TestTemplateFiles::closingAsksAboutModifiedFiles()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    const QString path = dir.filePath(QStringLiteral("motd.txt"));
    QVERIFY(writeFile(path, "old\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    QString error;
    TemplateEditor *editor = window.filesController()->openFile(path, &error);
    QVERIFY2(editor, qPrintable(error));
    type(editor, QStringLiteral("new\n"));

    // Cancel keeps the window and the edit; Save All writes the file and lets it close.
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!window.close());
    QVERIFY(editor->isModified());
    QCOMPARE(readText(path), QStringLiteral("old\n"));
    answerNextMessageBox(QMessageBox::SaveAll);
    QVERIFY(window.close());
    QCOMPARE(readText(path), QStringLiteral("new\n"));
}

void TestTemplateFiles::whatIfFactsRenderAgain()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    const QString jet = dir.filePath(QStringLiteral("family.jet"));
    QVERIFY(writeFile(jet, "family [[ Facts.host.info.platformFamily ]]\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    QString error;
    TemplateEditor *editor = window.filesController()->openFile(jet, &error);
    QVERIFY2(editor, qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(
        editor->outputView()->toPlainText().startsWith(QStringLiteral("family")), kRenderTimeoutMs);
    window.whatIfPanel()->addFact(QStringLiteral("host.info.platformFamily"), QStringLiteral("pretend"));
    window.whatIfPanel()->setOverridesEnabled(true);
    QTRY_COMPARE_WITH_TIMEOUT(
        editor->outputView()->toPlainText(), QStringLiteral("family pretend\n"), kRenderTimeoutMs);
}

void TestTemplateFiles::eachFileHasItsOwnUndo()
{
    QTemporaryDir dir;
    const QString manifest = dir.filePath(QStringLiteral("site.yaml"));
    QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
    const QString path = dir.filePath(QStringLiteral("motd.txt"));
    QVERIFY(writeFile(path, "old\n"));
    MainWindow window;
    useBackendIn(window, dir);
    QVERIFY(window.openFile(manifest));
    window.document()->setText(QStringLiteral("ccm:\n  resources: []\n# edited\n"));
    QString error;
    TemplateEditor *editor = window.filesController()->openFile(path, &error);
    QVERIFY2(editor, qPrintable(error));
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    editor->sourceEditor()->setFocus();
    QTest::keyClicks(editor->sourceEditor(), QStringLiteral("x"));
    QCOMPARE(editor->text(), QStringLiteral("xold\n"));

    // Ctrl+Z in the file's tab undoes the typing there; the manifest keeps its edit.
    QTest::keyClick(editor->sourceEditor(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(editor->text(), QStringLiteral("old\n"));
    QVERIFY(!editor->isModified());
    QVERIFY(window.document()->text().contains(QStringLiteral("# edited")));
    QTest::keyClick(editor->sourceEditor(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(editor->text(), QStringLiteral("xold\n"));
    // The window's Undo still undoes the manifest.
    window.document()->undoStack()->undo();
    QVERIFY(!window.document()->text().contains(QStringLiteral("# edited")));
    QCOMPARE(editor->text(), QStringLiteral("xold\n"));
}

CCM_TEST_MAIN(TestTemplateFiles)
#include "tst_template_files.moc"
