// SPDX-License-Identifier: Apache-2.0
// `ccm-backend registration init|create|rm|query|watch` as real processes against a real
// nats-server, entries the agent publishes, and registrations() in manifests rendered and applied.
#include "../backend/backend_process.h"
#include "core/expr/expression.h"
#include "core/model/transaction_event.h"
#include "core/template/go_template.h"
#include "core/template/template_scope.h"
#include "fleet/agent/agent_nats.h"
#include "fleet/agent/agent_registration.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/registration/registration_store.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <csignal>
#include <functional>
#include <grp.h>
#include <memory>
#include <nats/nats.h>
#include <pwd.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;

namespace {

/// A `registration watch` running as a process whose output lines are read as they come.
class WatchProcess {
public:
    explicit WatchProcess(const QStringList &arguments, const QProcessEnvironment &environment)
    {
        m_process.setProcessEnvironment(environment);
        m_process.start(QStringLiteral(CCM_BACKEND_BIN), arguments);
    }
    ~WatchProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    /// Waits for an output line for which `matches` holds and returns it; empty after `timeoutMs`.
    QString waitForLine(const std::function<bool(const QString &)> &matches, int timeoutMs = 20000)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            while (m_process.canReadLine()) {
                const QString line = QString::fromUtf8(m_process.readLine()).trimmed();
                m_seen << line;
                if (matches(line))
                    return line;
            }
            if (deadline.hasExpired() || m_process.state() == QProcess::NotRunning)
                return {};
            m_process.waitForReadyRead(static_cast<int>(std::max<qint64>(deadline.remainingTime(), 1)));
        }
    }

    /// Ends the watch with `signal` and returns its exit code (-2 when it crashed or hung).
    int stop(int signal)
    {
        ::kill(static_cast<pid_t>(m_process.processId()), signal);
        if (!m_process.waitForFinished(20000))
            return -2;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }

    /// What the watch printed so far, for failure messages.
    QString seen() { return m_seen.join(QLatin1Char('\n')) + QString::fromUtf8(m_process.readAllStandardError()); }

private:
    QProcess m_process;
    QStringList m_seen;
};

} // namespace

class TestRegistrationCli : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    QTemporaryDir m_dir;

    test::BackendRun run(const QStringList &arguments)
    {
        return test::runBackend(
            arguments + QStringList {QStringLiteral("--nats"), m_server.url()}, {}, test::isolatedEnvironment(m_dir));
    }

    test::BackendRun reg(const QStringList &arguments)
    {
        return run(QStringList {QStringLiteral("registration")} + arguments);
    }

    test::BackendRun create(const QString &cluster, const QString &protocol, const QString &service,
        const QString &address, int port, const QStringList &more = {})
    {
        return reg(QStringList {QStringLiteral("create"), QStringLiteral("--cluster"), cluster,
                       QStringLiteral("--protocol"), protocol, QStringLiteral("--service"), service,
                       QStringLiteral("--address"), address, QStringLiteral("--port"), QString::number(port)}
            + more);
    }

    test::BackendRun remove(const QString &cluster, const QString &protocol, const QString &service,
        const QString &address, int port, const QStringList &more = {})
    {
        return reg(QStringList {QStringLiteral("rm"), QStringLiteral("--cluster"), cluster,
                       QStringLiteral("--protocol"), protocol, QStringLiteral("--service"), service,
                       QStringLiteral("--address"), address, QStringLiteral("--port"), QString::number(port)}
            + more);
    }

    /// `query ARGS --json` as a list; fails the test when it does not exit 0.
    QJsonArray query(const QStringList &filter)
    {
        const test::BackendRun listed = reg(QStringList {QStringLiteral("query")} + filter << QStringLiteral("--json"));
        if (listed.exitCode != 0)
            qWarning("query failed: %s", qPrintable(listed.err));
        return QJsonDocument::fromJson(listed.out.toUtf8()).array();
    }

    static QStringList addresses(const QJsonArray &entries)
    {
        QStringList out;
        for (const QJsonValue &entry : entries)
            out << entry[QStringLiteral("address")].toString() + QLatin1Char(':')
                    + QString::number(entry[QStringLiteral("port")].toInt());
        return out;
    }

    /// The configuration of stream `name`, asked of the JetStream API directly.
    QJsonObject streamConfig(const QString &name)
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        if (!connection)
            return {};
        natsMsg *raw = nullptr;
        const QByteArray subject = "$JS.API.STREAM.INFO." + name.toUtf8();
        if (natsConnection_Request(&raw, connection.value()->connection(), subject.constData(), "", 0, 5000) != NATS_OK)
            return {};
        const NatsMsgPtr reply(raw);
        const QByteArray data(natsMsg_GetData(raw), natsMsg_GetDataLength(raw));
        return QJsonDocument::fromJson(data).object()[QStringLiteral("config")].toObject();
    }

    QString manifest(const QString &name, const QByteArray &text) { return test::writeFile(m_dir, name, text); }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        QVERIFY(m_dir.isValid());
        const test::BackendRun made = reg({QStringLiteral("init")});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        QVERIFY2(made.out.contains(QStringLiteral(
                     "INF Registration stream ready stream=REGISTRATION subjects=[choria.ccm.registration.v1.>] "
                     "replicas=1")),
            qPrintable(made.out));
    }

    void initConfiguresTheStreamAsUpstream()
    {
        QJsonObject config = streamConfig(QStringLiteral("REGISTRATION"));
        QCOMPARE(config[QStringLiteral("subjects")].toArray().first().toString(),
            QStringLiteral("choria.ccm.registration.v1.>"));
        QCOMPARE(config[QStringLiteral("max_msgs_per_subject")].toInt(), 1);
        QCOMPARE(config[QStringLiteral("allow_rollup_hdrs")].toBool(), true);
        QCOMPARE(config[QStringLiteral("deny_delete")].toBool(), true);
        QCOMPARE(config[QStringLiteral("deny_purge")].toBool(), false);
        QCOMPARE(config[QStringLiteral("retention")].toString(), QStringLiteral("limits"));
        QCOMPARE(config[QStringLiteral("max_age")].toDouble(), 60e9);

        // Run again with other settings: the stream is updated, not refused.
        const test::BackendRun again = reg({QStringLiteral("init"), QStringLiteral("--registration=REGISTRATION"),
            QStringLiteral("--max-age"), QStringLiteral("2m")});
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QCOMPARE(streamConfig(QStringLiteral("REGISTRATION"))[QStringLiteral("max_age")].toDouble(), 120e9);
        // Another name on another server: a stream of that name.
        test::NatsServer other;
        QVERIFY2(other.start(), qPrintable(other.error()));
        const test::BackendRun named = test::runBackend(
            {QStringLiteral("registration"), QStringLiteral("init"), QStringLiteral("-R"), QStringLiteral("OTHER"),
                QStringLiteral("--max-age"), QStringLiteral("90s"), QStringLiteral("--nats"), other.url()},
            {}, test::isolatedEnvironment(m_dir));
        QVERIFY2(named.exitCode == 0, qPrintable(named.err));
        QVERIFY2(named.out.contains(QStringLiteral("stream=OTHER")), qPrintable(named.out));
    }

    void initRefusesBadSettings()
    {
        const test::BackendRun replicas
            = reg({QStringLiteral("init"), QStringLiteral("--replicas"), QStringLiteral("6")});
        QCOMPARE(replicas.exitCode, 2);
        QVERIFY2(replicas.err.contains(QStringLiteral("replicas must be between 1 and 5")), qPrintable(replicas.err));
        const test::BackendRun age = reg({QStringLiteral("init"), QStringLiteral("--max-age"), QStringLiteral("soon")});
        QCOMPARE(age.exitCode, 2);
        QVERIFY2(age.err.contains(QStringLiteral("--max-age")), qPrintable(age.err));
        const test::BackendRun name = reg({QStringLiteral("init"), QStringLiteral("-R"), QStringLiteral("A.B")});
        QCOMPARE(name.exitCode, 2);
        QVERIFY2(name.err.contains(QStringLiteral("not a stream name")), qPrintable(name.err));
    }

    void createValidatesAsUpstream_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const auto entry = [](const QString &cluster, const QString &address, const QString &port) {
            return QStringList {QStringLiteral("create"), QStringLiteral("--cluster"), cluster,
                QStringLiteral("--protocol"), QStringLiteral("http"), QStringLiteral("--service"),
                QStringLiteral("web"), QStringLiteral("--address"), address, QStringLiteral("--port"), port};
        };
        QTest::newRow("cluster") << entry(QStringLiteral("1prod"), QStringLiteral("10.0.0.1"), QStringLiteral("80"))
                                 << QStringLiteral("cluster \"1prod\" is not a valid name");
        QTest::newRow("address") << entry(QStringLiteral("prod"), QStringLiteral("web.example"), QStringLiteral("80"))
                                 << QStringLiteral("address \"web.example\" is not a valid IP address");
        QTest::newRow("port") << entry(QStringLiteral("prod"), QStringLiteral("10.0.0.1"), QStringLiteral("70000"))
                              << QStringLiteral("port '70000' must be between 1 and 65535");
        QTest::newRow("priority") << entry(QStringLiteral("prod"), QStringLiteral("10.0.0.1"), QStringLiteral("80"))
                + QStringList {QStringLiteral("--priority"), QStringLiteral("256")}
                                  << QStringLiteral("priority '256' must be between 1 and 255");
        QTest::newRow("ttl") << entry(QStringLiteral("prod"), QStringLiteral("10.0.0.1"), QStringLiteral("80"))
                + QStringList {QStringLiteral("--ttl"), QStringLiteral("later")}
                             << QStringLiteral("invalid TTL duration \"later\"");
        QTest::newRow("annotation") << entry(QStringLiteral("prod"), QStringLiteral("10.0.0.1"), QStringLiteral("80"))
                + QStringList {QStringLiteral("-A"), QStringLiteral("novalue")}
                                    << QStringLiteral("--annotation expects KEY=VALUE");
        QTest::newRow("missing port")
            << entry(QStringLiteral("prod"), QStringLiteral("10.0.0.1"), QStringLiteral("80")).mid(0, 9)
            << QStringLiteral("required option --port is missing");
    }

    void createValidatesAsUpstream()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const test::BackendRun made = reg(arguments);
        QCOMPARE(made.exitCode, 2);
        QVERIFY2(made.err.contains(message), qPrintable(made.err));
        QVERIFY(
            query({QStringLiteral("prod"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.0.1")})
                .isEmpty());
    }

    void createThenQuery()
    {
        QVERIFY(
            create(QStringLiteral("q1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.0.2"), 80)
                .exitCode
            == 0);
        const test::BackendRun made = create(QStringLiteral("q1"), QStringLiteral("http"), QStringLiteral("web"),
            QStringLiteral("10.0.0.1"), 8080,
            {QStringLiteral("-A"), QStringLiteral("zone=a"), QStringLiteral("--annotation"), QStringLiteral("rack=7"),
                QStringLiteral("--priority"), QStringLiteral("5"), QStringLiteral("--ttl"), QStringLiteral("1m")});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        QVERIFY2(made.out.contains(QStringLiteral("INF Registration entry created cluster=q1 service=web protocol=http "
                                                  "address=10.0.0.1 port=8080 priority=5")),
            qPrintable(made.out));
        QCOMPARE(
            create(QStringLiteral("q1"), QStringLiteral("tcp"), QStringLiteral("db"), QStringLiteral("10.0.0.3"), 5432)
                .exitCode,
            0);
        QCOMPARE(create(QStringLiteral("q2"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("::1"), 80)
                     .exitCode,
            0);

        // JSON: upstream's fields in its order, sorted by address then port.
        const QJsonArray web = query({QStringLiteral("q1"), QStringLiteral("http"), QStringLiteral("web")});
        QCOMPARE(addresses(web), (QStringList {QStringLiteral("10.0.0.1:8080"), QStringLiteral("10.0.0.2:80")}));
        const QJsonObject first = web.first().toObject();
        QCOMPARE(first.keys().size(), 8);
        QCOMPARE(first[QStringLiteral("priority")].toInt(), 5);
        QCOMPARE(first[QStringLiteral("ttl")].toString(), QStringLiteral("1m0s"));
        QCOMPARE(first[QStringLiteral("annotations")][QStringLiteral("rack")].toString(), QStringLiteral("7"));
        QCOMPARE(web.last()[QStringLiteral("ttl")].toString(), QStringLiteral("30s"));
        QCOMPARE(web.last()[QStringLiteral("priority")].toInt(), 100);

        // Wildcards in any position, the address with its dots.
        QCOMPARE(query({QStringLiteral("*"), QStringLiteral("*"), QStringLiteral("web")}).size(), 3);
        QCOMPARE(query({QStringLiteral("q1")}).size(), 3);
        QCOMPARE(addresses(query(
                     {QStringLiteral("*"), QStringLiteral("*"), QStringLiteral("*"), QStringLiteral("10.0.0.3")})),
            QStringList {QStringLiteral("10.0.0.3:5432")});
        QCOMPARE(
            addresses(query({QStringLiteral("q2"), QStringLiteral("*"), QStringLiteral("*"), QStringLiteral("::1")})),
            QStringList {QStringLiteral("::1:80")});
        QVERIFY(query({QStringLiteral("nothing")}).isEmpty());
        // Connection options before the command, as upstream takes them.
        const test::BackendRun before
            = test::runBackend({QStringLiteral("registration"), QStringLiteral("--nats"), m_server.url(),
                                   QStringLiteral("-R"), QStringLiteral("REGISTRATION"), QStringLiteral("query"),
                                   QStringLiteral("q2"), QStringLiteral("--json")},
                {}, test::isolatedEnvironment(m_dir));
        QVERIFY2(before.exitCode == 0, qPrintable(before.err));
        QCOMPARE(
            addresses(QJsonDocument::fromJson(before.out.toUtf8()).array()), QStringList {QStringLiteral("::1:80")});
    }

    void queryText()
    {
        const test::BackendRun text = reg({QStringLiteral("query"), QStringLiteral("q1"), QStringLiteral("http")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QCOMPARE(text.out,
            QStringLiteral("Service: web @ q1\n\n"
                           "       Cluster: q1\n      Protocol: http\n       Service: web\n"
                           "       Address: 10.0.0.1\n          Port: 8080\n      Priority: 5\n"
                           "   Annotations:\n                rack: 7\n                zone: a\n\n"
                           "       Cluster: q1\n      Protocol: http\n       Service: web\n"
                           "       Address: 10.0.0.2\n          Port: 80\n      Priority: 100\n\n"));
        const test::BackendRun none = reg({QStringLiteral("q"), QStringLiteral("nothing")});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("No results found\n"));
        const test::BackendRun bad = reg({QStringLiteral("query"), QStringLiteral("a.b")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("cluster 'a.b' cannot be looked up")), qPrintable(bad.err));
    }

    void queryYaml()
    {
        const test::BackendRun yaml = reg({QStringLiteral("query"), QStringLiteral("q1"), QStringLiteral("tcp"),
            QStringLiteral("db"), QStringLiteral("--yaml")});
        QVERIFY2(yaml.exitCode == 0, qPrintable(yaml.err));
        QCOMPARE(yaml.out,
            QStringLiteral("- cluster: q1\n  service: db\n  protocol: tcp\n  address: \"10.0.0.3\"\n  port: 5432\n"
                           "  priority: 100\n  ttl: \"30s\"\n"));
        const test::BackendRun empty
            = reg({QStringLiteral("query"), QStringLiteral("nothing"), QStringLiteral("--yaml")});
        QCOMPARE(empty.out.trimmed(), QStringLiteral("[]"));
    }

    void queryWithoutTheStream()
    {
        const test::BackendRun missing = reg({QStringLiteral("query"), QStringLiteral("-R"), QStringLiteral("NOPE")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(
            missing.err.contains(QStringLiteral("there is no registration stream 'NOPE'")), qPrintable(missing.err));
        const test::BackendRun publish = create(QStringLiteral("x"), QStringLiteral("http"), QStringLiteral("web"),
            QStringLiteral("10.0.0.1"), 80, {QStringLiteral("-R"), QStringLiteral("NOPE")});
        QCOMPARE(publish.exitCode, 1);
        QVERIFY2(
            publish.err.contains(QStringLiteral("there is no registration stream 'NOPE'")), qPrintable(publish.err));
    }

    void rmAsksOrNeedsForce()
    {
        QCOMPARE(
            create(QStringLiteral("rm1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.0.9"), 80)
                .exitCode,
            0);
        // The test's standard input is not a terminal: no removal without --force.
        const test::BackendRun refused = remove(
            QStringLiteral("rm1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.0.9"), 80);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QStringLiteral("standard input is not a terminal; pass --force")),
            qPrintable(refused.err));
        QCOMPARE(query({QStringLiteral("rm1")}).size(), 1);

        const test::BackendRun removed = remove(QStringLiteral("rm1"), QStringLiteral("http"), QStringLiteral("web"),
            QStringLiteral("10.0.0.9"), 80, {QStringLiteral("--force")});
        QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
        QVERIFY2(removed.out.contains(QStringLiteral("INF Registration entry removed cluster=rm1")),
            qPrintable(removed.out));
        QVERIFY(query({QStringLiteral("rm1")}).isEmpty());
    }

    void rmAsksOnATerminal()
    {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            QSKIP("script(1) is not installed: no terminal to answer on");
        QCOMPARE(
            create(QStringLiteral("tty"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.0.7"), 80)
                .exitCode,
            0);
        // Under script(1) standard input is a terminal: the answer decides.
        const auto answer = [&](const QByteArray &reply) {
            QProcess process;
            process.setProcessEnvironment(test::isolatedEnvironment(m_dir));
            const QString command = QStringLiteral(CCM_BACKEND_BIN)
                + QStringLiteral(" registration rm --cluster tty --service web --protocol http --address 10.0.0.7 "
                                 "--port 80 --nats ")
                + m_server.url();
            process.start(script, {QStringLiteral("-qec"), command, QStringLiteral("/dev/null")});
            process.write(reply);
            process.closeWriteChannel();
            process.waitForFinished(60000);
            return QString::fromUtf8(process.readAllStandardOutput());
        };
        const QString declined = answer("n\n");
        QVERIFY2(declined.contains(QStringLiteral("Remove registration entry tty/web/http at 10.0.0.7:80?")),
            qPrintable(declined));
        QVERIFY2(declined.contains(QStringLiteral("Not removed")), qPrintable(declined));
        QCOMPARE(query({QStringLiteral("tty")}).size(), 1);
        const QString accepted = answer("y\n");
        QVERIFY2(accepted.contains(QStringLiteral("Registration entry removed")), qPrintable(accepted));
        QVERIFY(query({QStringLiteral("tty")}).isEmpty());
    }

    void agentEntriesAreSeen()
    {
        TransactionEvent event;
        event.properties["register_when_stable"] = Json::array(
            {Json {{"cluster", "agent"}, {"service", "api"}, {"protocol", "https"}, {"address", "192.168.1.5"},
                {"port", 8443}, {"priority", 10}, {"ttl", "1h"}, {"annotations", Json {{"team", "ops"}}}}});
        const auto messages = registrationMessages(event);
        QCOMPARE(messages.size(), std::size_t(1));
        NatsSelection selection;
        selection.url = m_server.urlString();
        NatsLink link(selection, ContextEnvironment {});
        auto published = publishRegistration(link, RegistrationDestination::JetStream, messages.front());
        QVERIFY2(published, published ? "" : published.error().message.c_str());

        const QJsonArray found = query({QStringLiteral("agent")});
        QCOMPARE(addresses(found), QStringList {QStringLiteral("192.168.1.5:8443")});
        QCOMPARE(found.first()[QStringLiteral("priority")].toInt(), 10);
        QCOMPARE(
            found.first()[QStringLiteral("annotations")][QStringLiteral("team")].toString(), QStringLiteral("ops"));
        // rm finds the agent's entry under the same instance id.
        QCOMPARE(remove(QStringLiteral("agent"), QStringLiteral("https"), QStringLiteral("api"),
                     QStringLiteral("192.168.1.5"), 8443, {QStringLiteral("--force")})
                     .exitCode,
            0);
        QVERIFY(query({QStringLiteral("agent")}).isEmpty());
    }

    void watchSeesRegistrationsAndRemovals()
    {
        QCOMPARE(
            create(QStringLiteral("w1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.1.1"), 80)
                .exitCode,
            0);
        WatchProcess watch({QStringLiteral("registration"), QStringLiteral("watch"), QStringLiteral("w1"),
                               QStringLiteral("--json"), QStringLiteral("--nats"), m_server.url()},
            test::isolatedEnvironment(m_dir));
        const auto jsonLine = [](const QString &action, const QString &address) {
            return [action, address](const QString &line) {
                const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
                return event[QStringLiteral("action")].toString() == action
                    && event[QStringLiteral("entry")][QStringLiteral("address")].toString() == address;
            };
        };
        // The current entry first: the watch is running.
        QVERIFY2(!watch.waitForLine(jsonLine(QStringLiteral("register"), QStringLiteral("10.0.1.1"))).isEmpty(),
            qPrintable(watch.seen()));
        QCOMPARE(
            create(QStringLiteral("w1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.1.2"), 81)
                .exitCode,
            0);
        const QString registered = watch.waitForLine(jsonLine(QStringLiteral("register"), QStringLiteral("10.0.1.2")));
        QVERIFY2(registered.contains(QStringLiteral("\"port\":81")), qPrintable(watch.seen()));
        // Entries of other clusters are not shown.
        QCOMPARE(
            create(QStringLiteral("w2"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.1.3"), 80)
                .exitCode,
            0);
        QCOMPARE(remove(QStringLiteral("w1"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.1.2"),
                     81, {QStringLiteral("--force")})
                     .exitCode,
            0);
        const QString removed = watch.waitForLine(jsonLine(QStringLiteral("remove"), QStringLiteral("10.0.1.2")));
        QVERIFY2(removed.contains(QStringLiteral("\"reason\":\"Purge\"")), qPrintable(watch.seen()));
        QCOMPARE(watch.stop(SIGTERM), 0);
        QVERIFY2(!watch.seen().contains(QStringLiteral("10.0.1.3")), qPrintable(watch.seen()));
    }

    void watchSeesExpiry()
    {
        // A stream whose entries live two seconds (on a server of its own, as streams cannot share
        // subjects): the watch says when one expires.
        test::NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        const auto onServer = [&](const QStringList &arguments) {
            return test::runBackend(QStringList {QStringLiteral("registration")} + arguments
                    + QStringList {QStringLiteral("-R"), QStringLiteral("SHORT"), QStringLiteral("--nats"),
                        server.url()},
                {}, test::isolatedEnvironment(m_dir));
        };
        QCOMPARE(onServer({QStringLiteral("init"), QStringLiteral("--max-age"), QStringLiteral("2s")}).exitCode, 0);
        WatchProcess watch({QStringLiteral("registration"), QStringLiteral("watch"), QStringLiteral("-R"),
                               QStringLiteral("SHORT"), QStringLiteral("--nats"), server.url()},
            test::isolatedEnvironment(m_dir));
        const test::BackendRun made = onServer(
            {QStringLiteral("create"), QStringLiteral("--cluster"), QStringLiteral("e1"), QStringLiteral("--protocol"),
                QStringLiteral("tcp"), QStringLiteral("--service"), QStringLiteral("db"), QStringLiteral("--address"),
                QStringLiteral("10.0.2.1"), QStringLiteral("--port"), QStringLiteral("5432")});
        QVERIFY2(made.exitCode == 0, qPrintable(made.err));
        const QString updated = watch.waitForLine(
            [](const QString &line) { return line.contains(QStringLiteral("INF Updated entry cluster=e1")); });
        QVERIFY2(updated.contains(QStringLiteral("address=10.0.2.1 port=5432 ttl=30s")), qPrintable(watch.seen()));
        const QString expired = watch.waitForLine(
            [](const QString &line) { return line.contains(QStringLiteral("WRN Removed entry cluster=e1")); });
        QVERIFY2(expired.contains(QStringLiteral("reason=MaxAge")), qPrintable(watch.seen()));
        QCOMPARE(watch.stop(SIGINT), 0);
    }

    void registrationsInManifests()
    {
        QCOMPARE(
            create(QStringLiteral("tpl"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.3.2"), 80)
                .exitCode,
            0);
        QCOMPARE(create(QStringLiteral("tpl"), QStringLiteral("http"), QStringLiteral("web"),
                     QStringLiteral("10.0.3.1"), 8080)
                     .exitCode,
            0);
        const QString path = manifest(QStringLiteral("peers.yaml"),
            "ccm:\n  resources:\n    - exec:\n"
            "        - \"echo peers={{ len(registrations('tpl', 'http', 'web', '*')) }}\": {}\n"
            "        - \"echo first={{ registrations('tpl', 'http', 'web', '*')[0].Address }}:"
            "{{ registrations('tpl', 'http', 'web', '*')[0].Port }}\": {}\n");
        const test::BackendRun rendered = run({QStringLiteral("render"), path});
        QVERIFY2(rendered.exitCode == 0, qPrintable(rendered.err));
        QVERIFY2(rendered.out.contains(QStringLiteral("echo peers=2")), qPrintable(rendered.out));
        QVERIFY2(rendered.out.contains(QStringLiteral("echo first=10.0.3.1:8080")), qPrintable(rendered.out));
        QVERIFY2(!rendered.err.contains(QStringLiteral("finds nothing")), qPrintable(rendered.err));

        const test::BackendRun applied = run({QStringLiteral("apply"), path, QStringLiteral("--noop")});
        QVERIFY2(applied.exitCode == 0, qPrintable(applied.err + applied.out));
        QVERIFY2(applied.out.contains(QStringLiteral("echo peers=2")), qPrintable(applied.out));

        // -R names the stream looked in.
        const test::BackendRun other
            = run({QStringLiteral("render"), path, QStringLiteral("-R"), QStringLiteral("NOPE")});
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(other.err.contains(QStringLiteral("there is no registration stream 'NOPE'")), qPrintable(other.err));
    }

    void registrationsInScaffoldTemplates()
    {
        // Entries of cluster "tpl" come from registrationsInManifests.
        test::writeFile(m_dir, QStringLiteral("scaffold-src/peers.conf"),
            "{{ range registrations \"tpl\" \"http\" \"web\" \"*\" }}server {{ .Address }}:{{ .Port }}\n{{ end }}");
        const QString target = m_dir.filePath(QStringLiteral("scaffold-out"));
        const QString path = manifest(QStringLiteral("scaffold.yaml"),
            "ccm:\n  resources:\n    - scaffold:\n        name: " + target.toUtf8()
                + "\n        ensure: present\n        source: scaffold-src\n        engine: go\n");
        const test::BackendRun applied = run({QStringLiteral("apply"), path});
        QVERIFY2(applied.exitCode == 0, qPrintable(applied.err + applied.out));
        QFile rendered(target + QStringLiteral("/peers.conf"));
        QVERIFY2(rendered.open(QIODevice::ReadOnly), qPrintable(applied.out));
        QCOMPARE(rendered.readAll(), QByteArray("server 10.0.3.1:8080\nserver 10.0.3.2:80\n"));
    }

    void agentRunsSeeRegistrations()
    {
        // An agent's runs look in the stream its register_when_stable entries go to.
        QCOMPARE(
            create(QStringLiteral("ag"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.0.5.1"), 80)
                .exitCode,
            0);
        test::writeFile(
            m_dir, QStringLiteral("config/nats/context/CCM.json"), "{\"url\": \"" + m_server.url().toUtf8() + "\"}");
        const QString out = m_dir.filePath(QStringLiteral("agent-out.txt"));
        const passwd *user = ::getpwuid(::getuid());
        const group *userGroup = ::getgrgid(::getgid());
        QVERIFY(user && userGroup);
        const QString path = manifest(QStringLiteral("agent-site.yaml"),
            "ccm:\n  resources:\n    - file:\n        - " + out.toUtf8()
                + ":\n            ensure: present\n"
                  "            owner: "
                + QByteArray(user->pw_name) + "\n            group: " + QByteArray(userGroup->gr_name)
                + "\n            mode: \"0644\"\n"
                  "            content: \"{{ registrations('ag', 'http', 'web', '*')[0].Address }}\"\n");
        const QString config = test::writeFile(
            m_dir, QStringLiteral("agent.yaml"), "interval: 5m\nmanifests:\n  - " + path.toUtf8() + "\n");
        const test::BackendRun ran
            = test::runBackend({QStringLiteral("agent"), QStringLiteral("--config"), config, QStringLiteral("--once")},
                {}, test::isolatedEnvironment(m_dir));
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        QFile written(out);
        QVERIFY2(written.open(QIODevice::ReadOnly), qPrintable(ran.err));
        QCOMPARE(written.readAll(), QByteArray("10.0.5.1"));
    }

    void registrationsWithoutNats()
    {
        const QString path = manifest(QStringLiteral("nonats.yaml"),
            "ccm:\n  resources:\n    - exec:\n"
            "        - \"echo {{ len(registrations('tpl', 'http', 'web', '*')) }}\": {}\n");
        const test::BackendRun rendered = test::runBackend(
            {QStringLiteral("render"), path, QStringLiteral("--nats"), QStringLiteral("nats://127.0.0.1:1")}, {},
            test::isolatedEnvironment(m_dir));
        QCOMPARE(rendered.exitCode, 1);
        QVERIFY2(rendered.err.contains(QStringLiteral("registrations(\"tpl\", \"http\", \"web\", \"*\")")),
            qPrintable(rendered.err));
        QVERIFY2(rendered.err.contains(QStringLiteral("needs a NATS connection")), qPrintable(rendered.err));
    }

    void hostileEntriesAreLeftOut()
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        QVERIFY(connection);
        const std::pair<const char *, std::string> bad[] = {
            {"choria.ccm.registration.v1.bad.http.web.10_9_9_1.a1", "not json"},
            {"choria.ccm.registration.v1.bad.http.web.10_9_9_2.a2", std::string(200, '[') + std::string(200, ']')},
            {"choria.ccm.registration.v1.bad.http.web.10_9_9_3.a3", R"({"cluster": 7, "port": {}})"},
        };
        for (const auto &[subject, data] : bad)
            QCOMPARE(js_Publish(nullptr, connection.value()->jetStream(), subject, data.data(),
                         static_cast<int>(data.size()), nullptr, nullptr),
                NATS_OK);
        QCOMPARE(
            create(QStringLiteral("bad"), QStringLiteral("http"), QStringLiteral("web"), QStringLiteral("10.9.9.9"), 80)
                .exitCode,
            0);
        const test::BackendRun listed = reg({QStringLiteral("query"), QStringLiteral("bad"), QStringLiteral("--json")});
        QCOMPARE(listed.exitCode, 0);
        QCOMPARE(addresses(QJsonDocument::fromJson(listed.out.toUtf8()).array()),
            QStringList {QStringLiteral("10.9.9.9:80")});
        QCOMPARE(listed.err.count(QStringLiteral("warning: left out choria.ccm.registration.v1.bad.")), 3);
    }

    void lookupHookInTemplates()
    {
        int calls = 0;
        const RegistrationsFunction hook = [&calls](const std::string &cluster, const std::string &protocol,
                                               const std::string &service, const std::string &address) -> Result<Json> {
            ++calls;
            if (cluster == "down")
                return Error {"nats", "no server"};
            return Json::array({Json {{"Address", address}, {"Service", protocol + "/" + service}}});
        };
        const Json empty = Json::object();
        const TemplateScope scope(empty, empty, empty, ".", {}, hook);
        auto found = evaluateExpression("registrations('c', 'p', 's', '10.0.0.1')[0].Service", scope);
        QVERIFY(found);
        QCOMPARE(found.value(), Json("p/s"));
        auto failed = evaluateExpression("registrations('down', 'p', 's', '*')", scope);
        QVERIFY(!failed);
        QVERIFY2(QString::fromStdString(failed.error().message).contains(QStringLiteral("no server")),
            failed.error().message.c_str());

        auto parsed = GoTemplate::parse(R"({{ range registrations "c" "p" "s" "*" }}{{ .Address }}{{ end }})");
        QVERIFY(parsed);
        auto rendered = parsed->execute(Json::object(), &scope);
        QVERIFY2(rendered, rendered ? "" : rendered.error().message.c_str());
        QCOMPARE(rendered.value(), std::string("*"));
        QCOMPARE(calls, 3);
        // Without a lookup both forms find nothing, as before.
        const TemplateScope none(empty, empty, empty, ".");
        QCOMPARE(evaluateExpression("len(registrations('c', 'p', 's', '*'))", none).value(), Json(0));
        QCOMPARE(parsed->execute(Json::object(), &none).value(), std::string());
    }

    // FNV-1a 64 of cluster, service, protocol, address and fmt.Sprintf("%d", port), as upstream's
    // InstanceId: the agent's entries and the CLI's land on the same subjects as upstream's.
    void instanceIdsAreUpstreams()
    {
        RegistrationEntry entry;
        entry.cluster = "prod";
        entry.service = "web";
        entry.protocol = "http";
        entry.address = "10.0.0.1";
        entry.port = 8080;
        QCOMPARE(registrationInstanceId(entry), std::string("8615c9f698160162"));
        QCOMPARE(registrationSubject(entry),
            std::string("choria.ccm.registration.v1.prod.http.web.10_0_0_1.8615c9f698160162"));
        entry.port = Json();
        QCOMPARE(registrationInstanceId(entry), std::string("ca0a1c02a9aaab02"));

        TransactionEvent event;
        event.properties["register_when_stable"] = Json::array(
            {{{"cluster", "prod"}, {"service", "web"}, {"protocol", "http"}, {"address", "10.0.0.1"}, {"port", 8080}}});
        const auto messages = registrationMessages(event);
        QCOMPARE(messages.size(), std::size_t(1));
        QCOMPARE(messages.front().subject,
            std::string("choria.ccm.registration.v1.prod.http.web.10_0_0_1.8615c9f698160162"));
    }

    void entryRules()
    {
        QCOMPARE(normalizeRegistrationTtl("30s").value(), std::string("30s"));
        QCOMPARE(normalizeRegistrationTtl("1m").value(), std::string("1m0s"));
        QCOMPARE(normalizeRegistrationTtl("90m").value(), std::string("1h30m0s"));
        QCOMPARE(normalizeRegistrationTtl("1.5s").value(), std::string("1.5s"));
        QCOMPARE(normalizeRegistrationTtl("250ms").value(), std::string("250ms"));
        QCOMPARE(normalizeRegistrationTtl("never").value(), std::string("never"));
        QVERIFY(!normalizeRegistrationTtl("-1s"));
        RegistrationEntry entry;
        entry.cluster = "prod";
        entry.service = "web";
        entry.protocol = "http";
        entry.address = "10.0.0.1";
        entry.port = 80;
        // FNV-1a 64 of "prodwebhttp10.0.0.180", as upstream's InstanceId.
        QCOMPARE(registrationSubject(entry),
            std::string("choria.ccm.registration.v1.prod.http.web.10_0_0_1.b5dab0e5bff8ac7a"));
        QVERIFY(validateRegistration(entry));
        entry.address = "fe80::1";
        QVERIFY(validateRegistration(entry));
        entry.port = Json();
        QVERIFY(validateRegistration(entry));
        entry.priority = 0;
        QVERIFY(!validateRegistration(entry));
        QCOMPARE(registrationFilter("", "*", "web", "10.0.0.1"),
            std::string("choria.ccm.registration.v1.*.*.web.10_0_0_1.*"));
        QVERIFY(!parseRegistration("[]"));
        QVERIFY(!parseRegistration(R"({"annotations": {"a": 1}})"));
        auto nanoseconds = parseRegistration(R"({"cluster": "c", "port": 80.0, "ttl": 30000000000})");
        QVERIFY(nanoseconds);
        QCOMPARE(nanoseconds->ttl, std::string("30s"));
        QCOMPARE(nanoseconds->port, Json(80));
    }

    void helpListsCommandsAndOptions()
    {
        const test::BackendRun help = test::runBackend({QStringLiteral("registration"), QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        for (const char *command : {"  init ", "  create ", "  rm ", "  query ", "  watch "})
            QVERIFY2(help.out.contains(QLatin1String(command)), command);
        const test::BackendRun create
            = test::runBackend({QStringLiteral("reg"), QStringLiteral("create"), QStringLiteral("--help")});
        QCOMPARE(create.exitCode, 0);
        for (const char *option : {"--cluster", "--service", "--protocol", "--address", "--port", "--priority", "--ttl",
                 "--annotation", "--registration", "--context", "--nats"})
            QVERIFY2(create.out.contains(QLatin1String(option)), option);
        const test::BackendRun unknown = test::runBackend({QStringLiteral("r"), QStringLiteral("frobnicate")});
        QCOMPARE(unknown.exitCode, 2);
    }
};

CCM_TEST_GUILESS_MAIN(TestRegistrationCli)
#include "tst_registration_cli.moc"
