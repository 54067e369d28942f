// SPDX-License-Identifier: Apache-2.0
// The bundle methods of `ccm-backend serve` as a real process, with a real nats-server: listing,
// exporting, publishing (read back with ObjectStore::get), opening, and each way reaching a
// server can fail.
#include "../fleet/http_server.h"
#include "../fleet/nats_server.h"
#include "base/signing_key.h"
#include "daemon_harness.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <sstream>
#include <sys/syscall.h>
#include <thread>

using namespace ccm;
using namespace ccm::test;

namespace {

constexpr char kManifest[] = "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                             "            ensure: present\n            owner: root\n            group: root\n"
                             "            mode: \"0644\"\n            source: files/motd\n"
                             "        - /etc/issue:\n            ensure: present\n            owner: root\n"
                             "            group: root\n            mode: \"0644\"\n"
                             "            content: \"{{ readFile(Data.issue) }}\"\n";

} // namespace

class TestServeFleet : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    /// A directory holding the files kManifest reaches.
    QString site()
    {
        const QString root = m_dir.filePath(QStringLiteral("site"));
        QDir().mkpath(root + QStringLiteral("/files"));
        writeFile(root + QStringLiteral("/files/motd"), "hello\n");
        return root;
    }

    void writeContext(DaemonProcess &daemon, const QString &name, const QByteArray &json)
    {
        const QString directory = daemon.dir().filePath(QStringLiteral("config/nats/context"));
        QVERIFY(QDir().mkpath(directory));
        QVERIFY(writeFile(directory + QLatin1Char('/') + name + QStringLiteral(".json"), json));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
    }

    void listsMembersAndFindings()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply
            = client.call("bundle.list", {{"manifest", kManifest}, {"base_dir", text(site())}, {"name", "site.yaml"}});
        QVERIFY(reply);
        const Json &result = (*reply)["result"];
        QCOMPARE(result.value("ok", false), true);
        QVERIFY2(result["members"] == (Json {"files/motd", "manifest.yaml", "SHA256SUMS"}), result.dump().c_str());
        QCOMPARE(result["findings"].size(), std::size_t(1));
        const Json &finding = result["findings"][0];
        QCOMPARE(finding.value("severity", ""), std::string("warning"));
        QCOMPARE(finding.value("line", 0), 15);
        QVERIFY(finding.value("message", "").find("readFile() is computed at run time") != std::string::npos);
        QVERIFY2(finding.value("text", "").find("/site/site.yaml:15:") != std::string::npos, finding.dump().c_str());
    }

    void exportRefusesAManifestWithErrors()
    {
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const QString output = m_dir.filePath(QStringLiteral("bad.tar.gz"));
        const std::string manifest = std::string(kManifest) + "    - file:\n        - /etc/x:\n"
            + "            ensure: present\n            owner: root\n            group: root\n"
            + "            mode: \"0644\"\n            source: ../../outside\n";
        const auto reply = client.call(
            "bundle.export", {{"manifest", manifest}, {"base_dir", text(site())}, {"output", text(output)}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32007);
        QVERIFY((*reply)["error"]["data"]["findings"].size() >= 1);
        QVERIFY(!QFile::exists(output));
    }

    void badParams_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QByteArray>("path");
        QTest::newRow("relative base_dir")
            << QByteArray("bundle.list") << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "x"})")
            << QByteArray("base_dir");
        QTest::newRow("output not a bundle")
            << QByteArray("bundle.export")
            << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "output": "/x.zip"})") << QByteArray("output");
        QTest::newRow("include not a list")
            << QByteArray("bundle.list") << QByteArray(R"({"manifest": "ccm: {}", "base_dir": "/", "include": 1})")
            << QByteArray("include");
        QTest::newRow("no bucket") << QByteArray("bundle.publish") << QByteArray(R"({"file": "/x.tgz"})")
                                   << QByteArray("bucket");
        QTest::newRow("replicas zero")
            << QByteArray("bundle.publish")
            << QByteArray(R"({"file": "/x.tgz", "bucket": "b", "nats": "nats:\/\/127.0.0.1:1", "replicas": 0})")
            << QByteArray("replicas");
        QTest::newRow("replicas six")
            << QByteArray("bundle.publish")
            << QByteArray(R"({"file": "/x.tgz", "bucket": "b", "nats": "nats:\/\/127.0.0.1:1", "replicas": 6})")
            << QByteArray("replicas");
        QTest::newRow("replicas text")
            << QByteArray("bundle.publish")
            << QByteArray(R"({"file": "/x.tgz", "bucket": "b", "nats": "nats:\/\/127.0.0.1:1", "replicas": "3"})")
            << QByteArray("replicas");
        QTest::newRow("relative location")
            << QByteArray("bundle.open") << QByteArray(R"({"location": "site.tgz"})") << QByteArray("location");
    }

    void badParams()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, params);
        QFETCH(QByteArray, path);
        DaemonProcess daemon;
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const auto reply = client.call(method.toStdString(), Json::parse(params.toStdString()));
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        QCOMPARE((*reply)["error"]["data"].value("path", ""), path.toStdString());
    }

    void exportsPublishesAndOpens()
    {
        NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        DaemonProcess daemon;
        writeContext(daemon, QStringLiteral("fleet"), "{\"url\": \"" + server.url().toUtf8() + "\"}");
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));

        const QString output = m_dir.filePath(QStringLiteral("site.tar.gz"));
        const auto exported = client.call(
            "bundle.export", {{"manifest", kManifest}, {"base_dir", text(site())}, {"output", text(output)}});
        QVERIFY(exported);
        QCOMPARE((*exported)["result"].value("output", ""), text(output));
        QFile file(output);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();

        std::vector<Json> notifications;
        const auto published = client.call("bundle.publish",
            {{"file", text(output)}, {"bucket", "sites"}, {"name", "web/site.tar.gz"}, {"context", "fleet"},
                {"replicas", 1}},
            &notifications);
        QVERIFY(published);
        const Json &result = (*published)["result"];
        QCOMPARE(result.value("url", ""), std::string("obj://sites/web/site.tar.gz"));
        QCOMPARE(result.value("size", qsizetype(0)), bytes.size());
        QVERIFY(!notifications.empty());
        const Json &last = notifications.back();
        QCOMPARE(last.value("method", ""), std::string("bundle.progress"));
        QCOMPARE(last["params"].value("sent", qsizetype(0)), bytes.size());
        QCOMPARE(last["params"].value("total", qsizetype(0)), bytes.size());

        fleet::NatsSettings settings;
        settings.url = server.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        QVERIFY(connection);
        auto store = fleet::ObjectStore::open(*connection.value(), "sites");
        QVERIFY(store);
        std::ostringstream back;
        QVERIFY(store.value().get("web/site.tar.gz", back));
        QCOMPARE(QByteArray::fromStdString(back.str()), bytes);
        QVERIFY2(result.value("signer", "-").empty(), published->dump().c_str());
        QCOMPARE(result["release"].value("digest", ""), result.value("digest", ""));

        // Signed with a key on the way, and recorded as a release with the message.
        auto key = generateSigningKey();
        QVERIFY(key);
        const std::string keyFile = text(m_dir.filePath(QStringLiteral("release.pem")));
        QVERIFY(writeKeyPair(*key, keyFile, keyFile + ".pub", true));
        const auto signedPublish = client.call("bundle.publish",
            {{"file", text(output)}, {"bucket", "sites"}, {"name", "web/signed.tar.gz"}, {"key", keyFile},
                {"message", "signed on the way"}, {"context", "fleet"}});
        QVERIFY(signedPublish);
        const Json &signedResult = (*signedPublish)["result"];
        QCOMPARE(signedResult.value("signer", ""), keyFingerprint(key->publicKey));
        QCOMPARE(signedResult["release"].value("message", ""), std::string("signed on the way"));
        std::ostringstream signedBack;
        QVERIFY(store.value().get("web/signed.tar.gz", signedBack));
        QVERIFY(qsizetype(signedBack.str().size()) > bytes.size());
        const auto badKey = client.call("bundle.publish",
            {{"file", text(output)}, {"bucket", "sites"}, {"key", "/nonexistent/k.pem"}, {"context", "fleet"}});
        QVERIFY(badKey);
        QCOMPARE((*badKey)["error"]["data"].value("path", ""), std::string("key"));

        HttpServer http;
        QVERIFY2(http.start(), qPrintable(http.error()));
        QVERIFY(QFile::copy(output, http.root() + QStringLiteral("/site.tar.gz")));
        for (const std::string &location : {text(output), std::string("obj://sites/web/site.tar.gz"),
                 http.urlString(QStringLiteral("/files/site.tar.gz"))}) {
            const auto opened = client.call("bundle.open", {{"location", location}, {"context", "fleet"}});
            QVERIFY(opened);
            const Json &where = (*opened)["result"];
            const QString directory = QString::fromStdString(where.value("directory", ""));
            QVERIFY2(QFileInfo(directory).isDir(), opened->dump().c_str());
            QCOMPARE(QFileInfo(directory).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());
            QCOMPARE(QString::fromStdString(where.value("manifest", "")), directory + QStringLiteral("/manifest.yaml"));
            QFile motd(directory + QStringLiteral("/files/motd"));
            QVERIFY(motd.open(QIODevice::ReadOnly));
            QCOMPARE(motd.readAll(), QByteArray("hello\n"));
            QVERIFY(QDir(directory).removeRecursively());
        }

        const auto missing = client.call("bundle.open", {{"location", "obj://sites/absent.tgz"}, {"context", "fleet"}});
        QVERIFY(missing);
        QCOMPARE(errorCode(*missing), -32011);
        QCOMPARE((*missing)["error"]["data"].value("reason", ""), std::string("not_found"));

        const auto notServed
            = client.call("bundle.open", {{"location", http.urlString(QStringLiteral("/files/absent.tgz"))}});
        QVERIFY(notServed);
        QCOMPARE(errorCode(*notServed), -32012);
        QVERIFY((*notServed)["error"].value("message", "").find("404") != std::string::npos);
    }

    void reachingTheServerFails()
    {
        NatsServer guarded;
        QVERIFY2(guarded.start({false, "authorization {\n users = [ {user: alice, password: s3cret} ]\n}\n"}),
            qPrintable(guarded.error()));
        DaemonProcess daemon;
        writeContext(daemon, QStringLiteral("wrong"),
            "{\"url\": \"" + guarded.url().toUtf8() + "\", \"user\": \"alice\", \"password\": \"nope\"}");
        writeContext(daemon, QStringLiteral("right"),
            "{\"url\": \"" + guarded.url().toUtf8() + "\", \"user\": \"alice\", \"password\": \"s3cret\"}");
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        const QString file = m_dir.filePath(QStringLiteral("some.tgz"));
        QVERIFY(writeFile(file, "some bytes"));

        const auto publish = [&](Json params) {
            params["file"] = text(file);
            params["bucket"] = "b";
            return client.call("bundle.publish", params);
        };
        const auto unreachable = publish({{"nats", "nats://127.0.0.1:1"}});
        QVERIFY(unreachable);
        QCOMPARE(errorCode(*unreachable), -32008);
        QVERIFY((*unreachable)["error"].value("message", "").find("check that the server runs") != std::string::npos);

        const auto refused = publish({{"context", "wrong"}});
        QVERIFY(refused);
        QCOMPARE(errorCode(*refused), -32009);
        QVERIFY((*refused)["error"].value("message", "").find("refused the credentials") != std::string::npos);

        const auto noJetStream = publish({{"context", "right"}});
        QVERIFY(noJetStream);
        QCOMPARE(errorCode(*noJetStream), -32010);
        QVERIFY((*noJetStream)["error"].value("message", "").find("JetStream") != std::string::npos);
    }

    void otherUsersAreRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to connect as another uid");
        DaemonProcess daemon;
        // The socket's directory is the test's: others need to pass it to reach the socket.
        QVERIFY(QFile::setPermissions(daemon.dir().path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther));
        RpcClient client;
        bool connected = false;
        std::thread([&] {
            if (::syscall(SYS_setresuid, -1, 65534, -1) == 0)
                connected = client.connectTo(daemon.socket());
        }).join();
        QVERIFY(connected);
        const auto reply = client.call("bundle.list", {{"manifest", kManifest}, {"base_dir", text(site())}});
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32001);
        QVERIFY((*reply)["error"].value("message", "").find("serve --user") != std::string::npos);
    }
};

CCM_TEST_GUILESS_MAIN(TestServeFleet)
#include "tst_serve_fleet.moc"
