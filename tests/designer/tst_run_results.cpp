// SPDX-License-Identifier: Apache-2.0
#include "designer/core/run_results.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

using ccm::Json;
using ccm::designer::AttributeChange;
using ccm::designer::Outcome;
using ccm::designer::RunResults;

using namespace ccm::test;

namespace {

Json makeEvent(const char *resource, Json fields)
{
    Json value {{"type", "exec"}, {"name", "x"}, {"provider", "posix"}, {"duration", 2500000}, {"error", Json::array()},
        {"changed", false}, {"refreshed", false}, {"failed", false}, {"skipped", false}, {"noop", true},
        {"unmet_requirements", Json::array()}, {"resource", resource}};
    for (auto &[key, item] : fields.items())
        value[key] = item;
    return value;
}

/// The lines `ccm-backend apply --noop --json` prints for a manifest in `dir` of two files: one
/// already as asked, one whose content and mode would change.
std::vector<Json> recordedRun(const QTemporaryDir &dir)
{
    const QString stable = dir.filePath(s("stable.txt"));
    const QString changing = dir.filePath(s("changing.txt"));
    writeFile(stable, "same\n");
    QFile::setPermissions(stable, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    writeFile(changing, "old\n");
    QFile::setPermissions(changing, QFile::ReadOwner | QFile::WriteOwner);
    const auto file = [](const QString &path, const char *content) {
        return s("        - ") + path + s(":\n            ensure: present\n            owner: ") + currentUserName()
            + s("\n            group: ") + currentGroupName()
            + s("\n            mode: \"0644\"\n            content: \"") + s(content) + s("\\n\"\n");
    };
    const QString manifest = dir.filePath(s("manifest.yaml"));
    writeFile(
        manifest, (s("ccm:\n  resources:\n    - file:\n") + file(stable, "same") + file(changing, "new")).toUtf8());
    QProcess process;
    process.start(s(CCM_BACKEND_BIN), {s("apply"), s("--noop"), s("--json"), manifest});
    process.waitForFinished(60000);
    std::vector<Json> lines;
    for (const QByteArray &line : process.readAllStandardOutput().split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.push_back(Json::parse(line.toStdString()));
    }
    return lines;
}

} // namespace

class TestRunResults : public QObject {
    Q_OBJECT

private slots:
    void outcomeFollowsThePrecedence()
    {
        QCOMPARE(ccm::designer::outcomeOf(makeEvent("a", {})), Outcome::Stable);
        QCOMPARE(ccm::designer::outcomeOf(makeEvent("a", {{"changed", true}})), Outcome::Changed);
        QCOMPARE(
            ccm::designer::outcomeOf(makeEvent("a", {{"changed", true}, {"refreshed", true}})), Outcome::Refreshed);
        QCOMPARE(ccm::designer::outcomeOf(makeEvent("a", {{"skipped", true}, {"refreshed", true}})), Outcome::Skipped);
        QCOMPARE(ccm::designer::outcomeOf(
                     makeEvent("a", {{"skipped", true}, {"unmet_requirements", Json::array({"file#/x"})}})),
            Outcome::Unmet);
        QCOMPARE(ccm::designer::outcomeOf(
                     makeEvent("a", {{"failed", true}, {"unmet_requirements", Json::array({"file#/x"})}})),
            Outcome::Failed);
        // Wrong types count as false rather than throwing.
        QCOMPARE(
            ccm::designer::outcomeOf(makeEvent("a", {{"failed", "yes"}, {"unmet_requirements", 3}})), Outcome::Stable);
        QCOMPARE(ccm::designer::outcomeOf(Json::array()), Outcome::Stable);
    }

    void outcomeNamesDependOnNoop()
    {
        using ccm::designer::outcomeName;
        QCOMPARE(outcomeName(Outcome::Stable, true), s("stable"));
        QCOMPARE(outcomeName(Outcome::Changed, true), s("would change"));
        QCOMPARE(outcomeName(Outcome::Changed, false), s("changed"));
        QCOMPARE(outcomeName(Outcome::Failed, true), s("would fail"));
        QCOMPARE(outcomeName(Outcome::Failed, false), s("failed"));
        QCOMPARE(outcomeName(Outcome::Skipped, true), s("skipped"));
        QCOMPARE(outcomeName(Outcome::Unmet, false), s("unmet requirement"));
        QCOMPARE(outcomeName(Outcome::Refreshed, true), s("would refresh"));
        QCOMPARE(outcomeName(Outcome::Refreshed, false), s("refreshed"));
    }

    void recordedRunFillsTheModel()
    {
        QTemporaryDir dir;
        const std::vector<Json> lines = recordedRun(dir);
        QCOMPARE(lines.size(), std::size_t(3));

        RunResults results;
        QAbstractItemModelTester tester(&results, QAbstractItemModelTester::FailureReportingMode::QtTest);
        results.startRun(dir.filePath(s("manifest.yaml")), true);
        results.addEvent(lines[0]);
        results.addEvent(lines[1]);
        QCOMPARE(results.rowCount(), 2);
        QCOMPARE(results.columnCount(), 5);
        QVERIFY(!results.isFinished());
        // Before the answer, the summary is counted from the events.
        QVERIFY(results.summary()["total"] == 2);
        QVERIFY(results.summary()["changed"] == 1);
        QVERIFY(!results.summary().contains("run_time"));
        results.setFinished(lines[2]);
        QVERIFY(results.isFinished());
        QVERIFY(results.summary() == lines[2]["summary"]);

        const QString changing = s("file#") + dir.filePath(s("changing.txt"));
        QCOMPARE(results.rowOf(changing), 1);
        QCOMPARE(results.outcomeAt(0), Outcome::Stable);
        QCOMPARE(results.outcomeAt(1), Outcome::Changed);
        QCOMPARE(results.index(1, RunResults::ResourceColumn).data().toString(), changing);
        QCOMPARE(results.index(1, RunResults::OutcomeColumn).data().toString(), s("would change"));
        QCOMPARE(
            results.index(1, RunResults::OutcomeColumn).data(RunResults::OutcomeRole).toInt(), int(Outcome::Changed));
        QCOMPARE(results.index(1, RunResults::MessageColumn).data().toString(),
            QString::fromStdString(lines[1]["noop_message"].get<std::string>()));
        QCOMPARE(results.index(1, RunResults::ProviderColumn).data().toString(), s("posix"));
        QVERIFY(results.index(1, RunResults::DurationColumn).data().toString().endsWith(s(" ms")));
        QVERIFY(Json::parse(results.index(1, 0).data(RunResults::EventRole).toByteArray().toStdString()) == lines[1]);
        QVERIFY(results.eventAt(1) == lines[1]);
        QVERIFY(results.eventAt(7).is_null());
    }

    void fileChangesShowDiffAndMetadata()
    {
        QTemporaryDir dir;
        const std::vector<Json> lines = recordedRun(dir);
        QCOMPARE(lines.size(), std::size_t(3));
        RunResults results;
        results.addEvent(lines[0]);
        results.addEvent(lines[1]);

        const auto stable = results.fileChanges(0);
        QVERIFY(stable.diff.isEmpty());
        QVERIFY(stable.attributes.isEmpty());
        const auto changing = results.fileChanges(1);
        QVERIFY2(changing.diff.contains(s("-old")) && changing.diff.contains(s("+new")), qPrintable(changing.diff));
        QCOMPARE(changing.attributes.size(), 1);
        QCOMPARE(changing.attributes[0], (AttributeChange {s("mode"), s("0600"), s("0644")}));
    }

    void fileChangesOfOtherEvents()
    {
        RunResults results;
        results.addEvent(makeEvent("exec#x", {{"changed", true}}));
        Json created = makeEvent("file#/tmp/new", {{"changed", true}});
        created["type"] = "file";
        created["properties"] = {{"ensure", "present"}, {"owner", "root"}, {"group", "wheel"}, {"mode", "644"}};
        created["status"] = {{"ensure", "absent"}, {"metadata", {{"owner", nullptr}, {"mode", "0644"}}}};
        results.addEvent(created);
        QVERIFY(results.fileChanges(0).attributes.isEmpty());
        QVERIFY(results.fileChanges(5).attributes.isEmpty());
        const auto changes = results.fileChanges(1);
        QVERIFY(changes.diff.isEmpty());
        // The same mode written differently is no change.
        QCOMPARE(changes.attributes,
            (QList<AttributeChange> {{s("owner"), QString(), s("root")}, {s("group"), QString(), s("wheel")}}));
    }

    void aResourceReportedTwiceKeepsItsRow()
    {
        RunResults results;
        QAbstractItemModelTester tester(&results, QAbstractItemModelTester::FailureReportingMode::QtTest);
        results.addEvent(makeEvent("exec#a", {}));
        results.addEvent(makeEvent("exec#b", {}));
        QSignalSpy changed(&results, &RunResults::dataChanged);
        results.addEvent(makeEvent("exec#a", {{"refreshed", true}}));
        QCOMPARE(results.rowCount(), 2);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(results.outcomeAt(0), Outcome::Refreshed);
        QVERIFY(results.summary()["total"] == 3); // the stream keeps every event
        QCOMPARE(results.toJson().count('\n'), 3);
        results.addEvent(Json("not an event"));
        QCOMPARE(results.rowCount(), 2);
    }

    void errorsFormTheMessage()
    {
        RunResults results;
        results.addEvent(makeEvent(
            "exec#a", {{"failed", true}, {"error", Json::array({"first", "second"})}, {"noop_message", "n"}}));
        QCOMPARE(results.index(0, RunResults::MessageColumn).data().toString(), s("first; second"));
        QCOMPARE(results.index(0, RunResults::OutcomeColumn).data().toString(), s("would fail"));
        QVERIFY(results.summary()["errors"] == 2);
        QVERIFY(results.summary()["failed"] == 1);
    }

    void staleGreysEveryCell()
    {
        RunResults results;
        results.addEvent(makeEvent("exec#a", {}));
        QVERIFY(!results.index(0, 0).data(Qt::ForegroundRole).isValid());
        QSignalSpy changed(&results, &RunResults::dataChanged);
        results.setStale(true);
        QVERIFY(results.isStale());
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), results.index(0, 0));
        QCOMPARE(changed[0][1].toModelIndex(), results.index(0, RunResults::ColumnCount - 1));
        QVERIFY(results.index(0, 3).data(Qt::ForegroundRole).isValid());
        results.setStale(false);
        QVERIFY(!results.index(0, 3).data(Qt::ForegroundRole).isValid());
        results.setStale(true);
        results.clear();
        QVERIFY(!results.isStale());
        QCOMPARE(results.rowCount(), 0);
    }

    void jsonExportIsTheEventStream()
    {
        QTemporaryDir dir;
        const std::vector<Json> lines = recordedRun(dir);
        QCOMPARE(lines.size(), std::size_t(3));
        RunResults results;
        for (std::size_t i = 0; i < 2; ++i)
            results.addEvent(lines[i]);
        results.setFinished(lines[2]);
        const QList<QByteArray> exported = results.toJson().split('\n');
        QCOMPARE(exported.size(), 4);
        QVERIFY(exported[3].isEmpty());
        for (int i = 0; i < 3; ++i)
            QVERIFY(Json::parse(exported[i].toStdString()) == lines[std::size_t(i)]);
    }

    void textReportListsResourcesAndCounts()
    {
        RunResults results;
        results.startRun(s("/srv/site.yaml"), true, QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC));
        results.addEvent(
            makeEvent("file#/etc/motd", {{"changed", true}, {"noop_message", "Would have created the file"}}));
        results.addEvent(makeEvent("exec#build", {{"failed", true}, {"error", Json::array({"exit status 1"})}}));
        results.addEvent(
            makeEvent("exec#after", {{"skipped", true}, {"unmet_requirements", Json::array({"exec#build"})}}));
        results.setFinished(Json {{"run", "r1"},
            {"summary",
                {{"run_time", 3400000}, {"total", 3}, {"stable", 0}, {"changed", 1}, {"failed", 1}, {"skipped", 1},
                    {"refreshed", 0}, {"unmet_requirements", 1},
                    {"checks", {{"ok", 0}, {"warning", 0}, {"critical", 0}, {"unknown", 0}}}, {"errors", 1}}},
            {"cancelled", true}, {"aborted", false}, {"noop", true}});
        const QString text = results.toText();
        const QStringList lines = text.split(QLatin1Char('\n'));
        QCOMPARE(lines[0], s("Preview (noop) of /srv/site.yaml, 2026-01-02T03:04:05Z"));
        QCOMPARE(lines[2], s("would change       file#/etc/motd  Would have created the file"));
        QCOMPARE(lines[3], s("would fail         exec#build"));
        QCOMPARE(lines[4], s("    exit status 1"));
        QCOMPARE(lines[5], s("unmet requirement  exec#after"));
        QCOMPARE(lines[6], s("    unmet: exec#build"));
        QVERIFY(text.contains(s("\nRun time: 3.4ms\n")));
        QVERIFY(text.contains(
            s("\nResources: total=3 stable=0 changed=1 failed=1 skipped=1 refreshed=0 unmet_requirements=1\n")));
        QVERIFY(text.contains(s("\nChecked resources: ok=0 warning=0 critical=0 unknown=0\nErrors: 1\n")));
        QVERIFY(text.contains(s("cancelled")));
    }

    void headers()
    {
        RunResults results;
        QCOMPARE(results.headerData(RunResults::ResourceColumn, Qt::Horizontal).toString(), s("Resource"));
        QCOMPARE(results.headerData(RunResults::DurationColumn, Qt::Horizontal).toString(), s("Duration"));
        QVERIFY(!results.headerData(0, Qt::Vertical).isValid());
    }
};

CCM_TEST_MAIN(TestRunResults)
#include "tst_run_results.moc"
