// SPDX-License-Identifier: Apache-2.0
// How the main window behaves for a desktop user: docks keep their sizes and come to the front
// when shown, undo and redo work from every form field, the Help menu's items.
#include "designer/core/backend_client.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/expression_completer.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/help_menu.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/fleet_dock.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolTip>
#include <QTreeView>
#include <QUndoStack>

#include <unistd.h>

using ccm::designer::MainWindow;

using namespace ccm::test;

namespace {

const QByteArray kGreetingSite
    = "data:\n"
      "  greeting: hello\n"
      "ccm:\n"
      "  resources:\n"
      "    - file:\n"
      "        - /etc/motd:\n"
      "            ensure: present\n"
      "            content: \"hello\\n\"\n"
      "            owner: root\n"
      "            group: root\n"
      "            mode: \"0644\"\n"
      "        - /srv/www:\n"
      "            ensure: directory\n"
      "            owner: root\n"
      "            group: root\n"
      "            mode: \"0755\"\n"
      "    - service:\n"
      "        - nginx:\n"
      "            ensure: running\n"
      "    - exec:\n"
      "        - rebuild:\n"
      "            command: /bin/true\n"
      "            timeout: 30s\n"
      "            health_checks:\n"
      "              - command: /bin/true\n"
      "                tries: 3\n"
      "    - archive:\n"
      "        - /opt/a-rather-long-directory-name/with-a-long-archive-name-that-does-not-fit.tar.gz:\n"
      "            ensure: absent\n";

QDockWidget *dockNamed(const MainWindow &window, const char *name)
{
    return window.findChild<QDockWidget *>(QString::fromLatin1(name));
}

/// Whether a dock is the one shown of its tab group (or alone): visible and not hidden behind
/// another tab.
bool isFrontDock(const MainWindow &window, QDockWidget *dock)
{
    if (!dock->isVisible())
        return false;
    for (QDockWidget *other : window.tabifiedDockWidgets(dock)) {
        if (!other->visibleRegion().isEmpty() && other->isVisible() && dock->visibleRegion().isEmpty())
            return false;
    }
    return !dock->visibleRegion().isEmpty();
}

/// The focus target of a property's editor in the form.
template<typename T> T *fieldWidget(const MainWindow &window, const char *property)
{
    auto *cell = window.propertyEditor()->findChild<QWidget *>(QString::fromLatin1(property));
    if (!cell)
        return nullptr;
    if (auto *self = qobject_cast<T *>(cell))
        return self;
    return cell->findChild<T *>();
}

} // namespace

class TestWindowBehaviour : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void showingADockRaisesItAndKeepsSizes();
    void editorTabsKeepTheWindowSize();
    void undoAndRedoWorkFromFormFields_data();
    void undoAndRedoWorkFromFormFields();
    void undoWorksFromManifestSettingsFields();
    void fileFormFollowsEnsure();
    void archiveFormFollowsEnsure();
    void longNamesAreElidedInTheMiddleWithATooltip();
    void finishedExpressionClosesTheCompletionPopup();
    void userGuideOpensTheInstalledGuide();
    void userGuideIsFoundByThePackageLayout();
    void shortcutsDialogListsTheActions();
    void aboutNamesTheBackendInUse();
    void noRuntimeDirectoryWarnings();

private:
    QTemporaryDir m_dir;
};

void TestWindowBehaviour::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_window_behaviour"));
    QVERIFY(m_dir.isValid());
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("site.yaml")), kGreetingSite));
}

void TestWindowBehaviour::init()
{
    QSettings().clear();
}

void TestWindowBehaviour::showingADockRaisesItAndKeepsSizes()
{
    MainWindow window;
    window.resize(1360, 850);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    QDockWidget *problems = dockNamed(window, "problemsDock");
    QVERIFY(problems);
    // The first start sizes the docks once the window is laid out.
    QTRY_VERIFY(problems->height() < window.height() / 3);
    QTest::qWait(50);
    const QSize windowSize = window.size();
    const int bottomHeight = problems->height();

    QDockWidget *fleet = window.fleetDock();
    QVERIFY(!fleet->isVisible());
    fleet->toggleViewAction()->trigger();
    QTRY_VERIFY(isFrontDock(window, fleet));
    QTRY_COMPARE(fleet->height(), bottomHeight);
    QCOMPARE(window.size(), windowSize);

    // Every dock's View menu entry brings it to the front, and the size stays.
    for (const char *name : {"resultsDock", "whatIfDock", "problemsDock"}) {
        QDockWidget *dock = dockNamed(window, name);
        QVERIFY2(dock, name);
        dock->toggleViewAction()->trigger(); // hides it
        QVERIFY(!dock->isVisible());
        dock->toggleViewAction()->trigger(); // shows it again, in front
        QTRY_VERIFY2(isFrontDock(window, dock), name);
        QTRY_COMPARE(dock->height(), bottomHeight);
        QCOMPARE(window.size(), windowSize);
    }
    // Preview on Fleet shows the dock in front too.
    dockNamed(window, "problemsDock")->raise();
    QTRY_VERIFY(!isFrontDock(window, fleet));
    window.fleetDock()->previewAction()->setEnabled(true);
    window.fleetDock()->previewAction()->trigger();
    QTRY_VERIFY(isFrontDock(window, fleet));
    QCOMPARE(window.size(), windowSize);
}

void TestWindowBehaviour::editorTabsKeepTheWindowSize()
{
    MainWindow window;
    window.resize(1360, 850);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.fleetDock()->toggleViewAction()->trigger();
    QTest::qWait(50);
    const QSize windowSize = window.size();
    const int bottomHeight = dockNamed(window, "problemsDock")->height();
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("editorTabs"));
    QVERIFY(tabs);
    for (int round = 0; round < 2; ++round) {
        for (int index = 0; index < tabs->count(); ++index) {
            tabs->setCurrentIndex(index);
            QTest::qWait(20);
            QCOMPARE(window.size(), windowSize);
            QCOMPARE(dockNamed(window, "problemsDock")->height(), bottomHeight);
        }
    }
}

void TestWindowBehaviour::undoAndRedoWorkFromFormFields_data()
{
    QTest::addColumn<int>("block");
    QTest::addColumn<QString>("property");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("redoKey");

    QTest::newRow("line edit, Ctrl+Shift+Z")
        << 0 << QStringLiteral("owner") << QStringLiteral("line") << QByteArray("shift-z");
    QTest::newRow("line edit, Ctrl+Y") << 0 << QStringLiteral("group") << QStringLiteral("line") << QByteArray("y");
    QTest::newRow("text edit") << 0 << QStringLiteral("content") << QStringLiteral("text") << QByteArray("y");
    QTest::newRow("combo box") << 1 << QStringLiteral("ensure") << QStringLiteral("combo") << QByteArray("shift-z");
    QTest::newRow("duration") << 2 << QStringLiteral("timeout") << QStringLiteral("line") << QByteArray("y");
    QTest::newRow("spin box") << 2 << QStringLiteral("health_checks") << QStringLiteral("spin") << QByteArray("y");
}

void TestWindowBehaviour::undoAndRedoWorkFromFormFields()
{
    QFETCH(int, block);
    QFETCH(QString, property);
    QFETCH(QString, kind);
    QFETCH(QByteArray, redoKey);

    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.selectEntry({block, 0});
    const QString original = window.document()->text();

    QWidget *field = nullptr;
    const QByteArray name = property.toLatin1();
    if (kind == QLatin1String("line")) {
        auto *line = fieldWidget<QLineEdit>(window, name.constData());
        QVERIFY(line);
        line->setFocus();
        QTRY_VERIFY(line->hasFocus());
        line->end(false);
        QTest::keyClicks(line, QStringLiteral("x"));
        field = line;
    } else if (kind == QLatin1String("text")) {
        auto *text = fieldWidget<QPlainTextEdit>(window, name.constData());
        QVERIFY(text);
        text->setFocus();
        QTRY_VERIFY(text->hasFocus());
        text->moveCursor(QTextCursor::End);
        QTest::keyClicks(text, QStringLiteral("more"));
        field = text;
    } else if (kind == QLatin1String("spin")) {
        auto *spin = fieldWidget<QSpinBox>(window, name.constData());
        QVERIFY(spin);
        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        QTest::keyClick(spin, Qt::Key_Up);
        field = spin;
    } else {
        auto *combo = fieldWidget<QComboBox>(window, name.constData());
        QVERIFY(combo);
        combo->setFocus();
        QTRY_VERIFY(combo->hasFocus());
        QTest::keyClick(combo, Qt::Key_Down);
        field = combo;
    }
    QTRY_VERIFY(window.document()->text() != original);
    const QString edited = window.document()->text();

    QWidget *focused = QApplication::focusWidget();
    QVERIFY(focused);
    QTest::keyClick(focused, Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE(window.document()->text(), original);

    focused = QApplication::focusWidget();
    QVERIFY(focused);
    if (redoKey == "y")
        QTest::keyClick(focused, Qt::Key_Y, Qt::ControlModifier);
    else
        QTest::keyClick(focused, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_COMPARE(window.document()->text(), edited);
    Q_UNUSED(field);
}

void TestWindowBehaviour::undoWorksFromManifestSettingsFields()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    const QString original = window.document()->text();
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("editorTabs"));
    tabs->setCurrentWidget(window.settingsEditor());
    // The message shown before a run takes some text.
    window.settingsEditor()->tabs()->setCurrentIndex(3);
    QLineEdit *line = window.settingsEditor()->preMessageEdit();
    QVERIFY(line);
    line->setFocus();
    QTRY_VERIFY(line->hasFocus());
    QTest::keyClicks(line, QStringLiteral("Hello"));
    QTest::keyClick(line, Qt::Key_Return);
    QTRY_VERIFY(window.document()->text() != original);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE(window.document()->text(), original);
}

namespace {

bool rowShown(const MainWindow &window, const char *property)
{
    const auto *label
        = window.propertyEditor()->findChild<QLabel *>(QString::fromLatin1(property) + QStringLiteral("-label"));
    return label && label->isVisibleTo(window.propertyEditor());
}

void chooseEnsure(const MainWindow &window, const QString &value)
{
    auto *combo = fieldWidget<QComboBox>(window, "ensure");
    QVERIFY(combo);
    const int index = combo->findText(value);
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
    emit combo->activated(index);
}

} // namespace

void TestWindowBehaviour::fileFormFollowsEnsure()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.selectEntry({0, 1});
    QCOMPARE(window.propertyEditor()->type(), QStringLiteral("file"));
    // A directory: no content, no source file, no forced removal.
    QVERIFY(!rowShown(window, "content"));
    QVERIFY(!rowShown(window, "source"));
    QVERIFY(!rowShown(window, "force"));
    QVERIFY(rowShown(window, "owner"));
    QVERIFY(rowShown(window, "mode"));
    QVERIFY(!window.propertyEditor()
                 ->findChild<QWidget *>(QStringLiteral("group-Content"))
                 ->isVisibleTo(window.propertyEditor()));

    chooseEnsure(window, QStringLiteral("present"));
    QTRY_VERIFY(window.document()->text().contains(QStringLiteral("ensure: present")));
    QVERIFY(rowShown(window, "content"));
    QVERIFY(rowShown(window, "source"));
    QVERIFY(!rowShown(window, "force"));

    chooseEnsure(window, QStringLiteral("absent"));
    QTRY_VERIFY(window.document()->text().contains(QStringLiteral("ensure: absent")));
    QVERIFY(!rowShown(window, "content"));
    QVERIFY(!rowShown(window, "source"));
    QVERIFY(rowShown(window, "force"));
    // Owner, group and mode do not apply either, but they have values: they stay in view.
    QVERIFY(rowShown(window, "owner"));
    QVERIFY(rowShown(window, "mode"));

    chooseEnsure(window, QStringLiteral("directory"));
    QTRY_VERIFY(window.document()->text().contains(QStringLiteral("ensure: directory")));
    QVERIFY(!rowShown(window, "content"));
    QVERIFY(!rowShown(window, "force"));

    // The file with content: its Content stays in view whatever ensure says, since it is set.
    window.selectEntry({0, 0});
    QVERIFY(rowShown(window, "content"));
    QVERIFY(!rowShown(window, "force"));
}

void TestWindowBehaviour::archiveFormFollowsEnsure()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.selectEntry({3, 0});
    QCOMPARE(window.propertyEditor()->type(), QStringLiteral("archive"));
    QVERIFY(!rowShown(window, "url"));
    QVERIFY(!rowShown(window, "checksum"));
    QVERIFY(!rowShown(window, "owner"));
    QVERIFY(rowShown(window, "require"));
    // A group with nothing that applies is left out, heading and all.
    QVERIFY(!window.propertyEditor()
                 ->findChild<QWidget *>(QStringLiteral("group-Attributes"))
                 ->isVisibleTo(window.propertyEditor()));

    chooseEnsure(window, QStringLiteral("present"));
    QTRY_VERIFY(window.document()->text().contains(QStringLiteral("ensure: present")));
    QVERIFY(rowShown(window, "url"));
    QVERIFY(rowShown(window, "checksum"));
    QVERIFY(rowShown(window, "owner"));
    QVERIFY(window.propertyEditor()
                ->findChild<QWidget *>(QStringLiteral("group-Attributes"))
                ->isVisibleTo(window.propertyEditor()));
}

void TestWindowBehaviour::longNamesAreElidedInTheMiddleWithATooltip()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.selectEntry({3, 0});
    QTreeView *view = window.resourceList()->view();
    QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
    const QModelIndex index = view->currentIndex();
    QVERIFY(index.isValid());
    const QString full
        = QStringLiteral("archive#/opt/a-rather-long-directory-name/with-a-long-archive-name-that-does-not-fit.tar.gz");
    QCOMPARE(index.data().toString(), full);
    // The list is narrower than the name.
    QVERIFY(view->fontMetrics().horizontalAdvance(full) > view->viewport()->width());
    const QRect rect = view->visualRect(index);
    QHelpEvent help(QEvent::ToolTip, rect.center(), view->viewport()->mapToGlobal(rect.center()));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().startsWith(full), qPrintable(QToolTip::text()));
    QToolTip::hideText();
}

void TestWindowBehaviour::finishedExpressionClosesTheCompletionPopup()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.openFile(m_dir.filePath(QStringLiteral("site.yaml"))));
    window.selectEntry({0, 0});
    auto *content = fieldWidget<QPlainTextEdit>(window, "content");
    QVERIFY(content);
    auto *completer = ccm::designer::ExpressionCompleter::of(content);
    QVERIFY(completer);
    content->setFocus();
    content->moveCursor(QTextCursor::End);
    QTest::keyClicks(content, QStringLiteral("{{ upp"));
    QTRY_VERIFY(completer->offered().contains(QStringLiteral("upper(")));
    // With the popup open, the keys go to it and through it into the text, as a user types.
    QAbstractItemView *popup = completer->completer()->popup();
    QVERIFY(popup->isVisible());
    QTest::keyClicks(popup, QStringLiteral("er }}"));
    QTRY_VERIFY(content->toPlainText().endsWith(QStringLiteral("{{ upper }}")));
    QTRY_VERIFY(!popup->isVisible());
    QVERIFY(completer->offered().isEmpty());
}

void TestWindowBehaviour::userGuideOpensTheInstalledGuide()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *action = window.findChild<QAction *>(QStringLiteral("userGuideAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    QDialog *guide = nullptr;
    QTRY_VERIFY((guide = window.findChild<QDialog *>(QStringLiteral("userGuide"))) != nullptr);
    auto *browser = guide->findChild<QTextBrowser *>();
    QVERIFY(browser);
    QTRY_VERIFY(browser->toPlainText().contains(QStringLiteral("Authoring manifests with ccm-designer")));
    // Its pictures fit the window, and asking again brings the same window back.
    QVERIFY(browser->document()->idealWidth() <= browser->viewport()->width() + 100);
    action->trigger();
    QCOMPARE(window.findChildren<QDialog *>(QStringLiteral("userGuide")).size(), 1);
    guide->close();
}

void TestWindowBehaviour::userGuideIsFoundByThePackageLayout()
{
    // An installed package: bin/ccm-designer and share/doc/ccm-designer/designer.md.
    QTemporaryDir prefix;
    QVERIFY(prefix.isValid());
    QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("bin")));
    const QString installed = prefix.filePath(QStringLiteral("share/doc/ccm-designer/designer.md"));
    QVERIFY(QDir(prefix.path()).mkpath(QStringLiteral("share/doc/ccm-designer")));
    QVERIFY(writeFile(installed, "# Installed guide\n"));
    QCOMPARE(ccm::designer::userGuidePath(prefix.filePath(QStringLiteral("bin"))), installed);
    // A build tree has none installed: the source's docs/designer.md.
    const QString fromBuild = ccm::designer::userGuidePath(QStringLiteral(CCM_BIN_DIR));
    QVERIFY2(fromBuild.endsWith(QStringLiteral("/docs/designer.md")), qPrintable(fromBuild));
    QVERIFY(QFileInfo::exists(fromBuild));
}

void TestWindowBehaviour::shortcutsDialogListsTheActions()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // Generated from the actions as they are: a changed shortcut shows changed.
    auto *redo = window.findChild<QAction *>(QStringLiteral("redoAction"));
    QVERIFY(redo);
    const ccm::designer::ShortcutsDialog dialog(window.menuBar());
    const auto rows = dialog.rows();
    const auto shortcutOf = [&rows](const QString &name) {
        for (const auto &[action, keys] : rows) {
            if (action == name)
                return keys;
        }
        return QStringLiteral("(missing)");
    };
    QCOMPARE(
        shortcutOf(QStringLiteral("Edit › Undo")), QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText));
    QVERIFY(shortcutOf(QStringLiteral("Edit › Redo"))
                .contains(QKeySequence(Qt::CTRL | Qt::Key_Y).toString(QKeySequence::NativeText)));
    QCOMPARE(
        shortcutOf(QStringLiteral("File › Save")), QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
    QCOMPARE(shortcutOf(QStringLiteral("View › Next Problem")), QStringLiteral("F8"));
    QCOMPARE(shortcutOf(QStringLiteral("Help › User Guide")),
        QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
    for (const auto &[action, keys] : rows)
        QVERIFY2(!keys.isEmpty(), qPrintable(action));

    redo->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
    const ccm::designer::ShortcutsDialog changed(window.menuBar());
    bool found = false;
    for (const auto &[action, keys] : changed.rows())
        found = found
            || (action == QStringLiteral("Edit › Redo")
                && keys == QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R).toString(QKeySequence::NativeText));
    QVERIFY(found);

    // The Help menu opens it.
    auto *open = window.findChild<QAction *>(QStringLiteral("shortcutsAction"));
    QVERIFY(open);
    open->trigger();
    QTRY_VERIFY(window.findChild<ccm::designer::ShortcutsDialog *>() != nullptr);
}

void TestWindowBehaviour::aboutNamesTheBackendInUse()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow window;
    ccm::designer::BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
    QVERIFY(window.aboutText().contains(QStringLiteral("not connected")));
    window.connectToBackend();
    QTRY_VERIFY_WITH_TIMEOUT(client->isConnected(), 20000);
    const QString about = window.aboutText();
    QVERIFY(!client->info().version.isEmpty());
    QVERIFY2(about.contains(client->info().version.toHtmlEscaped()), qPrintable(about));
    QVERIFY2(about.contains(client->info().server.toHtmlEscaped()), qPrintable(about));
    QVERIFY2(about.contains(QStringLiteral("protocol %1").arg(client->info().protocol)), qPrintable(about));
}

void TestWindowBehaviour::noRuntimeDirectoryWarnings()
{
    // The real program, as root in a plain shell starts it: no XDG_RUNTIME_DIR.
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    environment.insert(QStringLiteral("HOME"), home.path());
    environment.insert(QStringLiteral("TMPDIR"), home.path());
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // No backend is started: the program's own lookups are what this is about.
    environment.insert(QStringLiteral("CCM_BACKEND"), home.filePath(QStringLiteral("no-backend")));
    QProcess designer;
    designer.setProcessEnvironment(environment);
    const QString missing = home.filePath(QStringLiteral("missing.yaml"));
    designer.start(QStringLiteral(CCM_BIN_DIR "/ccm-designer"), {missing});
    QVERIFY2(designer.waitForStarted(), qPrintable(designer.errorString()));
    QByteArray err;
    // Reported once the window is made, after the application and the window have looked up
    // their directories.
    QTRY_VERIFY_WITH_TIMEOUT((err += designer.readAllStandardError()).contains("missing.yaml"), 20000);
    designer.kill();
    designer.waitForFinished();
    err += designer.readAllStandardError();
    QVERIFY2(!err.contains("QStandardPaths"), err.constData());
    // The private runtime directory it made instead, as the XDG specification wants it.
    const QFileInfoList made = QDir(home.path()).entryInfoList({QStringLiteral("runtime-*")}, QDir::Dirs);
    QCOMPARE(made.size(), 1);
    QCOMPARE(made.front().permissions()
            & (QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup | QFile::ReadOther | QFile::WriteOther
                | QFile::ExeOther),
        QFileDevice::Permissions());
    QVERIFY(made.front().permissions().testFlag(QFile::ExeOwner));
    QCOMPARE(made.front().ownerId(), static_cast<uint>(geteuid()));
}

CCM_TEST_MAIN(TestWindowBehaviour)
#include "tst_window_behaviour.moc"
