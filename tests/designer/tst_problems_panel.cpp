// SPDX-License-Identifier: Apache-2.0
#include "designer/core/problems_model.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer_test_support.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QPixmap>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using ccm::designer::ProblemsModel;
using ccm::designer::ProblemsPanel;
using ccm::test::diagnostic;

Q_DECLARE_METATYPE(ccm::Diagnostic)

namespace {

ccm::Diagnostics sampleDiagnostics()
{
    return {diagnostic(ccm::Severity::Warning, "unused data", 9, 3, "/data/x"),
        diagnostic(ccm::Severity::Error, "unknown property", 4, 5, "/ccm/resources/0/package/0/nginx/bogus"),
        diagnostic(ccm::Severity::Error, "not a list", 2, 1, "/hierarchy/order"),
        diagnostic(ccm::Severity::Info, "note", 0, 0)};
}

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data().toString());
    return values;
}

} // namespace

class TestProblemsPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<ccm::Diagnostic>(); }
    void modelPassesTester();
    void modelShowsColumns();
    void readablePaths_data();
    void readablePaths();
    void summary_data();
    void summary();
    void filterBySeverity();
    void filterFromCombo();
    void sortsByColumn();
    void doubleClickActivates();
    void panelShowsSeverityIcons();
    void enterActivates();
    void selectionSurvivesUpdate();
};

void TestProblemsPanel::modelPassesTester()
{
    ProblemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDiagnostics(sampleDiagnostics(), QStringLiteral("site.yaml"));
    model.setDiagnostics({}, QString());
    model.setDiagnostics(sampleDiagnostics(), QStringLiteral("other.yaml"));
    QCOMPARE(model.rowCount(), 4);
}

void TestProblemsPanel::readablePaths_data()
{
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("readable");
    QTest::newRow("property") << QStringLiteral("/ccm/resources/0/file/1/~1srv~1www/mode")
                              << QStringLiteral("file /srv/www › mode");
    QTest::newRow("resource") << QStringLiteral("/ccm/resources/0/file/1/~1srv~1www")
                              << QStringLiteral("file /srv/www");
    QTest::newRow("nested") << QStringLiteral("/ccm/resources/2/service/0/nginx/health_checks/0/tries")
                            << QStringLiteral("service nginx › health_checks › item 1 › tries");
    QTest::newRow("list item") << QStringLiteral("/ccm/resources/1/exec/3/run/require/1")
                               << QStringLiteral("exec run › require › item 2");
    QTest::newRow("defaults") << QStringLiteral("/ccm/resources/0/file/0/defaults/owner")
                              << QStringLiteral("file defaults › owner");
    QTest::newRow("escaped tilde") << QStringLiteral("/ccm/resources/0/file/0/~1home~1~0me/content")
                                   << QStringLiteral("file /home/~me › content");
    QTest::newRow("entry without body") << QStringLiteral("/ccm/resources/0/package/2")
                                        << QStringLiteral("package item 3");
    QTest::newRow("block") << QStringLiteral("/ccm/resources/0/file") << QStringLiteral("file block");
    QTest::newRow("manifest setting") << QStringLiteral("/ccm/pre_message") << QStringLiteral("ccm › pre_message");
    QTest::newRow("data") << QStringLiteral("/data/web/listen") << QStringLiteral("data › web › listen");
    QTest::newRow("hierarchy") << QStringLiteral("/hierarchy/order/0") << QStringLiteral("hierarchy › order › item 1");
    QTest::newRow("override") << QStringLiteral("/overrides/family.debian/port")
                              << QStringLiteral("overrides › family.debian › port");
    QTest::newRow("whole manifest") << QString() << QString();
}

void TestProblemsPanel::readablePaths()
{
    QFETCH(QString, pointer);
    QFETCH(QString, readable);
    QCOMPARE(ccm::designer::readablePath(pointer.toStdString()), readable);
}

void TestProblemsPanel::modelShowsColumns()
{
    ProblemsModel model;
    model.setDiagnostics(sampleDiagnostics(), QStringLiteral("site.yaml"));
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.index(0, ProblemsModel::SeverityColumn).data().toString(), QStringLiteral("Warning"));
    QCOMPARE(model.index(1, ProblemsModel::MessageColumn).data().toString(), QStringLiteral("unknown property"));
    QCOMPARE(model.index(1, ProblemsModel::LocationColumn).data().toString(), QStringLiteral("site.yaml:4:5"));
    QCOMPARE(model.index(3, ProblemsModel::LocationColumn).data().toString(), QStringLiteral("site.yaml"));
    QCOMPARE(model.index(2, ProblemsModel::PathColumn).data().toString(), QStringLiteral("hierarchy › order"));
    QCOMPARE(model.index(1, ProblemsModel::PathColumn).data().toString(), QStringLiteral("package nginx › bogus"));
    QCOMPARE(model.index(1, ProblemsModel::PathColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("JSON Pointer: /ccm/resources/0/package/0/nginx/bogus"));
    QCOMPARE(model.index(3, ProblemsModel::PathColumn).data().toString(), QString());
    QVERIFY(model.index(1, ProblemsModel::SeverityColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const auto filled = [](Qt::GlobalColor color) {
        QPixmap pixmap(8, 8);
        pixmap.fill(color);
        return QIcon(pixmap);
    };
    const QIcon error = filled(Qt::red);
    const QIcon warning = filled(Qt::yellow);
    model.setSeverityIcons(error, warning, filled(Qt::blue));
    QCOMPARE(changed.count(), 1);
    const auto iconKey = [&](int row) {
        return model.index(row, ProblemsModel::SeverityColumn).data(Qt::DecorationRole).value<QIcon>().cacheKey();
    };
    QCOMPARE(iconKey(0), warning.cacheKey());
    QCOMPARE(iconKey(1), error.cacheKey());
    QCOMPARE(model.headerData(ProblemsModel::LocationColumn, Qt::Horizontal).toString(), QStringLiteral("Location"));
}

void TestProblemsPanel::summary_data()
{
    QTest::addColumn<ccm::Diagnostics>("diagnostics");
    QTest::addColumn<QString>("expected");
    QTest::newRow("none") << ccm::Diagnostics {} << QStringLiteral("No problems");
    QTest::newRow("sample") << sampleDiagnostics() << QStringLiteral("2 errors, 1 warning, 1 note");
    QTest::newRow("one error") << ccm::Diagnostics {diagnostic(ccm::Severity::Error, "x", 1, 1)}
                               << QStringLiteral("1 error");
    QTest::newRow("warnings") << ccm::Diagnostics {diagnostic(ccm::Severity::Warning, "x", 1, 1),
        diagnostic(ccm::Severity::Warning, "y", 2, 1)}
                              << QStringLiteral("2 warnings");
    QTest::newRow("notes") << ccm::Diagnostics {diagnostic(ccm::Severity::Info, "x", 1, 1),
        diagnostic(ccm::Severity::Info, "y", 2, 1)}
                           << QStringLiteral("2 notes");
}

void TestProblemsPanel::summary()
{
    QFETCH(ccm::Diagnostics, diagnostics);
    QFETCH(QString, expected);
    ProblemsPanel panel;
    panel.setDiagnostics({diagnostic(ccm::Severity::Error, "a", 1, 1), diagnostic(ccm::Severity::Error, "b", 1, 1),
                             diagnostic(ccm::Severity::Error, "c", 1, 1)},
        QString());
    QSignalSpy spy(&panel, &ProblemsPanel::summaryChanged);
    panel.setDiagnostics(diagnostics, QStringLiteral("m.yaml"));
    QCOMPARE(panel.summaryText(), expected);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), expected);
    panel.setDiagnostics(diagnostics, QStringLiteral("m.yaml"));
    QCOMPARE(spy.count(), 1);
}

void TestProblemsPanel::panelShowsSeverityIcons()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    const QAbstractItemModel *model = panel.problemsModel();
    for (int row = 0; row < model->rowCount(); ++row)
        QVERIFY(!model->index(row, ProblemsModel::SeverityColumn).data(Qt::DecorationRole).value<QIcon>().isNull());
}

void TestProblemsPanel::filterBySeverity()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    QAbstractItemModel *view = panel.view()->model();
    QCOMPARE(view->rowCount(), 4);
    panel.setFilter(ProblemsPanel::Filter::Errors);
    QCOMPARE(view->rowCount(), 2);
    for (const QString &severity : column(*view, ProblemsModel::SeverityColumn))
        QCOMPARE(severity, QStringLiteral("Error"));
    panel.setFilter(ProblemsPanel::Filter::Warnings);
    QCOMPARE(column(*view, ProblemsModel::MessageColumn), QStringList({QStringLiteral("unused data")}));
    panel.setFilter(ProblemsPanel::Filter::All);
    QCOMPARE(view->rowCount(), 4);
    QCOMPARE(panel.summaryText(), QStringLiteral("2 errors, 1 warning, 1 note"));
}

void TestProblemsPanel::filterFromCombo()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    auto *combo = panel.findChild<QComboBox *>();
    QVERIFY(combo);
    combo->setCurrentIndex(combo->findText(QStringLiteral("Errors")));
    QCOMPARE(panel.filter(), ProblemsPanel::Filter::Errors);
    QCOMPARE(panel.view()->model()->rowCount(), 2);
    panel.setFilter(ProblemsPanel::Filter::Warnings);
    QCOMPARE(combo->currentText(), QStringLiteral("Warnings"));
}

void TestProblemsPanel::sortsByColumn()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    QAbstractItemModel *view = panel.view()->model();
    QCOMPARE(column(*view, ProblemsModel::LocationColumn),
        QStringList({QStringLiteral("m.yaml"), QStringLiteral("m.yaml:2:1"), QStringLiteral("m.yaml:4:5"),
            QStringLiteral("m.yaml:9:3")}));
    panel.view()->sortByColumn(ProblemsModel::SeverityColumn, Qt::DescendingOrder);
    QCOMPARE(column(*view, ProblemsModel::SeverityColumn).first(), QStringLiteral("Error"));
    QCOMPARE(column(*view, ProblemsModel::SeverityColumn).last(), QStringLiteral("Note"));
    panel.view()->sortByColumn(ProblemsModel::MessageColumn, Qt::AscendingOrder);
    QCOMPARE(column(*view, ProblemsModel::MessageColumn).first(), QStringLiteral("not a list"));
}

void TestProblemsPanel::doubleClickActivates()
{
    ProblemsPanel panel;
    panel.resize(600, 300);
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &ProblemsPanel::problemActivated);
    QTreeView *view = panel.view();
    const QModelIndex second = view->model()->index(1, ProblemsModel::MessageColumn);
    const QPoint centre = view->visualRect(second).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, centre);
    QCOMPARE(spy.count(), 1);
    const auto activated = spy.at(0).at(0).value<ccm::Diagnostic>();
    QCOMPARE(activated.message, std::string("not a list"));
    QCOMPARE(activated.position.line, 2);
}

void TestProblemsPanel::enterActivates()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    panel.setFilter(ProblemsPanel::Filter::Warnings);
    QSignalSpy spy(&panel, &ProblemsPanel::problemActivated);
    QTreeView *view = panel.view();
    QTest::keyClick(view, Qt::Key_Return);
    QCOMPARE(spy.count(), 0);
    view->setCurrentIndex(view->model()->index(0, 0));
    QTest::keyClick(view, Qt::Key_Return);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<ccm::Diagnostic>().message, std::string("unused data"));
}

void TestProblemsPanel::selectionSurvivesUpdate()
{
    ProblemsPanel panel;
    panel.setDiagnostics(sampleDiagnostics(), QStringLiteral("m.yaml"));
    QTreeView *view = panel.view();
    view->setCurrentIndex(view->model()->index(2, 0));
    const QString selected = view->currentIndex().siblingAtColumn(ProblemsModel::MessageColumn).data().toString();
    QCOMPARE(selected, QStringLiteral("unknown property"));

    ccm::Diagnostics updated = sampleDiagnostics();
    updated.insert(updated.begin(), diagnostic(ccm::Severity::Error, "new", 1, 1));
    panel.setDiagnostics(updated, QStringLiteral("m.yaml"));
    QCOMPARE(view->currentIndex().siblingAtColumn(ProblemsModel::MessageColumn).data().toString(), selected);

    panel.setDiagnostics({diagnostic(ccm::Severity::Error, "other", 1, 1)}, QStringLiteral("m.yaml"));
    QVERIFY(!view->currentIndex().isValid());
}

CCM_TEST_MAIN(TestProblemsPanel)
#include "tst_problems_panel.moc"
