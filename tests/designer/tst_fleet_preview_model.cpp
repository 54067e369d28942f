// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_preview_model.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <map>

using ccm::Json;
using ccm::designer::FleetChange;
using ccm::designer::FleetComparison;
using ccm::designer::FleetHostState;
using ccm::designer::FleetPreviewFilter;
using ccm::designer::FleetPreviewModel;
using ccm::designer::Outcome;

namespace {

Json report(const std::string &identity, const std::string &resource, const char *outcome)
{
    Json value {{"resource", resource}, {"type", resource.substr(0, resource.find('#'))}, {"changed", false},
        {"failed", false}, {"skipped", false}, {"refreshed", false}, {"noop", true},
        {"unmet_requirements", Json::array()}, {"error", Json::array()}};
    if (std::string(outcome) != "stable")
        value[outcome] = true;
    if (std::string(outcome) == "changed" && resource.starts_with("file#"))
        value["diff"] = "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n";
    return Json {{"request", "r1"}, {"identity", identity}, {"event", value}};
}

Json host(const std::string &identity, const char *state)
{
    return Json {{"request", "r1"}, {"identity", identity}, {"state", state}};
}

/// A fleet.host "done" of a host that compared: `classes` maps resources to their class.
Json comparedHost(const std::string &identity, const Json &classes)
{
    Json params = host(identity, "done");
    params["compare"] = Json {{"state", "compared"}, {"source", "obj://SITE/site"}, {"digest", "SHA-256=x"}};
    params["classes"] = classes;
    return params;
}

/// Three hosts: a with drift on file#/x and an intended exec#y, b with an intended file#/x, c
/// with nothing changing.
void feedDrift(FleetPreviewModel &model)
{
    model.addEventReport(report("a", "file#/x", "changed"));
    model.addEventReport(report("a", "exec#y", "changed"));
    model.addEventReport(report("a", "exec#z", "stable"));
    model.addHostReport(comparedHost("a", {{"file#/x", "drift"}, {"exec#y", "intended"}}));
    model.addEventReport(report("b", "file#/x", "changed"));
    model.addEventReport(report("b", "exec#z", "stable"));
    model.addHostReport(comparedHost("b", {{"file#/x", "intended"}}));
    model.addEventReport(report("c", "exec#z", "stable"));
    model.addHostReport(comparedHost("c", Json::object()));
    model.flush();
}

/// One recorded notification: "h" (fleet.host) or "e" (fleet.event) with its params.
using Feed = std::vector<std::pair<char, Json>>;
using ccm::test::s;

void feed(FleetPreviewModel &model, const Feed &messages)
{
    for (const auto &[kind, params] : messages) {
        if (kind == 'h')
            model.addHostReport(params);
        else
            model.addEventReport(params);
    }
}

Json result(const std::vector<std::pair<std::string, const char *>> &hosts)
{
    Json list = Json::array();
    for (const auto &[identity, state] : hosts)
        list.push_back(Json {{"identity", identity}, {"state", state}});
    return Json {{"request", "r1"}, {"hosts", list}, {"totals", Json::object()}};
}

/// A fleet.host "done" in preview answer format 2: `stable` names the resources it sent no event for.
Json doneWithStable(const std::string &identity, const Json &stable, const Json &classes = Json())
{
    Json params = classes.is_null() ? host(identity, "done") : comparedHost(identity, classes);
    params["stable"] = stable;
    return params;
}

/// One preview of three hosts over four resources, delivered as answer format 1 (an event per
/// resource) or 2 (events for what is not stable, the stable ones named in the done). web1
/// compared: drift on file#/a, an intended exec#b; web2 fails pkg#c and skips svc#d; web3 changes
/// nothing; db1 declines.
Feed bothFormats(int format)
{
    struct Cell {
        const char *host;
        const char *resource;
        const char *outcome;
    };
    const std::vector<Cell> cells {{"web1", "file#/a", "changed"}, {"web1", "exec#b", "changed"},
        {"web1", "pkg#c", "stable"}, {"web1", "svc#d", "stable"}, {"web2", "file#/a", "stable"},
        {"web2", "exec#b", "stable"}, {"web2", "pkg#c", "failed"}, {"web2", "svc#d", "skipped"},
        {"web3", "file#/a", "stable"}, {"web3", "exec#b", "stable"}, {"web3", "pkg#c", "stable"},
        {"web3", "svc#d", "stable"}};
    const std::map<std::string, Json> classes {{"web1", {{"file#/a", "drift"}, {"exec#b", "intended"}}},
        {"web2", {{"pkg#c", "failed"}}}, {"web3", Json::object()}};
    Feed messages;
    for (const char *identity : {"web1", "web2", "web3"})
        messages.emplace_back('h', host(identity, "accepted"));
    messages.emplace_back('h', host("db1", "declined"));
    for (const char *identity : {"web1", "web2", "web3"}) {
        Json stable = Json::array();
        for (const Cell &cell : cells) {
            if (cell.host != std::string(identity))
                continue;
            if (format == 2 && cell.outcome == std::string("stable"))
                stable.push_back(cell.resource);
            else
                messages.emplace_back('e', report(identity, cell.resource, cell.outcome));
        }
        messages.emplace_back('h',
            format == 2 ? doneWithStable(identity, stable, classes.at(identity))
                        : comparedHost(identity, classes.at(identity)));
    }
    return messages;
}

/// Everything a view, a filter or the summary line reads of `model`, cells by host and resource
/// name (so independent of the order the columns came in).
QStringList describe(const FleetPreviewModel &model)
{
    QStringList lines {QStringLiteral("totals %1 changed, %2 failed, %3 intended, %4 drift, %5 answered, %6 "
                                      "declined, failures %7")
                           .arg(model.index(0, FleetPreviewModel::ChangedColumn).data().toInt())
                           .arg(model.index(0, FleetPreviewModel::FailedColumn).data().toInt())
                           .arg(model.intendedTotal())
                           .arg(model.driftTotal())
                           .arg(model.answeredCount())
                           .arg(model.countIn(FleetHostState::Declined))
                           .arg(model.hasFailures())};
    QStringList resources;
    for (int column = FleetPreviewModel::FirstResourceColumn; column < model.columnCount(); ++column)
        resources << model.resourceAt(column);
    resources.sort();
    for (const QString &resource : resources) {
        const QModelIndex total = model.index(0, model.columnOf(resource));
        lines << resource + QStringLiteral(": ") + total.data().toString() + QLatin1Char(' ')
                + total.data(Qt::ToolTipRole).toString();
    }
    for (int row = 1; row < model.rowCount(); ++row) {
        for (int column = 0; column < FleetPreviewModel::FirstResourceColumn; ++column)
            lines << model.index(row, column).data().toString() + QLatin1Char(' ')
                    + model.index(row, column).data(Qt::ToolTipRole).toString();
        for (const QString &resource : resources) {
            const QModelIndex cell = model.index(row, model.columnOf(resource));
            lines << QStringLiteral("%1 %2: %3 %4 %5 %6 [%7] %8")
                         .arg(model.identityAt(row), resource)
                         .arg(model.outcomeAt(row, cell.column()))
                         .arg(model.changeAt(row, cell.column()))
                         .arg(cell.data().toString(), cell.data(FleetPreviewModel::TileColourRole).toString())
                         .arg(model.messageAt(row, cell.column()), cell.data(Qt::ToolTipRole).toString());
        }
    }
    return lines;
}

/// The rows and the resource columns (sorted) `filter` shows.
QStringList shown(const FleetPreviewFilter &filter)
{
    QStringList rows;
    for (int row = 1; row < filter.rowCount(); ++row)
        rows << filter.index(row, FleetPreviewModel::HostColumn).data().toString();
    QStringList columns;
    for (int column = FleetPreviewModel::FirstResourceColumn; column < filter.columnCount(); ++column)
        columns << filter.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    columns.sort();
    return rows + QStringList {QStringLiteral("|")} + columns;
}

} // namespace

class TestFleetPreviewModel : public QObject {
    Q_OBJECT

private slots:
    void matrix_data();
    void matrix();
    void filters_data();
    void filters();
    void eventOfACell();
    void stateColumn_data();
    void stateColumn();
    void thousandHostsWithoutResets();
    void driftStandsApartFromIntent();
    void driftAndIntendedFilters_data();
    void driftAndIntendedFilters();
    void aHostWithoutACurrentBundleSaysSo();
    void aDoneFillsItsStableCells();
    void bothAnswerFormatsShowTheSame();
    void malformedStableListsAreSkipped_data();
    void malformedStableListsAreSkipped();
};

void TestFleetPreviewModel::matrix_data()
{
    QTest::addColumn<Feed>("messages");
    QTest::addColumn<Json>("finalResult");
    QTest::addColumn<QStringList>("hosts");
    QTest::addColumn<QStringList>("resources");
    QTest::addColumn<QList<int>>("states");
    QTest::addColumn<int>("changedTotal");
    QTest::addColumn<int>("failedTotal");
    QTest::addColumn<int>("answered");
    QTest::addColumn<int>("silent");

    QTest::newRow("two hosts in order") << Feed {{'h', host("a", "accepted")}, {'e', report("a", "file#/x", "changed")},
        {'e', report("a", "exec#y", "stable")}, {'h', host("a", "done")}, {'h', host("b", "accepted")},
        {'e', report("b", "file#/x", "stable")}, {'e', report("b", "exec#y", "failed")}, {'h', host("b", "done")}}
                                        << result({{"a", "done"}, {"b", "done"}}) << QStringList {s("a"), s("b")}
                                        << QStringList {s("file#/x"), s("exec#y")}
                                        << QList<int> {int(FleetHostState::Done), int(FleetHostState::Done)} << 1 << 1
                                        << 2 << 0;
    QTest::newRow("resource only one host has is appended")
        << Feed {{'e', report("a", "file#/x", "stable")}, {'e', report("b", "file#/x", "stable")},
               {'e', report("b", "package#zsh", "changed")}, {'e', report("a", "package#zsh", "changed")}}
        << result({{"a", "done"}, {"b", "done"}}) << QStringList {s("a"), s("b")}
        << QStringList {s("file#/x"), s("package#zsh")}
        << QList<int> {int(FleetHostState::Done), int(FleetHostState::Done)} << 2 << 0 << 2 << 0;
    QTest::newRow("silent, declined and failed hosts")
        << Feed {{'h', host("a", "accepted")}, {'h', host("c", "declined")}, {'e', report("a", "exec#y", "skipped")}}
        << result({{"a", "silent"}, {"b", "silent"}, {"c", "declined"}, {"d", "failed"}})
        << QStringList {s("a"), s("c"), s("b"), s("d")} << QStringList {s("exec#y")}
        << QList<int> {int(FleetHostState::Silent), int(FleetHostState::Declined), int(FleetHostState::Silent),
               int(FleetHostState::Failed)}
        << 0 << 0 << 2 << 2;
    QTest::newRow("events before the host report and after done")
        << Feed {{'e', report("a", "exec#y", "changed")}, {'h', host("a", "done")}, {'h', host("a", "running")},
               {'e', report("a", "exec#y", "failed")}}
        << Json() << QStringList {s("a")} << QStringList {s("exec#y")} << QList<int> {int(FleetHostState::Done)} << 0
        << 1 << 1 << 0;
    QTest::newRow("malformed notifications are skipped")
        << Feed {{'e', Json::array()}, {'e', Json {{"identity", "a"}}}, {'h', Json {{"identity", "a"}, {"state", 3}}},
               {'h', host("", "done")}, {'e', report("a", "exec#y", "stable")}}
        << Json("nonsense") << QStringList {s("a")} << QStringList {s("exec#y")}
        << QList<int> {int(FleetHostState::Running)} << 0 << 0 << 0 << 0;
}

void TestFleetPreviewModel::matrix()
{
    QFETCH(Feed, messages);
    QFETCH(Json, finalResult);
    QFETCH(QStringList, hosts);
    QFETCH(QStringList, resources);
    QFETCH(QList<int>, states);

    FleetPreviewModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    feed(model, messages);
    model.setResult(finalResult);
    model.flush();

    QCOMPARE(model.rowCount(), 1 + hosts.size());
    QCOMPARE(model.columnCount(), FleetPreviewModel::FirstResourceColumn + resources.size());
    for (int i = 0; i < hosts.size(); ++i) {
        QCOMPARE(model.identityAt(1 + i), hosts[i]);
        QCOMPARE(int(model.stateAt(1 + i)), states[i]);
    }
    for (int i = 0; i < resources.size(); ++i)
        QCOMPARE(model.resourceAt(FleetPreviewModel::FirstResourceColumn + i), resources[i]);
    QTEST(model.index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::ChangedColumn).data().toInt(), "changedTotal");
    QTEST(model.index(FleetPreviewModel::kTotalsRow, FleetPreviewModel::FailedColumn).data().toInt(), "failedTotal");
    QTEST(model.answeredCount(), "answered");
    QTEST(model.countIn(FleetHostState::Silent), "silent");
}

void TestFleetPreviewModel::filters_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("hostFilter");
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QStringList>("columns");

    const QStringList all {s("a"), s("b"), s("c")};
    QTest::newRow("all") << int(FleetPreviewFilter::Mode::All) << QString() << all
                         << QStringList {s("file#/x"), s("exec#y"), s("exec#z")};
    QTest::newRow("changes only") << int(FleetPreviewFilter::Mode::ChangesOnly) << QString()
                                  << QStringList {s("a"), s("b")} << QStringList {s("file#/x"), s("exec#y")};
    QTest::newRow("failures only") << int(FleetPreviewFilter::Mode::FailuresOnly) << QString() << QStringList {s("b")}
                                   << QStringList {s("exec#y")};
    QTest::newRow("one host") << int(FleetPreviewFilter::Mode::All) << s("c") << QStringList {s("c")}
                              << QStringList {s("file#/x"), s("exec#y"), s("exec#z")};
    QTest::newRow("one host, changes only") << int(FleetPreviewFilter::Mode::ChangesOnly) << s("c") << QStringList {}
                                            << QStringList {s("file#/x"), s("exec#y")};
}

void TestFleetPreviewModel::filters()
{
    QFETCH(int, mode);
    QFETCH(QString, hostFilter);
    QFETCH(QStringList, rows);
    QFETCH(QStringList, columns);

    FleetPreviewModel model;
    feed(model,
        {{'e', report("a", "file#/x", "changed")}, {'e', report("a", "exec#y", "stable")},
            {'e', report("a", "exec#z", "stable")}, {'e', report("b", "file#/x", "stable")},
            {'e', report("b", "exec#y", "failed")}, {'e', report("c", "file#/x", "stable")},
            {'e', report("c", "exec#z", "skipped")}});
    model.flush();
    FleetPreviewFilter filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    filter.setMode(FleetPreviewFilter::Mode(mode));
    filter.setHost(hostFilter);

    QStringList shownRows;
    for (int row = 1; row < filter.rowCount(); ++row)
        shownRows << filter.index(row, FleetPreviewModel::HostColumn).data().toString();
    QStringList shownColumns;
    for (int column = FleetPreviewModel::FirstResourceColumn; column < filter.columnCount(); ++column)
        shownColumns << filter.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    QCOMPARE(filter.index(0, FleetPreviewModel::HostColumn).data(FleetPreviewModel::TotalsRole).toBool(), true);
    QCOMPARE(shownRows, rows);
    QCOMPARE(shownColumns, columns);
}

void TestFleetPreviewModel::eventOfACell()
{
    FleetPreviewModel model;
    feed(model, {{'e', report("a", "file#/x", "changed")}, {'e', report("a", "exec#y", "stable")}});
    QCOMPARE(model.rowCount(), 1);
    QSignalSpy updated(&model, &FleetPreviewModel::updated);
    QVERIFY(updated.wait());
    const int row = model.rowOf(s("a"));
    QCOMPARE(row, 1);
    const Json changed = model.eventAt(row, model.columnOf(s("file#/x")));
    QCOMPARE(changed.value("diff", ""), "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n");
    QCOMPARE(model.outcomeAt(row, model.columnOf(s("file#/x"))), int(Outcome::Changed));
    QVERIFY(model.eventAt(row, model.columnOf(s("exec#y"))).is_null());
    QCOMPARE(model.outcomeAt(row, model.columnOf(s("exec#y"))), int(Outcome::Stable));
    QVERIFY(model.eventAt(row, 99).is_null());
    QVERIFY(model.eventAt(7, FleetPreviewModel::FirstResourceColumn).is_null());
}

void TestFleetPreviewModel::stateColumn_data()
{
    QTest::addColumn<Feed>("messages");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("toolTip");

    Json running = host("a", "running");
    running.update(Json {{"done", 3}, {"total", 10}, {"current", "exec#y"}});
    Json declined = host("a", "declined");
    declined["message"] = "the selector failed: unknown fact host.nope";
    QTest::newRow("accepted") << Feed {{'h', host("a", "accepted")}} << s("accepted") << QString();
    QTest::newRow("running with progress") << Feed {{'h', running}} << s("running 3/10") << QString();
    QTest::newRow("running by its first event")
        << Feed {{'e', report("a", "exec#y", "stable")}} << s("running") << QString();
    QTest::newRow("declined with the reason")
        << Feed {{'h', declined}} << s("declined") << s("the selector failed: unknown fact host.nope");
    QTest::newRow("done stays done") << Feed {{'h', host("a", "done")}, {'h', running}} << s("done") << QString();
}

void TestFleetPreviewModel::stateColumn()
{
    QFETCH(Feed, messages);
    FleetPreviewModel model;
    feed(model, messages);
    model.flush();
    const QModelIndex state = model.index(1, FleetPreviewModel::StateColumn);
    QTEST(state.data().toString(), "state");
    QTEST(state.data(Qt::ToolTipRole).toString(), "toolTip");
}

void TestFleetPreviewModel::thousandHostsWithoutResets()
{
    constexpr int kHosts = 1000;
    constexpr int kResources = 100;
    constexpr int kFlushEvery = 5000;
    std::vector<std::string> resources;
    for (int r = 0; r < kResources; ++r)
        resources.push_back("exec#step-" + std::to_string(r));

    FleetPreviewModel model;
    QSignalSpy resets(&model, &FleetPreviewModel::modelReset);
    QSignalSpy rowInserts(&model, &FleetPreviewModel::rowsInserted);
    QSignalSpy columnInserts(&model, &FleetPreviewModel::columnsInserted);
    int messages = 0;
    for (int h = 0; h < kHosts; ++h) {
        const std::string identity = "host-" + std::to_string(h) + ".example.net";
        model.addHostReport(host(identity, "accepted"));
        for (int r = 0; r < kResources; ++r) {
            model.addEventReport(report(identity, resources[size_t(r)], r == h % kResources ? "changed" : "stable"));
            if (++messages % kFlushEvery == 0)
                model.flush();
        }
        model.addHostReport(host(identity, "done"));
    }
    model.flush();

    QCOMPARE(resets.size(), 0);
    QCOMPARE(model.rowCount(), 1 + kHosts);
    QCOMPARE(model.columnCount(), FleetPreviewModel::FirstResourceColumn + kResources);
    QVERIFY(rowInserts.size() <= kHosts * kResources / kFlushEvery + 1);
    QCOMPARE(columnInserts.size(), 1);
    QCOMPARE(model.index(0, FleetPreviewModel::ChangedColumn).data().toInt(), kHosts);
    QCOMPARE(model.index(0, FleetPreviewModel::FirstResourceColumn).data(FleetPreviewModel::ChangedCountRole).toInt(),
        kHosts / kResources);
    QCOMPARE(model.answeredCount(), kHosts);
}

void TestFleetPreviewModel::driftStandsApartFromIntent()
{
    FleetPreviewModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    feedDrift(model);
    const int a = model.rowOf(s("a"));
    const int x = model.columnOf(s("file#/x"));
    const int y = model.columnOf(s("exec#y"));
    const int z = model.columnOf(s("exec#z"));
    QCOMPARE(model.changeAt(a, x), int(FleetChange::Drift));
    QCOMPARE(model.changeAt(a, y), int(FleetChange::Intended));
    QCOMPARE(model.changeAt(a, z), int(FleetChange::Unchanged));
    QCOMPARE(model.changeAt(model.rowOf(s("b")), x), int(FleetChange::Intended));
    QCOMPARE(model.changeAt(model.rowOf(s("c")), x), -1); // no event there
    QCOMPARE(model.comparisonAt(a), FleetComparison::Compared);

    // Drift is painted apart from intended changes, with its own symbol; intended keeps the
    // colour of a change.
    const QColor drift = model.index(a, x).data(FleetPreviewModel::TileColourRole).value<QColor>();
    const QColor intended = model.index(a, y).data(FleetPreviewModel::TileColourRole).value<QColor>();
    QVERIFY(drift.isValid() && intended.isValid());
    QVERIFY(drift != intended);
    QCOMPARE(intended, FleetPreviewModel::tileColour(int(Outcome::Changed), -1));
    QCOMPARE(model.index(a, x).data().toString(), s("≈"));
    QCOMPARE(model.index(a, y).data().toString(), s("●"));
    QVERIFY2(model.index(a, x).data(Qt::ToolTipRole).toString().contains(s("drift:")),
        qPrintable(model.index(a, x).data(Qt::ToolTipRole).toString()));

    // Counts per host, per resource and over all.
    QCOMPARE(model.index(a, FleetPreviewModel::HostColumn).data(FleetPreviewModel::DriftCountRole).toInt(), 1);
    QCOMPARE(model.index(a, FleetPreviewModel::HostColumn).data(FleetPreviewModel::IntendedCountRole).toInt(), 1);
    QCOMPARE(model.index(FleetPreviewModel::kTotalsRow, x).data(FleetPreviewModel::DriftCountRole).toInt(), 1);
    QCOMPARE(model.index(FleetPreviewModel::kTotalsRow, x).data(FleetPreviewModel::IntendedCountRole).toInt(), 1);
    QCOMPARE(model.intendedTotal(), 2);
    QCOMPARE(model.driftTotal(), 1);
    QVERIFY(model.index(a, FleetPreviewModel::ChangedColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(s("1 intended, 1 drift")));

    // A second done (reports may repeat) does not count twice; clear() forgets it all.
    model.addHostReport(comparedHost("a", {{"file#/x", "drift"}}));
    model.flush();
    QCOMPARE(model.driftTotal(), 1);
    model.clear();
    QCOMPARE(model.driftTotal(), 0);
    QCOMPARE(model.intendedTotal(), 0);
}

void TestFleetPreviewModel::driftAndIntendedFilters_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QStringList>("columns");
    QTest::newRow("drift only") << int(FleetPreviewFilter::Mode::DriftOnly) << QStringList {s("a")}
                                << QStringList {s("file#/x")};
    QTest::newRow("intended only") << int(FleetPreviewFilter::Mode::IntendedOnly) << QStringList {s("a"), s("b")}
                                   << QStringList {s("file#/x"), s("exec#y")};
}

void TestFleetPreviewModel::driftAndIntendedFilters()
{
    QFETCH(int, mode);
    QFETCH(QStringList, rows);
    QFETCH(QStringList, columns);
    FleetPreviewModel model;
    feedDrift(model);
    FleetPreviewFilter filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    filter.setMode(FleetPreviewFilter::Mode(mode));
    QStringList shownRows;
    for (int row = 1; row < filter.rowCount(); ++row)
        shownRows << filter.index(row, FleetPreviewModel::HostColumn).data().toString();
    QStringList shownColumns;
    for (int column = FleetPreviewModel::FirstResourceColumn; column < filter.columnCount(); ++column)
        shownColumns << filter.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    QCOMPARE(shownRows, rows);
    QCOMPARE(shownColumns, columns);
}

void TestFleetPreviewModel::aHostWithoutACurrentBundleSaysSo()
{
    FleetPreviewModel model;
    model.addEventReport(report("web-2", "file#/x", "changed"));
    Json done = host("web-2", "done");
    done["compare"] = Json {{"state", "none"}, {"reason", "no current bundle: this agent follows no remote source"}};
    model.addHostReport(done);
    model.addEventReport(report("old-1", "file#/x", "changed"));
    model.addHostReport(host("old-1", "done")); // an agent that does not compare
    model.flush();
    const int row = model.rowOf(s("web-2"));
    QCOMPARE(model.comparisonAt(row), FleetComparison::None);
    QCOMPARE(model.index(row, FleetPreviewModel::StateColumn).data().toString(), s("done · no current bundle"));
    QCOMPARE(model.index(row, FleetPreviewModel::StateColumn).data(Qt::ToolTipRole).toString(),
        s("no current bundle: this agent follows no remote source"));
    QCOMPARE(model.comparisonNoteAt(row), s("no current bundle: this agent follows no remote source"));
    const int x = model.columnOf(s("file#/x"));
    QCOMPARE(model.changeAt(row, x), -1);
    QCOMPARE(model.index(row, x).data().toString(), s("●"));
    const int old = model.rowOf(s("old-1"));
    QCOMPARE(model.comparisonAt(old), FleetComparison::Unknown);
    QCOMPARE(model.index(old, FleetPreviewModel::StateColumn).data().toString(), s("done"));
}

void TestFleetPreviewModel::aDoneFillsItsStableCells()
{
    FleetPreviewModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addHostReport(host("a", "accepted"));
    model.addEventReport(report("a", "file#/x", "changed"));
    model.addHostReport(doneWithStable("a", {"exec#y", "package#zsh"}));
    model.addHostReport(doneWithStable("b", {"exec#y"})); // a done without an accepted first
    QSignalSpy updated(&model, &FleetPreviewModel::updated);
    QVERIFY(updated.wait());

    QCOMPARE(model.columnCount(), FleetPreviewModel::FirstResourceColumn + 3);
    const int a = model.rowOf(s("a"));
    const int b = model.rowOf(s("b"));
    QCOMPARE(model.stateAt(a), FleetHostState::Done);
    QCOMPARE(model.stateAt(b), FleetHostState::Done);
    const int x = model.columnOf(s("file#/x"));
    const int y = model.columnOf(s("exec#y"));
    const int zsh = model.columnOf(s("package#zsh"));
    QCOMPARE(model.outcomeAt(a, x), int(Outcome::Changed));
    QCOMPARE(model.outcomeAt(a, y), int(Outcome::Stable));
    QCOMPARE(model.outcomeAt(a, zsh), int(Outcome::Stable));
    QCOMPARE(model.outcomeAt(b, y), int(Outcome::Stable));
    QCOMPARE(model.outcomeAt(b, x), -1); // b named no file#/x
    // A stable cell looks and tells as one of a stable event: a tick, the stable colour, no event.
    QCOMPARE(model.index(a, y).data().toString(), s("✓"));
    QCOMPARE(model.index(a, y).data(FleetPreviewModel::TileColourRole).value<QColor>(),
        FleetPreviewModel::tileColour(int(Outcome::Stable), -1));
    QVERIFY(model.eventAt(a, y).is_null());
    QCOMPARE(model.messageAt(a, y), QString());
    QCOMPARE(model.index(a, y).data(Qt::ToolTipRole).toString(), s("exec#y on a: stable"));
    QCOMPARE(model.index(0, FleetPreviewModel::ChangedColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, y).data(FleetPreviewModel::ChangedCountRole).toInt(), 0);
    QCOMPARE(model.answeredCount(), 2);
}

void TestFleetPreviewModel::bothAnswerFormatsShowTheSame()
{
    FleetPreviewModel eventByEvent;
    FleetPreviewModel withStableLists;
    QAbstractItemModelTester tester(&withStableLists, QAbstractItemModelTester::FailureReportingMode::QtTest);
    feed(eventByEvent, bothFormats(1));
    feed(withStableLists, bothFormats(2));
    const Json finalResult = result({{"web1", "done"}, {"web2", "done"}, {"web3", "done"}, {"db1", "declined"}});
    eventByEvent.setResult(finalResult);
    withStableLists.setResult(finalResult);
    eventByEvent.flush();
    withStableLists.flush();

    const QStringList expected = describe(eventByEvent);
    QVERIFY(expected.first().startsWith(s("totals 2 changed, 1 failed, 1 intended, 1 drift, 4 answered")));
    QCOMPARE(describe(withStableLists), expected);
    for (const auto mode :
        {FleetPreviewFilter::Mode::All, FleetPreviewFilter::Mode::ChangesOnly, FleetPreviewFilter::Mode::FailuresOnly,
            FleetPreviewFilter::Mode::DriftOnly, FleetPreviewFilter::Mode::IntendedOnly}) {
        for (const QString &hostFilter : {QString(), s("web"), s("web3")}) {
            FleetPreviewFilter first;
            first.setSourceModel(&eventByEvent);
            first.setMode(mode);
            first.setHost(hostFilter);
            FleetPreviewFilter second;
            second.setSourceModel(&withStableLists);
            second.setMode(mode);
            second.setHost(hostFilter);
            QCOMPARE(shown(second), shown(first));
        }
    }
}

void TestFleetPreviewModel::malformedStableListsAreSkipped_data()
{
    QTest::addColumn<Json>("stable");
    QTest::addColumn<QStringList>("stableCells");
    QTest::newRow("not an array") << Json("exec#y") << QStringList {};
    QTest::newRow("an object") << Json {{"exec#y", true}} << QStringList {};
    QTest::newRow("null") << Json() << QStringList {};
    QTest::newRow("names that are not strings")
        << Json::array({1, nullptr, Json::object(), Json::array({"exec#y"}), "", true, "exec#z"})
        << QStringList {s("exec#z")};
    // file#/x changed and pkg#f failed by their events: the list does not make them stable.
    QTest::newRow("names the host sent events for")
        << Json::array({"file#/x", "pkg#f", "exec#y", "exec#y"}) << QStringList {s("exec#y")};
}

void TestFleetPreviewModel::malformedStableListsAreSkipped()
{
    QFETCH(Json, stable);
    QFETCH(QStringList, stableCells);
    FleetPreviewModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.addEventReport(report("a", "file#/x", "changed"));
    model.addEventReport(report("a", "pkg#f", "failed"));
    model.addHostReport(doneWithStable("a", stable));
    Json running = host("b", "running");
    running["stable"] = Json::array({"exec#y"}); // only a done names stable resources
    model.addHostReport(running);
    model.flush();

    const int a = model.rowOf(s("a"));
    QCOMPARE(model.stateAt(a), FleetHostState::Done);
    QCOMPARE(model.outcomeAt(a, model.columnOf(s("file#/x"))), int(Outcome::Changed));
    QCOMPARE(model.outcomeAt(a, model.columnOf(s("pkg#f"))), int(Outcome::Failed));
    QCOMPARE(
        model.eventAt(a, model.columnOf(s("file#/x"))).value("diff", ""), "--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n");
    QStringList stableShown;
    for (int column = FleetPreviewModel::FirstResourceColumn; column < model.columnCount(); ++column)
        if (model.outcomeAt(a, column) == int(Outcome::Stable))
            stableShown << model.resourceAt(column);
    QCOMPARE(stableShown, stableCells);
    QCOMPARE(model.columnCount(), FleetPreviewModel::FirstResourceColumn + 2 + stableCells.size());
    QCOMPARE(model.index(0, FleetPreviewModel::ChangedColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, FleetPreviewModel::FailedColumn).data().toInt(), 1);
    QCOMPARE(model.stateAt(model.rowOf(s("b"))), FleetHostState::Running);
    QCOMPARE(model.outcomeAt(model.rowOf(s("b")), model.columnOf(s("exec#y"))), -1);
}

CCM_TEST_GUILESS_MAIN(TestFleetPreviewModel)
#include "tst_fleet_preview_model.moc"
