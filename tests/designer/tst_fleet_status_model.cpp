// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_status_model.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QTest>

using ccm::Json;
using ccm::designer::FleetStatusModel;
using ccm::test::s;

namespace {

/// A fleet.status result as the contract has it.
Json statusResult()
{
    const auto entry = [](const char *identity, qint64 age, bool stale, int changed, int failed) {
        return Json {{"identity", identity}, {"time", "2026-11-24T10:00:00Z"}, {"age_seconds", age}, {"stale", stale},
            {"summary", {{"total", 10}, {"changed", changed}, {"failed", failed}, {"stable", 10 - changed - failed}}},
            {"failed_resources", failed > 0 ? Json::array({"exec#migrate"}) : Json::array()}, {"runs", Json::array()}};
    };
    return Json {{"hosts",
        Json::array({entry("db1.example.net", 90, false, 1, 1), entry("web1.example.net", 7200, true, 0, 0),
            Json {{"time", "no identity"}}, Json("not an object")})}};
}

} // namespace

class TestFleetStatusModel : public QObject {
    Q_OBJECT

private slots:
    void rowsFromStatus_data();
    void rowsFromStatus();
    void staleHostsAreMarked();
    void relativeAge_data();
    void relativeAge();
    void emptyAndMalformedResults();
};

void TestFleetStatusModel::rowsFromStatus_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("lastRun");
    QTest::addColumn<int>("changed");
    QTest::addColumn<int>("failed");
    QTest::addColumn<int>("total");

    QTest::newRow("fresh") << 0 << s("db1.example.net") << s("1 min ago") << 1 << 1 << 10;
    QTest::newRow("stale") << 1 << s("⚠ web1.example.net") << s("2 h ago (stale)") << 0 << 0 << 10;
}

void TestFleetStatusModel::rowsFromStatus()
{
    QFETCH(int, row);
    FleetStatusModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setStatus(statusResult());
    QCOMPARE(model.rowCount(), 2);
    QTEST(model.index(row, FleetStatusModel::HostColumn).data().toString(), "host");
    QTEST(model.index(row, FleetStatusModel::LastRunColumn).data().toString(), "lastRun");
    QTEST(model.index(row, FleetStatusModel::ChangedColumn).data().toInt(), "changed");
    QTEST(model.index(row, FleetStatusModel::FailedColumn).data().toInt(), "failed");
    QTEST(model.index(row, FleetStatusModel::TotalColumn).data().toInt(), "total");
}

void TestFleetStatusModel::staleHostsAreMarked()
{
    FleetStatusModel model;
    model.setStatus(statusResult());
    QCOMPARE(model.staleCount(), 1);
    QVERIFY(!model.index(0, 0).data(FleetStatusModel::StaleRole).toBool());
    QVERIFY(model.index(1, 0).data(FleetStatusModel::StaleRole).toBool());
    QVERIFY(model.index(1, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(!model.index(0, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.index(1, 1).data(Qt::ToolTipRole).toString().contains(s("Check that the agent runs")));
    QVERIFY(model.index(0, 1).data(Qt::ToolTipRole).toString().contains(s("exec#migrate")));
}

void TestFleetStatusModel::relativeAge_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("seconds") << qint64(5) << s("just now");
    QTest::newRow("minutes") << qint64(61) << s("1 min ago");
    QTest::newRow("hours") << qint64(3 * 3600 + 5) << s("3 h ago");
    QTest::newRow("days") << qint64(2 * 86400) << s("2 d ago");
}

void TestFleetStatusModel::relativeAge()
{
    QFETCH(qint64, seconds);
    QTEST(FleetStatusModel::relativeAge(seconds), "text");
}

void TestFleetStatusModel::emptyAndMalformedResults()
{
    FleetStatusModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setStatus(statusResult());
    for (const Json &result : {Json(), Json::array(), Json {{"hosts", 5}}, Json {{"hosts", Json::array()}}}) {
        model.setStatus(result);
        QCOMPARE(model.rowCount(), 0);
    }
}

CCM_TEST_GUILESS_MAIN(TestFleetStatusModel)
#include "tst_fleet_status_model.moc"
