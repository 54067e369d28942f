// SPDX-License-Identifier: Apache-2.0
// The fleet methods of a user's `ccm-backend serve --user` as a real process, with a real
// nats-server and real preview responders (ccm-preview-fleet): fleet.status, fleet.preview with
// its notifications, per-host differences and a silent host, fleet.keygen and fleet.keyinfo,
// refusal of other users, and bad params.
#include "../fleet/nats_server.h"
#include "../fleet/preview_fleet_process.h"
#include "daemon_harness.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <chrono>
#include <ctime>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>

using namespace ccm;
using namespace ccm::test;

namespace {

/// A host CCM_STATUS lists as alive that answers no preview.
bool addSilentHost(const QString &url, const std::string &identity)
{
    fleet::NatsSettings settings;
    settings.url = text(url);
    auto connection = fleet::NatsConnection::connect(settings);
    if (!connection)
        return false;
    auto bucket = fleet::KvBucket::openOrCreate(*connection.value(), std::string(fleet::kStatusBucket));
    if (!bucket)
        return false;
    char now[32];
    const std::time_t seconds = std::time(nullptr);
    std::tm utc {};
    std::strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", ::gmtime_r(&seconds, &utc));
    const Json value {{"identity", identity}, {"time", now}, {"interval_seconds", 300}, {"version", "test"},
        {"summary", Json::object()}, {"failed_resources", Json::array()}, {"runs", Json::array()}};
    return static_cast<bool>(bucket.value().put(fleet::statusKey(identity), value.dump()));
}

const Json *findHost(const Json &hosts, const std::string &identity)
{
    for (const Json &host : hosts)
        if (host.value("identity", "") == identity)
            return &host;
    return nullptr;
}

} // namespace

class TestServeFleetPreview : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_key;

    QString keyPath() { return m_dir.filePath(QStringLiteral("signer.pem")); }

    /// A manifest whose file holds "role web": unchanged on host-0 (role web), changed on host-1.
    std::string roleManifest()
    {
        const QString target = m_dir.filePath(QStringLiteral("role"));
        writeFile(target, "role web\n");
        return "ccm:\n  resources:\n    - file:\n        - " + text(target)
            + ":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \"role {{ Facts.role }}\\n\"\n";
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto made = client.call("fleet.keygen", {{"private", text(keyPath())}});
        QVERIFY(made);
        QVERIFY2(made->contains("result"), made->dump().c_str());
    }

    void keygenAndKeyinfo()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const QString key = m_dir.filePath(QStringLiteral("other.pem"));
        const auto made = client.call("fleet.keygen", {{"private", text(key)}});
        QVERIFY(made);
        const Json &result = (*made)["result"];
        QVERIFY2(sentProblems("response.fleet.keygen", *made).isEmpty(), made->dump().c_str());
        QCOMPARE(result.value("private", ""), text(key));
        QCOMPARE(result.value("public", ""), text(m_dir.filePath(QStringLiteral("other.pub.pem"))));
        QVERIFY(result.value("public_pem", "").starts_with("-----BEGIN PUBLIC KEY-----"));
        QCOMPARE(result.value("fingerprint", "").size(), std::size_t(16));
        struct stat info { };
        QCOMPARE(::stat(key.toUtf8().constData(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("other.pub.pem"))));

        const auto info1 = client.call("fleet.keyinfo", {{"private", text(key)}});
        QVERIFY(info1);
        QVERIFY2(sentProblems("response.fleet.keyinfo", *info1).isEmpty(), info1->dump().c_str());
        QCOMPARE((*info1)["result"].value("fingerprint", ""), result.value("fingerprint", ""));
        QCOMPARE((*info1)["result"].value("public_pem", ""), result.value("public_pem", ""));

        const auto again = client.call("fleet.keygen", {{"private", text(key)}});
        QVERIFY(again);
        QCOMPARE(errorCode(*again), -32602);
        QCOMPARE((*again)["error"]["data"].value("path", ""), std::string("overwrite"));
        const auto replaced = client.call("fleet.keygen", {{"private", text(key)}, {"overwrite", true}});
        QVERIFY(replaced);
        QVERIFY((*replaced)["result"].value("fingerprint", "") != result.value("fingerprint", ""));
    }

    void badParams_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QByteArray>("path");
        QTest::newRow("no key") << QByteArray("fleet.preview")
                                << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/"})") << QByteArray("key");
        QTest::newRow("relative key") << QByteArray("fleet.preview")
                                      << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "k.pem"})")
                                      << QByteArray("key");
        QTest::newRow("missing key file")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "/nonexistent/k.pem"})")
            << QByteArray("key");
        QTest::newRow("timeout not a number")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "KEY", "timeout_ms": "30s"})")
            << QByteArray("timeout_ms");
        QTest::newRow("timeout too short")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "KEY", "timeout_ms": 0})")
            << QByteArray("timeout_ms");
        QTest::newRow("timeout too long")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "KEY", "timeout_ms": 86400000})")
            << QByteArray("timeout_ms");
        QTest::newRow("select not a string")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "KEY", "select": true})")
            << QByteArray("select");
        QTest::newRow("manifest and source")
            << QByteArray("fleet.preview") << QByteArray(R"({"manifest": "ccm: {}", "source": "/x.tgz", "key": "KEY"})")
            << QByteArray("source");
        QTest::newRow("neither manifest nor source")
            << QByteArray("fleet.preview") << QByteArray(R"({"key": "KEY"})") << QByteArray("manifest");
        QTest::newRow("source a yaml file")
            << QByteArray("fleet.preview") << QByteArray(R"({"source": "/site/manifest.yaml", "key": "KEY"})")
            << QByteArray("source");
        QTest::newRow("relative source") << QByteArray("fleet.preview")
                                         << QByteArray(R"({"source": "site.tgz", "key": "KEY"})")
                                         << QByteArray("source");
        QTest::newRow("relative base_dir")
            << QByteArray("fleet.preview") << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "x", "key": "KEY"})")
            << QByteArray("base_dir");
        QTest::newRow("target not obj")
            << QByteArray("fleet.preview")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "key": "KEY", "target": "/site.tgz"})")
            << QByteArray("target");
        QTest::newRow("nats not a string")
            << QByteArray("fleet.status") << QByteArray(R"({"nats": 4222})") << QByteArray("nats");
        QTest::newRow("keygen relative") << QByteArray("fleet.keygen") << QByteArray(R"({"private": "k.pem"})")
                                         << QByteArray("private");
        QTest::newRow("keygen overwrite not a bool")
            << QByteArray("fleet.keygen") << QByteArray(R"({"private": "/tmp/k.pem", "overwrite": "yes"})")
            << QByteArray("overwrite");
        QTest::newRow("keyinfo no private") << QByteArray("fleet.keyinfo") << QByteArray("{}") << QByteArray("private");
    }

    void badParams()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, params);
        QFETCH(QByteArray, path);
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        params.replace("KEY", keyPath().toUtf8());
        const auto reply = client.call(method.toStdString(), Json::parse(params.toStdString()));
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        QCOMPARE((*reply)["error"]["data"].value("path", ""), path.toStdString());
        QVERIFY(!(*reply)["error"].value("message", "").empty());
    }

    void statusAndPreview()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        PreviewFleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            m_dir.filePath(QStringLiteral("signer.pub.pem")), QStringLiteral("--hosts"), QStringLiteral("2"),
            QStringLiteral("--work"), m_dir.filePath(QStringLiteral("work")), QStringLiteral("--status"),
            QStringLiteral("yes")}));
        QVERIFY(addSilentHost(server.url(), "host-gone"));
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));

        const auto status = client.call("fleet.status", {{"nats", text(server.url())}});
        QVERIFY(status);
        const Json &hosts = (*status)["result"]["hosts"];
        QVERIFY2(hosts.size() == 3, status->dump().c_str());
        QCOMPARE(hosts[0].value("identity", ""), std::string("host-0"));
        QCOMPARE(hosts[2].value("identity", ""), std::string("host-gone"));
        QCOMPARE(hosts[0].value("stale", true), false);

        std::vector<Json> notifications;
        const auto preview = client.call("fleet.preview",
            {{"manifest", roleManifest()}, {"base_dir", text(m_dir.path())}, {"key", text(keyPath())},
                {"nats", text(server.url())}, {"timeout_ms", 3000}},
            &notifications);
        QVERIFY(preview);
        QVERIFY2(preview->contains("result"), preview->dump().c_str());
        const Json &result = (*preview)["result"];
        const std::string request = result.value("request", "");
        QVERIFY(!request.empty());
        QCOMPARE(result["hosts"].size(), std::size_t(3));
        const Json *web = findHost(result["hosts"], "host-0");
        const Json *db = findHost(result["hosts"], "host-1");
        const Json *gone = findHost(result["hosts"], "host-gone");
        QVERIFY(web && db && gone);
        QCOMPARE(web->value("state", ""), std::string("done"));
        QCOMPARE((*web)["summary"].value("changed", -1), 0);
        QCOMPARE(db->value("state", ""), std::string("done"));
        QCOMPARE((*db)["summary"].value("changed", -1), 1);
        QCOMPARE(gone->value("state", ""), std::string("silent"));
        QVERIFY(!gone->contains("summary"));
        const Json &totals = result["totals"];
        QVERIFY2(totals
                == (Json {{"hosts", 3}, {"answered", 2}, {"silent", 1}, {"declined", 0}, {"failed", 0}, {"changed", 1},
                    {"resources_failed", 0}, {"intended", 0}, {"drift", 0}, {"uncompared_hosts", 2}, {"stable", 1}}),
            totals.dump().c_str());
        // These hosts keep no current bundle: each says so, in the result and in its done.
        QVERIFY2((*db)["compare"] == (Json {{"state", "none"}, {"reason", "this host keeps no current bundle"}}),
            db->dump().c_str());
        QVERIFY(!gone->contains("compare"));

        // What the daemon sends is what docs/protocol.md and protocol.json describe.
        QStringList problems
            = sentProblems("response.fleet.status", *status) + sentProblems("response.fleet.preview", *preview);
        bool dbDone = false;
        bool dbDiff = false;
        // The agents answer in format 2: host-0's file would not change, so its done names it
        // stable and no fleet.event comes for it.
        bool webStable = false;
        for (const Json &note : notifications) {
            problems += sentProblems(("notification." + note.value("method", "")).c_str(), note);
            const Json &params = note["params"];
            QCOMPARE(params.value("request", ""), request);
            if (note.value("method", "") == "fleet.host" && params.value("identity", "") == "host-1")
                dbDone = dbDone
                    || (params.value("state", "") == "done"
                        && params["compare"].value("reason", "") == "this host keeps no current bundle");
            if (note.value("method", "") == "fleet.event" && params.value("identity", "") == "host-1")
                dbDiff = params["event"].value("diff", "").find("+role db") != std::string::npos;
            QVERIFY2(!(note.value("method", "") == "fleet.event" && params.value("identity", "") == "host-0"),
                note.dump().c_str());
            if (note.value("method", "") == "fleet.host" && params.value("state", "") == "done") {
                QVERIFY2(params.contains("stable") && params["stable"].is_array(), note.dump().c_str());
                if (params.value("identity", "") == "host-0")
                    webStable
                        = params["stable"].size() == 1 && params["stable"][0].get<std::string>().starts_with("file#");
                else
                    QVERIFY2(params["stable"].empty(), note.dump().c_str());
            }
            QVERIFY(params.value("identity", "") != "host-gone");
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(dbDone);
        QVERIFY2(dbDiff, Json(notifications).dump().c_str());
        QVERIFY2(webStable, Json(notifications).dump().c_str());
    }

    void hangingUpCancelsThePreview()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        PreviewFleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            m_dir.filePath(QStringLiteral("signer.pub.pem")), QStringLiteral("--work"),
            m_dir.filePath(QStringLiteral("work")), QStringLiteral("--status"), QStringLiteral("yes")}));
        QVERIFY(addSilentHost(server.url(), "host-gone"));
        DaemonProcess daemon(userMode(), QStringLiteral(CCM_BACKEND_BIN), {}, DaemonProcess::Log::Captured);
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        QVERIFY(client.send("fleet.preview",
            {{"manifest", roleManifest()}, {"base_dir", text(m_dir.path())}, {"key", text(keyPath())},
                {"nats", text(server.url())}, {"timeout_ms", 600000}},
            1));
        // host-0 answers; the silent host would keep the preview waiting for ten minutes.
        bool answered = false;
        while (!answered) {
            const auto note = client.next();
            QVERIFY(note);
            QVERIFY2(!note->contains("id"), note->dump().c_str());
            answered = (*note)["params"].value("state", "") == "done";
        }
        client.disconnect();
        QTRY_VERIFY_WITH_TIMEOUT(daemon.log().contains("ended: 2 hosts, cancelled"), kPatienceMs);
        QCOMPARE(daemon.terminate(), 0);
    }

    void otherUsersAreRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to connect as another uid");
        DaemonProcess daemon(userMode());
        // The socket's directory is the test's: others need to pass it to reach the socket.
        QVERIFY(QFile::setPermissions(daemon.dir().path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        RpcClient owner;
        QVERIFY(owner.connectTo(daemon.socket()));
        // The socket's mode already keeps others out; opened up, the daemon still refuses them.
        QCOMPARE(::chmod(daemon.socket().toLocal8Bit().constData(), 0666), 0);
        RpcClient client;
        bool connected = false;
        std::thread([&] {
            if (::syscall(SYS_setresuid, -1, 65534, -1) == 0)
                connected = client.connectTo(daemon.socket());
        }).join();
        QVERIFY(connected);
        for (const char *method : {"fleet.status", "fleet.preview", "fleet.keygen", "fleet.keyinfo", "fleet.releases",
                 "fleet.rollback", "fleet.rollouts", "fleet.rollout", "fleet.rollout.control"}) {
            const auto reply = client.call(method, {{"private", text(keyPath())}});
            QVERIFY(reply);
            QCOMPARE(errorCode(*reply), -32001);
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestServeFleetPreview)
#include "tst_serve_fleet_preview.moc"
