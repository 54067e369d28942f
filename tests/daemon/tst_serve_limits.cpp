// SPDX-License-Identifier: Apache-2.0
// `ccm-backend serve` as a real process under load: slow requests do not hold other clients,
// one uid cannot take every connection, and a flood of bad requests does not flood the log.
#include "daemon_harness.h"
#include "test_main.h"

#include <QTest>

#include <memory>

using namespace ccm;
using namespace ccm::test;

namespace {

/// Connections one uid may hold (kMaxConnectionsPerUid of the daemon).
constexpr int kPerUid = 16;

/// A valid manifest of `count` file resources: validating it takes seconds in a debug build,
/// thousands of times as long as a hello.
std::string bigManifest(int count)
{
    std::string text = "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < count; ++i)
        text += "        - /tmp/ccm-soak-" + std::to_string(i) + ":\n            ensure: absent\n";
    return text;
}

/// Whether `fd` has something to read right now.
bool readable(int fd)
{
    pollfd entry {fd, POLLIN, 0};
    return ::poll(&entry, 1, 0) > 0;
}

int countOf(const QByteArray &text, const char *needle)
{
    return static_cast<int>(text.count(needle));
}

} // namespace

class TestServeLimits : public QObject {
    Q_OBJECT

private slots:
    void helloIsAnsweredWhileASlowRequestRuns_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("validate") << QStringLiteral("manifest.validate");
        QTest::newRow("render") << QStringLiteral("manifest.render");
    }
    void helloIsAnsweredWhileASlowRequestRuns()
    {
        QFETCH(QString, method);
        DaemonProcess daemon;
        RpcClient heavy;
        RpcClient other;
        QVERIFY(heavy.connectTo(daemon.socket()));
        QVERIFY(other.connectTo(daemon.socket()));
        QVERIFY(heavy.send(method.toStdString(), {{"manifest", bigManifest(30000)}}, 1));
        // The heavy line is sent whole before the hello: a daemon that answers requests on its
        // I/O thread reads it first and answers it before it reads the hello.
        const auto hello = other.call("backend.hello", {{"client", "probe"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(errorCode(*hello), 0);
        const auto facts = other.call("facts.get", Json::object());
        QVERIFY(facts);
        QCOMPARE(errorCode(*facts), 0);
        QVERIFY2(!readable(heavy.fd()), "the slow request was answered before the hello");
        const auto answered = heavy.responseTo(1);
        QVERIFY(answered);
        QCOMPARE(errorCode(*answered), 0);
    }

    void responsesKeepTheOrderOfTheRequests()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // A slow validate, then quick requests on the same connection: they wait for it.
        const std::string hello = Json {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "backend.hello"},
            {"params", {{"client", "t"}, {"version", "1"}}}}
                                      .dump();
        const std::string validate = Json {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "manifest.validate"},
            {"params", {{"manifest", bigManifest(20000)}}}}
                                         .dump();
        QVERIFY(client.sendRaw(validate + "\n" + hello + "\nnot json\n"));
        const auto first = client.next();
        QVERIFY(first);
        QVERIFY((*first)["id"] == Json(1));
        QCOMPARE((*first)["result"].value("valid", false), true);
        const auto second = client.next();
        QVERIFY(second);
        QVERIFY((*second)["id"] == Json(2));
        const auto third = client.next();
        QVERIFY(third);
        QCOMPARE(errorCode(*third), -32700);
    }

    void disconnectingDuringASlowRequestIsHarmless()
    {
        DaemonProcess daemon;
        for (int i = 0; i < 4; ++i) {
            RpcClient leaver;
            QVERIFY(leaver.connectTo(daemon.socket()));
            QVERIFY(leaver.send("manifest.render", {{"manifest", bigManifest(5000)}}, 1));
        }
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto valid = client.call("manifest.validate", {{"manifest", "ccm:\n  resources: []\n"}});
        QVERIFY(valid);
        QCOMPARE((*valid)["result"].value("valid", false), true);
        QVERIFY(daemon.running());
        QCOMPARE(daemon.terminate(), 0);
    }

    void stoppingAnswersTheRequestOnThePool()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.send("manifest.validate", {{"manifest", bigManifest(20000)}}, 1));
        // Answered on the I/O thread while the validate runs: the daemon has read the request.
        RpcClient other;
        QVERIFY(other.connectTo(daemon.socket()));
        QVERIFY(other.call("backend.hello", {{"client", "probe"}, {"version", "1"}}));
        ::kill(static_cast<pid_t>(daemon.pid()), SIGTERM);
        const auto answered = client.responseTo(1);
        QVERIFY(answered);
        QCOMPARE((*answered)["result"].value("valid", false), true);
        QCOMPARE(daemon.waitExit(), 0);
    }

    void oneUidHoldsAtMostSixteenConnections()
    {
        DaemonProcess daemon;
        std::vector<std::unique_ptr<RpcClient>> held;
        for (int i = 0; i < kPerUid; ++i) {
            held.push_back(std::make_unique<RpcClient>());
            QVERIFY(held.back()->connectTo(daemon.socket()));
            // Answered: the daemon has taken the connection on.
            QVERIFY(held.back()->call("backend.hello", {{"client", "holder"}, {"version", "1"}}));
        }
        RpcClient refused;
        QVERIFY(refused.connectTo(daemon.socket()));
        const auto why = refused.next();
        QVERIFY(why);
        QCOMPARE(errorCode(*why), -32002);
        QVERIFY2(
            q((*why)["error"].value("message", "")).contains(QStringLiteral("16 connections")), why->dump().c_str());
        QVERIFY(refused.waitClosed());

        // A slot that is given back can be taken again.
        held.pop_back();
        bool taken = false;
        for (int attempt = 0; attempt < 1000 && !taken; ++attempt) {
            RpcClient again;
            QVERIFY(again.connectTo(daemon.socket()));
            const auto reply = again.call("backend.hello", {{"client", "again"}, {"version", "1"}});
            taken = reply && errorCode(*reply) == 0;
        }
        QVERIFY(taken);
    }

    void rejectedRequestsAreLoggedRateLimited()
    {
        DaemonProcess daemon({}, QStringLiteral(CCM_BACKEND_BIN), {}, DaemonProcess::Log::Captured);
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        constexpr int kGarbage = 2000;
        std::string garbage;
        for (int i = 0; i < kGarbage; ++i)
            garbage += "garbage\n";
        QVERIFY(client.sendRaw(garbage));
        for (int i = 0; i < kGarbage; ++i) {
            const auto reply = client.next();
            QVERIFY(reply);
            QCOMPARE(errorCode(*reply), -32700);
        }
        const auto hello = client.call("backend.hello", {{"client", "t"}, {"version", "1"}});
        QVERIFY(hello);
        QCOMPARE(daemon.terminate(), 0);
        const QByteArray log = daemon.log();
        QCOMPARE(countOf(log, "rejected request: invalid JSON"), 5);
        QVERIFY2(log.contains("1995 more rejected (parse_error)"), log.constData());
        // Accepted requests keep their line each.
        QCOMPARE(countOf(log, ": backend.hello"), 1);
        QVERIFY2(log.size() < 4096, log.constData());
    }
};

CCM_TEST_GUILESS_MAIN(TestServeLimits)
#include "tst_serve_limits.moc"
