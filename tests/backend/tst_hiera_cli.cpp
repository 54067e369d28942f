// SPDX-License-Identifier: Apache-2.0
// `ccm-backend hiera parse|resolve` and `hiera facts` as a user runs them: real processes, real
// files in a temporary directory, a real HTTP server and a real nats-server for documents at URLs.
#include "../fleet/http_server.h"
#include "../fleet/nats_server.h"
#include "backend_process.h"
#include "fleet/nats/nats_connection.h"
#include "test_main.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <nats/nats.h>

using namespace ccm::test;

namespace {

/// A Hiera document whose entries match facts `os` and `role`, merged first.
const char *const kFirstDocument = "data:\n"
                                   "  # @require\n"
                                   "  package: httpd\n"
                                   "  port: 80\n"
                                   "  role: \"{{ Facts.role }}\"\n"
                                   "hierarchy:\n"
                                   "  order:\n"
                                   "    - \"os:{{ Facts.os }}\"\n"
                                   "    - \"role:{{ Facts.role }}\"\n"
                                   "overrides:\n"
                                   "  \"os:debian\":\n"
                                   "    package: apache2\n"
                                   "  \"role:web\":\n"
                                   "    port: 8080\n"
                                   "ccm:\n"
                                   "  resources: []\n"
                                   "notes: upstream ignores keys it does not know\n";

/// A document merged deep: maps merged, lists concatenated.
const char *const kDeepDocument = "data:\n"
                                  "  users: [alice]\n"
                                  "  web:\n"
                                  "    port: 80\n"
                                  "    tls: false\n"
                                  "  admins:\n"
                                  "    - {name: alice, admin: true}\n"
                                  "    - {name: bob, admin: false}\n"
                                  "    - {name: carol, admin: true}\n"
                                  "hierarchy:\n"
                                  "  merge: deep\n"
                                  "  order: [\"os:{{ Facts.os }}\", \"role:{{ Facts.role }}\"]\n"
                                  "overrides:\n"
                                  "  \"os:debian\":\n"
                                  "    users: [bob]\n"
                                  "    web: {tls: true}\n"
                                  "  \"role:web\":\n"
                                  "    users: [carol]\n"
                                  "    web: {port: 443}\n";

} // namespace

class TestHieraCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);
    QString m_first;
    QString m_deep;

    BackendRun hiera(const QStringList &arguments, const QProcessEnvironment &environment)
    {
        return runBackend(QStringList {QStringLiteral("hiera")} + arguments, m_dir.path(), environment);
    }
    BackendRun hiera(const QStringList &arguments) { return hiera(arguments, m_environment); }

    static QJsonObject object(const BackendRun &run)
    {
        QJsonParseError error {};
        const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError)
            qWarning("not JSON (%s): %s", qPrintable(error.errorString()), qPrintable(run.out));
        return document.object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_first = writeFile(m_dir, QStringLiteral("first.yaml"), kFirstDocument);
        m_deep = writeFile(m_dir, QStringLiteral("deep.yaml"), kDeepDocument);
    }

    // The whole output as upstream prints it: keys sorted, two spaces, one newline at the end.
    void parseWithFactsFromArguments()
    {
        const BackendRun run = hiera({QStringLiteral("parse"), m_first, QStringLiteral("os=debian")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("{\n  \"package\": \"apache2\",\n  \"port\": 80,\n  \"role\": null\n}\n"));
        QCOMPARE(run.err, QString());
    }

    // `first` takes the first entry that matches and has overrides; `resolve` is parse.
    void firstMergeAndResolveAlias_data()
    {
        QTest::addColumn<QStringList>("facts");
        QTest::addColumn<QString>("package");
        QTest::addColumn<int>("port");
        QTest::newRow("no facts") << QStringList {} << QStringLiteral("httpd") << 80;
        QTest::newRow("os only") << QStringList {QStringLiteral("os=debian")} << QStringLiteral("apache2") << 80;
        QTest::newRow("role only") << QStringList {QStringLiteral("role=web")} << QStringLiteral("httpd") << 8080;
        QTest::newRow("both: os first") << QStringList {QStringLiteral("os=debian"), QStringLiteral("role=web")}
                                        << QStringLiteral("apache2") << 80;
        QTest::newRow("os without overrides")
            << QStringList {QStringLiteral("os=rhel"), QStringLiteral("role=web")} << QStringLiteral("httpd") << 8080;
    }
    void firstMergeAndResolveAlias()
    {
        QFETCH(QStringList, facts);
        QFETCH(QString, package);
        QFETCH(int, port);
        for (const QString &command : {QStringLiteral("parse"), QStringLiteral("resolve")}) {
            const BackendRun run = hiera(QStringList {command, m_first} + facts);
            QCOMPARE(run.exitCode, 0);
            const QJsonObject data = object(run);
            QCOMPARE(data[QStringLiteral("package")].toString(), package);
            QCOMPARE(data[QStringLiteral("port")].toInt(), port);
        }
    }

    void deepMerge()
    {
        const BackendRun run = hiera({QStringLiteral("parse"), m_deep, QStringLiteral("os=debian"),
            QStringLiteral("role=web"), QStringLiteral("--query"), QStringLiteral("@this")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject data = object(run);
        QCOMPARE(QJsonDocument(data[QStringLiteral("users")].toArray()).toJson(QJsonDocument::Compact),
            QByteArray(R"(["alice","bob","carol"])"));
        QCOMPARE(QJsonDocument(data[QStringLiteral("web")].toObject()).toJson(QJsonDocument::Compact),
            QByteArray(R"({"port":443,"tls":true})"));
    }

    // System facts, then -E, then --facts, then the arguments, each over the ones before.
    void factSources()
    {
        const QString factsFile = writeFile(m_dir, QStringLiteral("facts.yaml"), "os: debian\nrole: db\n");
        QProcessEnvironment environment = m_environment;
        environment.insert(QStringLiteral("os"), QStringLiteral("from-environment"));
        environment.insert(QStringLiteral("HIERA_TEST_MOTD"), QStringLiteral("a=b=c"));
        const QString document = writeFile(m_dir, QStringLiteral("facts-doc.yaml"),
            "data:\n  os: \"{{ Facts.os }}\"\n  role: \"{{ Facts.role }}\"\n  motd: \"{{ Facts.HIERA_TEST_MOTD }}\"\n"
            "  family: \"{{ Facts.host.info.os }}\"\n");

        BackendRun run = hiera({QStringLiteral("parse"), document, QStringLiteral("-E")}, environment);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("os")].toString(), QStringLiteral("from-environment"));
        QCOMPARE(object(run)[QStringLiteral("motd")].toString(), QStringLiteral("a=b=c"));
        QCOMPARE(object(run)[QStringLiteral("family")].toString(), QStringLiteral("linux"));

        run = hiera({QStringLiteral("parse"), document, QStringLiteral("-E"), QStringLiteral("--facts"), factsFile},
            environment);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("os")].toString(), QStringLiteral("debian"));
        QCOMPARE(object(run)[QStringLiteral("role")].toString(), QStringLiteral("db"));

        run = hiera(
            {QStringLiteral("parse"), document, QStringLiteral("--facts"), factsFile, QStringLiteral("role=web")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("os")].toString(), QStringLiteral("debian"));
        QCOMPARE(object(run)[QStringLiteral("role")].toString(), QStringLiteral("web"));

        // Without -E the environment is no fact.
        run = hiera({QStringLiteral("parse"), document}, environment);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("motd")], QJsonValue());
    }

    // --data-file is merged over the resolved data, -D over that; both satisfy @require.
    void dataOverrides()
    {
        const QString dataFile
            = writeFile(m_dir, QStringLiteral("overrides.json"), R"({"port": 9000, "extra": {"a": 1}})");
        BackendRun run
            = hiera({QStringLiteral("parse"), m_first, QStringLiteral("--data-file"), dataFile, QStringLiteral("-D"),
                QStringLiteral("package=nginx"), QStringLiteral("--data=role=cache"), QStringLiteral("-Dextra=flat")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out,
            QStringLiteral("{\n  \"extra\": \"flat\",\n  \"package\": \"nginx\",\n  \"port\": 9000,\n"
                           "  \"role\": \"cache\"\n}\n"));

        const QString required
            = writeFile(m_dir, QStringLiteral("required.yaml"), "data:\n  # @require\n  token: \"\"\n");
        run = hiera({QStringLiteral("parse"), required});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("required.yaml:3:3: error: data value 'token' is required")),
            qPrintable(run.err));
        run = hiera({QStringLiteral("parse"), required, QStringLiteral("-D"), QStringLiteral("token=s3cret")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("token")].toString(), QStringLiteral("s3cret"));
    }

    void query_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("output");
        QTest::newRow("value") << QStringLiteral("web.port") << QStringLiteral("443\n");
        QTest::newRow("string") << QStringLiteral("users.1") << QStringLiteral("\"bob\"\n");
        QTest::newRow("length") << QStringLiteral("users.#") << QStringLiteral("3\n");
        QTest::newRow("query") << QStringLiteral("admins.#(admin==true)#.name")
                               << QStringLiteral("[\n  \"alice\",\n  \"carol\"\n]\n");
        QTest::newRow("keys sorted") << QStringLiteral("@keys")
                                     << QStringLiteral("[\n  \"admins\",\n  \"users\",\n  \"web\"\n]\n");
        QTest::newRow("missing") << QStringLiteral("web.nothing") << QStringLiteral("null\n");
        QTest::newRow("empty is no query")
            << QString()
            << QStringLiteral("{\n  \"admins\": [\n    {\n      \"admin\": true,\n      \"name\": \"alice\"\n    },\n"
                              "    {\n      \"admin\": false,\n      \"name\": \"bob\"\n    },\n"
                              "    {\n      \"admin\": true,\n      \"name\": \"carol\"\n    }\n  ],\n"
                              "  \"users\": [\n    \"alice\",\n    \"bob\",\n    \"carol\"\n  ],\n"
                              "  \"web\": {\n    \"port\": 443,\n    \"tls\": true\n  }\n}\n");
    }
    void query()
    {
        QFETCH(QString, query);
        QFETCH(QString, output);
        const BackendRun run = hiera({QStringLiteral("parse"), m_deep, QStringLiteral("os=debian"),
            QStringLiteral("role=web"), QStringLiteral("--query"), query});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, output);
    }

    void yamlOutput()
    {
        BackendRun run = hiera({QStringLiteral("parse"), m_deep, QStringLiteral("--yaml"), QStringLiteral("--query"),
            QStringLiteral("web")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("port: 80\ntls: false\n"));
        run = hiera({QStringLiteral("parse"), m_deep, QStringLiteral("--yaml"), QStringLiteral("--query"),
            QStringLiteral("users")});
        QCOMPARE(run.out, QStringLiteral("- alice\n"));
    }

    void envOutput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("output");
        QTest::newRow("map, default prefix") << QStringList {QStringLiteral("--query"), QStringLiteral("web")}
                                             << QStringLiteral("HIERA_PORT=80\nHIERA_TLS=false\n");
        QTest::newRow("whole data, own prefix")
            << QStringList {QStringLiteral("--env-prefix"), QStringLiteral("APP")}
            << QStringLiteral("APP_ADMINS=[{\"admin\":true,\"name\":\"alice\"},{\"admin\":false,\"name\":\"bob\"},"
                              "{\"admin\":true,\"name\":\"carol\"}]\n"
                              "APP_USERS=[\"alice\"]\nAPP_WEB={\"port\":80,\"tls\":false}\n");
        QTest::newRow("string is raw in a map") << QStringList {QStringLiteral("--query"), QStringLiteral("admins.0")}
                                                << QStringLiteral("HIERA_ADMIN=true\nHIERA_NAME=alice\n");
        QTest::newRow("not a map") << QStringList {QStringLiteral("--query"), QStringLiteral("users")}
                                   << QStringLiteral("HIERA_VALUE=[\"alice\"]\n");
        QTest::newRow("string not in a map") << QStringList {QStringLiteral("--query"), QStringLiteral("users.0")}
                                             << QStringLiteral("HIERA_VALUE=\"alice\"\n");
        QTest::newRow("nothing") << QStringList {QStringLiteral("--query"), QStringLiteral("nothing")}
                                 << QStringLiteral("HIERA_VALUE=null\n");
    }
    void envOutput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, output);
        const BackendRun run
            = hiera(QStringList {QStringLiteral("parse"), m_deep, QStringLiteral("--env")} + arguments);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, output);
    }

    // FILE defaults to $HIERA_INPUT; a JSON document works as a YAML one.
    void inputFromEnvironmentAndJson()
    {
        const QString json = writeFile(m_dir, QStringLiteral("doc.json"),
            R"({"data": {"a": 1}, "hierarchy": {"order": ["x:{{ Facts.x }}"]}, "overrides": {"x:1": {"a": 2}}})");
        QProcessEnvironment environment = m_environment;
        environment.insert(QStringLiteral("HIERA_INPUT"), json);
        const BackendRun run
            = hiera({QStringLiteral("parse"), QStringLiteral("--query"), QStringLiteral("a")}, environment);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("1\n"));
        // With HIERA_INPUT set, the first argument is still FILE.
        const BackendRun withFact = hiera(
            {QStringLiteral("parse"), json, QStringLiteral("x=1"), QStringLiteral("--query"), QStringLiteral("a")},
            environment);
        QCOMPARE(withFact.out, QStringLiteral("2\n"));
    }

    void documentAtUrl()
    {
        if (!HttpServer::available())
            QSKIP("python3 is needed for the HTTP server");
        HttpServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        QVERIFY(QFile::copy(m_first, server.root() + QStringLiteral("/site.yaml")));
        BackendRun run = hiera({QStringLiteral("parse"), server.url(QStringLiteral("/files/site.yaml")),
            QStringLiteral("os=debian"), QStringLiteral("--query"), QStringLiteral("package")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("\"apache2\"\n"));
        run = hiera({QStringLiteral("parse"), server.url(QStringLiteral("/files/missing.yaml"))});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("404")), qPrintable(run.err));
    }

    // kv://BUCKET/KEY through --nats, and through a NATS context.
    void documentInKeyValue()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is needed (scripts/install-deps installs it)");
        NatsServer nats;
        QVERIFY2(nats.start(), qPrintable(nats.error()));
        ccm::fleet::NatsSettings settings;
        settings.url = nats.urlString();
        auto connection = ccm::fleet::NatsConnection::connect(settings);
        QVERIFY(connection);
        kvConfig config;
        kvConfig_Init(&config);
        config.Bucket = "CONFIG";
        kvStore *store = nullptr;
        QCOMPARE(js_CreateKeyValue(&store, connection.value()->jetStream(), &config), NATS_OK);
        uint64_t revision = 0;
        const natsStatus put
            = kvStore_Put(&revision, store, "site", kFirstDocument, static_cast<int>(std::strlen(kFirstDocument)));
        kvStore_Destroy(store);
        QCOMPARE(put, NATS_OK);

        BackendRun run
            = hiera({QStringLiteral("parse"), QStringLiteral("kv://CONFIG/site"), QStringLiteral("os=debian"),
                QStringLiteral("--nats"), nats.url(), QStringLiteral("--query"), QStringLiteral("package")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("\"apache2\"\n"));

        writeFile(
            m_dir, QStringLiteral("config/nats/context/hiera.json"), "{\"url\": \"" + nats.url().toUtf8() + "\"}");
        run = hiera({QStringLiteral("resolve"), QStringLiteral("kv://CONFIG/site"), QStringLiteral("role=web"),
            QStringLiteral("--context"), QStringLiteral("hiera"), QStringLiteral("--env")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("HIERA_PACKAGE=httpd\nHIERA_PORT=8080\nHIERA_ROLE=web\n"));

        run = hiera(
            {QStringLiteral("parse"), QStringLiteral("kv://CONFIG/absent"), QStringLiteral("--nats"), nats.url()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("kv://CONFIG/absent")), qPrintable(run.err));
    }

    void facts()
    {
        BackendRun run = hiera(
            {QStringLiteral("facts"), QStringLiteral("role=web"), QStringLiteral("--query"), QStringLiteral("role")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("web\n"));
        run = hiera({QStringLiteral("facts"), QStringLiteral("--query"), QStringLiteral("host.info.os")});
        QCOMPARE(run.out, QStringLiteral("linux\n"));
        run = hiera({QStringLiteral("facts"), QStringLiteral("--query"), QStringLiteral("nothing.here")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("\n"));
        run = hiera({QStringLiteral("facts"), QStringLiteral("n=1"), QStringLiteral("-E"), QStringLiteral("--query"),
            QStringLiteral("@keys")});
        QCOMPARE(run.exitCode, 0);
        const QStringList keys = QJsonDocument::fromJson(run.out.toUtf8()).toVariant().toStringList();
        QVERIFY(keys.contains(QStringLiteral("host")) && keys.contains(QStringLiteral("n")));
        QVERIFY(keys.contains(QStringLiteral("PATH")));
        QVERIFY2(std::is_sorted(keys.begin(), keys.end()), qPrintable(run.out));
        run = hiera({QStringLiteral("facts"), QStringLiteral("n=1")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(object(run)[QStringLiteral("n")].toString(), QStringLiteral("1"));
        QVERIFY(object(run)[QStringLiteral("cpu")].isObject());
        // Upstream's documentation spells -S/--system-facts; this host's facts are there anyway.
        for (const QString &flag : {QStringLiteral("-S"), QStringLiteral("--system-facts")}) {
            run = hiera({QStringLiteral("facts"), flag, QStringLiteral("--query"), QStringLiteral("host.info.os")});
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(run.out, QStringLiteral("linux\n"));
        }
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString bad = writeFile(m_dir, QStringLiteral("bad.yaml"), "data:\n  a: [1, 2\n  b: 3\n");
        const QString list = writeFile(m_dir, QStringLiteral("list.yaml"), "- a\n- b\n");
        const QString mode = writeFile(m_dir, QStringLiteral("mode.yaml"), "hierarchy:\n  merge: widest\n");
        QTest::newRow("not YAML") << QStringList {QStringLiteral("parse"), bad} << 1 << QStringLiteral("bad.yaml:2:");
        QTest::newRow("not a map") << QStringList {QStringLiteral("parse"), list} << 1
                                   << QStringLiteral("list.yaml:1:1: error: a Hiera document is a map");
        QTest::newRow("merge mode") << QStringList {QStringLiteral("parse"), mode} << 1
                                    << QStringLiteral("mode.yaml:2:10: error: unknown hierarchy merge mode 'widest'");
        QTest::newRow("missing file") << QStringList {QStringLiteral("parse"), QStringLiteral("nothing.yaml")} << 1
                                      << QStringLiteral("nothing.yaml: cannot read: No such file or directory");
        QTest::newRow("fact without =") << QStringList {QStringLiteral("parse"), m_first, QStringLiteral("os")} << 2
                                        << QStringLiteral("a fact is FACT=VALUE, not 'os'");
        QTest::newRow("facts fact without =") << QStringList {QStringLiteral("facts"), QStringLiteral("os")} << 2
                                              << QStringLiteral("a fact is FACT=VALUE, not 'os'");
        QTest::newRow("-D without =") << QStringList {QStringLiteral("parse"), m_first, QStringLiteral("-D"),
            QStringLiteral("x")} << 2 << QStringLiteral("-D expects KEY=VALUE, not 'x'");
        QTest::newRow("unreadable facts") << QStringList {QStringLiteral("parse"), m_first, QStringLiteral("--facts"),
            QStringLiteral("no-facts.yaml")}
                                          << 1 << QStringLiteral("no-facts.yaml");
        QTest::newRow("unreadable facts of facts") << QStringList {QStringLiteral("facts"), QStringLiteral("--facts"),
            QStringLiteral("no-facts.yaml")} << 1 << QStringLiteral("no-facts.yaml");
        QTest::newRow("unreadable data file") << QStringList {QStringLiteral("parse"), m_first,
            QStringLiteral("--data-file"), QStringLiteral("no-data.yaml")}
                                              << 1 << QStringLiteral("--data-file no-data.yaml");
        QTest::newRow("no FILE") << QStringList {QStringLiteral("parse")} << 2
                                 << QStringLiteral("FILE is required (or $HIERA_INPUT)");
        QTest::newRow("refused query") << QStringList {QStringLiteral("parse"), m_first, QStringLiteral("--query"),
            QStringLiteral("{package,port}")}
                                       << 2 << QStringLiteral("query '{package,port}': at character 1: multipaths");
        QTest::newRow("refused facts query")
            << QStringList {QStringLiteral("facts"), QStringLiteral("--query"), QStringLiteral("host|@pretty")} << 2
            << QStringLiteral("the modifier @pretty is not supported");
        QTest::newRow("unknown option") << QStringList {QStringLiteral("parse"), m_first, QStringLiteral("--nope")} << 2
                                        << QStringLiteral("unknown option '--nope'");
        QTest::newRow("facts has no --yaml") << QStringList {QStringLiteral("facts"), QStringLiteral("--yaml")} << 2
                                             << QStringLiteral("unknown option '--yaml'");
        QTest::newRow("unknown command") << QStringList {QStringLiteral("lookup")} << 2
                                         << QStringLiteral("unknown command 'lookup'");
        QTest::newRow("no command") << QStringList {} << 2 << QStringLiteral("Usage: ccm-backend hiera");
    }
    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const BackendRun run = hiera(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QCOMPARE(run.out, QString());
    }

    // Every --help works (the man page and the bash completion read them) and lists the commands.
    void help()
    {
        BackendRun run = hiera({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QStringLiteral("Commands:\n  parse FILE")));
        QVERIFY(run.out.contains(QStringLiteral("\n  facts [FACT=VALUE]")));
        for (const QString &command : {QStringLiteral("parse"), QStringLiteral("resolve"), QStringLiteral("facts")}) {
            run = hiera({command, QStringLiteral("--help")});
            QCOMPARE(run.exitCode, 0);
            QVERIFY(run.out.startsWith(QStringLiteral("Usage: ccm-backend hiera ")));
            QVERIFY(run.out.contains(QStringLiteral("--query QUERY")));
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestHieraCli)
#include "tst_hiera_cli.moc"
