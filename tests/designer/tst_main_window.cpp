// SPDX-License-Identifier: Apache-2.0
#include "core/model/validator.h"
#include "designer/core/manifest_document.h"
#include "designer/core/recovery_store.h"
#include "designer/core/resource_list_model.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/resource_palette.h"
#include "designer/ui/translations.h"
#include "gui_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>
#include <QUndoStack>

using ccm::designer::EntryRef;
using ccm::designer::MainWindow;
using ccm::designer::ResourceListModel;
using ccm::designer::ResourcePalette;
using ccm::designer::translationsDirectory;

using namespace ccm::test;

namespace {

QAction *findFileMenuAction(const MainWindow &window, const QString &text)
{
    QMenu *fileMenu = window.menuBar()->actions().value(0)->menu();
    if (fileMenu == nullptr)
        return nullptr;
    for (QAction *action : fileMenu->actions()) {
        if (action->text() == text)
            return action;
    }
    return nullptr;
}

QDockWidget *dock(const MainWindow &window, const char *name)
{
    return window.findChild<QDockWidget *>(QString::fromLatin1(name));
}

const QByteArray kSite = "ccm:\n"
                         "  resources:\n"
                         "    # the web server\n"
                         "    - package:\n"
                         "        - nginx:\n"
                         "            ensure: present\n"
                         "    - file:\n"
                         "        - /etc/motd:\n"
                         "            ensure: present\n"
                         "            content: \"hello\\n\"\n"
                         "            owner: root\n"
                         "            group: root\n"
                         "            mode: \"0644\"\n"
                         "        - /etc/issue:\n"
                         "            ensure: present\n"
                         "            content: \"welcome\\n\"\n"
                         "            owner: root\n"
                         "            group: root\n"
                         "            mode: \"0644\"\n";

/// A window with kSite opened from a file in dir.
bool openSite(MainWindow &window, const QTemporaryDir &dir, QString *path = nullptr)
{
    const QString file = dir.filePath(QStringLiteral("site.yaml"));
    if (path)
        *path = file;
    return writeFile(file, kSite) && window.openFile(file);
}

QStringList menuTitles(const MainWindow &window)
{
    QStringList titles;
    for (const QAction *action : window.menuBar()->actions())
        titles.append(action->text());
    return titles;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void paletteListsResourceTypes_data();
    void paletteListsResourceTypes();
    void docksHoldTheViews();

    void fileMenuShortcuts_data();
    void fileMenuShortcuts();
    void quitClosesWindow();

    void openFileShowsText_data();
    void openFileShowsText();
    void openFileFailureKeepsPreviousText_data();
    void openFileFailureKeepsPreviousText();

    void addEachTypeFromThePalette_data();
    void addEachTypeFromThePalette();
    void paletteDropAddsWhereDropped();
    void invalidModeShowsFieldErrorAndProblem();
    void yamlEditUpdatesTheForm();
    void selectingAResourceScrollsTheYaml();
    void yamlCursorSelectsTheResource();
    void dragAndDropReorders();
    void undoRedoOfEachKindOfEdit();
    void saveOpenRoundTripIsByteStable();
    void bundleOpensAndSavesAsAManifest();
    void problemActivationSelectsTheField();
    void closingAskesAboutUnsavedChanges();
    void recoveryCopyIsOfferedAfterACrash();
    void recentFilesAreRemembered();
    void resourceListModelIsConsistent();

    void translationForLocale_data();
    void translationForLocale();
    void germanTranslationIsComplete();

    void geometryAndDockStatePersist();
};

void TestMainWindow::initTestCase()
{
    // Keeps the window's QSettings away from the user's real configuration.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
}

void TestMainWindow::init()
{
    QSettings().clear();
    const ccm::designer::RecoveryStore recovery;
    for (const ccm::designer::RecoveryCopy &copy : recovery.list())
        recovery.remove(copy.recoveryPath);
}

void TestMainWindow::paletteListsResourceTypes_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("typeName");

    const QStringList types {
        QStringLiteral("package"),
        QStringLiteral("service"),
        QStringLiteral("file"),
        QStringLiteral("exec"),
        QStringLiteral("archive"),
        QStringLiteral("scaffold"),
        QStringLiteral("apply"),
    };
    for (int row = 0; row < types.size(); ++row)
        QTest::newRow(qPrintable(types.at(row))) << row << types.at(row);
}

void TestMainWindow::paletteListsResourceTypes()
{
    QFETCH(int, row);
    QFETCH(QString, typeName);

    const ResourcePalette palette;
    QCOMPARE(palette.count(), 7);

    const QListWidgetItem *item = palette.item(row);
    QCOMPARE(item->data(ResourcePalette::TypeNameRole).toString(), typeName);

    const QString description = item->toolTip();
    QVERIFY(!description.isEmpty());
    QVERIFY(!description.contains(u'\n'));
    QCOMPARE(item->text(), typeName + u'\n' + description);
    QCOMPARE(item->statusTip(), description);

    const QPixmap pixmap = item->icon().pixmap(QSize(24, 24));
    QVERIFY(!pixmap.isNull());
    // A missing resource or a broken SVG still yields a pixmap, a fully transparent one.
    const QImage image = pixmap.toImage().convertToFormat(QImage::Format_ARGB32);
    int paintedPixels = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(image.pixel(x, y)) > 0)
                ++paintedPixels;
        }
    }
    QVERIFY2(paintedPixels > image.width() * image.height() / 4,
        qPrintable(QStringLiteral("only %1 painted pixels").arg(paintedPixels)));
}

void TestMainWindow::docksHoldTheViews()
{
    const MainWindow window;
    QStringList titles;
    for (const QDockWidget *dock : window.findChildren<QDockWidget *>())
        titles.append(dock->windowTitle());
    titles.sort();
    QCOMPARE(titles,
        (QStringList {QStringLiteral("Files"), QStringLiteral("Fleet"), QStringLiteral("Preview Results"),
            QStringLiteral("Problems"), QStringLiteral("Resource Types"), QStringLiteral("Resources"),
            QStringLiteral("What If")}));
    QCOMPARE(dock(window, "resourceTypesDock")->widget(), window.resourcePalette());
    QCOMPARE(dock(window, "resourcesDock")->widget(), window.resourceList());
    QCOMPARE(dock(window, "problemsDock")->widget(), window.problemsPanel());
}

void TestMainWindow::fileMenuShortcuts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QKeySequence>("shortcut");

    QTest::newRow("new") << QStringLiteral("&New") << QKeySequence(Qt::CTRL | Qt::Key_N);
    QTest::newRow("open") << QStringLiteral("&Open…") << QKeySequence(Qt::CTRL | Qt::Key_O);
    QTest::newRow("save") << QStringLiteral("&Save") << QKeySequence(Qt::CTRL | Qt::Key_S);
    QTest::newRow("save as") << QStringLiteral("Save &As…") << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
    QTest::newRow("quit") << QStringLiteral("&Quit") << QKeySequence(Qt::CTRL | Qt::Key_Q);
}

void TestMainWindow::fileMenuShortcuts()
{
    QFETCH(QString, text);
    QFETCH(QKeySequence, shortcut);

    const MainWindow window;
    const QAction *action = findFileMenuAction(window, text);
    QVERIFY(action != nullptr);
    QCOMPARE(action->shortcut(), shortcut);
}

void TestMainWindow::quitClosesWindow()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QAction *quit = findFileMenuAction(window, QStringLiteral("&Quit"));
    QVERIFY(quit != nullptr);
    quit->trigger();
    QVERIFY(!window.isVisible());
}

void TestMainWindow::openFileShowsText_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");

    QTest::newRow("manifest") << QStringLiteral("site.yaml")
                              << QByteArray("ccm:\n  resources:\n    - package:\n        name: nginx\n"
                                            "        ensure: present\n");
    QTest::newRow("utf-8") << QStringLiteral("grüße.yml")
                           << QByteArray("data:\n  motd: \"Grüße aus Köln ✓\"\n\tindented: 1\n");
    QTest::newRow("no final newline") << QStringLiteral("short.yaml") << QByteArray("data: {}");
    QTest::newRow("empty") << QStringLiteral("empty.yaml") << QByteArray();
}

void TestMainWindow::openFileShowsText()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(fileName);
    QVERIFY(writeFile(path, content));

    MainWindow window;
    QCOMPARE(window.windowTitle(), QStringLiteral("untitled[*] — CCM Designer"));
    QVERIFY(window.openFile(path));

    QCOMPARE(window.yamlEditor()->toPlainText(), QString::fromUtf8(content));
    QCOMPARE(window.document()->text(), QString::fromUtf8(content));
    QVERIFY(!window.isWindowModified());
    QVERIFY(window.windowTitle().contains(fileName));
    QVERIFY(window.windowTitle().contains(QStringLiteral("CCM Designer")));
    QVERIFY(window.errorString().isEmpty());
}

void TestMainWindow::openFileFailureKeepsPreviousText_data()
{
    QTest::addColumn<QString>("badName");

    QTest::newRow("missing file") << QStringLiteral("missing.yaml");
    QTest::newRow("directory") << QStringLiteral("a-directory.yaml");
}

void TestMainWindow::openFileFailureKeepsPreviousText()
{
    QFETCH(QString, badName);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString goodPath = dir.filePath(QStringLiteral("good.yaml"));
    const QByteArray goodContent("ccm:\n  resources: []\n");
    QVERIFY(writeFile(goodPath, goodContent));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("a-directory.yaml")));
    const QString badPath = dir.filePath(badName);

    MainWindow window;
    QVERIFY(window.openFile(goodPath));
    const QString titleBefore = window.windowTitle();

    QVERIFY(!window.openFile(badPath));

    QCOMPARE(window.yamlEditor()->toPlainText(), QString::fromUtf8(goodContent));
    QCOMPARE(window.windowTitle(), titleBefore);
    QVERIFY2(window.errorString().contains(QDir::toNativeSeparators(badPath)), qPrintable(window.errorString()));
    QCOMPARE(window.statusBar()->currentMessage(), window.errorString());
}

void TestMainWindow::addEachTypeFromThePalette_data()
{
    QTest::addColumn<int>("row");
    for (int row = 0; row < 7; ++row)
        QTest::newRow(qPrintable(QString::number(row))) << row;
}

void TestMainWindow::addEachTypeFromThePalette()
{
    QFETCH(int, row);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ResourcePalette *palette = window.resourcePalette();
    QListWidgetItem *item = palette->item(row);
    const QString type = item->data(ResourcePalette::TypeNameRole).toString();
    palette->setFocus();
    palette->setCurrentItem(item);
    QTest::keyClick(palette, Qt::Key_Return);

    const auto &blocks = window.document()->blocks();
    QCOMPARE(blocks.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(blocks.front().type), type);
    QCOMPARE(blocks.front().entries.size(), std::size_t(1));
    QCOMPARE(window.selectedEntry(), (EntryRef {0, 0}));
    QCOMPARE(window.propertyEditor()->type(), type);
    const QString text = window.yamlEditor()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("- %1:").arg(type)), qPrintable(text));
    const ccm::Diagnostics problems = ccm::validateManifestText(text.toStdString());
    QVERIFY2(!ccm::hasErrors(problems), qPrintable(text));
    QVERIFY(window.isWindowModified());

    // A second one of the type goes into the same block with its own name.
    emit palette->typeActivated(type);
    QCOMPARE(blocks.size(), std::size_t(1));
    QCOMPARE(blocks.front().entries.size(), std::size_t(2));
    QVERIFY(blocks.front().entries[0].name != blocks.front().entries[1].name);
    QVERIFY(!ccm::hasErrors(window.document()->diagnostics()));
}

void TestMainWindow::paletteDropAddsWhereDropped()
{
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openSite(window, dir));
    ResourceListModel *model = window.resourceList()->model();
    QMimeData data;
    data.setData(ResourcePalette::mimeType(), QByteArrayLiteral("file"));
    QVERIFY(model->canDropMimeData(&data, Qt::CopyAction, 1, 0, model->indexForBlock(1)));
    QVERIFY(model->dropMimeData(&data, Qt::CopyAction, 1, 0, model->indexForBlock(1)));
    const auto &entries = window.document()->blocks()[1].entries;
    QCOMPARE(entries.size(), std::size_t(3));
    QCOMPARE(entries[0].name, std::string("/etc/motd"));
    QCOMPARE(entries[2].name, std::string("/etc/issue"));
    QVERIFY(window.document()->text().contains(QStringLiteral("# the web server")));
}

void TestMainWindow::invalidModeShowsFieldErrorAndProblem()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir));
    window.selectEntry({1, 0});
    auto *mode = window.propertyEditor()->findChild<QWidget *>(QStringLiteral("mode"));
    QVERIFY(mode);
    auto *line = mode->findChild<QLineEdit *>();
    QVERIFY(line);
    line->setFocus();
    line->selectAll();
    QTest::keyClicks(line, QStringLiteral("999"));

    auto *message = window.propertyEditor()->findChild<QLabel *>(QStringLiteral("mode-message"));
    QVERIFY(message);
    QTRY_VERIFY(message->isVisibleTo(window.propertyEditor()));
    QVERIFY(!message->text().isEmpty());
    const auto modeProblem = [&window] {
        for (const ccm::Diagnostic &diagnostic : window.document()->diagnostics()) {
            if (diagnostic.path.ends_with("/mode") && diagnostic.severity == ccm::Severity::Error)
                return true;
        }
        return false;
    };
    QTRY_VERIFY(modeProblem());
    QVERIFY(window.document()->text().contains(QStringLiteral("mode: \"999\"")));
    QTRY_VERIFY(window.problemsPanel()->view()->model()->rowCount() > 0);
    QVERIFY2(window.problemsPanel()->summaryText().contains(QStringLiteral("1 error")),
        qPrintable(window.problemsPanel()->summaryText()));
    // Still typing in the same field: the editor kept the focus and the cursor.
    QCOMPARE(QApplication::focusWidget(), line);
    QCOMPARE(line->text(), QStringLiteral("999"));
}

void TestMainWindow::yamlEditUpdatesTheForm()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir));
    window.selectEntry({1, 0});
    // Fields are looked up each time: the form may rebuild them.
    const auto owner = [&window] {
        auto *field = window.propertyEditor()->findChild<QWidget *>(QStringLiteral("owner"));
        auto *line = field ? field->findChild<QLineEdit *>() : nullptr;
        return line ? line->text() : QStringLiteral("(no field)");
    };
    QCOMPARE(owner(), QStringLiteral("root"));

    ccm::designer::YamlEditor *yaml = window.yamlEditor();
    QTextCursor cursor = yaml->document()->find(QStringLiteral("owner: root"));
    QVERIFY(!cursor.isNull());
    const int end = cursor.selectionEnd();
    cursor.setPosition(end - 4);
    cursor.setPosition(end, QTextCursor::KeepAnchor);
    yaml->setTextCursor(cursor);
    yaml->setFocus();
    QTest::keyClicks(yaml, QStringLiteral("www-data"));
    QTRY_COMPARE(owner(), QStringLiteral("www-data"));
    QVERIFY(window.document()->blocks()[1].entries[0].properties["owner"] == ccm::Json("www-data"));
    QVERIFY(window.isWindowModified());

    // Text that is not YAML for a moment keeps the resource shown, read-only; fixed, it is editable.
    QTest::keyClicks(yaml, QStringLiteral(": ["));
    QTRY_VERIFY(!window.document()->loaded().parsed);
    QCOMPARE(window.selectedEntry(), (EntryRef {1, 0}));
    QVERIFY(window.propertyEditor()->isStale());
    QCOMPARE(owner(), QStringLiteral("www-data"));
    QTest::keyClick(yaml, Qt::Key_Backspace);
    QTest::keyClick(yaml, Qt::Key_Backspace);
    QTest::keyClick(yaml, Qt::Key_Backspace);
    QTRY_COMPARE(window.selectedEntry(), (EntryRef {1, 0}));
    QTRY_VERIFY(!window.propertyEditor()->isStale());
    QCOMPARE(owner(), QStringLiteral("www-data"));
}

void TestMainWindow::selectingAResourceScrollsTheYaml()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir));
    window.selectEntry({1, 1});
    QCOMPARE(window.yamlEditor()->currentLine(), window.document()->lineOf({1, 1}));
    QCOMPARE(
        window.propertyEditor()->findChild<QLineEdit *>(QStringLiteral("name"))->text(), QStringLiteral("/etc/issue"));
}

void TestMainWindow::yamlCursorSelectsTheResource()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir));
    ccm::designer::YamlEditor *yaml = window.yamlEditor();
    const int line = window.document()->lineOf({1, 1}) + 2;
    QTextCursor cursor(yaml->document()->findBlockByNumber(line - 1));
    yaml->setTextCursor(cursor);
    QTRY_COMPARE(window.selectedEntry(), (EntryRef {1, 1}));
    cursor = QTextCursor(yaml->document()->findBlockByNumber(window.document()->lineOf({0, 0})));
    yaml->setTextCursor(cursor);
    QTRY_COMPARE(window.selectedEntry(), (EntryRef {0, 0}));
}

void TestMainWindow::dragAndDropReorders()
{
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(openSite(window, dir));
    ResourceListModel *model = window.resourceList()->model();
    std::unique_ptr<QMimeData> dragged(model->mimeData({model->indexFor({1, 1})}));
    QVERIFY(dragged);
    QVERIFY(model->dropMimeData(dragged.get(), Qt::MoveAction, 0, 0, model->indexForBlock(1)));
    const QString text = window.document()->text();
    QVERIFY(text.indexOf(QStringLiteral("/etc/issue")) < text.indexOf(QStringLiteral("/etc/motd")));
    QCOMPARE(window.document()->blocks()[1].entries[0].name, std::string("/etc/issue"));
    QVERIFY(text.contains(QStringLiteral("# the web server")));
    // An entry dropped on a block of another type is refused.
    std::unique_ptr<QMimeData> file(model->mimeData({model->indexFor({1, 0})}));
    QVERIFY(!model->dropMimeData(file.get(), Qt::MoveAction, 0, 0, model->indexForBlock(0)));
    QCOMPARE(window.document()->blocks()[0].entries.size(), std::size_t(1));
}

void TestMainWindow::undoRedoOfEachKindOfEdit()
{
    QTemporaryDir dir;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir));
    QAction *undo = window.findChild<QAction *>(QStringLiteral("undoAction"));
    QAction *redo = window.findChild<QAction *>(QStringLiteral("redoAction"));
    QVERIFY(undo && redo);
    QStringList states {window.document()->text()};
    const auto record = [&] {
        QVERIFY(window.document()->text() != states.last());
        states.append(window.document()->text());
    };

    // A form edit.
    window.selectEntry({1, 0});
    auto *owner = window.propertyEditor()->findChild<QWidget *>(QStringLiteral("owner"))->findChild<QLineEdit *>();
    owner->setFocus();
    owner->selectAll();
    QTest::keyClicks(owner, QStringLiteral("nobody"));
    QTRY_VERIFY(window.document()->text().contains(QStringLiteral("owner: nobody")));
    record();
    // Adding from the palette.
    emit window.resourcePalette()->typeActivated(QStringLiteral("service"));
    record();
    // Duplicate, move and delete through the Edit menu's actions.
    window.selectEntry({1, 0});
    const auto action = [&window](const QString &text) {
        for (QAction *candidate : window.findChildren<QAction *>()) {
            if (candidate->text() == text)
                return candidate;
        }
        return static_cast<QAction *>(nullptr);
    };
    action(QStringLiteral("D&uplicate Resource"))->trigger();
    record();
    action(QStringLiteral("Move Do&wn"))->trigger();
    record();
    action(QStringLiteral("&Delete Resource"))->trigger();
    record();
    // The manifest's settings.
    emit window.settingsEditor()->messagesEdited(QStringLiteral("Starting"), QString());
    record();
    // Typing in the YAML view.
    ccm::designer::YamlEditor *yaml = window.yamlEditor();
    QTextCursor cursor(yaml->document());
    cursor.movePosition(QTextCursor::End);
    yaml->setTextCursor(cursor);
    yaml->setFocus();
    QTest::keyClicks(yaml, QStringLiteral("# done"));
    QTRY_VERIFY(window.document()->text().endsWith(QStringLiteral("# done")));
    record();

    for (qsizetype state = states.size() - 2; state >= 0; --state) {
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QCOMPARE(window.document()->text(), states[state]);
        QCOMPARE(yaml->toPlainText(), states[state]);
    }
    QVERIFY(!undo->isEnabled());
    QVERIFY(!window.isWindowModified());
    for (qsizetype state = 1; state < states.size(); ++state) {
        redo->trigger();
        QCOMPARE(window.document()->text(), states[state]);
    }
    QVERIFY(window.isWindowModified());
}

void TestMainWindow::saveOpenRoundTripIsByteStable()
{
    QTemporaryDir dir;
    MainWindow window;
    QString original;
    QVERIFY(openSite(window, dir, &original));
    const QString copy = dir.filePath(QStringLiteral("copy.yaml"));
    QVERIFY(window.saveFile(copy));
    QFile saved(copy);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), kSite);
    saved.close();
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("copy.yaml")));

    // An edit and its undo leave the bytes as they were.
    window.document()->setProperty({1, 0}, "mode", ccm::Json("0600"));
    QVERIFY(window.isWindowModified());
    window.document()->undoStack()->undo();
    QVERIFY(!window.isWindowModified());
    QVERIFY(window.saveFile(copy));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), kSite);
    saved.close();

    MainWindow reopened;
    QVERIFY(reopened.openFile(copy));
    QCOMPARE(reopened.document()->text().toUtf8(), kSite);
}

void TestMainWindow::bundleOpensAndSavesAsAManifest()
{
    QTemporaryDir dir;
    QVERIFY(writeFile(dir.filePath(QStringLiteral("manifest.yaml")), kSite));
    QProcess tar;
    tar.setWorkingDirectory(dir.path());
    tar.start(QStringLiteral("tar"),
        {QStringLiteral("-czf"), QStringLiteral("site.tar.gz"), QStringLiteral("manifest.yaml")});
    QVERIFY(tar.waitForFinished() && tar.exitCode() == 0);
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("manifest.yaml"))));

    MainWindow window;
    const QString bundle = dir.filePath(QStringLiteral("site.tar.gz"));
    QVERIFY2(window.openFile(bundle), qPrintable(window.errorString()));
    QCOMPARE(window.document()->text().toUtf8(), kSite);
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("site.tar.gz")));
    QCOMPARE(window.document()->blocks().size(), std::size_t(2));

    const QString saved = dir.filePath(QStringLiteral("manifest.yaml"));
    QVERIFY(window.saveFile(saved));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("manifest.yaml")));
    QFile file(saved);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), kSite);
    // The bundle itself is untouched.
    QVERIFY(QFileInfo(bundle).size() > 0);
    QVERIFY(QFileInfo(bundle).size() != QFileInfo(saved).size());
}

void TestMainWindow::problemActivationSelectsTheField()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.yaml"));
    QByteArray bad = kSite;
    bad.replace("welcome\\n\"\n            owner: root\n            group: root\n            mode: \"0644\"",
        "welcome\\n\"\n            owner: root\n            group: root\n            mode: \"999\"");
    QVERIFY(bad != kSite);
    QVERIFY(writeFile(path, bad));
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.openFile(path));
    QTreeView *problems = window.problemsPanel()->view();
    QVERIFY(problems->model()->rowCount() > 0);
    problems->setFocus();
    problems->setCurrentIndex(problems->model()->index(0, 0));
    QTest::keyClick(problems, Qt::Key_Return);
    QCOMPARE(window.selectedEntry(), (EntryRef {1, 1}));
    QWidget *mode = window.propertyEditor()->findChild<QWidget *>(QStringLiteral("mode"));
    QTRY_VERIFY(mode->isAncestorOf(QApplication::focusWidget()));
}

void TestMainWindow::closingAskesAboutUnsavedChanges()
{
    QTemporaryDir dir;
    QString path;
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSite(window, dir, &path));
    window.document()->setProperty({1, 0}, "mode", ccm::Json("0600"));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("site.yaml[*]")));
    QVERIFY(window.isWindowModified());

    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!window.close());
    QVERIFY(window.isVisible());

    answerNextMessageBox(QMessageBox::Save);
    QVERIFY(window.close());
    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("mode: \"0600\""));
}

void TestMainWindow::recoveryCopyIsOfferedAfterACrash()
{
    QTemporaryDir dir;
    QString path;
    QString edited;
    {
        MainWindow crashed;
        crashed.setAutosaveDelay(0);
        QVERIFY(openSite(crashed, dir, &path));
        crashed.document()->setProperty({1, 0}, "owner", ccm::Json("daemon"));
        edited = crashed.document()->text();
        QTRY_COMPARE(ccm::designer::RecoveryStore().list().size(), 1);
        // Destroyed without closing, as a crash leaves it.
    }
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    answerNextMessageBox(QMessageBox::Yes);
    window.offerRecovery();
    QCOMPARE(window.document()->text(), edited);
    QCOMPARE(window.document()->filePath(), path);
    QVERIFY(window.isWindowModified());
    // The file on disk is untouched until the user saves.
    QFile original(path);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QCOMPARE(original.readAll(), kSite);

    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(window.close());
    QCOMPARE(ccm::designer::RecoveryStore().list().size(), 0);
}

void TestMainWindow::recentFilesAreRemembered()
{
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.yaml"));
    const QString second = dir.filePath(QStringLiteral("second.yaml"));
    QVERIFY(writeFile(first, "data: {a: 1}\n"));
    QVERIFY(writeFile(second, "data: {b: 2}\n"));
    {
        MainWindow window;
        QVERIFY(window.openFile(first));
        QVERIFY(window.openFile(second));
    }
    MainWindow window;
    auto *menu = window.findChild<QMenu *>(QStringLiteral("recentFilesMenu"));
    QVERIFY(menu);
    QVERIFY(menu->actions().size() >= 2);
    QVERIFY(menu->actions()[0]->text().endsWith(QDir::toNativeSeparators(second)));
    QVERIFY(menu->actions()[1]->text().endsWith(QDir::toNativeSeparators(first)));
    menu->actions()[1]->trigger();
    QCOMPARE(window.document()->filePath(), first);
    QCOMPARE(window.yamlEditor()->toPlainText(), QStringLiteral("data: {a: 1}\n"));
}

void TestMainWindow::resourceListModelIsConsistent()
{
    QTemporaryDir dir;
    MainWindow window;
    QAbstractItemModelTester sourceTester(
        window.resourceList()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(
        window.resourceList()->view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openSite(window, dir));
    emit window.resourcePalette()->typeActivated(QStringLiteral("exec"));
    window.resourceList()->filterEdit()->setText(QStringLiteral("motd"));
    QCOMPARE(window.resourceList()->view()->model()->rowCount(), 1);
    window.selectEntry({1, 1});
    QCOMPARE(window.resourceList()->filterEdit()->text(), QString());
    window.document()->moveEntry({1, 1}, 1, 0);
    window.document()->removeEntry({0, 0});
    QCOMPARE(window.resourceList()->model()->rowCount(), 2);
}

void TestMainWindow::translationForLocale_data()
{
    QTest::addColumn<QString>("localeName");
    QTest::addColumn<bool>("translationFound");
    QTest::addColumn<QStringList>("expectedMenus");
    QTest::addColumn<QString>("dockTitle");

    const QStringList german {QStringLiteral("&Datei"), QStringLiteral("&Bearbeiten"), QStringLiteral("A&usführen"),
        QStringLiteral("&Flotte"), QStringLiteral("&Ansicht"), QStringLiteral("&Hilfe")};
    const QStringList english {QStringLiteral("&File"), QStringLiteral("&Edit"), QStringLiteral("&Run"),
        QStringLiteral("F&leet"), QStringLiteral("&View"), QStringLiteral("&Help")};

    QTest::newRow("de_DE") << QStringLiteral("de_DE") << true << german << QStringLiteral("Ressourcentypen");
    QTest::newRow("de_AT") << QStringLiteral("de_AT") << true << german << QStringLiteral("Ressourcentypen");
    QTest::newRow("fr_FR") << QStringLiteral("fr_FR") << false << english << QStringLiteral("Resource Types");
}

void TestMainWindow::translationForLocale()
{
    QFETCH(QString, localeName);
    QFETCH(bool, translationFound);
    QFETCH(QStringList, expectedMenus);
    QFETCH(QString, dockTitle);

    // The same lookup main() does for the system locale, from the programs' directory of the build tree.
    const QString directory = translationsDirectory(QStringLiteral(CCM_BIN_DIR));
    QVERIFY(QFile::exists(directory + QStringLiteral("/ccm-designer_de.qm")));
    QTranslator translator;
    QCOMPARE(translator.load(QLocale(localeName), QStringLiteral("ccm-designer"), QStringLiteral("_"), directory),
        translationFound);
    if (translationFound)
        QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto removeTranslator = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });

    const MainWindow window;
    QCOMPARE(menuTitles(window), expectedMenus);
    QCOMPARE(dock(window, "resourceTypesDock")->windowTitle(), dockTitle);
}

void TestMainWindow::germanTranslationIsComplete()
{
    QFile file(QStringLiteral(CCM_SOURCE_DIR "/translations/ccm-designer_de.ts"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray ts = file.readAll();
    QVERIFY(ts.count("<message") > 300);
    // lupdate marks new and changed texts unfinished, and texts no longer in the sources vanished.
    QCOMPARE(ts.count("type=\"unfinished\""), 0);
    QCOMPARE(ts.count("type=\"vanished\""), 0);
    QCOMPARE(ts.count("type=\"obsolete\""), 0);
}

void TestMainWindow::geometryAndDockStatePersist()
{
    const QSize size(1033, 711);
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(size);
        QTRY_COMPARE(window.size(), size);
        dock(window, "problemsDock")->hide();
        window.close();
    }

    MainWindow restored;
    QCOMPARE(restored.size(), size);
    QVERIFY(dock(restored, "problemsDock")->isHidden());
    QVERIFY(!dock(restored, "resourcesDock")->isHidden());
}

CCM_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
