// SPDX-License-Identifier: Apache-2.0
// Server lists and bucket replicas against real nats-servers: one server alone, and a three-server
// JetStream cluster (nats_cluster.h). `ccm-backend publish` and `ccm-backend agent` run as real
// processes; the replicas of what they create are read from the streams' configuration.
#include "../backend/backend_process.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "fleet_agent_process.h"
#include "nats_cluster.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QtTest>

#include <memory>
#include <nats/nats.h>

using namespace ccm;
using namespace ccm::fleet;

namespace {

/// The replicas in the configuration of `stream`; 0 when it cannot be read.
int streamReplicas(NatsConnection &connection, const std::string &stream)
{
    jsStreamInfo *info = nullptr;
    if (js_GetStreamInfo(&info, connection.jetStream(), stream.c_str(), nullptr, nullptr) != NATS_OK)
        return 0;
    const int replicas = info->Config != nullptr ? static_cast<int>(info->Config->Replicas) : 0;
    jsStreamInfo_Destroy(info);
    return replicas;
}

std::unique_ptr<NatsConnection> connectTo(const QString &url)
{
    NatsSettings settings;
    settings.url = url.toStdString();
    settings.source = "test";
    auto connection = NatsConnection::connect(settings);
    return connection ? std::move(connection).value() : nullptr;
}

} // namespace

class TestBucketReplicas : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    test::NatsCluster m_cluster;
    QTemporaryDir m_dir;
    QString m_bundle;

    test::BackendRun publish(const QString &bucket, const QString &nats, const QStringList &more = {})
    {
        return test::runBackend(QStringList {QStringLiteral("publish"), m_bundle, QStringLiteral("--bucket"), bucket,
                                    QStringLiteral("--nats"), nats}
                + more,
            {}, test::isolatedEnvironment(m_dir));
    }

    /// A TCP port on 127.0.0.1 where nothing listens.
    static QString deadUrl() { return test::loopbackUrl(test::freeLoopbackPorts(1).at(0)); }

    bool clusterStarted()
    {
        if (m_cluster.size() == 0 && !m_cluster.start())
            qWarning("%s", qPrintable(m_cluster.error()));
        return m_cluster.size() == 3 && m_cluster.isRunning(0);
    }

private slots:
    void initTestCase()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        m_bundle = test::writeFile(m_dir, QStringLiteral("site.tgz"), QByteArray("bundle bytes"));
    }

    // ---- server lists

    void listWithADeadServerFirstConnects()
    {
        NatsSettings settings;
        settings.url = deadUrl().toStdString() + " , " + m_server.urlString();
        settings.source = "test";
        auto connection = NatsConnection::connect(settings, 2000);
        QVERIFY2(connection, connection ? "" : connection.error().message.c_str());
        QCOMPARE(QString::fromStdString(connection.value()->url()), m_server.url());
    }

    void listOfDeadServersIsUnreachable()
    {
        NatsSettings settings;
        const std::string list = deadUrl().toStdString() + "," + deadUrl().toStdString();
        settings.url = list;
        settings.source = "--nats";
        auto connection = NatsConnection::connect(settings, 2000);
        QVERIFY(!connection);
        QCOMPARE(connection.error().code, std::string("unreachable"));
        const QString message = QString::fromStdString(connection.error().message);
        QVERIFY2(message.contains(QString::fromStdString("cannot reach the NATS servers " + list + " (from --nats)")),
            qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("none of them answers")), qPrintable(message));
    }

    void listWithAnEmptyUrlIsRefused()
    {
        NatsSettings settings;
        settings.url = m_server.urlString() + ", ,nats://127.0.0.1:1";
        settings.source = "context CCM";
        auto connection = NatsConnection::connect(settings, 2000);
        QVERIFY(!connection);
        QCOMPARE(connection.error().code, std::string("bad_settings"));
        QVERIFY2(connection.error().message.find("empty URL at position 2") != std::string::npos,
            connection.error().message.c_str());
        QVERIFY(connection.error().message.find("(from context CCM)") != std::string::npos);
    }

    void publishTakesAList()
    {
        const test::BackendRun run
            = publish(QStringLiteral("listed"), deadUrl() + QStringLiteral(",") + m_server.url());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains(QStringLiteral("url: obj://listed/site.tgz")));
    }

    // ---- one server

    void singleServerDefaultsToOneReplica()
    {
        const test::BackendRun run = publish(QStringLiteral("single"), m_server.url());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral(
                     "ccm-backend publish: creating bucket 'single' with 1 replica: the server is not in a cluster "
                     "of three or more; give --replicas to choose")),
            qPrintable(run.err));
        auto connection = connectTo(m_server.url());
        QVERIFY(connection);
        QCOMPARE(streamReplicas(*connection, "OBJ_single"), 1);
        QCOMPARE(streamReplicas(*connection, "KV_CCM_RELEASES"), 1);

        // Once there, nothing more is said.
        const test::BackendRun again = publish(QStringLiteral("single"), m_server.url());
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(!again.err.contains(QStringLiteral("bucket 'single'")), qPrintable(again.err));
    }

    void threeReplicasOnOneServerFailsClearly()
    {
        const test::BackendRun run
            = publish(QStringLiteral("three"), m_server.url(), {QStringLiteral("--replicas"), QStringLiteral("3")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("creating bucket 'three' with 3 replicas, as --replicas asks")),
            qPrintable(run.err));
        QVERIFY2(
            run.err.contains(QStringLiteral("replicas > 1 not supported in non-clustered mode")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("3 replicas need a JetStream cluster of at least as many servers")),
            qPrintable(run.err));
    }

    void badReplicaCounts_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("six") << QStringLiteral("6");
        QTest::newRow("word") << QStringLiteral("three");
        QTest::newRow("sign") << QStringLiteral("+3");
        QTest::newRow("empty") << QString();
    }

    void badReplicaCounts()
    {
        QFETCH(QString, value);
        const test::BackendRun run
            = publish(QStringLiteral("never"), m_server.url(), {QStringLiteral("--replicas"), value});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(
            run.err.contains(QStringLiteral("--replicas must be a whole number from 1 to 5")), qPrintable(run.err));
        auto connection = connectTo(m_server.url());
        QVERIFY(connection);
        QCOMPARE(streamReplicas(*connection, "OBJ_never"), 0);
    }

    void lookupTimeoutSaysWhatIsLikely()
    {
        auto connection = connectTo(m_server.url());
        QVERIFY(connection);
        const Error error = bucketLookupError(*connection, "CCM", NATS_TIMEOUT, 0);
        QVERIFY2(error.message.find("looking up bucket 'CCM' on " + m_server.urlString() + ": no answer within") == 0,
            error.message.c_str());
        QVERIFY(error.message.find("the servers holding the bucket's stream do not answer (with 1 replica, the bucket "
                                   "is unavailable while its server is down; give buckets 3 replicas on a cluster "
                                   "with --replicas 3)")
            != std::string::npos);
    }

    // ---- a three-server cluster

    void clusterDefaultsToThreeForEveryBucket()
    {
        if (!clusterStarted())
            QFAIL(qPrintable(m_cluster.error()));
        const test::BackendRun run = publish(QStringLiteral("site"), m_cluster.urls());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral(
                     "creating bucket 'site' with 3 replicas: the server reports a cluster of 3 servers")),
            qPrintable(run.err));
        auto connection = connectTo(m_cluster.urls());
        QVERIFY(connection);
        QCOMPARE(connection->clusterSize(), 3);
        QCOMPARE(streamReplicas(*connection, "OBJ_site"), 3);
        QCOMPARE(streamReplicas(*connection, "KV_CCM_RELEASES"), 3);

        // CCM_PREVIEW (with its time to live) and CCM_ROLLOUTS, as fleet preview and rollout open them.
        auto preview = ObjectStore::openOrCreate(*connection, "CCM_PREVIEW", std::chrono::seconds(600));
        QVERIFY2(preview, preview ? "" : preview.error().message.c_str());
        QCOMPARE(streamReplicas(*connection, "OBJ_CCM_PREVIEW"), 3);
        auto rollouts = KvBucket::openOrCreate(*connection, "CCM_ROLLOUTS");
        QVERIFY2(rollouts, rollouts ? "" : rollouts.error().message.c_str());
        QCOMPARE(streamReplicas(*connection, "KV_CCM_ROLLOUTS"), 3);

        // One URL of the cluster is enough to learn its size.
        auto one = connectTo(m_cluster.url(1));
        QVERIFY(one);
        QCOMPARE(one->clusterSize(), 3);
    }

    void clusterHonoursReplicasOneAndWarnsAfterwards()
    {
        if (!clusterStarted())
            QFAIL(qPrintable(m_cluster.error()));
        const test::BackendRun run
            = publish(QStringLiteral("lone"), m_cluster.url(0), {QStringLiteral("--replicas"), QStringLiteral("1")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("creating bucket 'lone' with 1 replica, as --replicas asks")),
            qPrintable(run.err));
        auto connection = connectTo(m_cluster.urls());
        QVERIFY(connection);
        QCOMPARE(streamReplicas(*connection, "OBJ_lone"), 1);

        // Without --replicas the cluster calls for 3: the bucket is used as it is, with a warning.
        const test::BackendRun again = publish(QStringLiteral("lone"), m_cluster.urls());
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY2(again.err.contains(QStringLiteral(
                     "ccm-backend publish: warning: bucket 'lone' has 1 replica, fewer than the 3 chosen because the "
                     "server reports a cluster of 3 servers; it is used as it is: recreate it or edit its stream to "
                     "change that")),
            qPrintable(again.err));
        QCOMPARE(streamReplicas(*connection, "OBJ_lone"), 1);

        // Asked for explicitly, the warning says so.
        const test::BackendRun asked
            = publish(QStringLiteral("lone"), m_cluster.urls(), {QStringLiteral("--replicas"), QStringLiteral("2")});
        QCOMPARE(asked.exitCode, 0);
        QVERIFY2(asked.err.contains(QStringLiteral("warning: bucket 'lone' has 1 replica, fewer than the 2 asked for; "
                                                   "it is used as it is")),
            qPrintable(asked.err));
    }

    void lostOnlyReplicaSaysWhatIsLikely()
    {
        if (!clusterStarted())
            QFAIL(qPrintable(m_cluster.error()));
        // "lone" has one replica (clusterHonoursReplicasOneAndWarnsAfterwards): kill its server.
        int holder = -1;
        {
            auto connection = connectTo(m_cluster.urls());
            QVERIFY(connection);
            jsStreamInfo *info = nullptr;
            QCOMPARE(js_GetStreamInfo(&info, connection->jetStream(), "OBJ_lone", nullptr, nullptr), NATS_OK);
            QVERIFY(info->Cluster != nullptr && info->Cluster->Leader != nullptr);
            holder = QByteArray(info->Cluster->Leader).mid(1).toInt();
            jsStreamInfo_Destroy(info);
        }
        QVERIFY(holder >= 0 && holder < 3);
        m_cluster.kill(holder);
        QStringList others;
        for (int i = 0; i < 3; ++i)
            if (i != holder)
                others << m_cluster.url(i);
        const test::BackendRun run = publish(QStringLiteral("lone"), others.join(QLatin1Char(',')));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("looking up bucket 'lone' on ")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral(
                     "the servers holding the bucket's stream do not answer (with 1 replica, the bucket is unavailable "
                     "while its server is down; give buckets 3 replicas on a cluster with --replicas 3)")),
            qPrintable(run.err));
        // A bucket of three replicas is still there.
        const test::BackendRun kept = publish(QStringLiteral("site"), others.join(QLatin1Char(',')));
        QVERIFY2(kept.exitCode == 0, qPrintable(kept.err));
        QVERIFY2(m_cluster.restart(holder), qPrintable(m_cluster.error()));
    }

    void agentReplicasSettingIsHonouredForStatus()
    {
        if (!clusterStarted())
            QFAIL(qPrintable(m_cluster.error()));
        test::FleetAgent agent(QStringLiteral("replica-host"), "web", m_cluster.urls());
        // The preview body ends the preview section; `replicas` follows at the top level.
        agent.configure("  enabled: false\nreplicas: 1\n");
        agent.start();
        QVERIFY2(agent.waitForLog(QStringLiteral("creating bucket 'CCM_STATUS' with 1 replica, as replicas: asks")),
            qPrintable(agent.log()));
        auto connection = connectTo(m_cluster.urls());
        QVERIFY(connection);
        // The agent creates the bucket right after it logs so.
        QDeadlineTimer deadline(20000);
        while (streamReplicas(*connection, "KV_CCM_STATUS") == 0 && !deadline.hasExpired())
            QTest::qWait(50);
        QVERIFY2(streamReplicas(*connection, "KV_CCM_STATUS") == 1, qPrintable(agent.log()));
        QCOMPARE(agent.stop(), 0);
    }
};

CCM_TEST_GUILESS_MAIN(TestBucketReplicas)
#include "tst_bucket_replicas.moc"
