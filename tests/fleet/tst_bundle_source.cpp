// SPDX-License-Identifier: Apache-2.0
// Fetching bundles over http(s) from a real local server, from a real nats-server's object store,
// and reading NATS key-value entries.
#include "fleet/agent/bundle_source.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "http_server.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QtTest>

#include <nats/nats.h>
#include <sstream>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::readFile;
using ccm::test::s;

namespace {

} // namespace

class TestBundleSource : public QObject {
    Q_OBJECT

    test::HttpServer m_http;
    test::HttpServer m_https;
    test::NatsServer m_nats;
    QTemporaryDir m_dir;
    QByteArray m_data = test::randomBytes(300 * 1024 + 3, 7);

    /// What a fetch left in the destination's directory besides the destination.
    QStringList leftovers() const
    {
        QStringList entries = QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden);
        entries.removeAll(s("out.tar.gz"));
        return entries;
    }

    std::filesystem::path destination() const { return m_dir.filePath(s("out.tar.gz")).toStdString(); }

private slots:
    void initTestCase()
    {
        if (!test::HttpServer::available())
            QSKIP("python3 is not installed");
        QVERIFY2(m_http.start(), qPrintable(m_http.error()));
        QVERIFY2(m_https.start(true), qPrintable(m_https.error()));
        for (const test::HttpServer *server : {&m_http, &m_https})
            test::writeFile(server->root() + s("/site.tar.gz"), m_data);
    }

    void cleanup()
    {
        QFile::remove(m_dir.filePath(s("out.tar.gz")));
        QCOMPARE(leftovers(), QStringList());
    }

    void classifiesArguments_data()
    {
        QTest::addColumn<QString>("argument");
        QTest::addColumn<int>("kind");
        QTest::newRow("yaml") << s("site.yaml") << int(SourceKind::YamlFile);
        QTest::newRow("tgz") << s("/srv/site.tgz") << int(SourceKind::LocalBundle);
        QTest::newRow("tar.gz") << s("site.tar.gz") << int(SourceKind::LocalBundle);
        QTest::newRow("http") << s("http://h/x") << int(SourceKind::HttpBundle);
        QTest::newRow("https") << s("https://h/x.tar.gz") << int(SourceKind::HttpBundle);
        QTest::newRow("obj") << s("obj://b/k.tgz") << int(SourceKind::ObjectBundle);
    }

    void classifiesArguments()
    {
        QFETCH(QString, argument);
        QFETCH(int, kind);
        QCOMPARE(int(sourceKind(argument.toStdString())), kind);
    }

    void redactsCredentials_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::newRow("user and password") << s("https://al:pw@h:1/x?a=b@c") << s("https://***@h:1/x?a=b@c");
        QTest::newRow("user") << s("http://al@h/x") << s("http://***@h/x");
        QTest::newRow("none") << s("http://h/x@y") << s("http://h/x@y");
    }

    void redactsCredentials()
    {
        QFETCH(QString, url);
        QFETCH(QString, shown);
        QCOMPARE(test::q(redactUrl(url.toStdString())), shown);
    }

    void fetchesOverHttp_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::newRow("plain") << s("/files/site.tar.gz") << s("") << s("");
        QTest::newRow("redirect") << s("/redirect/site.tar.gz") << s("") << s("");
        QTest::newRow("chunked") << s("/chunked/site.tar.gz") << s("") << s("");
        QTest::newRow("auth from --http-user") << s("/auth/site.tar.gz") << s("alice:secret") << s("");
        QTest::newRow("auth, password apart") << s("/auth/site.tar.gz") << s("alice") << s("secret");
    }

    void fetchesOverHttp()
    {
        QFETCH(QString, path);
        QFETCH(QString, user);
        QFETCH(QString, password);
        SourceOptions options;
        options.httpUser = user.toStdString();
        options.httpPassword = password.toStdString();
        std::uint64_t lastProgress = 0;
        options.progress = [&](std::uint64_t received, std::uint64_t) { lastProgress = received; };
        const auto fetched = fetchBundle(m_http.urlString(path), options, destination());
        QVERIFY2(fetched, fetched ? "" : fetched.error().message.c_str());
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);
        QCOMPARE(lastProgress, std::uint64_t(m_data.size()));
    }

    void conditionalFetch()
    {
        // The first fetch gets the body and the validators; sending them back gets a 304 that
        // leaves the destination alone; a server without an ETag still answers.
        const auto first = fetchHttpIfChanged(m_http.urlString(s("/etag/site.tar.gz")), {}, destination(), {});
        QVERIFY2(first, first ? "" : first.error().message.c_str());
        QVERIFY(!first->notModified);
        QVERIFY(first->validators.etag.starts_with('"'));
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);

        QVERIFY(QFile::remove(m_dir.filePath(s("out.tar.gz"))));
        const auto again
            = fetchHttpIfChanged(m_http.urlString(s("/etag/site.tar.gz")), {}, destination(), first->validators);
        QVERIFY2(again, again ? "" : again.error().message.c_str());
        QVERIFY(again->notModified);
        QCOMPARE(again->validators.etag, first->validators.etag);
        QVERIFY(!QFile::exists(m_dir.filePath(s("out.tar.gz"))));
        QCOMPARE(leftovers(), QStringList());

        const auto plain
            = fetchHttpIfChanged(m_http.urlString(s("/files/site.tar.gz")), {}, destination(), first->validators);
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        QVERIFY(!plain->notModified);
        QVERIFY(plain->validators.etag.empty());
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);
    }

    void credentialsInTheUrl()
    {
        const QString url = m_http.url(s("/auth/site.tar.gz")).replace(s("http://"), s("http://alice:secret@"));
        SourceOptions options;
        options.httpUser = "mallory:wrong"; // the URL's win
        QVERIFY(fetchBundle(url.toStdString(), options, destination()));
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);
    }

    void reportsFailures_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("user");
        QTest::addColumn<qulonglong>("maxBytes");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        const qulonglong any = 1024 * 1024;
        QTest::newRow("404") << m_http.url(s("/files/absent.tar.gz")) << s("") << any << s("http_status")
                             << m_http.url(s("/files/absent.tar.gz: HTTP 404 Not Found"));
        QTest::newRow("no credentials") << m_http.url(s("/auth/site.tar.gz")) << s("") << any << s("http_status")
                                        << s("HTTP 401 Unauthorized (give credentials with --http-user");
        QTest::newRow("wrong password") << m_http.url(s("/auth/site.tar.gz")) << s("alice:wrong") << any
                                        << s("http_status") << s("HTTP 401 Unauthorized");
        QTest::newRow("wrong password in the URL, hidden")
            << m_http.url(s("/auth/site.tar.gz")).replace(s("http://"), s("http://alice:hunter2@")) << s("") << any
            << s("http_status") << s("http://***@127.0.0.1:");
        QTest::newRow("too large by Content-Length")
            << m_http.url(s("/files/site.tar.gz")) << s("") << qulonglong(100 * 1024) << s("too_large")
            << s(": larger than the limit of 102400 bytes");
        QTest::newRow("too large, chunked") << m_http.url(s("/chunked/site.tar.gz")) << s("") << qulonglong(100 * 1024)
                                            << s("too_large") << s(": larger than the limit of 102400 bytes");
        QTest::newRow("untrusted certificate")
            << m_https.url(s("/files/site.tar.gz")) << s("") << any << s("tls") << s("TLS failed");
        QTest::newRow("nobody listening") << s("http://127.0.0.1:1/x.tar.gz") << s("") << any << s("unreachable")
                                          << s("http://127.0.0.1:1/x.tar.gz: cannot connect");
        QTest::newRow("not a URL") << s("ftp://h/x.tar.gz") << s("") << any << s("bad_url")
                                   << s("is not an http://, https:// or obj:// URL");
    }

    void reportsFailures()
    {
        QFETCH(QString, url);
        QFETCH(QString, user);
        QFETCH(qulonglong, maxBytes);
        QFETCH(QString, code);
        QFETCH(QString, message);
        SourceOptions options;
        options.httpUser = user.toStdString();
        options.maxBytes = maxBytes;
        const auto fetched = fetchBundle(url.toStdString(), options, destination());
        QVERIFY(!fetched);
        QCOMPARE(test::q(fetched.error().code), code);
        QVERIFY2(test::q(fetched.error().message).contains(message), fetched.error().message.c_str());
        QVERIFY(!test::q(fetched.error().message).contains(s("hunter2")));
        QVERIFY(!QFile::exists(m_dir.filePath(s("out.tar.gz"))));
    }

    void stalledServerFailsPromptly()
    {
        SourceOptions options;
        options.stallTimeout = std::chrono::seconds(1);
        const auto fetched = fetchBundle(m_http.urlString(s("/stall/site.tar.gz")), options, destination());
        QVERIFY(!fetched);
        QCOMPARE(test::q(fetched.error().code), s("timeout"));
        QVERIFY2(
            test::q(fetched.error().message).contains(s(": timed out: nothing received for 1 s (the server stalled)")),
            fetched.error().message.c_str());
    }

    void httpsWithItsCa()
    {
        SourceOptions options;
        options.caFile = m_https.caFile().toStdString();
        const auto fetched = fetchBundle(m_https.urlString(s("/redirect/site.tar.gz")), options, destination());
        QVERIFY2(fetched, fetched ? "" : fetched.error().message.c_str());
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);
    }

    void httpsDoesNotRedirectToHttp()
    {
        SourceOptions options;
        options.caFile = m_https.caFile().toStdString();
        const auto fetched = fetchBundle(m_https.urlString(s("/to-http/site.tar.gz")), options, destination());
        QVERIFY(!fetched);
        QVERIFY2(test::q(fetched.error().message).contains(s("redirects from https:// to http:// are refused")),
            fetched.error().message.c_str());
    }

    void objectStore()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        if (m_nats.port() == 0)
            QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        NatsSettings settings;
        settings.url = m_nats.urlString();
        auto connection = NatsConnection::connect(settings);
        QVERIFY(connection);
        auto store = ObjectStore::openOrCreate(*connection.value(), "sites");
        QVERIFY(store);
        std::istringstream in(m_data.toStdString());
        QVERIFY(store.value().put("web/site.tar.gz", in));

        SourceOptions options;
        options.nats.url = m_nats.urlString();
        QVERIFY(fetchBundle("obj://sites/web/site.tar.gz", options, destination()));
        QCOMPARE(readFile(m_dir.filePath(s("out.tar.gz"))), m_data);
        QVERIFY(QFile::remove(m_dir.filePath(s("out.tar.gz"))));

        const auto missing = fetchBundle("obj://sites/absent.tgz", options, destination());
        QVERIFY(!missing);
        QCOMPARE(test::q(missing.error().code), s("object_not_found"));
        QVERIFY2(test::q(missing.error().message).startsWith(s("fetching obj://sites/absent.tgz: ")),
            missing.error().message.c_str());

        options.maxBytes = 1024;
        const auto large = fetchBundle("obj://sites/web/site.tar.gz", options, destination());
        QVERIFY(!large);
        QCOMPARE(test::q(large.error().code), s("too_large"));
    }

    void keyValue()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        if (m_nats.port() == 0)
            QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        NatsSettings settings;
        settings.url = m_nats.urlString();
        auto connection = NatsConnection::connect(settings);
        QVERIFY(connection);
        kvConfig config;
        kvConfig_Init(&config);
        config.Bucket = "config";
        kvStore *store = nullptr;
        QCOMPARE(js_CreateKeyValue(&store, connection.value()->jetStream(), &config), NATS_OK);
        uint64_t revision = 0;
        QCOMPARE(kvStore_PutString(&revision, store, "db.password", "s3cr3t"), NATS_OK);

        NatsSelection selection;
        selection.url = m_nats.urlString();
        KvReader reader(selection, ContextEnvironment {});
        auto value = reader.get("config", "db.password");
        QVERIFY2(value, value ? "" : value.error().message.c_str());
        QCOMPARE(value.value(), std::string("s3cr3t"));
        // Within one reader a key keeps the value it first had.
        QCOMPARE(kvStore_PutString(&revision, store, "db.password", "changed"), NATS_OK);
        QCOMPARE(reader.get("config", "db.password").value(), std::string("s3cr3t"));
        kvStore_Destroy(store);

        const auto missingKey = reader.get("config", "absent");
        QVERIFY(!missingKey);
        QCOMPARE(test::q(missingKey.error().code), s("key_not_found"));
        const auto missingBucket = reader.get("nothere", "k");
        QVERIFY(!missingBucket);
        QCOMPARE(test::q(missingBucket.error().code), s("bucket_not_found"));
        QCOMPARE(test::q(reader.get("", "k").error().message), s("the bucket name is required"));

        NatsSelection nowhere;
        nowhere.url = "nats://127.0.0.1:1";
        KvReader unreachable(nowhere, ContextEnvironment {});
        const auto failed = unreachable.get("config", "k");
        QVERIFY(!failed);
        QCOMPARE(test::q(failed.error().code), s("unreachable"));
    }
};

CCM_TEST_GUILESS_MAIN(TestBundleSource)
#include "tst_bundle_source.moc"
