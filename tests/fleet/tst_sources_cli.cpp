// SPDX-License-Identifier: Apache-2.0
// validate, render and apply with http(s):// and obj:// manifests, --data URLs and kvGet, as a
// user runs them: the real ccm-backend against a real local HTTP server and nats-server, with
// TMPDIR in the test's own directory so that whatever a run leaves behind shows.
#include "../backend/apply_events.h"
#include "../backend/backend_process.h"
#include "core/model/json.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "http_server.h"
#include "nats_server.h"
#include "test_main.h"

#include <QDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <nats/nats.h>

using namespace ccm;
using namespace ccm::test;

class TestSourcesCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_tmp;
    HttpServer m_http;
    NatsServer m_nats;
    QProcessEnvironment m_environment = isolatedEnvironment(m_dir);

    BackendRun backend(const QStringList &arguments, const QProcessEnvironment &environment)
    {
        return runBackend(arguments, m_dir.path(), environment);
    }
    BackendRun backend(const QStringList &arguments) { return backend(arguments, m_environment); }

    QStringList leftInTmp() const
    {
        return QDir(m_tmp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    }

    bool putObject(const std::string &bucket, const std::string &name, const QString &file)
    {
        fleet::NatsSettings settings;
        settings.url = m_nats.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        if (!connection)
            return false;
        auto store = fleet::ObjectStore::openOrCreate(*connection.value(), bucket);
        std::ifstream in(file.toStdString(), std::ios::binary);
        return store && store.value().put(name, in);
    }

    bool putKeys(const std::string &bucket, const std::vector<std::pair<std::string, std::string>> &values)
    {
        fleet::NatsSettings settings;
        settings.url = m_nats.urlString();
        auto connection = fleet::NatsConnection::connect(settings);
        if (!connection)
            return false;
        kvConfig config;
        kvConfig_Init(&config);
        config.Bucket = bucket.c_str();
        kvStore *store = nullptr;
        if (js_CreateKeyValue(&store, connection.value()->jetStream(), &config) != NATS_OK)
            return false;
        bool ok = true;
        for (const auto &[key, value] : values) {
            uint64_t revision = 0;
            ok = ok && kvStore_PutString(&revision, store, key.c_str(), value.c_str()) == NATS_OK;
        }
        kvStore_Destroy(store);
        return ok;
    }

private slots:
    void initTestCase()
    {
        if (!HttpServer::available() || !NatsServer::available())
            QSKIP("python3 and nats-server are needed (scripts/install-deps installs them)");
        QVERIFY(m_dir.isValid());
        m_tmp = m_dir.filePath(s("tmp"));
        QVERIFY(QDir().mkpath(m_tmp));
        m_environment.insert(s("TMPDIR"), m_tmp);
        m_environment.remove(s("NATS_CONTEXT"));
        m_environment.remove(s("CCM_HTTP_PASSWORD"));
        QVERIFY2(m_http.start(), qPrintable(m_http.error()));
        QVERIFY2(m_nats.start(), qPrintable(m_nats.error()));
        writeFile(m_dir, s("config/nats/context/CCM.json"), "{\"url\": \"" + m_nats.url().toUtf8() + "\"}");

        const BackendRun bundled
            = backend({s("bundle"), examplePath(s("static-site.yaml")), s("-o"), m_http.root() + s("/site.tar.gz")});
        QVERIFY2(bundled.exitCode == 0, qPrintable(bundled.err));
        QVERIFY(putObject("sites", "web/site.tar.gz", m_http.root() + s("/site.tar.gz")));

        // A bundle whose manifest is invalid, to see how messages name it.
        writeFile(m_dir, s("bad/manifest.yaml"),
            "ccm:\n  resources:\n    - file:\n        - /tmp/x:\n"
            "            ensure: presnt\n");
        QCOMPARE(
            QProcess::execute(s("tar"),
                {s("czf"), m_http.root() + s("/bad.tar.gz"), s("-C"), m_dir.filePath(s("bad")), s("manifest.yaml")}),
            0);
        QVERIFY(putKeys("config", {{"motd", "hello from kv"}, {"data", "{\"site\": \"kv\", \"n\": 3}"}}));
    }

    void cleanup() { QCOMPARE(leftInTmp(), QStringList()); }

    void namesTheSourceInMessages_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("shown");
        QTest::newRow("validate http") << s("validate") << m_http.url(s("/files/bad.tar.gz"))
                                       << m_http.url(s("/files/bad.tar.gz(manifest.yaml):5:21: error: "));
        QTest::newRow("render http") << s("render") << m_http.url(s("/redirect/bad.tar.gz"))
                                     << m_http.url(s("/redirect/bad.tar.gz(manifest.yaml):5:21: error: "));
        QTest::newRow("apply obj") << s("apply") << s("obj://sites/bad.tar.gz")
                                   << s("obj://sites/bad.tar.gz(manifest.yaml):5:21: error: ");
        QTest::newRow("validate, credentials hidden")
            << s("validate") << m_http.url(s("/files/bad.tar.gz")).replace(s("//"), s("//u:hunter2@"))
            << m_http.url(s("/files/bad.tar.gz(manifest.yaml)")).replace(s("//"), s("//***@"));
    }

    void namesTheSourceInMessages()
    {
        QFETCH(QString, command);
        QFETCH(QString, source);
        QFETCH(QString, shown);
        if (source.startsWith(s("obj://")))
            QVERIFY(putObject("sites", "bad.tar.gz", m_http.root() + s("/bad.tar.gz")));
        QStringList arguments {command, source};
        if (command == s("apply"))
            arguments << s("--noop");
        const BackendRun run = backend(arguments);
        QVERIFY2(run.exitCode > 0, qPrintable(run.err));
        const QString output = run.out + run.err;
        QVERIFY2(output.contains(shown), qPrintable(output));
        QVERIFY(!output.contains(s("hunter2")));
    }

    void previewMatchesTheManifestOnDisk_data()
    {
        QTest::addColumn<QStringList>("source");
        QTest::newRow("http") << QStringList {m_http.url(s("/files/site.tar.gz"))};
        QTest::newRow("http, basic auth")
            << QStringList {m_http.url(s("/auth/site.tar.gz")), s("--http-user"), s("alice:secret")};
        QTest::newRow("obj, default context") << QStringList {s("obj://sites/web/site.tar.gz")};
        QTest::newRow("obj, --nats") << QStringList {
            s("obj://sites/web/site.tar.gz"), s("--context"), s("absent"), s("--nats"), m_nats.url()};
    }

    void previewMatchesTheManifestOnDisk()
    {
        QFETCH(QStringList, source);
        const BackendRun disk = backend({s("apply"), examplePath(s("static-site.yaml")), s("--noop"), s("--json")});
        QVERIFY2(disk.exitCode == 0, qPrintable(disk.err));
        const BackendRun remote = backend(QStringList {s("apply")} + source + QStringList {s("--noop"), s("--json")});
        QVERIFY2(remote.exitCode == 0, qPrintable(remote.err));
        const QList<Json> expected = stableEvents(disk.out);
        QVERIFY(expected.size() > 1);
        QCOMPARE(stableEvents(remote.out), expected);

        const BackendRun valid = backend(QStringList {s("validate")} + source);
        QVERIFY2(valid.exitCode == 0, qPrintable(valid.err));
        const BackendRun rendered = backend(QStringList {s("render")} + source);
        QCOMPARE(rendered.exitCode, 0);
        QCOMPARE(rendered.out, backend({s("render"), examplePath(s("static-site.yaml"))}).out);
    }

    void passwordFromTheEnvironment()
    {
        QProcessEnvironment environment = m_environment;
        environment.insert(s("CCM_HTTP_PASSWORD"), s("secret"));
        const BackendRun run
            = backend({s("validate"), m_http.url(s("/auth/site.tar.gz")), s("--http-user"), s("alice")}, environment);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }

    void reportsFetchFailures_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("404") << QStringList {s("apply"), m_http.url(s("/files/absent.tar.gz")),
            s("--noop")} << s("ccm-backend apply: bundle ") + m_http.url(s("/files/absent.tar.gz: HTTP 404 Not Found"));
        QTest::newRow("wrong password") << QStringList {s("render"), m_http.url(s("/auth/site.tar.gz")),
            s("--http-user"), s("alice:nope")}
                                        << s("ccm-backend render: bundle ")
                + m_http.url(s("/auth/site.tar.gz: HTTP 401 Unauthorized"));
        QTest::newRow("missing object") << QStringList {s("render"), s("obj://sites/absent.tgz")}
                                        << s("ccm-backend render: bundle obj://sites/absent.tgz: ");
        QTest::newRow("missing context") << QStringList {s("apply"), s("obj://sites/web/site.tar.gz"), s("--noop"),
            s("--context"), s("absent")} << s("config/nats/context/absent.json does not exist");
        QTest::newRow("validate 404") << QStringList {s("validate"), m_http.url(s("/files/absent.tar.gz"))}
                                      << m_http.url(s("/files/absent.tar.gz: error: HTTP 404 Not Found"));
    }

    void reportsFetchFailures()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const BackendRun run = backend(arguments);
        QVERIFY2(run.exitCode > 0, qPrintable(run.out + run.err));
        QVERIFY2((run.out + run.err).contains(message), qPrintable(run.out + run.err));
    }

    void aStalledDownloadFails()
    {
        QProcessEnvironment environment = m_environment;
        environment.insert(s("CCM_HTTP_STALL_TIMEOUT"), s("1"));
        const BackendRun run = backend({s("render"), m_http.url(s("/stall/site.tar.gz"))}, environment);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(s("ccm-backend render: bundle ") + m_http.url(s("/stall/site.tar.gz: timed out"))),
            qPrintable(run.err));
    }

    void removesTheDownloadOnSigterm()
    {
        QProcess process;
        QProcessEnvironment environment = m_environment;
        environment.insert(s("CCM_HTTP_STALL_TIMEOUT"), s("600"));
        process.setProcessEnvironment(environment);
        process.start(s(CCM_BACKEND_BIN), {s("validate"), m_http.url(s("/stall/site.tar.gz"))});
        QVERIFY(process.waitForStarted());
        // Half the bundle arrives, then the server stalls: the download is under way.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const QStringList entries = leftInTmp();
                if (entries.size() != 1)
                    return false;
                const QString part = m_tmp + s("/") + entries.front() + s("/bundle.tar.gz.part");
                return QFileInfo(part).size() > 0;
            }(),
            30000);
        QCOMPARE(QFileInfo(m_tmp + s("/") + leftInTmp().front()).permissions() & QFileDevice::ReadOther,
            QFileDevice::Permissions());
        ::kill(static_cast<pid_t>(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    }

    void aSignalRemovesTheUnpackedRemoteBundle()
    {
        // One resource that runs until it is killed, and says so with its process id.
        const QString marker = m_dir.filePath(s("started"));
        const QString site = writeFile(m_dir, s("slow/site.yaml"),
            s("ccm:\n  resources:\n    - exec:\n        - slow:\n"
              "            command: echo $$ > %1.tmp && mv %1.tmp %1 && exec sleep 60\n"
              "            provider: shell\n")
                .arg(marker)
                .toUtf8());
        const BackendRun bundled = backend({s("bundle"), site, s("-o"), m_http.root() + s("/slow.tgz")});
        QVERIFY2(bundled.exitCode == 0, qPrintable(bundled.err));
        QProcess process;
        process.setProcessEnvironment(m_environment);
        process.start(s(CCM_BACKEND_BIN), {s("apply"), m_http.url(s("/files/slow.tgz"))});
        QVERIFY(process.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
        QFile pidFile(marker);
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const pid_t sleeper = pid_t(pidFile.readAll().trimmed().toInt());
        QVERIFY(sleeper > 0);
        QCOMPARE(leftInTmp().size(), 1);
        // The first signal asks the run to stop after the resource in progress; another ends it.
        // Signals sent at once may merge into one, so one is sent at each poll until it ends.
        QTRY_VERIFY_WITH_TIMEOUT(
            process.state() == QProcess::NotRunning || (::kill(pid_t(process.processId()), SIGTERM), false), 30000);
        ::kill(sleeper, SIGKILL);
        QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    }

    void dataFromUrls_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("expected");
        QTest::newRow("http") << m_http.url(s("/files/data.yaml")) << s("echo web 2");
        QTest::newRow("kv") << s("kv://config/data") << s("echo kv 3");
    }

    void dataFromUrls()
    {
        QFETCH(QString, data);
        QFETCH(QString, expected);
        writeFile(m_http.root() + s("/data.yaml"), "site: web\nn: 2\n");
        const QString manifest = writeFile(m_dir, s("data.yaml"),
            "ccm:\n  resources:\n    - exec:\n        - \"echo {{ Data.site }} {{ Data.n }}\": {}\n");
        const BackendRun run = backend({s("render"), manifest, s("--data"), data});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(expected), qPrintable(run.out));
    }

    void dataFailures_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("message");
        QTest::newRow("http 404") << m_http.url(s("/files/absent.yaml"))
                                  << m_http.url(s("/files/absent.yaml: HTTP 404 Not Found"));
        QTest::newRow("kv missing key") << s("kv://config/absent")
                                        << s("kv://config/absent: the key-value bucket 'config' has no key 'absent'");
        QTest::newRow("kv not a map") << s("kv://config/motd") << s("kv://config/motd: data must be a map");
        QTest::newRow("kv URL without key") << s("kv://config") << s("expected kv://BUCKET/KEY");
    }

    void dataFailures()
    {
        QFETCH(QString, data);
        QFETCH(QString, message);
        const QString manifest = writeFile(m_dir, s("plain.yaml"), "ccm:\n  resources: []\n");
        const BackendRun run = backend({s("render"), manifest, s("--data"), data});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void kvGetInTemplates_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("expression") << s("kvGet(\\\"config\\\", \\\"motd\\\")") << QStringList {} << 0
                                    << s("pre_message: hello from kv");
        QTest::newRow("jet") << s("jet(\\\"[[ kvGet(\\\\\\\"config\\\\\\\", \\\\\\\"motd\\\\\\\") ]]\\\")")
                             << QStringList {} << 0 << s("pre_message: hello from kv");
        QTest::newRow("JSON stays a string") << s("kvGet(\\\"config\\\", \\\"data\\\")") << QStringList {} << 0
                                             << s("pre_message: \"{\\\"site\\\": \\\"kv\\\", \\\"n\\\": 3}\"");
        QTest::newRow("missing key") << s("kvGet(\\\"config\\\", \\\"absent\\\")") << QStringList {} << 1
                                     << s("kvGet(\"config\", \"absent\"): the key-value bucket 'config' has no key");
        QTest::newRow("no server") << s("kvGet(\\\"config\\\", \\\"motd\\\")")
                                   << QStringList {s("--nats"), s("nats://127.0.0.1:1")} << 1
                                   << s("kvGet(\"config\", \"motd\"): needs a NATS connection: cannot reach");
        QTest::newRow("one argument") << s("kvGet(\\\"config\\\")") << QStringList {} << 1
                                      << s("kvGet() takes 2 arguments (bucket, key), got 1");
    }

    void kvGetInTemplates()
    {
        QFETCH(QString, expression);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        const QString manifest = writeFile(
            m_dir, s("kv.yaml"), "ccm:\n  pre_message: \"{{ " + expression.toUtf8() + " }}\"\n  resources: []\n");
        const BackendRun run = backend(QStringList {s("render"), manifest} + options);
        QVERIFY2(run.exitCode == exitCode, qPrintable(run.err));
        QVERIFY2((run.out + run.err).contains(expected), qPrintable(run.out + run.err));
    }

    void connectsOnlyWhenKvGetIsCalled()
    {
        const QString manifest = writeFile(m_dir, s("nokv.yaml"), "ccm:\n  pre_message: \"hi\"\n  resources: []\n");
        const BackendRun run = backend({s("render"), manifest, s("--nats"), s("nats://127.0.0.1:1")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    }
};

CCM_TEST_GUILESS_MAIN(TestSourcesCli)
#include "tst_sources_cli.moc"
