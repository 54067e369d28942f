// SPDX-License-Identifier: Apache-2.0
// `ccm-backend client` as a user runs it, against a scripted server.
#include "fake_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <future>

using namespace ccm::test;

namespace {

struct ClientRun {
    int exitCode = -1; ///< -1: did not finish in time; -2: crashed
    QString out;
    QString err;
};

QJsonObject parseObject(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

} // namespace

class TestClientCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString socketPath() const { return m_dir.filePath(QStringLiteral("backend.sock")); }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("runtime")));
        return environment;
    }

    ClientRun runClient(const QStringList &arguments, const QByteArray &input = {})
    {
        QProcess process;
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(CCM_BACKEND_BIN), QStringList {QStringLiteral("client")} + arguments);
        if (!process.waitForStarted())
            return {};
        process.write(input);
        process.closeWriteChannel();
        if (!process.waitForFinished(30000)) {
            process.kill();
            process.waitForFinished();
            return {};
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    /// Runs the client with --socket pointing at the fake server.
    ClientRun call(const QStringList &arguments, const QByteArray &input = {})
    {
        return runClient(QStringList {QStringLiteral("--socket"), socketPath()} + arguments, input);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void printsTheResult()
    {
        FakeServer server(socketPath(),
            answerWith(line(R"({"jsonrpc":"2.0","id":1,"result":{"server":"ccm-backend","protocol":1}})")));
        QVERIFY(server.ok());
        const ClientRun run
            = call({QStringLiteral("backend.hello"), QStringLiteral(R"({"client":"cli","version":"1"})")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("{\"server\":\"ccm-backend\",\"protocol\":1}\n"));
        const QList<QByteArray> received = server.received();
        QCOMPARE(received.size(), 1);
        const QJsonObject request = parseObject(received[0]);
        QCOMPARE(request[QStringLiteral("jsonrpc")].toString(), QStringLiteral("2.0"));
        QCOMPARE(request[QStringLiteral("id")].toInt(), 1);
        QCOMPARE(request[QStringLiteral("method")].toString(), QStringLiteral("backend.hello"));
        QCOMPARE(
            request[QStringLiteral("params")].toObject()[QStringLiteral("client")].toString(), QStringLiteral("cli"));
    }

    void notificationsThenResult()
    {
        const QByteArray progress
            = R"({"jsonrpc":"2.0","method":"apply.progress","params":{"run":"r1","done":0,"total":1,"current":"file#/a"}})";
        const QByteArray message = R"({"jsonrpc":"2.0","method":"apply.message","params":{"run":"r1","text":"hello"}})";
        FakeServer server(socketPath(),
            answerWith(line(progress) + line(message)
                + line(R"({"jsonrpc":"2.0","id":1,"result":{"run":"r1","cancelled":false}})")));
        QVERIFY(server.ok());
        const ClientRun run = call({QStringLiteral("apply.start"), QStringLiteral(R"({"manifest":"","noop":true})")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(
            run.out, QString::fromUtf8(progress + '\n' + message + '\n' + R"({"run":"r1","cancelled":false})" + '\n'));
    }

    void errorAnswer()
    {
        FakeServer server(socketPath(),
            answerWith(line(
                R"({"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"not allowed","data":{"reason":"unauthorized","role":"none"}}})")));
        QVERIFY(server.ok());
        const ClientRun run = call({QStringLiteral("facts.get")});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out,
            QStringLiteral(
                R"({"error":{"code":-32001,"message":"not allowed","data":{"reason":"unauthorized","role":"none"}}})"
                "\n"));
        QVERIFY2(run.err.contains(QStringLiteral("facts.get failed: not allowed (code -32001, unauthorized)")),
            qPrintable(run.err));
        QCOMPARE(parseObject(server.received().value(0))[QStringLiteral("params")].toObject(), QJsonObject());
    }

    void paramsFromStandardInput()
    {
        FakeServer server(socketPath(), answerWith(line(R"({"jsonrpc":"2.0","id":1,"result":{}})")));
        QVERIFY(server.ok());
        const ClientRun run
            = call({QStringLiteral("manifest.validate"), QStringLiteral("-")}, R"({"manifest":"x: 1"})");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject params = parseObject(server.received().value(0))[QStringLiteral("params")].toObject();
        QCOMPARE(params[QStringLiteral("manifest")].toString(), QStringLiteral("x: 1"));
    }

    void manifestShortcut()
    {
        const QString manifest = m_dir.filePath(QStringLiteral("site/main.yaml"));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("site")));
        QVERIFY(writeFile(manifest, "ccm:\n  resources: []\n"));
        FakeServer server(socketPath(), answerWith(line(R"({"jsonrpc":"2.0","id":1,"result":{"valid":true}})")));
        QVERIFY(server.ok());
        const ClientRun run = call({QStringLiteral("--manifest"), manifest, QStringLiteral("manifest.render"),
            QStringLiteral(R"({"facts":{"a":1}})")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject params = parseObject(server.received().value(0))[QStringLiteral("params")].toObject();
        QCOMPARE(params[QStringLiteral("manifest")].toString(), QStringLiteral("ccm:\n  resources: []\n"));
        QCOMPARE(params[QStringLiteral("base_dir")].toString(), m_dir.filePath(QStringLiteral("site")));
        QCOMPARE(params[QStringLiteral("facts")].toObject()[QStringLiteral("a")].toInt(), 1);
    }

    void userSocket_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("--user") << QStringList {QStringLiteral("--user")};
        QTest::newRow("default without a system backend") << QStringList {};
    }

    void userSocket()
    {
        QFETCH(QStringList, options);
        if (options.isEmpty() && QFileInfo::exists(QStringLiteral("/run/ccm-designer/backend.sock")))
            QSKIP("a system backend runs here, so it is the default");
        const QString runtime = m_dir.filePath(QStringLiteral("runtime/ccm-designer"));
        QVERIFY(QDir().mkpath(runtime));
        FakeServer server(
            runtime + QStringLiteral("/backend.sock"), answerWith(line(R"({"jsonrpc":"2.0","id":1,"result":"user"})")));
        QVERIFY(server.ok());
        const ClientRun run = runClient(options + QStringList {QStringLiteral("facts.get")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out, QStringLiteral("\"user\"\n"));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no method") << QStringList {} << QStringLiteral("a METHOD is needed");
        QTest::newRow("unknown option") << QStringList {QStringLiteral("--json"), QStringLiteral("facts.get")}
                                        << QStringLiteral("unknown option '--json'");
        QTest::newRow("socket without a value") << QStringList {QStringLiteral("facts.get"), QStringLiteral("--socket")}
                                                << QStringLiteral("--socket needs a value");
        QTest::newRow("empty socket") << QStringList {QStringLiteral("--socket="), QStringLiteral("facts.get")}
                                      << QStringLiteral("--socket needs a non-empty value");
        QTest::newRow("socket and user") << QStringList {QStringLiteral("--socket=/x"), QStringLiteral("--user"),
            QStringLiteral("facts.get")} << QStringLiteral("cannot be used together");
        QTest::newRow("params not json") << QStringList {QStringLiteral("facts.get"), QStringLiteral("{nope")}
                                         << QStringLiteral("PARAMS are not valid JSON");
        QTest::newRow("params a list") << QStringList {QStringLiteral("facts.get"), QStringLiteral("[1]")}
                                       << QStringLiteral("PARAMS must be a JSON object, not a list");
        QTest::newRow("params nested too deeply") << QStringList {QStringLiteral("facts.get"),
            QStringLiteral("{\"a\":") + QString(1000, QLatin1Char('[')) + QString(1000, QLatin1Char(']'))
                + QLatin1Char('}')} << QStringLiteral("nested too deeply");
        QTest::newRow("extra argument") << QStringList {QStringLiteral("facts.get"), QStringLiteral("{}"),
            QStringLiteral("more")} << QStringLiteral("unexpected argument 'more'");
        QTest::newRow("manifest twice") << QStringList {QStringLiteral("--manifest"), QStringLiteral("a.yaml"),
            QStringLiteral("manifest.validate"), QStringLiteral(R"({"manifest":"x"})")}
                                        << QStringLiteral("PARAMS gives them too");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const ClientRun run = call(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void userWithoutRuntimeDirectory()
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        process.setProcessEnvironment(environment);
        process.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("client"), QStringLiteral("--user"), QStringLiteral("facts.get")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("--user needs XDG_RUNTIME_DIR"));
    }

    void help()
    {
        const ClientRun run = runClient({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith(QStringLiteral("Usage: ccm-backend client")));
    }

    void failures_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("serve");
        QTest::addColumn<QString>("message");
        QTest::newRow("no server") << QStringList {QStringLiteral("facts.get")} << false
                                   << QStringLiteral("cannot connect to ");
        QTest::newRow("missing manifest") << QStringList {QStringLiteral("--manifest"),
            QStringLiteral("/nonexistent.yaml"), QStringLiteral("manifest.validate")}
                                          << false << QStringLiteral("/nonexistent.yaml");
        QTest::newRow("server closes") << QStringList {QStringLiteral("facts.get")} << true
                                       << QStringLiteral("the server closed the connection");
    }

    void failures()
    {
        QFETCH(QStringList, arguments);
        QFETCH(bool, serve);
        QFETCH(QString, message);
        QFile::remove(socketPath());
        std::optional<FakeServer> server;
        if (serve)
            server.emplace(socketPath(), answerWith({}));
        const ClientRun run = call(arguments);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }

    void interruptCancelsTheRun_data()
    {
        QTest::addColumn<bool>("runKnown");
        QTest::newRow("after the first notification") << true;
        QTest::newRow("before the run is known") << false;
    }

    void interruptCancelsTheRun()
    {
        QFETCH(bool, runKnown);
        std::atomic<bool> started = false;
        // Before the run is known, the notification naming it waits for the client to have taken the
        // interrupt.
        std::promise<void> interrupted;
        std::future<void> interruptTaken = interrupted.get_future();
        const QByteArray progress
            = R"({"jsonrpc":"2.0","method":"apply.progress","params":{"run":"r7","done":0,"total":2,"current":"exec#a"}})";
        FakeServer server(socketPath(), [&](FakeConnection &peer, QList<QByteArray> &received) {
            if (const auto request = peer.readLine())
                received << *request;
            started = true;
            if (!runKnown && interruptTaken.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
                return;
            peer.write(progress + '\n');
            const auto cancel = peer.readLine();
            if (!cancel)
                return;
            received << *cancel;
            peer.write(line(R"({"jsonrpc":"2.0","id":2,"result":{"run":"r7","cancelling":true}})")
                + line(R"({"jsonrpc":"2.0","id":1,"result":{"run":"r7","cancelled":true}})"));
        });
        QVERIFY(server.ok());
        QProcess process;
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("client"), QStringLiteral("--socket"), socketPath(), QStringLiteral("apply.start"),
                QStringLiteral(R"({"manifest":"","noop":false})")});
        QVERIFY(process.waitForStarted());
        if (runKnown) {
            while (!process.canReadLine())
                QVERIFY(process.waitForReadyRead(10000));
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        }
        QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
        QByteArray errBytes;
        if (!runKnown) {
            QTRY_VERIFY_WITH_TIMEOUT(
                (errBytes += process.readAllStandardError()).contains("cancelling as soon as the run starts"), 10000);
            interrupted.set_value();
        }
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        const QString err = QString::fromUtf8(errBytes + process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("cancelling run r7")), qPrintable(err));
        const QByteArray out = process.readAllStandardOutput();
        QCOMPARE(out, progress + '\n' + R"({"run":"r7","cancelled":true})" + '\n');
        const QList<QByteArray> received = server.received();
        QCOMPARE(received.size(), 2);
        const QJsonObject cancel = parseObject(received[1]);
        QCOMPARE(cancel[QStringLiteral("method")].toString(), QStringLiteral("apply.cancel"));
        QCOMPARE(cancel[QStringLiteral("id")].toInt(), 2);
        QCOMPARE(cancel[QStringLiteral("params")].toObject()[QStringLiteral("run")].toString(), QStringLiteral("r7"));
    }

    void secondInterruptStopsWaiting()
    {
        std::atomic<bool> cancelled = false;
        const QByteArray progress
            = R"({"jsonrpc":"2.0","method":"apply.progress","params":{"run":"r8","done":0,"total":1,"current":"exec#a"}})";
        FakeServer server(socketPath(), [&](FakeConnection &peer, QList<QByteArray> &received) {
            if (const auto request = peer.readLine())
                received << *request;
            peer.write(progress + '\n');
            if (const auto cancel = peer.readLine())
                received << *cancel;
            cancelled = true;
            // The run never ends: only the second interrupt lets the client go.
            while (peer.readLine()) { }
        });
        QVERIFY(server.ok());
        QProcess process;
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(CCM_BACKEND_BIN),
            {QStringLiteral("client"), QStringLiteral("--socket"), socketPath(), QStringLiteral("apply.start"),
                QStringLiteral(R"({"manifest":"","noop":true})")});
        QVERIFY(process.waitForStarted());
        while (!process.canReadLine())
            QVERIFY(process.waitForReadyRead(10000));
        const auto pid = static_cast<pid_t>(process.processId());
        QCOMPARE(::kill(pid, SIGINT), 0);
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.load(), 10000);
        QVERIFY(process.state() == QProcess::Running);
        QCOMPARE(::kill(pid, SIGINT), 0);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 1);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("interrupted again")), qPrintable(err));
        QCOMPARE(server.received().size(), 2);
    }
};

CCM_TEST_GUILESS_MAIN(TestClientCli)
#include "tst_client_cli.moc"
