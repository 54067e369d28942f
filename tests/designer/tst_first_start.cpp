// SPDX-License-Identifier: Apache-2.0
// What a user sees when the designer starts for the first time: a window that fits the screen,
// the editors with most of its height, a toolbar of icons and docks that say how to fill them.
#include "designer/core/manifest_document.h"
#include "designer/ui/controllers/files_controller.h"
#include "designer/ui/first_start_layout.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTreeView>

using ccm::designer::MainWindow;

namespace {

constexpr QSize kScreenSize(1600, 1000);

QLabel *emptyState(const QAbstractItemView *view)
{
    return view->viewport()->findChild<QLabel *>(QStringLiteral("emptyState"));
}

bool isPainted(const QIcon &icon)
{
    const QImage image = icon.pixmap(QSize(24, 24)).toImage().convertToFormat(QImage::Format_ARGB32);
    int painted = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x)
            painted += qAlpha(image.pixel(x, y)) > 0 ? 1 : 0;
    }
    return painted > 20;
}

} // namespace

class TestFirstStart : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void geometryFitsTheScreen_data();
    void geometryFitsTheScreen();
    void windowFitsTheScreenItOpensOn();
    void editorsGetMostOfTheHeight();
    void savedStateStillWins();
    void toolBarShowsIconsWithTooltips();
    void emptyStatesHideWhenContentArrives_data();
    void emptyStatesHideWhenContentArrives();
    void filesDockSaysHowToFillIt();
};

void TestFirstStart::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_first_start"));
}

void TestFirstStart::init()
{
    QSettings().clear();
}

void TestFirstStart::geometryFitsTheScreen_data()
{
    QTest::addColumn<QRect>("available");
    QTest::addColumn<QRect>("expected");
    QTest::newRow("1600x1000") << QRect(0, 0, 1600, 1000) << QRect(120, 75, 1360, 850);
    QTest::newRow("4K, capped") << QRect(0, 0, 3840, 2160) << QRect(720, 330, 2400, 1500);
    QTest::newRow("1024x768, at least usable") << QRect(0, 0, 1024, 740) << QRect(32, 50, 960, 640);
    QTest::newRow("smaller than usable") << QRect(0, 0, 800, 600) << QRect(0, 0, 800, 600);
    QTest::newRow("second screen") << QRect(1920, 0, 1600, 1000) << QRect(2040, 75, 1360, 850);
}

void TestFirstStart::geometryFitsTheScreen()
{
    QFETCH(QRect, available);
    QFETCH(QRect, expected);
    const QRect geometry = ccm::designer::firstStartGeometry(available);
    QCOMPARE(geometry, expected);
    QVERIFY(available.contains(geometry));
}

void TestFirstStart::windowFitsTheScreenItOpensOn()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QRect available = window.screen()->availableGeometry();
    QVERIFY(available.contains(window.geometry()));
    QCOMPARE(window.geometry().center(), available.center());
    QVERIFY2(window.width() >= available.width() * 3 / 4 && window.height() >= available.height() * 3 / 4,
        qPrintable(QStringLiteral("%1x%2 on %3x%4")
                       .arg(window.width())
                       .arg(window.height())
                       .arg(available.width())
                       .arg(available.height())));
    // Everything must still fit on a 1024×768 screen.
    QVERIFY(window.minimumSizeHint().width() <= 1024);
    QVERIFY(window.minimumSizeHint().height() <= 700);
}

void TestFirstStart::editorsGetMostOfTheHeight()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QWidget *central = window.centralWidget();
    QTRY_VERIFY2(central->height() > window.height() * 6 / 10,
        qPrintable(QStringLiteral("central %1 of %2").arg(central->height()).arg(window.height())));
    const auto *problems = window.findChild<QDockWidget *>(QStringLiteral("problemsDock"));
    QVERIFY(problems->height() < window.height() / 4);
    QVERIFY(problems->height() > window.height() / 10);
    const auto *resources = window.findChild<QDockWidget *>(QStringLiteral("resourcesDock"));
    QVERIFY(resources->width() < window.width() / 4);
    QVERIFY(central->width() > window.width() * 6 / 10);
}

void TestFirstStart::savedStateStillWins()
{
    int problemsHeight = 0;
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *problems = window.findChild<QDockWidget *>(QStringLiteral("problemsDock"));
        QTRY_VERIFY(window.centralWidget()->height() > window.height() * 6 / 10);
        window.resizeDocks({problems}, {window.height() / 2}, Qt::Vertical);
        QTRY_VERIFY(problems->height() > window.height() * 4 / 10);
        problemsHeight = problems->height();
        window.close();
    }
    MainWindow restored;
    restored.show();
    QVERIFY(QTest::qWaitForWindowExposed(&restored));
    const auto *problems = restored.findChild<QDockWidget *>(QStringLiteral("problemsDock"));
    QTRY_COMPARE(problems->height(), problemsHeight);
}

void TestFirstStart::toolBarShowsIconsWithTooltips()
{
    const MainWindow window;
    const auto *toolBar = window.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
    QVERIFY(toolBar);
    QCOMPARE(toolBar->toolButtonStyle(), Qt::ToolButtonIconOnly);
    int buttons = 0;
    for (const QAction *action : toolBar->actions()) {
        if (action->isSeparator())
            continue;
        ++buttons;
        QString text = action->text().remove(u'&');
        text.remove(u'…');
        QVERIFY2(!action->icon().isNull() && isPainted(action->icon()), qPrintable(text));
        QVERIFY2(action->toolTip().startsWith(text), qPrintable(action->toolTip() + QStringLiteral(" / ") + text));
        if (!action->shortcut().isEmpty())
            QVERIFY2(action->toolTip().contains(action->shortcut().toString(QKeySequence::NativeText)),
                qPrintable(action->toolTip()));
    }
    QVERIFY(buttons >= 10);
}

void TestFirstStart::emptyStatesHideWhenContentArrives_data()
{
    QTest::addColumn<QString>("dock");
    QTest::newRow("Problems") << QStringLiteral("problems");
    QTest::newRow("Preview Results") << QStringLiteral("results");
    QTest::newRow("Resources") << QStringLiteral("resources");
    QTest::newRow("What If") << QStringLiteral("whatIf");
}

void TestFirstStart::emptyStatesHideWhenContentArrives()
{
    QFETCH(QString, dock);
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QStandardItemModel results(1, 1);
    const std::map<QString, std::pair<QAbstractItemView *, std::function<void()>>> docks {
        {QStringLiteral("problems"),
            {window.problemsPanel()->view(),
                [&] { window.document()->setText(QStringLiteral("ccm:\n  resources: [\n")); }}},
        {QStringLiteral("results"),
            {window.resultsPanel()->view(), [&] { window.resultsPanel()->setModel(&results); }}},
        {QStringLiteral("resources"),
            {window.resourceList()->view(), [&] { window.document()->addResource("package", {}); }}},
        {QStringLiteral("whatIf"),
            {window.whatIfPanel()->findChild<QTableWidget *>(),
                [&] {
                    window.whatIfPanel()->setFactRows({{QStringLiteral("host.info.os"), QStringLiteral("linux")}});
                }}},
    };
    const auto &[view, fill] = docks.at(dock);
    QVERIFY(view);
    QLabel *label = emptyState(view);
    QVERIFY(label);
    QVERIFY(!label->isHidden());
    QVERIFY(label->text().size() > 30);
    QCOMPARE(label->geometry(), view->viewport()->rect());
    fill();
    QTRY_VERIFY(label->isHidden());
}

void TestFirstStart::filesDockSaysHowToFillIt()
{
    const QTemporaryDir dir;
    MainWindow window;
    auto *files = window.filesController()->dock();
    const QList<QLabel *> labels = files->findChildren<QLabel *>();
    const auto placeholder = std::find_if(labels.begin(), labels.end(),
        [](const QLabel *label) { return label->text().contains(QStringLiteral("appear here")); });
    QVERIFY(placeholder != labels.end());
    QVERIFY(!(*placeholder)->isHidden());
    const QString path = QDir(dir.path()).filePath(QStringLiteral("site.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("ccm:\n  resources: []\n");
    file.close();
    QVERIFY(window.openFile(path));
    QTRY_VERIFY((*placeholder)->isHidden());
}

int main(int argc, char **argv)
{
    // A screen of the size the designer is laid out for, rather than offscreen's 800×600.
    const QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return 1;
    file.write(QStringLiteral(R"({"windowFrameMargins": false, "screens": [{"name": "first-start", "x": 0, "y": 0,)"
                              R"( "width": %1, "height": %2, "logicalDpi": 96}]})")
                   .arg(kScreenSize.width())
                   .arg(kScreenSize.height())
                   .toUtf8());
    file.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config));
    QApplication app(argc, argv);
    TestFirstStart test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_first_start.moc"
