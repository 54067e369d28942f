// SPDX-License-Identifier: Apache-2.0
// `ccm-backend agent` as real processes against one real nats-server (and a real HTTP server):
// each agent with its own identity, $XDG_CONFIG_HOME (facts, NATS context) and files.
#include "../backend/backend_process.h"
#include "agent_under_test.h"
#include "fleet/agent/agent_report.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "http_server.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <arpa/inet.h>
#include <csignal>
#include <nats/nats.h>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::AgentUnderTest;
using ccm::test::freePort;
using ccm::test::kConverge;
using ccm::test::q;
using ccm::test::readAll;

namespace {

/// A manifest writing "VERSION TAG" to Facts.out, with a health check that is critical while the
/// file is missing.
QByteArray manifestText(const char *version)
{
    return QByteArray("ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
                      "            ensure: present\n            owner: root\n            group: root\n"
                      "            mode: \"0644\"\n            content: \"")
        + version
        + " {{ Facts.tag }}\\n\"\n            health_checks:\n"
          "              - {command: \"/bin/sh -c 'test -f {{ Facts.out }} || exit 2'\"}\n";
}

/// GET http://127.0.0.1:PORT/PATH over a plain socket: the whole answer, headers included.
QByteArray httpGet(quint16 port, const char *path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QByteArray answer;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0) {
        const QByteArray request = QByteArray("GET ") + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
        if (::write(fd, request.data(), static_cast<size_t>(request.size())) == request.size()) {
            char buffer[4096];
            ssize_t n = 0;
            while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
                answer.append(buffer, static_cast<int>(n));
        }
    }
    ::close(fd);
    return answer;
}

} // namespace

class TestAgent : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;

    std::unique_ptr<NatsConnection> connect()
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        return connection ? std::move(connection).value() : nullptr;
    }

    /// Bundles manifestText(version) with `ccm-backend bundle` and returns its bytes.
    QByteArray bundle(const char *version)
    {
        const QString manifest = test::writeFile(m_dir, QStringLiteral("site/site.yaml"), manifestText(version));
        const QString out
            = m_dir.filePath(QStringLiteral("site-") + QString::fromUtf8(version) + QStringLiteral(".tar.gz"));
        const test::BackendRun run = test::runBackend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), out});
        if (run.exitCode != 0)
            qWarning("bundle failed: %s", qPrintable(run.err));
        return readAll(out);
    }

    bool publish(const char *version)
    {
        auto connection = connect();
        if (!connection)
            return false;
        auto store = ObjectStore::openOrCreate(*connection, "bundles");
        if (!store)
            return false;
        std::istringstream data(bundle(version).toStdString());
        return store.value().put("prod/site.tar.gz", data).ok();
    }

    /// The next message on `subscription` whose JSON satisfies `accept`, within `timeoutMs`.
    static Json nextMessage(
        natsSubscription *subscription, const std::function<bool(const Json &)> &accept, int timeoutMs = kConverge)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            natsMsg *message = nullptr;
            if (natsSubscription_NextMsg(&message, subscription, std::max<qint64>(1, deadline.remainingTime()))
                != NATS_OK)
                continue;
            const Json json
                = Json::parse(std::string(natsMsg_GetData(message), natsMsg_GetDataLength(message)), nullptr, false);
            natsMsg_Destroy(message);
            if (accept(json))
                return json;
        }
        return Json();
    }

    Result<Json> status(const std::string &identity)
    {
        NatsSelection selection;
        selection.url = m_server.urlString();
        KvReader reader(selection, ContextEnvironment::fromProcess());
        auto value = reader.get(std::string(kStatusBucket), statusKey(identity));
        if (!value)
            return value.error();
        return Json::parse(*value);
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    }

    void agentsConvergeAndFollowRepublish();
    void keepsGoingFromTheCacheWhileTheServerIsDown();
    void statusIsStoredOnceTheServerIsBack();
    void logsLosingAndRegainingTheServer();
    void httpSourceWithEtag();
    void criticalHealthCheckRemediates();
    void reloadOnSighup();
    void metricsArePrometheusText();
    void onceReportsFailure();
    void metricsPortInUse();
    void sigtermCancelsARun();
    void registersWhenStable();
};

void TestAgent::agentsConvergeAndFollowRepublish()
{
    QVERIFY(publish("v1"));
    auto watcher = connect();
    QVERIFY(watcher);
    natsSubscription *raw = nullptr;
    QCOMPARE(natsConnection_SubscribeSync(&raw, watcher->connection(), "ccm.agent.>"), NATS_OK);
    const std::unique_ptr<natsSubscription, void (*)(natsSubscription *)> subscription(raw, natsSubscription_Destroy);

    AgentUnderTest a(QStringLiteral("web1.example.net"), m_server.url());
    AgentUnderTest b(QStringLiteral("web 2"), m_server.url());
    for (AgentUnderTest *agent : {&a, &b}) {
        agent->configure("interval: 5m\nmanifests:\n  - obj://bundles/prod/site.tar.gz\n");
        agent->start();
    }
    QTRY_COMPARE_WITH_TIMEOUT(a.managed(), QStringLiteral("v1 web1.example.net\n"), kConverge);
    QTRY_COMPARE_WITH_TIMEOUT(b.managed(), QStringLiteral("v1 web 2\n"), kConverge);

    // The contract: an event per resource, then the run, on the identity's subject token.
    const Json event = nextMessage(raw, [](const Json &j) { return j.contains("event"); });
    QCOMPARE(event["source"], Json("obj://bundles/prod/site.tar.gz"));
    QCOMPARE(event["mode"], Json("apply"));
    QVERIFY(event["event"].is_object());
    const Json run
        = nextMessage(raw, [](const Json &j) { return j.value("identity", "") == "web 2" && j.contains("summary"); });
    QVERIFY2(!run.is_null(), "no run message of web 2");
    for (const char *key : {"source", "run", "mode", "started", "duration_ms", "manifest_digest", "summary",
             "failed_resources", "cancelled", "aborted"})
        QVERIFY2(run.contains(key), key);
    QVERIFY(run["manifest_digest"].get<std::string>().starts_with("SHA-256="));
    QCOMPARE(run["summary"]["failed"], Json(0));

    // The status value is written after the run message is sent.
    QTRY_VERIFY_WITH_TIMEOUT(status("web 2").ok(), kConverge);
    auto value = status("web 2");
    QCOMPARE(value.value()["identity"], Json("web 2"));
    QCOMPARE(value.value()["interval_seconds"], Json(300));
    QCOMPARE(value.value()["runs"].size(), std::size_t(1));
    QVERIFY(value.value()["time"].is_string());
    QVERIFY(value.value()["version"].is_string());
    QVERIFY(value.value()["failed_resources"].is_array());
    QCOMPARE(value.value()["summary"]["total"], Json(1));

    // A republish reaches both through the watch, well inside the 5 minute interval.
    QVERIFY(publish("v2"));
    QTRY_COMPARE_WITH_TIMEOUT(a.managed(), QStringLiteral("v2 web1.example.net\n"), kConverge);
    QTRY_COMPARE_WITH_TIMEOUT(b.managed(), QStringLiteral("v2 web 2\n"), kConverge);

    // SIGTERM ends an agent within seconds, cleanly.
    a.signal(SIGTERM);
    QVERIFY(a.waitForExit(10000));
    QCOMPARE(a.exitCode(), 0);
    QVERIFY2(a.log().contains(QStringLiteral("stopping on SIGTERM")), qPrintable(a.log()));
}

void TestAgent::keepsGoingFromTheCacheWhileTheServerIsDown()
{
    QVERIFY(publish("v1"));
    AgentUnderTest agent(QStringLiteral("cache-host"), m_server.url());
    agent.configure("interval: 5m\nmanifests:\n  - obj://bundles/prod/site.tar.gz\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 cache-host\n"), kConverge);
    const QString cacheFile = agent.path(QStringLiteral("cache"));
    const QFileInfoList cached = QDir(cacheFile).entryInfoList({QStringLiteral("*.tar.gz")}, QDir::Files);
    QCOMPARE(cached.size(), 1);
    QCOMPARE(cached.front().permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());

    m_server.stop();
    QVERIFY(QFile::remove(agent.outFile()));
    // A reload starts the workers again: they cannot fetch, so they run the cached bundle.
    const qsizetype mark = agent.log().size();
    agent.signal(SIGHUP);
    QVERIFY2(agent.waitForLog(QStringLiteral("running the cached bundle"), mark), qPrintable(agent.log()));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 cache-host\n"), kConverge);

    // The server comes back (same port, same store) with a new bundle: the agent catches up.
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    QVERIFY(publish("v3"));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v3 cache-host\n"), kConverge);
}

void TestAgent::statusIsStoredOnceTheServerIsBack()
{
    // The run happens while no server answers; its status must not wait for the next interval.
    AgentUnderTest agent(QStringLiteral("late-status"), m_server.url());
    const QString manifest = agent.path(QStringLiteral("local.yaml"));
    QVERIFY(test::writeFile(manifest,
        "ccm:\n  resources:\n    - file:\n        - " + agent.outFile().toUtf8()
            + ":\n            ensure: present\n            owner: root\n            group: root\n"
              "            mode: \"0644\"\n            content: \"local\\n\"\n"));
    agent.configure("interval: 5m\nmanifests:\n  - " + manifest.toUtf8() + "\n");
    m_server.stop();
    agent.start();
    QVERIFY2(agent.waitForLog(QStringLiteral(": apply: ")), qPrintable(agent.log()));
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    QTRY_VERIFY_WITH_TIMEOUT(status("late-status").ok(), kConverge);
    QCOMPARE(status("late-status").value()["identity"].get<std::string>(), std::string("late-status"));
}

void TestAgent::logsLosingAndRegainingTheServer()
{
    // The log says once that the connection was lost and once that it is back, and where.
    QVERIFY(publish("v1"));
    AgentUnderTest agent(QStringLiteral("log-host"), m_server.url());
    agent.configure("interval: 5m\nmanifests:\n  - obj://bundles/prod/site.tar.gz\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 log-host\n"), kConverge);
    const qsizetype mark = agent.log().size();
    m_server.stop();
    const QString lost = QStringLiteral("lost the connection to %1; connecting again").arg(m_server.url());
    QVERIFY2(agent.waitForLog(lost, mark), qPrintable(agent.log().mid(mark)));
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    const QString back = QStringLiteral("connected to %1 again, ").arg(m_server.url());
    QVERIFY2(agent.waitForLog(back, mark), qPrintable(agent.log().mid(mark)));
    QCOMPARE(agent.log().mid(mark).count(lost), 1);
    QCOMPARE(agent.log().mid(mark).count(back), 1);
    // Still following the source: a new bundle arrives.
    QVERIFY(publish("v2"));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v2 log-host\n"), kConverge);
}

void TestAgent::httpSourceWithEtag()
{
    if (!test::HttpServer::available())
        QSKIP("python3 is not installed");
    test::HttpServer http;
    QVERIFY2(http.start(), qPrintable(http.error()));
    QVERIFY(test::writeFile(http.root() + QStringLiteral("/site.tar.gz"), bundle("h1")));
    AgentUnderTest agent(QStringLiteral("http-host"), m_server.url());
    agent.configure("interval: 30s\nmanifests:\n  - " + http.url(QStringLiteral("/etag/site.tar.gz")).toUtf8() + "\n");
    agent.start({QStringLiteral("--once")});
    QVERIFY(agent.waitForExit(30000));
    QCOMPARE(agent.exitCode(), 0);
    QCOMPARE(agent.managed(), QStringLiteral("h1 http-host\n"));

    // Again: the server answers 304 to the ETag the agent kept, and the cached bundle runs.
    QVERIFY(QFile::remove(agent.outFile()));
    agent.start({QStringLiteral("--once")});
    QVERIFY(agent.waitForExit(30000));
    QCOMPARE(agent.exitCode(), 0);
    QCOMPARE(agent.managed(), QStringLiteral("h1 http-host\n"));
    const QString requests = QString::fromUtf8(readAll(http.root() + QStringLiteral("/requests.log")));
    QCOMPARE(requests, QStringLiteral("etag site.tar.gz 200\netag site.tar.gz 304\n"));
}

void TestAgent::criticalHealthCheckRemediates()
{
    AgentUnderTest agent(QStringLiteral("health-host"), m_server.url());
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/health.yaml"), manifestText("l1"));
    agent.configure("interval: 5m\nhealth_check_interval: 1s\nmanifests:\n  - " + manifest.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("l1 health-host\n"), kConverge);
    QVERIFY(agent.waitForLog(QStringLiteral(": health: ")));
    QVERIFY(QFile::remove(agent.outFile()));
    QVERIFY2(agent.waitForLog(QStringLiteral("a health check is critical; remediating")), qPrintable(agent.log()));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("l1 health-host\n"), kConverge);
    QVERIFY(agent.waitForLog(QStringLiteral(": remediate: ")));
}

void TestAgent::reloadOnSighup()
{
    AgentUnderTest agent(QStringLiteral("reload-host"), m_server.url());
    const QString first = test::writeFile(m_dir, QStringLiteral("local/first.yaml"), manifestText("r1"));
    const QString second = test::writeFile(m_dir, QStringLiteral("local/second.yaml"), manifestText("r2"));
    agent.configure("interval: 5m\nmanifests:\n  - " + first.toUtf8() + "\n");
    agent.start();
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("r1 reload-host\n"), kConverge);

    // A bad configuration is logged and the running one kept.
    test::writeFile(m_dir, QStringLiteral("unused"), "");
    QVERIFY(test::writeFile(agent.path(QStringLiteral("agent.yaml")), "interval: 10s\n"));
    qsizetype mark = agent.log().size();
    agent.signal(SIGHUP);
    QVERIFY2(agent.waitForLog(QStringLiteral("keeping the running configuration: "), mark), qPrintable(agent.log()));
    QVERIFY(agent.log().contains(QStringLiteral("agent.yaml:1:11: interval: must be at least 30s")));

    agent.configure("interval: 5m\nmanifests:\n  - " + second.toUtf8() + "\n");
    mark = agent.log().size();
    agent.signal(SIGHUP);
    QVERIFY(agent.waitForLog(QStringLiteral("SIGHUP: reloading"), mark));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("r2 reload-host\n"), kConverge);
    agent.signal(SIGINT);
    QVERIFY(agent.waitForExit(10000));
    QCOMPARE(agent.exitCode(), 0);
}

void TestAgent::metricsArePrometheusText()
{
    AgentUnderTest agent(QStringLiteral("metrics-host"), m_server.url());
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/metrics.yaml"), manifestText("m1"));
    const quint16 port = freePort();
    agent.configure("interval: 5m\nmonitor_port: " + QByteArray::number(port) + "\nmanifests:\n  - " + manifest.toUtf8()
        + "\n  - obj://bundles/absent.tar.gz\n");
    agent.start();
    QVERIFY(agent.waitForLog(QStringLiteral("serving metrics on http://127.0.0.1:")));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("m1 metrics-host\n"), kConverge);
    QVERIFY2(
        agent.waitForLog(QStringLiteral("obj://bundles/absent.tar.gz: apply could not run")), qPrintable(agent.log()));
    // The file changes during the run; the run is counted once it has ended.
    QVERIFY2(agent.waitForLog(manifest + QStringLiteral(": apply: Run time")), qPrintable(agent.log()));

    const QByteArray answer = httpGet(port, "/metrics");
    QVERIFY2(answer.startsWith("HTTP/1.0 200") || answer.startsWith("HTTP/1.1 200"), answer.constData());
    const QByteArray body = answer.mid(answer.indexOf("\r\n\r\n") + 4);
    static const QRegularExpression sample(QStringLiteral(
        R"(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*"(,[a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*")*\})? [-+0-9.eEInfa]+$)"));
    int samples = 0;
    for (const QByteArray &line : body.split('\n')) {
        if (line.isEmpty() || line.startsWith("# HELP ") || line.startsWith("# TYPE "))
            continue;
        QVERIFY2(sample.match(QString::fromUtf8(line)).hasMatch(), line.constData());
        QVERIFY(line.startsWith("ccm_agent_"));
        ++samples;
    }
    QVERIFY(samples > 0);
    const QString text = QString::fromUtf8(body);
    QVERIFY2(text.contains(QStringLiteral("ccm_agent_runs_total{source=\"") + manifest
                 + QStringLiteral("\",mode=\"apply\",outcome=\"changed\"} 1")),
        qPrintable(text));
    QVERIFY(
        text.contains(QStringLiteral("ccm_agent_source_fetch_errors_total{source=\"obj://bundles/absent.tar.gz\"}")));
    QVERIFY(text.contains(QStringLiteral("ccm_agent_run_duration_seconds_count{source=")));
    QVERIFY(text.contains(QStringLiteral("ccm_agent_last_run_timestamp_seconds{source=")));
    QVERIFY(text.contains(QStringLiteral("ccm_agent_health_status{source=")));
    QVERIFY(httpGet(port, "/other").contains(" 404 "));
}

void TestAgent::onceReportsFailure()
{
    AgentUnderTest agent(QStringLiteral("once-host"), m_server.url());
    agent.configure("interval: 5m\nmanifests:\n  - " + m_dir.filePath(QStringLiteral("missing.yaml")).toUtf8() + "\n");
    // Under journald every line starts with its syslog priority: <3> error, <6> info.
    agent.start({QStringLiteral("--once")}, QStringLiteral("8:12345"));
    QVERIFY(agent.waitForExit(30000));
    QCOMPARE(agent.exitCode(), 1);
    const QStringList lines = agent.log().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    for (const QString &line : lines)
        QVERIFY2(QRegularExpression(QStringLiteral("^<[3467]>[^<]")).match(line).hasMatch(), qPrintable(line));
    QVERIFY2(agent.log().contains(QStringLiteral("<3>") + m_dir.filePath(QStringLiteral("missing.yaml"))
                 + QStringLiteral(": apply could not run: ")),
        qPrintable(agent.log()));
}

void TestAgent::metricsPortInUse()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    QCOMPARE(::listen(fd, 1), 0);
    socklen_t length = sizeof address;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    const quint16 port = ntohs(address.sin_port);

    AgentUnderTest agent(QStringLiteral("busy-host"), m_server.url());
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/busy.yaml"), manifestText("b1"));
    agent.configure("monitor_port: " + QByteArray::number(port) + "\nmanifests:\n  - " + manifest.toUtf8() + "\n");
    agent.start({QStringLiteral("--once")});
    QVERIFY(agent.waitForExit(30000));
    ::close(fd);
    QCOMPARE(agent.exitCode(), 1);
    QVERIFY2(agent.log().contains(QStringLiteral("cannot serve metrics on 127.0.0.1:") + QString::number(port)),
        qPrintable(agent.log()));
    QVERIFY(!QFile::exists(agent.outFile()));
}

void TestAgent::sigtermCancelsARun()
{
    auto watcher = connect();
    QVERIFY(watcher);
    natsSubscription *raw = nullptr;
    QCOMPARE(natsConnection_SubscribeSync(&raw, watcher->connection(), "ccm.agent.slow-host.>"), NATS_OK);
    const std::unique_ptr<natsSubscription, void (*)(natsSubscription *)> subscription(raw, natsSubscription_Destroy);

    // Ten resources of a second each: SIGTERM during the first ends the run before the next.
    QByteArray text = "ccm:\n  resources:\n    - exec:\n";
    for (int i = 0; i < 10; ++i)
        text += "        - step" + QByteArray::number(i) + ":\n            command: /bin/sleep 1\n";
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/slow.yaml"), text);
    AgentUnderTest agent(QStringLiteral("slow-host"), m_server.url());
    agent.configure("manifests:\n  - " + manifest.toUtf8() + "\n");
    agent.start();
    QVERIFY(!nextMessage(raw, [](const Json &j) { return j.contains("event"); }).is_null());
    agent.signal(SIGTERM);
    QVERIFY(agent.waitForExit(10000));
    QCOMPARE(agent.exitCode(), 0);
    const Json run = nextMessage(
        raw, [](const Json &j) { return j.contains("summary"); }, 5000);
    QCOMPARE(run["cancelled"], Json(true));
    QVERIFY(run["summary"]["total"].get<int>() < 10);
}

void TestAgent::registersWhenStable()
{
    auto watcher = connect();
    QVERIFY(watcher);
    natsSubscription *raw = nullptr;
    QCOMPARE(natsConnection_SubscribeSync(&raw, watcher->connection(), "choria.ccm.registration.v1.>"), NATS_OK);
    const std::unique_ptr<natsSubscription, void (*)(natsSubscription *)> subscription(raw, natsSubscription_Destroy);

    AgentUnderTest agent(QStringLiteral("register-host"), m_server.url());
    const QByteArray entry = "              - {cluster: c1, service: web, protocol: http, address: 10.0.0.1, port: 80, "
                             "priority: 1}\n";
    const QString manifest = test::writeFile(m_dir, QStringLiteral("local/register.yaml"),
        "ccm:\n  resources:\n    - file:\n        - " + agent.outFile().toUtf8()
            + ":\n            ensure: present\n            owner: root\n            group: root\n            mode: "
              "\"0644\"\n            content: \"x\\n\"\n            register_when_stable:\n"
            + entry
            + "        - /nonexistent-dir/f:\n            ensure: present\n            owner: root\n            group: "
              "root\n"
              "            mode: \"0644\"\n            content: \"x\\n\"\n"
              "            register_when_stable:\n"
            + QByteArray(entry).replace("web", "broken"));
    agent.configure("registration: nats\nmanifests:\n  - " + manifest.toUtf8() + "\n");
    agent.start({QStringLiteral("--once")});

    // Upstream's subject and instance id (FNV-1a of cluster, service, protocol, address, port);
    // the failed resource registers nothing.
    natsMsg *message = nullptr;
    QVERIFY2(natsSubscription_NextMsg(&message, raw, kConverge) == NATS_OK, qPrintable(agent.log()));
    QCOMPARE(QString::fromUtf8(natsMsg_GetSubject(message)),
        QStringLiteral("choria.ccm.registration.v1.c1.http.web.10_0_0_1.0c67abd8d6ace1c5"));
    const Json payload = Json::parse(std::string(natsMsg_GetData(message), natsMsg_GetDataLength(message)));
    natsMsg_Destroy(message);
    QCOMPARE(payload["service"], Json("web"));
    QCOMPARE(payload["port"], Json(80));
    QCOMPARE(payload["priority"], Json(1));
    QVERIFY(agent.waitForExit(30000));
    QCOMPARE(agent.exitCode(), 1);
}

CCM_TEST_GUILESS_MAIN(TestAgent)
#include "tst_agent.moc"
