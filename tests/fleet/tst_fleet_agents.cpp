// SPDX-License-Identifier: Apache-2.0
// Fleet previews end to end: one real nats-server and several real `ccm-backend agent` processes,
// each with its own identity, $XDG_CONFIG_HOME (facts, NATS context) and files, asked by a real
// `ccm-backend fleet preview`. The hosts' facts differ, so one manifest changes different things
// on each; nothing may change on any of them.
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_reader.h"
#include "fleet_agent_process.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDeadlineTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <csignal>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using ccm::test::BackendRun;
using ccm::test::FleetAgent;
using ccm::test::kStartup;
using ccm::test::previewUser;
using ccm::test::runBackend;

namespace {

/// `fleet preview --json` output: host objects by identity.
QMap<QString, QJsonObject> hostsByIdentity(const QString &out)
{
    QMap<QString, QJsonObject> hosts;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject host = QJsonDocument::fromJson(line.toUtf8()).object();
        hosts.insert(host[QStringLiteral("identity")].toString(), host);
    }
    return hosts;
}

QString stateOf(const QMap<QString, QJsonObject> &hosts, const QString &identity)
{
    return hosts.value(identity)[QStringLiteral("state")].toString();
}

int changedOf(const QMap<QString, QJsonObject> &hosts, const QString &identity)
{
    return hosts.value(identity)[QStringLiteral("summary")].toObject()[QStringLiteral("changed")].toInt(-1);
}

/// What a file is now: its bytes and modification time, or nothing when it is absent.
QString fileState(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("absent");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("unreadable");
    return QString::fromUtf8(file.readAll()) + QLatin1Char('@')
        + QString::number(info.lastModified().toMSecsSinceEpoch());
}

} // namespace

class TestFleetAgents : public QObject {
    Q_OBJECT

private:
    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_manifest;
    QString m_signer; ///< private key the agents trust
    QString m_intruder; ///< private key no agent trusts (until reloadChangesTheTrustedKeys)
    std::vector<std::unique_ptr<FleetAgent>> m_agents; ///< web-1, web-2, db-1: preview on

    FleetAgent &agent(const char *identity)
    {
        for (const auto &candidate : m_agents)
            if (candidate->identity() == QLatin1String(identity))
                return *candidate;
        qFatal("no agent %s", identity);
    }

    QByteArray previewSection(const QString &publicKey) const
    {
        return "  enabled: true\n  trusted_keys: [" + publicKey.toUtf8() + "]\n  user: " + previewUser() + "\n";
    }

    BackendRun preview(const QString &key, const QStringList &extra = {})
    {
        return runBackend(
            QStringList {QStringLiteral("fleet"), QStringLiteral("preview"), m_manifest, QStringLiteral("--key"), key,
                QStringLiteral("--nats"), m_server.url(), QStringLiteral("--json")}
            + extra);
    }

    /// True once `identity` has a status value in CCM_STATUS.
    bool reported(const std::string &identity)
    {
        fleet::NatsSelection selection;
        selection.url = m_server.urlString();
        fleet::KvReader reader(selection, fleet::ContextEnvironment::fromProcess());
        return reader.get(std::string(fleet::kStatusBucket), fleet::statusKey(identity)).ok();
    }

    bool makeKey(const QString &path)
    {
        return runBackend({QStringLiteral("fleet"), QStringLiteral("keygen"), QStringLiteral("--out"), path}).exitCode
            == 0;
    }

private slots:
    void initTestCase();
    void everyHostAnswersWithItsOwnChanges();
    void selectorPicksHosts();
    void untrustedKeyGetsNoAnswer();
    void answersAgainAfterTheServerRestarts();
    void silentHostIsReported();
    void statusListsTheAgents();
    void reloadChangesTheTrustedKeys();
    void agentsStopCleanly();
};

void TestFleetAgents::initTestCase()
{
    if (!test::NatsServer::available())
        QSKIP("nats-server is not installed");
    if (previewUser() == "nobody" && ::getpwnam("nobody") == nullptr)
        QSKIP("needs a user named nobody to run previews as");
    QVERIFY2(m_server.start(), qPrintable(m_server.error()));
    m_signer = m_dir.filePath(QStringLiteral("signer.pem"));
    m_intruder = m_dir.filePath(QStringLiteral("intruder.pem"));
    QVERIFY(makeKey(m_signer) && makeKey(m_intruder));
    m_manifest = test::writeFile(m_dir, QStringLiteral("site/manifest.yaml"),
        "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.target }}\":\n            ensure: present\n"
        "            owner: root\n            group: root\n            mode: \"0644\"\n"
        "            content: \"role {{ Facts.role }}\\n\"\n");

    const std::pair<const char *, QByteArray> hosts[] = {{"web-1", "web"}, {"web-2", "web"}, {"db-1", "db"}};
    for (const auto &[identity, role] : hosts) {
        m_agents.push_back(std::make_unique<FleetAgent>(QString::fromLatin1(identity), role, m_server.url()));
        m_agents.back()->configure(previewSection(m_dir.filePath(QStringLiteral("signer.pub.pem"))));
    }
    // web-1 already holds what the manifest wants, web-2 something else, db-1 nothing yet.
    QVERIFY(test::writeFile(agent("web-1").target(), "role web\n"));
    QVERIFY(test::writeFile(agent("web-2").target(), "role old\n"));
    for (const char *identity : {"web-1", "web-2"})
        ::chmod(agent(identity).target().toUtf8().constData(), 0644);
    for (const auto &fleetAgent : m_agents)
        fleetAgent->start();
    for (const auto &fleetAgent : m_agents) {
        QVERIFY2(
            fleetAgent->waitForLog(QStringLiteral("fleet preview: answering requests")), qPrintable(fleetAgent->log()));
        QTRY_VERIFY_WITH_TIMEOUT(reported(fleetAgent->identity().toStdString()), kStartup);
    }
}

void TestFleetAgents::everyHostAnswersWithItsOwnChanges()
{
    const QString web2Before = fileState(agent("web-2").target());
    const QString web1Before = fileState(agent("web-1").target());

    const BackendRun run = preview(m_signer);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(hosts.keys(), QStringList({QStringLiteral("db-1"), QStringLiteral("web-1"), QStringLiteral("web-2")}));
    for (const QString &identity : hosts.keys())
        QCOMPARE(stateOf(hosts, identity), QStringLiteral("done"));
    QCOMPARE(changedOf(hosts, QStringLiteral("web-1")), 0);
    QCOMPARE(changedOf(hosts, QStringLiteral("web-2")), 1);
    QCOMPARE(changedOf(hosts, QStringLiteral("db-1")), 1);
    const QJsonArray web2Events = hosts.value(QStringLiteral("web-2"))[QStringLiteral("events")].toArray();
    QCOMPARE(web2Events.size(), 1);
    const QString diff = web2Events[0].toObject()[QStringLiteral("diff")].toString();
    QVERIFY2(
        diff.contains(QStringLiteral("-role old")) && diff.contains(QStringLiteral("+role web")), qPrintable(diff));

    // A preview never applies: every host's file is as it was, and no bundle is left behind.
    QCOMPARE(fileState(agent("web-1").target()), web1Before);
    QCOMPARE(fileState(agent("web-2").target()), web2Before);
    QCOMPARE(fileState(agent("db-1").target()), QStringLiteral("absent"));
    for (const auto &fleetAgent : m_agents)
        QVERIFY2(QDir(fleetAgent->previewWork()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
            qPrintable(fleetAgent->previewWork()));
}

void TestFleetAgents::selectorPicksHosts()
{
    const BackendRun run = preview(m_signer, {QStringLiteral("--select"), QStringLiteral("Facts.role == \"db\"")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(stateOf(hosts, QStringLiteral("db-1")), QStringLiteral("done"));
    QCOMPARE(changedOf(hosts, QStringLiteral("db-1")), 1);
    QCOMPARE(stateOf(hosts, QStringLiteral("web-1")), QStringLiteral("declined"));
    QCOMPARE(stateOf(hosts, QStringLiteral("web-2")), QStringLiteral("declined"));
}

void TestFleetAgents::untrustedKeyGetsNoAnswer()
{
    std::vector<qsizetype> logged;
    for (const auto &fleetAgent : m_agents)
        logged.push_back(fleetAgent->log().size());
    const BackendRun run = preview(m_intruder, {QStringLiteral("--timeout"), QStringLiteral("2s")});
    QVERIFY2(run.exitCode == 3, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(hosts.size(), 3);
    for (const QString &identity : hosts.keys())
        QCOMPARE(stateOf(hosts, identity), QStringLiteral("silent"));
    for (std::size_t i = 0; i < m_agents.size(); ++i)
        QVERIFY2(m_agents[i]->waitForLog(QStringLiteral("signed by the untrusted key"), logged[i]),
            qPrintable(m_agents[i]->log()));
}

void TestFleetAgents::answersAgainAfterTheServerRestarts()
{
    std::vector<qsizetype> logged;
    for (const auto &fleetAgent : m_agents)
        logged.push_back(fleetAgent->log().size());
    QVERIFY2(m_server.restart(), qPrintable(m_server.error()));
    for (std::size_t i = 0; i < m_agents.size(); ++i)
        QVERIFY2(m_agents[i]->waitForLog(QStringLiteral("fleet preview: answering requests"), logged[i]),
            qPrintable(m_agents[i]->log()));
    const BackendRun run = preview(m_signer);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(hosts.size(), 3);
    for (const QString &identity : hosts.keys())
        QCOMPARE(stateOf(hosts, identity), QStringLiteral("done"));
}

void TestFleetAgents::silentHostIsReported()
{
    // Preview is off by default: this agent reports its runs but never answers a preview.
    auto quiet = std::make_unique<FleetAgent>(QStringLiteral("quiet-1"), "web", m_server.url());
    quiet->configure({});
    quiet->start();
    QTRY_VERIFY_WITH_TIMEOUT(reported("quiet-1"), kStartup);
    QVERIFY2(!quiet->log().contains(QStringLiteral("fleet preview")), qPrintable(quiet->log()));

    const BackendRun run = preview(m_signer, {QStringLiteral("--timeout"), QStringLiteral("3s")});
    QVERIFY2(run.exitCode == 3, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(hosts.size(), 4);
    QCOMPARE(stateOf(hosts, QStringLiteral("quiet-1")), QStringLiteral("silent"));
    for (const char *identity : {"web-1", "web-2", "db-1"})
        QCOMPARE(stateOf(hosts, QString::fromLatin1(identity)), QStringLiteral("done"));
    m_agents.push_back(std::move(quiet));
}

void TestFleetAgents::statusListsTheAgents()
{
    const BackendRun run = runBackend({QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--json"),
        QStringLiteral("--nats"), m_server.url()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(hosts.keys(),
        QStringList(
            {QStringLiteral("db-1"), QStringLiteral("quiet-1"), QStringLiteral("web-1"), QStringLiteral("web-2")}));
    for (const QJsonObject &host : hosts) {
        QCOMPARE(host[QStringLiteral("stale")].toBool(true), false);
        const QJsonArray runs = host[QStringLiteral("runs")].toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()[QStringLiteral("mode")].toString(), QStringLiteral("apply"));
        QCOMPARE(host[QStringLiteral("summary")].toObject()[QStringLiteral("failed")].toInt(-1), 0);
    }
    const BackendRun table
        = runBackend({QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--nats"), m_server.url()});
    QCOMPARE(table.exitCode, 0);
    for (const char *identity : {"web-1", "web-2", "db-1", "quiet-1"})
        QVERIFY2(table.out.contains(QString::fromLatin1(identity)), qPrintable(table.out));
}

void TestFleetAgents::reloadChangesTheTrustedKeys()
{
    FleetAgent &db = agent("db-1");
    const qsizetype from = db.log().size();
    db.configure(previewSection(m_dir.filePath(QStringLiteral("intruder.pub.pem"))));
    db.signal(SIGHUP);
    QVERIFY2(db.waitForLog(QStringLiteral("SIGHUP: reloading"), from), qPrintable(db.log()));
    QVERIFY2(db.waitForLog(QStringLiteral("fleet preview: answering requests"), from), qPrintable(db.log()));

    // The key db-1 trusts now gets its answer; the others still refuse it and stay silent.
    const BackendRun run = preview(m_intruder, {QStringLiteral("--timeout"), QStringLiteral("2s")});
    QVERIFY2(run.exitCode == 3, qPrintable(run.err + run.out));
    const auto hosts = hostsByIdentity(run.out);
    QCOMPARE(stateOf(hosts, QStringLiteral("db-1")), QStringLiteral("done"));
    QCOMPARE(changedOf(hosts, QStringLiteral("db-1")), 1);
    for (const char *identity : {"web-1", "web-2", "quiet-1"})
        QCOMPARE(stateOf(hosts, QString::fromLatin1(identity)), QStringLiteral("silent"));
}

void TestFleetAgents::agentsStopCleanly()
{
    // SIGTERM stops the responders with the agents; under the sanitizers a leak or an error in
    // either would show in the exit status.
    // The end of the log on failure: a sanitizer's report comes last, and QTest cuts long messages.
    for (const auto &fleetAgent : m_agents)
        QVERIFY2(fleetAgent->stop() == 0, qPrintable(fleetAgent->log().right(900)));
}

CCM_TEST_GUILESS_MAIN(TestFleetAgents)
#include "tst_fleet_agents.moc"
