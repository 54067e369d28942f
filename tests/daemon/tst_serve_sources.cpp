// SPDX-License-Identifier: Apache-2.0
// The `source` param of manifest.validate, manifest.render and apply.start on a real daemon, with
// bundles on disk, on a real local HTTP server and in a real nats-server's object store.
#include "../fleet/http_server.h"
#include "../fleet/nats_server.h"
#include "daemon_harness.h"
#include "fleet/nats/nats_connection.h"
#include "test_main.h"

#include <QTest>

#include <nats/nats.h>

using namespace ccm;
using namespace ccm::test;

namespace {

const QString kExample = s(CCM_SOURCE_DIR "/resources/examples/static-site.yaml");

std::string readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

} // namespace

class TestServeSources : public QObject {
    Q_OBJECT

    HttpServer m_http;
    NatsServer m_nats;
    QString m_bundle;
    std::unique_ptr<DaemonProcess> m_daemon;
    RpcClient m_client;

    Json call(const std::string &method, const Json &params)
    {
        const auto reply = m_client.call(method, params);
        return reply ? *reply : Json {{"no", "answer"}};
    }

private slots:
    void initTestCase()
    {
        if (!HttpServer::available() || !NatsServer::available())
            QSKIP("python3 and nats-server are needed (scripts/install-deps installs them)");
        QVERIFY2(m_http.start(), qPrintable(m_http.error()));
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        m_bundle = m_http.root() + s("/site.tar.gz");
        QCOMPARE(runTool(s(CCM_BACKEND_BIN), {s("bundle"), kExample, s("-o"), m_bundle}), 0);
        QCOMPARE(
            runTool(s(CCM_BACKEND_BIN), {s("publish"), m_bundle, s("--bucket"), s("sites"), s("--nats"), m_nats.url()}),
            0);
        m_daemon = std::make_unique<DaemonProcess>();
        QVERIFY(QDir().mkpath(m_daemon->dir().filePath(s("config/nats/context"))));
        QVERIFY(writeFile(m_daemon->dir().filePath(s("config/nats/context/CCM.json")),
            "{\"url\": \"" + m_nats.url().toUtf8() + "\"}"));
        QVERIFY(m_client.connectTo(m_daemon->socket()));

        fleet::NatsSettings settings;
        settings.url = m_nats.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        QVERIFY(connection);
        kvConfig config;
        kvConfig_Init(&config);
        config.Bucket = "config";
        kvStore *store = nullptr;
        QCOMPARE(js_CreateKeyValue(&store, connection.value()->jetStream(), &config), NATS_OK);
        uint64_t revision = 0;
        QCOMPARE(kvStore_PutString(&revision, store, "motd", "hello from kv"), NATS_OK);
        kvStore_Destroy(store);
    }

    void cleanup()
    {
        if (m_daemon)
            QCOMPARE(m_daemon->leftInTmp(), QStringList());
    }

    void sourcesGiveWhatTheManifestGives_data()
    {
        QTest::addColumn<QString>("source");
        QTest::newRow("local bundle") << m_bundle;
        QTest::newRow("http") << m_http.url(s("/redirect/site.tar.gz"));
        QTest::newRow("obj") << s("obj://sites/site.tar.gz");
    }

    void sourcesGiveWhatTheManifestGives()
    {
        QFETCH(QString, source);
        const std::string text = readText(kExample);
        const std::string base = QFileInfo(kExample).absolutePath().toStdString();

        const Json valid = call("manifest.validate", {{"source", source.toStdString()}});
        QVERIFY2(valid["result"].value("valid", false), valid.dump().c_str());

        const Json expected = call("manifest.render", {{"manifest", text}, {"base_dir", base}});
        const Json rendered = call("manifest.render", {{"source", source.toStdString()}});
        QVERIFY2(errorCode(rendered) == 0, rendered.dump().c_str());
        QVERIFY2(rendered["result"] == expected["result"], rendered.dump().c_str());

        const Json preview = call("apply.start", {{"source", source.toStdString()}, {"noop", true}});
        QVERIFY2(errorCode(preview) == 0, preview.dump().c_str());
        const Json direct = call("apply.start", {{"manifest", text}, {"base_dir", base}, {"noop", true}});
        QCOMPARE(preview["result"]["summary"].value("changed", -1), direct["result"]["summary"].value("changed", -2));
        QCOMPARE(preview["result"]["summary"].value("failed", -1), 0);
    }

    void kvGetWithTheServersContext()
    {
        const std::string manifest = "ccm:\n  pre_message: \"{{ kvGet('config', 'motd') }}\"\n  resources: []\n";
        const Json rendered = call("manifest.render", {{"manifest", manifest}});
        QVERIFY2(rendered["result"].value("yaml", "").find("pre_message: hello from kv") != std::string::npos,
            rendered.dump().c_str());
        const std::string missing = "ccm:\n  pre_message: \"{{ kvGet('config', 'absent') }}\"\n  resources: []\n";
        const Json refused = call("manifest.render", {{"manifest", missing}});
        QCOMPARE(errorCode(refused), -32003);
        QVERIFY2(refused.dump().find("has no key 'absent'") != std::string::npos, refused.dump().c_str());
    }

    void refusesWrongParams_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QByteArray>("params");
        QTest::addColumn<QString>("path");
        QTest::newRow("both") << s("manifest.validate") << QByteArray(R"({"manifest": "", "source": "/b.tgz"})")
                              << s("source");
        QTest::newRow("neither") << s("apply.start") << QByteArray(R"({"noop": true})") << s("manifest");
        QTest::newRow("with base_dir") << s("manifest.render") << QByteArray(R"({"source": "/b.tgz", "base_dir": "/"})")
                                       << s("base_dir");
        QTest::newRow("a YAML file") << s("manifest.render") << QByteArray(R"({"source": "/srv/site.yaml"})")
                                     << s("source");
        QTest::newRow("relative") << s("manifest.render") << QByteArray(R"({"source": "site.tgz"})") << s("source");
        QTest::newRow("not a string") << s("manifest.render") << QByteArray(R"({"source": 5})") << s("source");
    }

    void refusesWrongParams()
    {
        QFETCH(QString, method);
        QFETCH(QByteArray, params);
        QFETCH(QString, path);
        const Json reply = call(method.toStdString(), Json::parse(params.toStdString()));
        QCOMPARE(errorCode(reply), -32602);
        QCOMPARE(q(reply["error"]["data"].value("path", "")), path);
    }

    void reportsUnavailableSources_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("message");
        QTest::newRow("404") << m_http.url(s("/files/absent.tar.gz"))
                             << m_http.url(s("/files/absent.tar.gz: HTTP 404 Not Found"));
        QTest::newRow("missing object") << s("obj://sites/absent.tgz") << s("obj://sites/absent.tgz: ");
        QTest::newRow("missing file") << s("/nonexistent/site.tgz") << s("/nonexistent/site.tgz: ");
        QTest::newRow("credentials hidden") << m_http.url(s("/files/absent.tar.gz")).replace(s("//"), s("//u:pw@"))
                                            << m_http.url(s("/files/absent.tar.gz")).replace(s("//"), s("//***@"));
    }

    void reportsUnavailableSources()
    {
        QFETCH(QString, source);
        QFETCH(QString, message);
        for (const char *method : {"manifest.validate", "manifest.render"}) {
            const Json reply = call(method, {{"source", source.toStdString()}});
            QCOMPARE(errorCode(reply), -32006);
            QCOMPARE(reply["error"]["data"].value("reason", ""), std::string("source_unavailable"));
            QVERIFY2(q(reply["error"].value("message", "")).startsWith(message), reply.dump().c_str());
            QVERIFY(reply.dump().find(":pw@") == std::string::npos);
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestServeSources)
#include "tst_serve_sources.moc"
