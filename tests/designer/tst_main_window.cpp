// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"
#include "resource_palette.h"
#include "test_common.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using ccm::designer::MainWindow;
using ccm::designer::ResourcePalette;

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

QStringList menuTitles(const MainWindow &window)
{
    QStringList titles;
    for (const QAction *action : window.menuBar()->actions())
        titles.append(action->text());
    return titles;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void paletteListsResourceTypes_data();
    void paletteListsResourceTypes();
    void paletteIsInResourceTypesDock();

    void fileMenuShortcuts_data();
    void fileMenuShortcuts();
    void quitClosesWindow();

    void openFileShowsText_data();
    void openFileShowsText();
    void openFileFailureKeepsPreviousText_data();
    void openFileFailureKeepsPreviousText();

    void translationForLocale_data();
    void translationForLocale();

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
}

void TestMainWindow::paletteListsResourceTypes_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("typeName");

    const QStringList types{
        QStringLiteral("package"), QStringLiteral("service"),  QStringLiteral("file"),  QStringLiteral("exec"),
        QStringLiteral("archive"), QStringLiteral("scaffold"), QStringLiteral("apply"),
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

void TestMainWindow::paletteIsInResourceTypesDock()
{
    const MainWindow window;
    const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
    QCOMPARE(docks.size(), 1);
    QCOMPARE(docks.constFirst()->windowTitle(), QStringLiteral("Resource Types"));
    QCOMPARE(docks.constFirst()->widget(), window.resourcePalette());
}

void TestMainWindow::fileMenuShortcuts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QKeySequence>("shortcut");

    QTest::newRow("open") << QStringLiteral("&Open…") << QKeySequence(Qt::CTRL | Qt::Key_O);
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
    QCOMPARE(window.windowTitle(), QStringLiteral("CCM Designer"));
    QVERIFY(window.openFile(path));

    QCOMPARE(window.manifestView()->toPlainText(), QString::fromUtf8(content));
    QVERIFY(window.manifestView()->isReadOnly());
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

    QCOMPARE(window.manifestView()->toPlainText(), QString::fromUtf8(goodContent));
    QCOMPARE(window.windowTitle(), titleBefore);
    QVERIFY2(window.errorString().contains(QDir::toNativeSeparators(badPath)), qPrintable(window.errorString()));
    QCOMPARE(window.statusBar()->currentMessage(), window.errorString());
}

void TestMainWindow::translationForLocale_data()
{
    QTest::addColumn<QString>("localeName");
    QTest::addColumn<bool>("translationFound");
    QTest::addColumn<QStringList>("expectedMenus");
    QTest::addColumn<QString>("dockTitle");

    const QStringList german{QStringLiteral("&Datei"), QStringLiteral("&Ansicht"), QStringLiteral("&Hilfe")};
    const QStringList english{QStringLiteral("&File"), QStringLiteral("&View"), QStringLiteral("&Help")};

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

    QVERIFY(QFile::exists(QStringLiteral(":/i18n/ccm-designer_de.qm")));

    // The same lookup main() does for the system locale.
    QTranslator translator;
    QCOMPARE(translator.load(QLocale(localeName), QStringLiteral("ccm-designer"), QStringLiteral("_"),
                             QStringLiteral(":/i18n")),
             translationFound);
    if (translationFound)
        QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto removeTranslator = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });

    const MainWindow window;
    QCOMPARE(menuTitles(window), expectedMenus);
    QCOMPARE(window.findChild<QDockWidget *>()->windowTitle(), dockTitle);
}

void TestMainWindow::geometryAndDockStatePersist()
{
    const QSize size(733, 511);
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(size);
        QTRY_COMPARE(window.size(), size);
        window.findChild<QDockWidget *>()->hide();
        window.close();
    }

    MainWindow restored;
    QCOMPARE(restored.size(), size);
    QVERIFY(restored.findChild<QDockWidget *>()->isHidden());
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
