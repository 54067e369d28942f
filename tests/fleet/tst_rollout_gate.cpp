// SPDX-License-Identifier: Apache-2.0
// A rollout's gate over a ring's hosts, fed the status records and run messages agents write, and
// the CCM_ROLLOUTS record read back strictly.
#include "fleet/agent/fleet_status.h"
#include "fleet/rollout/rollout_gate.h"
#include "fleet/rollout/rollout_record.h"
#include "test_common.h"
#include "test_main.h"

#include <QtTest>

using namespace ccm;
using namespace ccm::fleet;

namespace {

const std::string kSource = "obj://bundles/site-canary.tgz";
const std::string kNew = "SHA-256=new";
const std::string kOld = "SHA-256=old";

/// A `.run` message as an agent sends it.
Json runOf(const std::string &identity, const std::string &digest, std::size_t failed = 0, std::size_t critical = 0,
    const std::string &source = kSource)
{
    return Json {{"identity", identity}, {"source", source}, {"run", "r"}, {"mode", "apply"},
        {"manifest_digest", digest},
        {"summary", {{"total", 3}, {"failed", failed}, {"checks", {{"critical", critical}}}}},
        {"failed_resources", failed ? Json::array({"exec#/bin/false"}) : Json::array()}};
}

/// A fleet status of hosts, each with its latest run (of kSource unless given).
FleetStatus statusOf(const std::vector<std::pair<std::string, Json>> &hosts, bool stale = false)
{
    FleetStatus status;
    for (const auto &[identity, run] : hosts) {
        HostStatus host;
        host.identity = identity;
        host.stale = stale;
        host.value = Json {{"identity", identity}, {"runs", Json::array({run})}};
        status.hosts.push_back(host);
    }
    return status;
}

FailureBudget budget(const char *text)
{
    auto parsed = FailureBudget::parse(text);
    if (!parsed)
        qFatal("%s", parsed.error().message.c_str());
    return *parsed;
}

} // namespace

class TestRolloutGate : public QObject {
    Q_OBJECT

private slots:
    void budgets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("hosts");
        QTest::addColumn<int>("allowed");
        QTest::newRow("none") << QStringLiteral("0") << 10 << 0;
        QTest::newRow("count") << QStringLiteral("2") << 10 << 2;
        QTest::newRow("percent") << QStringLiteral("25%") << 10 << 2;
        QTest::newRow("percent exact") << QStringLiteral("20%") << 10 << 2;
        QTest::newRow("fraction") << QStringLiteral("2.5%") << 400 << 10;
        QTest::newRow("all") << QStringLiteral("100%") << 7 << 7;
    }

    void budgets()
    {
        QFETCH(QString, text);
        QFETCH(int, hosts);
        QFETCH(int, allowed);
        auto parsed = FailureBudget::parse(text.toStdString());
        QVERIFY(parsed);
        QCOMPARE(parsed->allowed(std::size_t(hosts)), std::size_t(allowed));
        QCOMPARE(QString::fromStdString(parsed->text()), text);
    }

    void badBudgets()
    {
        for (const char *text : {"", "-1", "x", "10%%", "101%", "%", "1.5", " 2"}) {
            auto parsed = FailureBudget::parse(text);
            QVERIFY2(!parsed, text);
            QVERIFY(parsed.error().message.starts_with("--max-failed: '"));
        }
    }

    void hostsComeFromStatusAndRuns()
    {
        RingWatch watch(kSource, kNew);
        watch.observeStatus(statusOf({{"web-1", runOf("web-1", kOld)}, {"web-2", runOf("web-2", kOld)},
            {"db-1", runOf("db-1", kOld, 0, 0, "obj://bundles/site.tgz")}}));
        QCOMPARE(watch.hosts().size(), std::size_t(2));
        QVERIFY(!watch.allReported());
        watch.observeRun(runOf("web-1", kNew));
        QCOMPARE(watch.hosts().at("web-1").state, RingHostState::Applied);
        QVERIFY(!watch.allReported());
        // A run of another source, or one without an identity, changes nothing.
        watch.observeRun(runOf("web-2", kNew, 0, 0, "obj://bundles/other.tgz"));
        watch.observeRun(Json {{"source", kSource}, {"manifest_digest", kNew}});
        watch.observeRun(Json::array());
        QCOMPARE(watch.hosts().at("web-2").state, RingHostState::Waiting);
        watch.observeRun(runOf("web-2", kNew));
        QVERIFY(watch.allReported());
        const GateVerdict verdict = watch.verdict(budget("0"));
        QVERIFY(verdict.passed);
        QCOMPARE(verdict.summary, std::string("2 hosts: 2 applied, 0 failed (0 silent); at most 0 may fail"));
    }

    void staleHostsAreNotWaitedFor()
    {
        RingWatch watch(kSource, kNew);
        watch.observeStatus(statusOf({{"gone", runOf("gone", kOld)}}, true));
        QVERIFY(watch.hosts().empty());
        const GateVerdict verdict = watch.verdict(budget("100%"));
        QVERIFY(!verdict.passed);
        QVERIFY(verdict.summary.find("no live agent watches " + kSource) != std::string::npos);
    }

    void failuresCountAgainstTheBudget()
    {
        RingWatch watch(kSource, kNew);
        watch.observeRun(runOf("a", kNew, 1));
        watch.observeRun(runOf("b", kNew, 0, 2));
        watch.observeRun(runOf("c", kNew));
        Json refused = runOf("d", kOld);
        refused["refused_bundle"] = Json {{"digest", kNew}, {"reason", "it is not signed"}};
        watch.observeRun(refused);
        watch.observeRun(runOf("e", kOld));
        QCOMPARE(watch.hosts().at("a").reason, std::string("1 failed resource (exec#/bin/false)"));
        QCOMPARE(watch.hosts().at("b").reason, std::string("2 CRITICAL health checks (apply run)"));
        QCOMPARE(watch.hosts().at("d").reason, std::string("refused the bundle: it is not signed"));
        QCOMPARE(watch.hosts().at("e").state, RingHostState::Waiting);
        watch.closeWaiting("reported no run of it within 60s");
        QCOMPARE(watch.hosts().at("e").state, RingHostState::Silent);
        GateVerdict verdict = watch.verdict(budget("3"));
        QCOMPARE(verdict.failed, std::size_t(4));
        QCOMPARE(verdict.silent, std::size_t(1));
        QVERIFY(!verdict.passed);
        QVERIFY(watch.verdict(budget("80%")).passed);

        // A host that failed stays failed, whatever it reports next; a later CRITICAL health run
        // of the release fails one that had applied it.
        watch.observeRun(runOf("a", kNew));
        QCOMPARE(watch.hosts().at("a").state, RingHostState::Failed);
        Json health = runOf("c", kNew, 0, 1);
        health["mode"] = "health";
        watch.observeRun(health);
        QCOMPARE(watch.hosts().at("c").reason, std::string("1 CRITICAL health check (health run)"));
    }

    void hostsSurviveTheRecord()
    {
        RingWatch watch(kSource, kNew);
        watch.observeRun(runOf("a", kNew));
        watch.observeRun(runOf("b", kNew, 1));
        RingWatch again(kSource, kNew);
        again.restoreHosts(parseJson(watch.hostsToJson().dump()));
        QCOMPARE(again.hostsToJson(), watch.hostsToJson());
        again.restoreHosts(Json {{"x", {{"state", "nonsense"}}}, {"", {{"state", "applied"}}}});
        QCOMPARE(again.hosts().size(), std::size_t(2));
    }

    void recordsRoundTrip()
    {
        RolloutRecord record;
        record.id = newRolloutId();
        record.bucket = "bundles";
        record.digest = kNew;
        record.size = 1234;
        record.signer = "3f9a0c2e81b7d465";
        record.maxFailed = "10%";
        record.settle = std::chrono::seconds(30);
        record.created = record.updated = std::chrono::system_clock::now();
        record.rings = {RingRecord {"site-canary.tgz", RingState::Passed, kOld, std::nullopt, Json::object(), "ok"},
            RingRecord {"site.tgz", RingState::Waiting, "", record.created, Json {{"a", {{"state", "applied"}}}}, ""}};
        auto parsed = parseRollout(rolloutToJson(record).dump());
        QVERIFY2(parsed, parsed ? "" : parsed.error().message.c_str());
        QCOMPARE(rolloutToJson(*parsed), rolloutToJson(record));
        QCOMPARE(parsed->currentRing(), std::size_t(1));
        QVERIFY(isRolloutId(record.id));
        QVERIFY(!isRolloutId("../etc"));
    }

    void badRecordsNameTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("id") << QStringLiteral("id") << QByteArray("\"a.b\"");
        QTest::newRow("state") << QStringLiteral("state") << QByteArray("\"winning\"");
        QTest::newRow("request") << QStringLiteral("request") << QByteArray("\"reboot\"");
        QTest::newRow("size") << QStringLiteral("size") << QByteArray("-1");
        QTest::newRow("rings") << QStringLiteral("rings") << QByteArray("[]");
        QTest::newRow("ring state") << QStringLiteral("rings")
                                    << QByteArray("[{\"name\":\"a\",\"state\":\"x\",\"previous\":\"\"}]");
        QTest::newRow("created") << QStringLiteral("created") << QByteArray("\"yesterday\"");
    }

    void badRecordsNameTheField()
    {
        QFETCH(QString, field);
        QFETCH(QByteArray, value);
        RolloutRecord record;
        record.id = newRolloutId();
        RingRecord ring;
        ring.name = "site.tgz";
        record.rings = {ring};
        Json json = rolloutToJson(record);
        json[field.toStdString()] = parseJson(value.toStdString());
        auto parsed = parseRollout(json.dump());
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().code, std::string("bad_rollout"));
        QVERIFY2(parsed.error().message.find(field.toStdString()) != std::string::npos, parsed.error().message.c_str());
        QVERIFY(!parseRollout("[1,2]"));
        QVERIFY(!parseRollout("not json"));
    }

    // A record nested far deeper than a ring's hosts need, as anyone who may write CCM_ROLLOUTS
    // can store it, is refused before it is parsed: parsing and copying it recursed past the end
    // of the stack (found by fuzz_rollout_record's harness).
    void deepRecordsAreRefused()
    {
        RolloutRecord record;
        record.id = newRolloutId();
        RingRecord ring;
        ring.name = "site.tgz";
        ring.hosts = Json {{"web1", Json::array({Json::array({Json::object({{"state", "applied"}})})})}};
        record.rings = {ring};
        const std::string shallow = rolloutToJson(record).dump();
        QVERIFY(parseRollout(shallow));
        // A host before web1 whose value is 400,000 lists deep: about 800 KB, within a NATS message.
        std::string deep = shallow;
        const std::size_t at = deep.find(R"("web1":)");
        QVERIFY(at != std::string::npos);
        const std::size_t levels = 400000;
        deep.insert(at, R"("web0":)" + std::string(levels, '[') + std::string(levels, ']') + ",");
        const auto parsed = parseRollout(deep);
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().code, std::string("bad_rollout"));
        QVERIFY2(parsed.error().message.find("nested deeper than 64 levels") != std::string::npos,
            parsed.error().message.c_str());
    }

    // Anyone may publish on ccm.agent.*.run: a message that is not a JSON object, is larger than
    // 1 MiB or nests deeper than 64 levels is not read as a run.
    void runMessagesAreReadWithinBounds()
    {
        const Json run {{"identity", "web1"}, {"source", "obj://SITE/site.tgz"}, {"summary", {{"failed", 0}}}};
        const auto read = parseRunMessage(run.dump());
        QVERIFY(read);
        QCOMPARE(*read, run);
        QVERIFY(!parseRunMessage(""));
        QVERIFY(!parseRunMessage("[1]"));
        QVERIFY(!parseRunMessage("{\"identity\":"));
        Json nested = run;
        nested["extra"] = Json::parse(std::string(63, '[') + std::string(63, ']'));
        QVERIFY(parseRunMessage(nested.dump()));
        nested["extra"] = Json::parse(std::string(64, '[') + std::string(64, ']'));
        QVERIFY(!parseRunMessage(nested.dump()));
        Json large = run;
        large["padding"] = std::string(1024 * 1024, 'x');
        QVERIFY(!parseRunMessage(large.dump()));
    }
};

CCM_TEST_GUILESS_MAIN(TestRolloutGate)
#include "tst_rollout_gate.moc"
