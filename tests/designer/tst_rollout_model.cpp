// SPDX-License-Identifier: Apache-2.0
// The rollout model from CCM_ROLLOUTS records and fleet.rollout.progress events, the release and
// rollout lists, the objects agents watch, and the manifest diff the Releases dialog shows.
#include "designer/core/fleet_history_models.h"
#include "designer/core/rollout_model.h"
#include "designer/core/text_diff.h"
#include "designer/core/unified_diff.h"
#include "test_common.h"
#include "test_main.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using ccm::Json;
using namespace ccm::designer;

namespace {

Json rolloutEvent(const char *kind, Json fields, const char *rollout = "r0llout00001")
{
    fields["event"] = kind;
    fields["rollout"] = rollout;
    return fields;
}

/// A record as fleet.rollouts gives it: canary passed, web failed and was restored.
Json rolloutRecord()
{
    return Json {{"id", "r0llout00001"}, {"bucket", "sites"}, {"digest", "SHA-256=abc"}, {"size", 812},
        {"signer", "bc95f2d449733f04"}, {"message", "motd"}, {"owner", "alice@ws"}, {"max_failed", "10%"},
        {"ring_timeout_seconds", 600}, {"settle_seconds", 30}, {"rollback", true}, {"state", "rolled_back"},
        {"request", ""}, {"created", "2026-11-29T01:00:00Z"}, {"updated", "2026-11-29T01:05:00Z"},
        {"rings",
            Json::array({Json {{"name", "canary.tar.gz"}, {"state", "passed"}, {"previous", "SHA-256=old"},
                             {"hosts", {{"c1", {{"state", "applied"}}}}}, {"verdict", "1 of 1 applied"}},
                Json {{"name", "web.tar.gz"}, {"state", "restored"}, {"previous", "SHA-256=old"},
                    {"hosts",
                        {{"w2", {{"state", "failed"}, {"reason", "exec#migrate failed"}}},
                            {"w1", {{"state", "applied"}}}, {"bad", "not an object"}}},
                    {"verdict", "restore: 2 of 2 back"}},
                Json("not a ring")})},
        {"report", "ring web.tar.gz: 1 of 2 failed (allowed 0)"}};
}

} // namespace

class TestRolloutModel : public QObject {
    Q_OBJECT

private slots:
    void recordShowsRingsAndHosts()
    {
        RolloutModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRecord(rolloutRecord());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.ringNames(), QStringList({QStringLiteral("canary.tar.gz"), QStringLiteral("web.tar.gz")}));
        QCOMPARE(model.state(), QStringLiteral("rolled_back"));
        QVERIFY(model.isFinished());
        QCOMPARE(model.maxFailed(), QStringLiteral("10%"));
        QCOMPARE(model.settleSeconds(), 30);
        const QModelIndex web = model.index(1, 0);
        QCOMPARE(model.rowCount(web), 2);
        QCOMPARE(model.index(0, RolloutModel::NameColumn, web).data().toString(), QStringLiteral("w1"));
        QCOMPARE(
            model.index(1, RolloutModel::StateColumn, web).data(Qt::UserRole).toString(), QStringLiteral("failed"));
        QCOMPARE(
            model.index(1, RolloutModel::DetailColumn, web).data().toString(), QStringLiteral("exec#migrate failed"));
        QCOMPARE(model.index(1, RolloutModel::DetailColumn).data().toString(), QStringLiteral("restore: 2 of 2 back"));
        QCOMPARE(model.report(), QStringLiteral("ring web.tar.gz: 1 of 2 failed (allowed 0)"));
    }

    void eventsFollowARollout()
    {
        RolloutModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(model.applyEvent(rolloutEvent("started",
            {{"digest", "SHA-256=new"}, {"rings", {"canary", "web"}}, {"max_failed", "1"}, {"ring_timeout_seconds", 60},
                {"settle_seconds", 0}})));
        QCOMPARE(model.id(), QStringLiteral("r0llout00001"));
        QCOMPARE(model.state(), QStringLiteral("running"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rings().at(1).state, QStringLiteral("pending"));
        model.applyEvent(rolloutEvent("ring", {{"ring", "canary"}, {"index", 0}, {"rings", 2}}));
        QCOMPARE(model.rings().at(0).state, QStringLiteral("publishing"));
        model.applyEvent(
            rolloutEvent("published", {{"ring", "canary"}, {"digest", "SHA-256=new"}, {"previous", "SHA-256=o"}}));
        QCOMPARE(model.rings().at(0).state, QStringLiteral("waiting"));
        model.applyEvent(
            rolloutEvent("host", {{"ring", "canary"}, {"identity", "c2"}, {"state", "waiting"}, {"reason", ""}}));
        model.applyEvent(
            rolloutEvent("host", {{"ring", "canary"}, {"identity", "c1"}, {"state", "applied"}, {"reason", ""}}));
        model.applyEvent(rolloutEvent(
            "host", {{"ring", "canary"}, {"identity", "c2"}, {"state", "failed"}, {"reason", "exec#x failed"}}));
        model.applyEvent(rolloutEvent("host", {{"ring", "canary"}, {"identity", "c3"}, {"state", "sideways"}}));
        QCOMPARE(model.rings().at(0).hosts.size(), 2);
        QCOMPARE(model.rings().at(0).hosts.at(1).reason, QStringLiteral("exec#x failed"));
        QCOMPARE(model.rings().at(0).count(QStringLiteral("applied")), 1);
        QVERIFY(model.index(0, RolloutModel::DetailColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("1 applied, 1 failed")));
        model.applyEvent(rolloutEvent("gate",
            {{"ring", "canary"}, {"passed", true}, {"hosts", 2}, {"applied", 1}, {"failed", 1}, {"silent", 0},
                {"allowed", 1}, {"summary", "1 of 2 failed (allowed 1)"}}));
        QCOMPARE(model.rings().at(0).state, QStringLiteral("passed"));
        QCOMPARE(model.rings().at(0).verdict, QStringLiteral("1 of 2 failed (allowed 1)"));
        QVERIFY(!model.applyEvent(rolloutEvent("paused", {{"ring", "web"}}, "another00001")));
        model.applyEvent(rolloutEvent("requested", {{"request", "pause"}}));
        QCOMPARE(model.request(), QStringLiteral("pause"));
        model.applyEvent(rolloutEvent("paused", {{"ring", "web"}}));
        QCOMPARE(model.state(), QStringLiteral("paused"));
        QVERIFY(model.request().isEmpty());
        model.applyEvent(rolloutEvent("resumed", {{"owner", "alice@ws"}}));
        model.applyEvent(rolloutEvent("rolling_back", {{"ring", "web"}, {"previous", "SHA-256=o"}}));
        QCOMPARE(model.rings().at(1).state, QStringLiteral("rolling_back"));
        model.applyEvent(rolloutEvent("restored", {{"ring", "web"}, {"state", "restored"}, {"summary", "back"}}));
        QCOMPARE(model.rings().at(1).state, QStringLiteral("restored"));
        model.applyEvent(rolloutEvent("done", {{"state", "rolled_back"}, {"report", "aborted by alice@ws"}}));
        QVERIFY(model.isFinished());
        QCOMPARE(model.report(), QStringLiteral("aborted by alice@ws"));
    }

    void malformedEventsAreIgnored()
    {
        RolloutModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(!model.applyEvent(Json("text")));
        QVERIFY(!model.applyEvent(Json {{"event", "started"}}));
        QVERIFY(model.applyEvent(rolloutEvent("host", {{"identity", "x"}, {"state", "applied"}})));
        QVERIFY(model.applyEvent(rolloutEvent("gate", {{"ring", 3}, {"passed", "yes"}})));
        QCOMPARE(model.rowCount(), 0);
        model.setRecord(Json::array());
        QCOMPARE(model.rowCount(), 0);
    }

    void releaseList()
    {
        ReleaseListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReleases(Json {{"releases",
            Json::array({Json {{"name", "web.tar.gz"}, {"bucket", "sites"}, {"digest", "SHA-256=b"}, {"size", 2048},
                             {"time", "2026-11-29T01:00:00Z"}, {"publisher", "alice@ws"}, {"signer", "bc95"},
                             {"message", "new motd"}, {"location", "obj://sites/.releases/SHA-256=b"}},
                Json {{"name", "web.tar.gz"}, {"digest", "SHA-256=a"}, {"signer", nullptr}}, Json(7)})}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ReleaseListModel::SizeColumn).data().toString(), QStringLiteral("2.0 KiB"));
        QCOMPARE(model.index(0, ReleaseListModel::MessageColumn).data().toString(), QStringLiteral("new motd"));
        QCOMPARE(model.index(1, ReleaseListModel::SignerColumn).data().toString(), QStringLiteral("unsigned"));
        QCOMPARE(model.release(0).location, QStringLiteral("obj://sites/.releases/SHA-256=b"));
        model.setReleases(Json {{"releases", "none"}});
        QCOMPARE(model.rowCount(), 0);
    }

    void rolloutList()
    {
        RolloutListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRollouts(Json {{"rollouts", Json::array({rolloutRecord(), Json {{"state", "running"}}})}});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, RolloutListModel::RingsColumn).data().toString(),
            QStringLiteral("canary.tar.gz → web.tar.gz"));
        QCOMPARE(model.rollout(0).value("id", ""), std::string("r0llout00001"));
        QVERIFY(model.rollout(5).is_null());
    }

    void objectsAgentsWatch()
    {
        const Json status {{"hosts",
            Json::array({Json {{"runs",
                             Json::array({Json {{"source", "obj://sites/web.tar.gz"}},
                                 Json {{"source", "/etc/ccm/local.yaml"}}})}},
                Json {{"runs",
                    Json::array({Json {{"source", "obj://sites/canary.tar.gz"}},
                        Json {{"source", "obj://sites/web.tar.gz"}}, Json {{"source", "obj://nobucket"}}})}},
                Json {{"runs", "none"}}})}};
        QCOMPARE(watchedObjects(status),
            QStringList({QStringLiteral("obj://sites/canary.tar.gz"), QStringLiteral("obj://sites/web.tar.gz")}));
        QString bucket;
        QString name;
        QVERIFY(splitObjectUrl(QStringLiteral("obj://sites/web/site.tar.gz"), &bucket, &name));
        QCOMPARE(bucket, QStringLiteral("sites"));
        QCOMPARE(name, QStringLiteral("web/site.tar.gz"));
        QVERIFY(!splitObjectUrl(QStringLiteral("obj://sites/"), &bucket, &name));
        QVERIFY(!splitObjectUrl(QStringLiteral("https://x/y"), &bucket, &name));
    }

    void textDiff_data()
    {
        QTest::addColumn<QString>("oldText");
        QTest::addColumn<QString>("newText");
        QTest::addColumn<QString>("expected");
        QTest::newRow("equal") << QStringLiteral("a\nb\n") << QStringLiteral("a\nb\n") << QString();
        QTest::newRow("one line changed") << QStringLiteral("a\nb\nc\n") << QStringLiteral("a\nB\nc\n")
                                          << QStringLiteral("--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        QTest::newRow("added at the end") << QStringLiteral("a\n") << QStringLiteral("a\nb\n")
                                          << QStringLiteral("--- old\n+++ new\n@@ -1 +1,2 @@\n a\n+b\n");
        QTest::newRow("from nothing") << QString() << QStringLiteral("x\n")
                                      << QStringLiteral("--- old\n+++ new\n@@ -0,0 +1 @@\n+x\n");
        QTest::newRow("newline at the end added")
            << QStringLiteral("a") << QStringLiteral("a\n")
            << QStringLiteral("--- old\n+++ new\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n");
        QTest::newRow("two hunks")
            << QStringLiteral("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n") << QStringLiteral("0\n2\n3\n4\n5\n6\n7\n8\n9\n11\n")
            << QStringLiteral(
                   "--- old\n+++ new\n@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+11\n");
    }

    void textDiff()
    {
        QFETCH(QString, oldText);
        QFETCH(QString, newText);
        QFETCH(QString, expected);
        const QString diff = unifiedTextDiff(oldText, newText, QStringLiteral("old"), QStringLiteral("new"));
        QCOMPARE(diff, expected);
        QVERIFY(parseUnifiedDiff(diff).errors.isEmpty());
    }

    void largeTextDiffIsStillCorrect()
    {
        QString oldText;
        QString newText;
        for (int i = 0; i < 3000; ++i) {
            oldText += QStringLiteral("old %1\n").arg(i);
            newText += QStringLiteral("new %1\n").arg(i);
        }
        const UnifiedDiff parsed
            = parseUnifiedDiff(unifiedTextDiff(oldText, newText, QStringLiteral("a"), QStringLiteral("b")));
        QVERIFY(parsed.errors.isEmpty());
        QCOMPARE(parsed.hunks.size(), 1);
        QCOMPARE(parsed.hunks.first().oldCount, 3000);
        QCOMPARE(parsed.hunks.first().newCount, 3000);
    }
};

CCM_TEST_GUILESS_MAIN(TestRolloutModel)
#include "tst_rollout_model.moc"
