// SPDX-License-Identifier: Apache-2.0
// fleet.capture of a user's `ccm-backend serve --user` as a real process, with a real nats-server
// and a real `ccm-backend agent` with preview.capture on: the capture of a file on the agent's
// host, checked against protocol.json; a host that does not answer; bad params; other users refused.
#include "../fleet/fleet_agent_process.h"
#include "../fleet/nats_server.h"
#include "daemon_harness.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace ccm;
using namespace ccm::test;

class TestServeFleetCapture : public QObject {
    Q_OBJECT

    NatsServer m_server;
    QTemporaryDir m_dir;
    QTemporaryDir m_tree;
    std::unique_ptr<FleetAgent> m_agent;

    QString keyPath() const { return m_dir.filePath(QStringLiteral("signer.pem")); }
    QString motd() const { return m_tree.filePath(QStringLiteral("motd")); }

private Q_SLOTS:
    void initTestCase()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
            QSKIP("needs a user named nobody to read captures as");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        QCOMPARE(runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), keyPath()})
                     .exitCode,
            0);
        ::chmod(m_tree.path().toUtf8().constData(), 0755);
        QVERIFY(writeFile(motd(), "served by the golden host\n"));
        ::chmod(motd().toUtf8().constData(), 0644);
        m_agent = std::make_unique<FleetAgent>(QStringLiteral("cap-d"), "web", m_server.url());
        m_agent->configure("  enabled: true\n  trusted_keys: ["
            + m_dir.filePath(QStringLiteral("signer.pub.pem")).toUtf8() + "]\n  user: " + previewUser()
            + "\n  capture: true\n");
        m_agent->start();
        QVERIFY2(m_agent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(m_agent->log()));
    }

    void captureOfAFleetHost()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("fleet.capture",
            {{"host", "cap-d"}, {"key", text(keyPath())}, {"files", {text(motd())}}, {"nats", text(m_server.url())},
                {"timeout_ms", 60000}});
        QVERIFY(reply);
        QVERIFY2(reply->contains("result"), reply->dump().c_str());
        QVERIFY2(sentProblems("response.fleet.capture", *reply).isEmpty(),
            qPrintable(sentProblems("response.fleet.capture", *reply).join(QLatin1Char('\n'))));
        const Json &result = (*reply)["result"];
        QCOMPARE(result.value("identity", ""), std::string("cap-d"));
        QCOMPARE(result.value("captured_by", ""), std::string(previewUser().constData()));
        QCOMPARE(result["resources"].size(), std::size_t(1));
        QCOMPARE(result["resources"][0].value("name", ""), text(motd()));
        QVERIFY(result.value("yaml", "").find("served by the golden host") != std::string::npos);
    }

    void silentHost()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call("fleet.capture",
            {{"host", "cap-elsewhere"}, {"key", text(keyPath())}, {"packages", {"bash"}},
                {"nats", text(m_server.url())}, {"timeout_ms", 1000}});
        QVERIFY(reply);
        QVERIFY2(reply->contains("error"), reply->dump().c_str());
        QCOMPARE((*reply)["error"]["data"].value("cause", ""), std::string("no_answer"));
        QVERIFY2((*reply)["error"].value("message", "").starts_with("no answer from cap-elsewhere within 1s"),
            reply->dump().c_str());
    }

    void badParams_data()
    {
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QByteArray>("path");
        QTest::newRow("no host") << QByteArray(R"({"key": "KEY", "files": ["/etc"]})") << QByteArray("host");
        QTest::newRow("host not a string")
            << QByteArray(R"({"host": 7, "key": "KEY", "files": ["/etc"]})") << QByteArray("host");
        QTest::newRow("no key") << QByteArray(R"({"host": "h", "files": ["/etc"]})") << QByteArray("key");
        QTest::newRow("nothing to capture") << QByteArray(R"({"host": "h", "key": "KEY"})") << QByteArray("files");
        QTest::newRow("relative file") << QByteArray(R"({"host": "h", "key": "KEY", "files": ["etc"]})")
                                       << QByteArray("files/0");
        QTest::newRow("data not a bool") << QByteArray(R"({"host": "h", "key": "KEY", "files": ["/etc"], "data": 1})")
                                         << QByteArray("data");
        QTest::newRow("unknown member") << QByteArray(
            R"({"host": "h", "key": "KEY", "files": ["/etc"], "select": "true"})")
                                        << QByteArray("select");
        QTest::newRow("timeout too short")
            << QByteArray(R"({"host": "h", "key": "KEY", "files": ["/etc"], "timeout_ms": 1})")
            << QByteArray("timeout_ms");
    }

    void badParams()
    {
        QFETCH(QByteArray, params);
        QFETCH(QByteArray, path);
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        params.replace("KEY", keyPath().toUtf8());
        const auto reply = client.call("fleet.capture", Json::parse(params.toStdString()));
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        if (!path.isEmpty())
            QCOMPARE((*reply)["error"]["data"].value("path", ""), path.toStdString());
        QVERIFY(!(*reply)["error"].value("message", "").empty());
    }

    // 256 paths of about 3,800 bytes each are within the method's limits, but no signed request an
    // agent reads (64 KiB) holds them: refused before anything is sent, naming the list.
    void selectionTooLargeForOneRequest()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        Json files = Json::array();
        for (int i = 0; i < 256; ++i) {
            std::string path;
            for (int part = 0; part < 15; ++part)
                path += "/" + std::string(250, 'a');
            files.push_back(path + "/" + std::to_string(i));
        }
        const auto reply = client.call("fleet.capture",
            {{"host", "cap-d"}, {"key", text(keyPath())}, {"files", files}, {"nats", text(m_server.url())}});
        QVERIFY(reply);
        QVERIFY2(errorCode(*reply) == -32602, reply->dump().c_str());
        const Json &data = (*reply)["error"]["data"];
        QVERIFY2(data.value("path", "") == "files" && data.value("cause", "") == "bad_request", reply->dump().c_str());
        QVERIFY2(sentProblems("error.invalid_params", *reply).isEmpty(),
            qPrintable(sentProblems("error.invalid_params", *reply).join(QLatin1Char('\n'))));
    }

    void otherUsersAreRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to connect as another uid");
        DaemonProcess daemon(userMode());
        QVERIFY(QFile::setPermissions(daemon.dir().path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        RpcClient owner;
        QVERIFY(owner.connectTo(daemon.socket())); // the socket is there once its owner connects
        QCOMPARE(::chmod(daemon.socket().toLocal8Bit().constData(), 0666), 0);
        RpcClient client;
        bool connected = false;
        std::thread([&] {
            if (::syscall(SYS_setresuid, -1, 65534, -1) == 0)
                connected = client.connectTo(daemon.socket());
        }).join();
        QVERIFY(connected);
        // It signs with the daemon user's key and reaches NATS with its contexts: its own uid only.
        const auto reply = client.call("fleet.capture",
            {{"host", "cap-d"}, {"key", text(keyPath())}, {"files", {text(motd())}}, {"nats", text(m_server.url())}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32001);
    }

    void cleanupTestCase()
    {
        if (m_agent)
            QCOMPARE(m_agent->stop(), 0);
    }
};

CCM_TEST_GUILESS_MAIN(TestServeFleetCapture)
#include "tst_serve_fleet_capture.moc"
