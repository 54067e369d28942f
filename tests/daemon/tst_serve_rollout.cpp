// SPDX-License-Identifier: Apache-2.0
// The release and rollout methods of a user's `ccm-backend serve --user` as a real process, with a
// real nats-server and two real agents on two rings: fleet.rollout streams its steps as
// fleet.rollout.progress and answers the record, fleet.rollouts lists it, fleet.releases shows the
// history with the kept copy's location, fleet.rollback puts a ring back, and bad params name the
// param.
#include "../fleet/agent_under_test.h"
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "daemon_harness.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "protocol_schema.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QTest>

#include <sstream>

using namespace ccm;
using namespace ccm::test;

namespace {

std::string releaseManifest(const std::string &version)
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
           "            ensure: present\n            owner: root\n            group: root\n"
           "            mode: \"0644\"\n            content: \""
        + version + " {{ Facts.tag }}\\n\"\n";
}

/// The events of the fleet.rollout.progress notifications, in order.
std::vector<Json> progressOf(const std::vector<Json> &notifications)
{
    std::vector<Json> events;
    for (const Json &message : notifications)
        if (message.value("method", "") == "fleet.rollout.progress")
            events.push_back(message["params"]);
    return events;
}

} // namespace

class TestServeRollout : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    NatsServer m_server;
    std::unique_ptr<AgentUnderTest> m_canary;
    std::unique_ptr<AgentUnderTest> m_main;

    QString key() const { return m_dir.filePath(QStringLiteral("release.pem")); }

    Json connection() const { return Json {{"nats", m_server.urlString()}}; }

    Json rolloutParams(const std::string &version) const
    {
        Json params {{"manifest", releaseManifest(version)}, {"base_dir", text(m_dir.path())}, {"bucket", "bundles"},
            {"rings", {"canary.tgz", "main.tgz"}}, {"key", text(key())}, {"ring_timeout_ms", 60000},
            {"message", "to " + version}};
        params.update(connection());
        return params;
    }

    bool managedIs(const AgentUnderTest &agent, const QString &version) const
    {
        return agent.managed() == version + QLatin1Char(' ') + agent.identity() + QLatin1Char('\n');
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        auto made = generateSigningKey();
        QVERIFY(made);
        QVERIFY(writeKeyPair(*made, text(key()), text(m_dir.filePath(QStringLiteral("release.pub.pem"))), false));

        // v1 on both rings, put there by hand, and one agent on each.
        const QString v1
            = writeFile(m_dir, QStringLiteral("v1/site.yaml"), QByteArray::fromStdString(releaseManifest("v1")));
        const QString bundle = m_dir.filePath(QStringLiteral("v1.tgz"));
        QProcess bundler;
        bundler.start(QStringLiteral(CCM_BACKEND_BIN), {QStringLiteral("bundle"), v1, QStringLiteral("-o"), bundle});
        QVERIFY(bundler.waitForFinished(60000) && bundler.exitCode() == 0);
        fleet::NatsSettings settings;
        settings.url = m_server.urlString();
        auto nats = fleet::NatsConnection::connect(settings);
        QVERIFY(nats);
        auto store = fleet::ObjectStore::openOrCreate(**nats, "bundles");
        QVERIFY(store);
        for (const char *ring : {"canary.tgz", "main.tgz"}) {
            std::istringstream data(readAll(bundle).toStdString());
            QVERIFY(store.value().put(ring, data));
        }
        m_canary = std::make_unique<AgentUnderTest>(QStringLiteral("canary-1"), m_server.url());
        m_canary->configure("manifests:\n  - obj://bundles/canary.tgz\n");
        m_main = std::make_unique<AgentUnderTest>(QStringLiteral("main-1"), m_server.url());
        m_main->configure("manifests:\n  - obj://bundles/main.tgz\n");
        m_canary->start();
        m_main->start();
        QTRY_VERIFY_WITH_TIMEOUT(
            managedIs(*m_canary, QStringLiteral("v1")) && managedIs(*m_main, QStringLiteral("v1")), kConverge);
    }

    void aRolloutStreamsItsSteps()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        std::vector<Json> notifications;
        const auto reply = client.call("fleet.rollout", rolloutParams("v2"), &notifications);
        QVERIFY(reply);
        QVERIFY2(reply->contains("result"), reply->dump().c_str());
        const Json &record = (*reply)["result"];
        QCOMPARE(sentProblems("response.fleet.rollout", *reply), QStringList());
        for (const Json &message : notifications)
            QCOMPARE(sentProblems("notification", message), QStringList());
        QCOMPARE(record.value("state", ""), std::string("passed"));
        QCOMPARE(record["rings"].size(), std::size_t(2));
        QVERIFY(managedIs(*m_canary, QStringLiteral("v2")) && managedIs(*m_main, QStringLiteral("v2")));

        const std::vector<Json> events = progressOf(notifications);
        QVERIFY(!events.empty());
        QCOMPARE(events.front().value("event", ""), std::string("started"));
        QCOMPARE(events.back().value("event", ""), std::string("done"));
        std::vector<std::string> gates;
        for (const Json &event : events) {
            QCOMPARE(event.value("rollout", ""), record.value("id", ""));
            if (event.value("event", "") == "gate" && event.value("passed", false))
                gates.push_back(event.value("ring", ""));
        }
        QCOMPARE(gates, (std::vector<std::string> {"canary.tgz", "main.tgz"}));
        bool heardHost = false;
        for (const Json &event : events)
            heardHost = heardHost
                || (event.value("event", "") == "host" && event.value("identity", "") == "canary-1"
                    && event.value("state", "") == "applied");
        QVERIFY(heardHost);

        const auto listed = client.call("fleet.rollouts", connection());
        QVERIFY(listed && listed->contains("result"));
        QCOMPARE(sentProblems("response.fleet.rollouts", *listed), QStringList());
        QCOMPARE((*listed)["result"]["rollouts"][0].value("id", ""), record.value("id", ""));
    }

    void historyAndRollback()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        Json params {{"bucket", "bundles"}, {"name", "canary.tgz"}};
        params.update(connection());
        const auto history = client.call("fleet.releases", params);
        QVERIFY(history && history->contains("result"));
        QCOMPARE(sentProblems("response.fleet.releases", *history), QStringList());
        const Json &releases = (*history)["result"]["releases"];
        QVERIFY2(!releases.empty(), history->dump().c_str());
        QCOMPARE(releases[0].value("message", "").rfind("rollout ", 0), std::size_t(0));
        QVERIFY(releases[0].value("location", "").starts_with("obj://bundles/.releases/SHA-256="));
        QCOMPARE(releases[0].value("signer", "").size(), std::size_t(16));

        Json rollback = params;
        rollback["key"] = text(key());
        const auto back = client.call("fleet.rollback", rollback);
        QVERIFY(back);
        QVERIFY2(back->contains("result"), back->dump().c_str());
        QCOMPARE(sentProblems("response.fleet.rollback", *back), QStringList());
        QTRY_VERIFY_WITH_TIMEOUT(managedIs(*m_canary, QStringLiteral("v1")), kConverge);
        QVERIFY(managedIs(*m_main, QStringLiteral("v2")));
        QVERIFY((*back)["result"]["release"].value("message", "").starts_with("rollback to SHA-256="));
    }

    void replicasReachTheBucketsItCreates()
    {
        // A new bucket with 3 replicas on a single server: the server refuses it, and the answer
        // says what to ask for instead; nothing of the rollout starts.
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        Json params = rolloutParams("v3");
        params["bucket"] = "replicated";
        params["replicas"] = 3;
        const auto reply = client.call("fleet.rollout", params);
        QVERIFY(reply);
        QVERIFY2(reply->contains("error"), reply->dump().c_str());
        const std::string message = (*reply)["error"].value("message", "");
        QVERIFY2(message.find("3 replicas need a JetStream cluster of at least as many servers") != std::string::npos,
            message.c_str());
        QVERIFY(!managedIs(*m_canary, QStringLiteral("v3")));
    }

    void badParamsNameTheParam_data()
    {
        QTest::addColumn<QByteArray>("change");
        QTest::addColumn<QString>("path");
        QTest::newRow("no rings") << QByteArray(R"({"rings": []})") << QStringLiteral("rings");
        QTest::newRow("same ring twice") << QByteArray(R"({"rings": ["a.tgz", "a.tgz"]})") << QStringLiteral("rings");
        QTest::newRow("budget") << QByteArray(R"({"max_failed": "many"})") << QStringLiteral("max_failed");
        QTest::newRow("timeout") << QByteArray(R"({"ring_timeout_ms": 5})") << QStringLiteral("ring_timeout_ms");
        QTest::newRow("key") << QByteArray(R"({"key": "/nonexistent/k.pem"})") << QStringLiteral("key");
        QTest::newRow("no replicas") << QByteArray(R"({"replicas": 0})") << QStringLiteral("replicas");
        QTest::newRow("too many replicas") << QByteArray(R"({"replicas": 6})") << QStringLiteral("replicas");
        QTest::newRow("replicas as text") << QByteArray(R"({"replicas": "3"})") << QStringLiteral("replicas");
    }

    void badParamsNameTheParam()
    {
        QFETCH(QByteArray, change);
        QFETCH(QString, path);
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        Json params = rolloutParams("v9");
        params.update(Json::parse(change.toStdString()));
        const auto reply = client.call("fleet.rollout", params);
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        QCOMPARE((*reply)["error"]["data"].value("path", ""), text(path));
        // Nothing was published.
        QVERIFY(managedIs(*m_main, QStringLiteral("v2")));

        Json control {{"id", "../../etc"}, {"action", "abort"}};
        control.update(connection());
        const auto refused = client.call("fleet.rollout.control", control);
        QVERIFY(refused);
        QCOMPARE((*refused)["error"]["data"].value("path", ""), std::string("id"));
    }
};

CCM_TEST_GUILESS_MAIN(TestServeRollout)
#include "tst_serve_rollout.moc"
