// SPDX-License-Identifier: Apache-2.0
// An edge site: a real `ccm-backend agent` whose NATS context names a leaf nats-server, following a
// bundle that `ccm-backend publish` puts on the hub (nats_cluster.h's NatsLeafSite). The leaf's
// link to the hub is cut while both servers keep running: the agent keeps converging from its
// cache, applies what was published meanwhile once the link is back, and the status of the run it
// made while cut off reaches the hub's CCM_STATUS.
#include "../backend/backend_process.h"
#include "agent_under_test.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/object_store.h"
#include "nats_cluster.h"
#include "test_common.h"
#include "test_main.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <memory>
#include <nats/nats.h>

using namespace ccm;
using ccm::test::AgentUnderTest;
using ccm::test::BackendRun;
using ccm::test::NatsLeafSite;
using ccm::test::runBackend;

namespace leaf_test {

/// How long the agent gets to apply what was published while it was cut off, once the link is back:
/// the link's own reconnection (about 1 s here) plus the agent's next check of its source.
constexpr int kCatchUpMs = 15000;
constexpr int kWaitMs = 20000;

/// A manifest writing "VERSION TAG" to Facts.out, whose health check is critical while the file
/// holds anything else: with health checks every second, a change made behind the agent's back
/// is put back by the next (remediate) run without waiting for the interval.
QByteArray leafManifest(const char *version)
{
    return QByteArray("ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
                      "            ensure: present\n            owner: root\n            group: root\n"
                      "            mode: \"0644\"\n            content: \"")
        + version + " {{ Facts.tag }}\\n\"\n            health_checks:\n"
        + "              - {command: \"/bin/sh -c 'grep -qx " + version
        + ".{{ Facts.tag }} {{ Facts.out }} || exit 2'\"}\n";
}

/// Every status value stored in the hub's CCM_STATUS from now on, as the hub saw them: a core
/// subscription to the bucket's subjects on the hub receives each put the hub's JetStream takes.
class HubStatusTap {
public:
    explicit HubStatusTap(const QString &hubUrl)
    {
        fleet::NatsSettings settings;
        settings.url = hubUrl.toStdString();
        settings.source = "test";
        auto connection = fleet::NatsConnection::connect(settings);
        if (!connection)
            return;
        m_connection = std::move(connection).value();
        if (natsConnection_SubscribeSync(&m_subscription, m_connection->connection(), "$KV.CCM_STATUS.>") != NATS_OK)
            m_subscription = nullptr;
        else
            natsConnection_FlushTimeout(m_connection->connection(), 5000);
    }
    ~HubStatusTap()
    {
        if (m_subscription != nullptr)
            natsSubscription_Destroy(m_subscription);
    }
    HubStatusTap(const HubStatusTap &) = delete;
    HubStatusTap &operator=(const HubStatusTap &) = delete;

    bool isValid() const { return m_subscription != nullptr; }

    /// The values received so far, oldest first.
    const QList<QJsonObject> &values()
    {
        natsMsg *message = nullptr;
        while (m_subscription != nullptr && natsSubscription_NextMsg(&message, m_subscription, 1) == NATS_OK) {
            m_values << QJsonDocument::fromJson(QByteArray(natsMsg_GetData(message), natsMsg_GetDataLength(message)))
                            .object();
            natsMsg_Destroy(message);
        }
        return m_values;
    }

private:
    std::unique_ptr<fleet::NatsConnection> m_connection;
    natsSubscription *m_subscription = nullptr;
    QList<QJsonObject> m_values;
};

/// The first run of `status` (an agent with one source has one).
QJsonObject firstRun(const QJsonObject &status)
{
    return status[QStringLiteral("runs")].toArray().at(0).toObject();
}

/// The value of `identity` in the hub's CCM_STATUS now; empty when there is none.
QJsonObject hubStatus(const QString &hubUrl, const QString &identity)
{
    fleet::NatsSelection selection;
    selection.url = hubUrl.toStdString();
    fleet::KvReader reader(selection, fleet::ContextEnvironment::fromProcess());
    auto value = reader.get(std::string(fleet::kStatusBucket), fleet::statusKey(identity.toStdString()));
    return value ? QJsonDocument::fromJson(QByteArray::fromStdString(*value)).object() : QJsonObject();
}

} // namespace leaf_test

using namespace leaf_test;

class TestFleetLeaf : public QObject {
    Q_OBJECT

private:
    NatsLeafSite m_site;
    QTemporaryDir m_dir;

    /// Bundles leafManifest(version) and publishes it to the hub as SITE/site; the digest the
    /// agent reports for it.
    bool publish(const char *version, QString *digest = nullptr)
    {
        const QString manifest = test::writeFile(
            m_dir, QStringLiteral("site-%1/site.yaml").arg(QString::fromUtf8(version)), leafManifest(version));
        const QString bundle = m_dir.filePath(QStringLiteral("site-%1.tar.gz").arg(QString::fromUtf8(version)));
        const BackendRun bundled = runBackend({QStringLiteral("bundle"), manifest, QStringLiteral("-o"), bundle});
        if (bundled.exitCode != 0) {
            qWarning("bundle failed: %s", qPrintable(bundled.err));
            return false;
        }
        const BackendRun published
            = runBackend({QStringLiteral("publish"), bundle, QStringLiteral("--bucket"), QStringLiteral("SITE"),
                QStringLiteral("--name"), QStringLiteral("site"), QStringLiteral("--nats"), m_site.hubUrl()});
        if (published.exitCode != 0) {
            qWarning("publish failed: %s", qPrintable(published.err));
            return false;
        }
        if (digest != nullptr) {
            QFile file(bundle);
            if (!file.open(QIODevice::ReadOnly))
                return false;
            *digest = QString::fromStdString(fleet::objectDigest(file.readAll().toStdString()));
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        if (!NatsLeafSite::available())
            QSKIP("nats-server is not on PATH");
        QVERIFY2(m_site.start(), qPrintable(m_site.error()));
    }

    void edgeAgentRidesOutACutLink();
};

void TestFleetLeaf::edgeAgentRidesOutACutLink()
{
    QString v1;
    QVERIFY(publish("v1", &v1));
    AgentUnderTest agent(QStringLiteral("edge-1"), m_site.leafUrl());
    agent.configure("interval: 30s\nhealth_check_interval: 1s\nmanifests:\n  - obj://SITE/site\n");
    agent.start();
    const auto hubDigest = [&] {
        return firstRun(hubStatus(m_site.hubUrl(), agent.identity()))[QStringLiteral("manifest_digest")].toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 edge-1\n"), kWaitMs);
    // Its reports reach the hub through the leaf.
    QTRY_VERIFY2_WITH_TIMEOUT(hubDigest() == v1, qPrintable(agent.log()), kWaitMs);

    HubStatusTap tap(m_site.hubUrl());
    QVERIFY(tap.isValid());
    QVERIFY2(m_site.cutLink(), qPrintable(m_site.error()));
    // The status after the remediate run made while cut off (the only one that changes anything),
    // as the hub's CCM_STATUS takes it.
    const auto remediatedWhileCut = [&] {
        for (const QJsonObject &value : tap.values()) {
            const QJsonObject run = firstRun(value);
            if (run[QStringLiteral("mode")].toString() == QStringLiteral("remediate")
                && run[QStringLiteral("summary")].toObject()[QStringLiteral("changed")].toInt() == 1
                && run[QStringLiteral("manifest_digest")].toString() == v1)
                return true;
        }
        return false;
    };

    // Cut off: the status of the next health run cannot be stored, so the agent knows.
    const qsizetype mark = agent.log().size();
    QVERIFY2(agent.waitForLog(QStringLiteral("status not stored, trying again"), mark), qPrintable(agent.log()));
    // A change behind its back is put back from the cached bundle.
    QVERIFY(test::writeFile(agent.outFile(), "changed by hand\n"));
    QVERIFY2(
        agent.waitForLog(QStringLiteral("a health check is critical; remediating"), mark), qPrintable(agent.log()));
    QTRY_COMPARE_WITH_TIMEOUT(agent.managed(), QStringLiteral("v1 edge-1\n"), kWaitMs);
    QVERIFY2(agent.waitForLog(QStringLiteral("obj://SITE/site: remediate: "), mark), qPrintable(agent.log()));

    // Published to the hub meanwhile: the leaf cannot tell the agent.
    QString v2;
    QVERIFY(publish("v2", &v2));
    QCOMPARE(agent.managed(), QStringLiteral("v1 edge-1\n"));
    QVERIFY2(!remediatedWhileCut(),
        qPrintable(QStringLiteral("a status reached the hub while the link was cut:\n")
            + QString::fromUtf8(m_site.leaf().log().right(2000))));

    QElapsedTimer sinceRestore;
    QVERIFY2(m_site.restoreLink(), qPrintable(m_site.error()));
    sinceRestore.start();
    QTRY_VERIFY2_WITH_TIMEOUT(agent.managed() == QStringLiteral("v2 edge-1\n"), qPrintable(agent.log()), kCatchUpMs);
    qInfo("catch-up: v2 applied %lld ms after the link was back", static_cast<long long>(sinceRestore.elapsed()));

    // The remediate run made while cut off reached the hub's CCM_STATUS, in turn, then the newest.
    QTRY_VERIFY_WITH_TIMEOUT(remediatedWhileCut(), kWaitMs);
    qInfo("reports: the cut-off remediate run in CCM_STATUS %lld ms after the link was back",
        static_cast<long long>(sinceRestore.elapsed()));
    QTRY_VERIFY2_WITH_TIMEOUT(hubDigest() == v2, qPrintable(agent.log()), kWaitMs);
    QVERIFY(agent.stop());
}

CCM_TEST_GUILESS_MAIN(TestFleetLeaf)
#include "tst_fleet_leaf.moc"
