// SPDX-License-Identifier: Apache-2.0
// `ccm-backend rollout` end to end: six real agents in three rings (two per ring object) against a
// real nats-server, the rollout a real process. A good release reaches every ring; one with a
// failing resource, and one with a CRITICAL health check, stops at the canary ring, which is put
// back, and never reaches the next; a rollout killed with SIGKILL inside a ring is resumed; an
// abort rolls back; every step is in the CCM_ROLLOUTS record and the release history.
#include "../backend/backend_process.h"
#include "agent_under_test.h"
#include "base/signing_key.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet/rollout/rollout_record.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QRegularExpression>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::AgentUnderTest;
using ccm::test::kConverge;
using ccm::test::q;
using ccm::test::readAll;

namespace {

const QStringList kRings {QStringLiteral("site-canary.tgz"), QStringLiteral("site-eu.tgz"), QStringLiteral("site.tgz")};

/// A manifest writing "VERSION TAG\n" to Facts.out; `extra` adds resources (a failing one, a
/// CRITICAL health check).
QByteArray release(const QByteArray &version, const QByteArray &extra = {})
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
           "            ensure: present\n            owner: root\n            group: root\n"
           "            mode: \"0644\"\n            content: \""
        + version + " {{ Facts.tag }}\\n\"\n" + extra;
}

const QByteArray kFailingResource = "    - exec:\n        - /bin/false:\n            path: /bin:/usr/bin\n";
const QByteArray kCriticalCheck = "    - exec:\n        - /bin/true:\n            path: /bin:/usr/bin\n"
                                  "            health_checks:\n              - {command: \"/bin/sh -c 'exit 2'\"}\n";

} // namespace

class TestRollout : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    QTemporaryDir m_dir;
    QString m_key;
    std::vector<std::unique_ptr<AgentUnderTest>> m_agents; ///< two per ring, in kRings order

    QStringList natsArgs() const { return {QStringLiteral("--nats"), m_server.url()}; }

    QString manifest(const QByteArray &version, const QByteArray &extra = {})
    {
        return test::writeFile(
            m_dir, QStringLiteral("site-%1/site.yaml").arg(QString::fromUtf8(version)), release(version, extra));
    }

    test::BackendRun backend(const QStringList &arguments) { return test::runBackend(arguments + natsArgs()); }

    QStringList rolloutArgs(const QString &source, const QStringList &extra = {})
    {
        QStringList arguments {QStringLiteral("rollout"), source, QStringLiteral("--bucket"), QStringLiteral("bundles"),
            QStringLiteral("--sign"), m_key, QStringLiteral("--ring-timeout"), QStringLiteral("60s")};
        for (const QString &ring : kRings)
            arguments << QStringLiteral("--ring") << ring;
        return arguments + extra;
    }

    /// What every agent of ring `ring` manages, expected "VERSION TAG\n".
    bool ringOn(int ring, const QString &version)
    {
        for (int i = ring * 2; i < ring * 2 + 2; ++i)
            if (m_agents[std::size_t(i)]->managed()
                != version + QLatin1Char(' ') + m_agents[std::size_t(i)]->identity() + QLatin1Char('\n'))
                return false;
        return true;
    }

    std::string objectDigestOf(const QString &ring)
    {
        NatsSettings settings;
        settings.url = m_server.urlString();
        auto connection = NatsConnection::connect(settings);
        if (!connection)
            return {};
        auto store = ObjectStore::open(**connection, "bundles");
        if (!store)
            return {};
        auto info = store.value().info(ring.toStdString());
        return info ? info->digest : std::string();
    }

    Result<RolloutRecord> record(const QString &id)
    {
        const test::BackendRun run
            = backend({QStringLiteral("rollout"), QStringLiteral("status"), id, QStringLiteral("--json")});
        if (run.exitCode != 0)
            return Error {"status", run.err.toStdString()};
        return parseRollout(run.out.trimmed().toStdString());
    }

    static QString rolloutId(const QString &output)
    {
        static const QRegularExpression id(QStringLiteral("rollout ([a-z0-9]{12}):"));
        return id.match(output).captured(1);
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        auto key = generateSigningKey();
        QVERIFY(key);
        m_key = m_dir.filePath(QStringLiteral("keys/release.pem"));
        const QString publicKey = m_dir.filePath(QStringLiteral("keys/release.pub.pem"));
        QVERIFY(writeKeyPair(*key, m_key.toStdString(), publicKey.toStdString(), false));

        // The first release, published to every ring by hand, and two agents on each ring.
        for (const QString &ring : kRings) {
            const test::BackendRun bundled = test::runBackend({QStringLiteral("bundle"), manifest("v1"),
                QStringLiteral("-o"), m_dir.filePath(QStringLiteral("v1.tgz")), QStringLiteral("--sign"), m_key});
            QCOMPARE(bundled.exitCode, 0);
            const test::BackendRun published
                = backend({QStringLiteral("publish"), m_dir.filePath(QStringLiteral("v1.tgz")),
                    QStringLiteral("--bucket"), QStringLiteral("bundles"), QStringLiteral("--name"), ring});
            QVERIFY2(published.exitCode == 0, qPrintable(published.err));
        }
        for (int i = 0; i < 6; ++i) {
            const QString ring = kRings[i / 2];
            auto agent = std::make_unique<AgentUnderTest>(
                QStringLiteral("%1-%2").arg(ring.section(QLatin1Char('.'), 0, 0)).arg(i % 2 + 1), m_server.url());
            agent->configure("interval: 5m\nbundle_keys: [" + publicKey.toUtf8() + "]\nmanifests:\n  - obj://bundles/"
                + ring.toUtf8() + "\n");
            agent->start();
            m_agents.push_back(std::move(agent));
        }
        for (int ring = 0; ring < 3; ++ring)
            QTRY_VERIFY_WITH_TIMEOUT(ringOn(ring, QStringLiteral("v1")), kConverge);
    }

    void aGoodReleaseReachesEveryRing()
    {
        const test::BackendRun run
            = backend(rolloutArgs(manifest("v2"), {QStringLiteral("--message"), QStringLiteral("v2")}));
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        for (int ring = 0; ring < 3; ++ring)
            QVERIFY2(ringOn(ring, QStringLiteral("v2")), qPrintable(run.out));
        for (const QString &ring : kRings)
            QVERIFY2(run.out.contains(QStringLiteral("  ") + ring
                         + QStringLiteral(": gate passed: 2 hosts: 2 applied, 0 failed (0 silent)")),
                qPrintable(run.out));
        auto done = record(rolloutId(run.out));
        QVERIFY2(done, done ? "" : done.error().message.c_str());
        QCOMPARE(done->state, RolloutState::Passed);
        for (const RingRecord &ring : done->rings) {
            QCOMPARE(ring.state, RingState::Passed);
            QVERIFY(!ring.previous.empty());
            QCOMPARE(ring.hosts.size(), std::size_t(2));
        }
    }

    void aFailingResourceStopsAtTheCanary_data()
    {
        QTest::addColumn<QByteArray>("extra");
        QTest::addColumn<QString>("reason");
        QTest::newRow("failed resource") << kFailingResource << QStringLiteral("1 failed resource (exec#/bin/false)");
        QTest::newRow("critical health check")
            << kCriticalCheck << QStringLiteral(", 1 CRITICAL health check (apply run)");
    }

    void aFailingResourceStopsAtTheCanary()
    {
        QFETCH(QByteArray, extra);
        QFETCH(QString, reason);
        const std::string before[] {objectDigestOf(kRings[0]), objectDigestOf(kRings[1]), objectDigestOf(kRings[2])};
        const test::BackendRun run = backend(rolloutArgs(manifest("v9", extra)));
        QVERIFY2(run.exitCode == 3, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QStringLiteral("site-canary.tgz: gate CLOSED: 2 hosts: 0 applied, ")),
            qPrintable(run.out));
        QVERIFY2(run.out.contains(reason), qPrintable(run.out));
        QVERIFY2(
            run.out.contains(QStringLiteral("site-canary.tgz: rolling back to ") + q(before[0])), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral(": rolled_back: the gate of ring site-canary.tgz closed")),
            qPrintable(run.out));
        QVERIFY(!run.out.contains(QStringLiteral("site-eu.tgz: published")));
        // The canary is back on the release before, and the other rings never changed.
        QTRY_VERIFY_WITH_TIMEOUT(ringOn(0, QStringLiteral("v2")), kConverge);
        for (int ring = 0; ring < 3; ++ring)
            QCOMPARE(objectDigestOf(kRings[ring]), before[ring]);
        QVERIFY(ringOn(1, QStringLiteral("v2")) && ringOn(2, QStringLiteral("v2")));
        auto done = record(rolloutId(run.out));
        QVERIFY(done);
        QCOMPARE(done->state, RolloutState::RolledBack);
        QCOMPARE(done->rings[0].state, RingState::Restored);
        QVERIFY2(done->rings[0].verdict.starts_with("2 hosts: 0 applied, ")
                && done->rings[0].verdict.find("; restore: 2 hosts: 2 applied") != std::string::npos,
            done->rings[0].verdict.c_str());
        QCOMPARE(done->rings[1].state, RingState::Pending);
        QCOMPARE(stringMember(done->rings[0].hosts.begin().value(), "state"), std::string("applied"));
    }

    void aKilledRolloutIsResumed()
    {
        QProcess rollout;
        rollout.setProcessChannelMode(QProcess::SeparateChannels);
        rollout.start(QStringLiteral(CCM_BACKEND_BIN),
            rolloutArgs(manifest("v3"), {QStringLiteral("--settle"), QStringLiteral("3s")}) + natsArgs());
        QString out;
        // Killed inside the second ring: its agents applied the release, its gate holds.
        QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(rollout.readAllStandardOutput()))
                                     .contains(QStringLiteral("site-eu.tgz: every agent reported")),
            kConverge);
        ::kill(static_cast<pid_t>(rollout.processId()), SIGKILL);
        QVERIFY(rollout.waitForFinished(10000));
        const QString id = rolloutId(out);
        QVERIFY(!id.isEmpty());
        auto left = record(id);
        QVERIFY2(left, left ? "" : left.error().message.c_str());
        QCOMPARE(left->state, RolloutState::Running);
        QCOMPARE(left->rings[0].state, RingState::Passed);
        QVERIFY2(left->rings[1].state == RingState::Settling, ringStateName(left->rings[1].state).data());
        QVERIFY(!left->rings[1].previous.empty());
        QCOMPARE(left->rings[2].state, RingState::Pending);

        // Its process is gone from this host, so it is taken over at once.
        const test::BackendRun resumed = backend({QStringLiteral("rollout"), QStringLiteral("resume"), id});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.out + resumed.err));
        QVERIFY2(resumed.out.contains(QStringLiteral(": resumed by ")), qPrintable(resumed.out));
        for (int ring = 0; ring < 3; ++ring)
            QTRY_VERIFY_WITH_TIMEOUT(ringOn(ring, QStringLiteral("v3")), kConverge);
        QCOMPARE(record(id)->state, RolloutState::Passed);
    }

    void anAbortRollsBack()
    {
        QProcess rollout;
        rollout.start(QStringLiteral(CCM_BACKEND_BIN),
            rolloutArgs(manifest("v4"), {QStringLiteral("--settle"), QStringLiteral("10m")}) + natsArgs());
        QString out;
        QTRY_VERIFY_WITH_TIMEOUT((out += QString::fromUtf8(rollout.readAllStandardOutput()))
                                     .contains(QStringLiteral("site-canary.tgz: every agent reported")),
            kConverge);
        QVERIFY(ringOn(0, QStringLiteral("v4")));
        const QString id = rolloutId(out);
        // A rollout its process still runs is not taken over.
        const test::BackendRun busy = backend({QStringLiteral("rollout"), QStringLiteral("resume"), id});
        QCOMPARE(busy.exitCode, 1);
        QVERIFY2(busy.err.contains(QStringLiteral("is being run by")), qPrintable(busy.err));
        const test::BackendRun abort = backend({QStringLiteral("rollout"), QStringLiteral("abort"), id});
        QVERIFY2(abort.exitCode == 3, qPrintable(abort.out + abort.err));
        QVERIFY(rollout.waitForFinished(kConverge));
        QCOMPARE(rollout.exitCode(), 3);
        out += QString::fromUtf8(rollout.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral(": rolled_back: aborted on request")), qPrintable(out));
        QVERIFY(ringOn(0, QStringLiteral("v3")) && ringOn(1, QStringLiteral("v3")));

        const test::BackendRun list = backend({QStringLiteral("rollout"), QStringLiteral("status")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(id + QStringLiteral("  rolled_back")), qPrintable(list.out));
        const test::BackendRun again = backend({QStringLiteral("rollout"), QStringLiteral("resume"), id});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(QStringLiteral("has ended (rolled_back)")), qPrintable(again.err));
    }

    void usageErrors()
    {
        const test::BackendRun noSign = test::runBackend({QStringLiteral("rollout"), manifest("v5"),
            QStringLiteral("--bucket"), QStringLiteral("b"), QStringLiteral("--ring"), QStringLiteral("r")});
        QCOMPARE(noSign.exitCode, 2);
        QVERIFY(noSign.err.contains(QStringLiteral("--sign KEY.pem is required")));
        const test::BackendRun badBudget
            = test::runBackend(rolloutArgs(manifest("v5"), {QStringLiteral("--max-failed"), QStringLiteral("lots")}));
        QCOMPARE(badBudget.exitCode, 2);
        QVERIFY(badBudget.err.contains(QStringLiteral("--max-failed: 'lots'")));
        const test::BackendRun badId
            = backend({QStringLiteral("rollout"), QStringLiteral("resume"), QStringLiteral("../x")});
        QCOMPARE(badId.exitCode, 1);
        QVERIFY(badId.err.contains(QStringLiteral("is not a rollout id")));
    }
};

CCM_TEST_GUILESS_MAIN(TestRollout)
#include "tst_rollout.moc"
