// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/results_panel.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using ccm::designer::ResultsPanel;

namespace {

void addRow(QStandardItemModel &model, const QString &resource, const QString &outcome)
{
    QList<QStandardItem *> items;
    for (const QString &text :
        {resource, outcome, QStringLiteral("message"), QStringLiteral("posix"), QStringLiteral("1 ms")}) {
        auto *item = new QStandardItem(text);
        item->setData(outcome, ResultsPanel::OutcomeNameRole);
        items.append(item);
    }
    model.appendRow(items);
}

void fill(QStandardItemModel &model)
{
    addRow(model, QStringLiteral("file#/a"), QStringLiteral("stable"));
    addRow(model, QStringLiteral("file#/b"), QStringLiteral("changed"));
    addRow(model, QStringLiteral("package#nginx"), QStringLiteral("stable"));
    addRow(model, QStringLiteral("exec#x"), QStringLiteral("failed"));
}

QStringList visibleResources(const ResultsPanel &panel)
{
    QStringList resources;
    const QAbstractItemModel *model = panel.view()->model();
    for (int row = 0; row < model->rowCount(); ++row)
        resources.append(model->index(row, ResultsPanel::ResourceColumn).data().toString());
    return resources;
}

} // namespace

class TestResultsPanel : public QObject {
    Q_OBJECT

private slots:
    void changesOnlyFilter();
    void outcomeMarks();
    void outcomeColours_data();
    void outcomeColours();
    void progress();
    void cancelAndExport();
    void stale();
    void staleRowsPaintOnce();
    void selectionMapsToSourceRow();
};

void TestResultsPanel::changesOnlyFilter()
{
    QStandardItemModel model;
    fill(model);
    ResultsPanel panel;
    panel.setModel(&model);
    QAbstractItemModelTester tester(panel.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(visibleResources(panel).size(), 4);
    panel.changesOnlyBox()->setChecked(true);
    QVERIFY(panel.changesOnly());
    QCOMPARE(visibleResources(panel), QStringList({QStringLiteral("file#/b"), QStringLiteral("exec#x")}));
    addRow(model, QStringLiteral("service#nginx"), QStringLiteral("stable"));
    addRow(model, QStringLiteral("service#cron"), QStringLiteral("refreshed"));
    QCOMPARE(visibleResources(panel),
        QStringList({QStringLiteral("file#/b"), QStringLiteral("exec#x"), QStringLiteral("service#cron")}));
    panel.setChangesOnly(false);
    QVERIFY(!panel.changesOnlyBox()->isChecked());
    QCOMPARE(visibleResources(panel).size(), 6);
}

void TestResultsPanel::outcomeMarks()
{
    QStandardItemModel model;
    fill(model);
    ResultsPanel panel;
    panel.setModel(&model);
    const QModelIndex failed = panel.view()->model()->index(3, ResultsPanel::OutcomeColumn);
    QCOMPARE(failed.data(Qt::ForegroundRole).value<QColor>(),
        ResultsPanel::outcomeColor(QStringLiteral("failed"), panel.view()->palette()));
    QVERIFY(!failed.data(Qt::DecorationRole).value<QIcon>().isNull());
    QVERIFY(!panel.view()->model()->index(3, ResultsPanel::MessageColumn).data(Qt::DecorationRole).isValid());
}

void TestResultsPanel::outcomeColours_data()
{
    QTest::addColumn<QColor>("base");
    QTest::newRow("light") << QColor(Qt::white);
    QTest::newRow("dark") << QColor(0x1e, 0x1e, 0x1e);
}

void TestResultsPanel::outcomeColours()
{
    QFETCH(QColor, base);
    QPalette palette;
    palette.setColor(QPalette::Base, base);
    const auto color
        = [&palette](const char *outcome) { return ResultsPanel::outcomeColor(QString::fromLatin1(outcome), palette); };
    const QColor failed = color("failed");
    QVERIFY(failed.red() > failed.green() && failed.red() > failed.blue());
    const QColor changed = color("changed");
    QVERIFY(changed.red() > changed.blue() && changed.green() > changed.blue());
    const QColor refreshed = color("refreshed");
    QVERIFY(refreshed.blue() > refreshed.red());
    QCOMPARE(color("stable").hsvSaturation(), color("skipped").hsvSaturation());
    QCOMPARE(color("stable"), color("unmet_requirements"));
    QVERIFY(!color("unheard-of").isValid());
    // Each mark stands out from the base it is drawn on.
    for (const char *outcome : {"stable", "changed", "failed", "refreshed"})
        QVERIFY2(std::abs(color(outcome).lightness() - base.lightness()) > 60, outcome);
}

void TestResultsPanel::progress()
{
    ResultsPanel panel;
    panel.show();
    QVERIFY(!panel.progressBar()->isVisible());
    panel.setRunning(true);
    QVERIFY(panel.isRunning());
    QVERIFY(panel.progressBar()->isVisible());
    panel.setProgress(3, 10, QStringLiteral("file#/etc/motd"));
    QCOMPARE(panel.progressText(), QStringLiteral("Checking file#/etc/motd (3 of 10)"));
    QCOMPARE(panel.progressBar()->value(), 3);
    QCOMPARE(panel.progressBar()->maximum(), 10);
    panel.setProgress(0, 10, QString());
    QCOMPARE(panel.progressText(), QStringLiteral("Checking (0 of 10)"));
    panel.setRunning(false);
    QVERIFY(!panel.progressBar()->isVisible());
    QVERIFY(!panel.cancelButton()->isVisible());
}

void TestResultsPanel::cancelAndExport()
{
    QStandardItemModel model;
    ResultsPanel panel;
    panel.setModel(&model);
    QSignalSpy cancel(&panel, &ResultsPanel::cancelRequested);
    QSignalSpy json(&panel, &ResultsPanel::exportJsonRequested);
    QSignalSpy text(&panel, &ResultsPanel::exportTextRequested);
    QVERIFY(!panel.exportButton()->isEnabled());
    panel.setRunning(true);
    fill(model);
    QVERIFY(!panel.exportButton()->isEnabled());
    QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
    QCOMPARE(cancel.size(), 1);
    panel.setRunning(false);
    QVERIFY(panel.exportButton()->isEnabled());
    const QList<QAction *> actions = panel.exportButton()->menu()->actions();
    QCOMPARE(actions.size(), 2);
    actions.at(0)->trigger();
    QCOMPARE(json.size(), 1);
    QCOMPARE(text.size(), 0);
    actions.at(1)->trigger();
    QCOMPARE(text.size(), 1);
    panel.setSummary(QStringLiteral("4 resources: 1 would change, 1 would fail"));
    QCOMPARE(panel.summary(), QStringLiteral("4 resources: 1 would change, 1 would fail"));
}

void TestResultsPanel::stale()
{
    ResultsPanel panel;
    panel.show();
    QVERIFY(panel.staleLabel()->isHidden());
    panel.setStale(true);
    QVERIFY(panel.isStale());
    QVERIFY(panel.staleLabel()->isVisible());
    QCOMPARE(
        panel.staleLabel()->text(), QStringLiteral("Results are out of date: the manifest changed since this preview"));
    panel.setStale(false);
    QVERIFY(panel.staleLabel()->isHidden());
}

void TestResultsPanel::staleRowsPaintOnce()
{
    QStandardItemModel model;
    for (int i = 0; i < 30; ++i)
        addRow(model, QStringLiteral("file#/etc/f%1").arg(i),
            i % 2 ? QStringLiteral("changed") : QStringLiteral("stable"));
    ResultsPanel panel;
    panel.setModel(&model);
    panel.resize(900, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTreeView *view = panel.view();
    view->scrollTo(view->model()->index(10, 0));
    const QModelIndex changed = view->model()->index(11, ResultsPanel::OutcomeColumn);
    const QColor amber = ResultsPanel::outcomeColor(QStringLiteral("changed"), view->palette());
    QCOMPARE(changed.data(Qt::ForegroundRole).value<QColor>(), amber);

    // What the window shows (its backing store) must be what a fresh paint of the table gives:
    // going stale moves the table down under the banner, and every row is then painted once, at
    // its new place, greyed.
    panel.setStale(true);
    const QColor muted = view->palette().color(QPalette::PlaceholderText);
    QCOMPARE(changed.data(Qt::ForegroundRole).value<QColor>(), muted);
    QCOMPARE(view->model()->index(11, ResultsPanel::ResourceColumn).data(Qt::ForegroundRole).value<QColor>(), muted);
    const auto shownTable = [&] {
        const QPoint origin = view->mapTo(&panel, QPoint(0, 0));
        return panel.screen()
            ->grabWindow(panel.winId(), origin.x(), origin.y(), view->width(), view->height())
            .toImage()
            .convertToFormat(QImage::Format_RGB32);
    };
    const auto paintedTable = [&] { return view->grab().toImage().convertToFormat(QImage::Format_RGB32); };
    QTRY_VERIFY(shownTable() == paintedTable());
    // The row under the banner's height is where the view says it is, in both images.
    const QRect row = view->visualRect(view->model()->index(12, 0));
    QVERIFY(view->viewport()->rect().contains(row.center()));

    panel.setStale(false);
    QCOMPARE(changed.data(Qt::ForegroundRole).value<QColor>(), amber);
    QTRY_VERIFY(shownTable() == paintedTable());
}

void TestResultsPanel::selectionMapsToSourceRow()
{
    QStandardItemModel model;
    fill(model);
    ResultsPanel panel;
    panel.setModel(&model);
    panel.setChangesOnly(true);
    QSignalSpy selected(&panel, &ResultsPanel::resourceSelected);
    // The second visible row, exec#x, is the fourth of the model.
    panel.view()->setCurrentIndex(panel.view()->model()->index(1, 0));
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.last().at(0).toInt(), 3);
    QVERIFY(panel.diffView());
}

CCM_TEST_MAIN(TestResultsPanel)
#include "tst_results_panel.moc"
