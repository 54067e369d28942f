// SPDX-License-Identifier: Apache-2.0
// The fault tests' topologies themselves (nats_cluster.h): a three-server JetStream cluster keeps
// its JetStream through the loss of any one server and takes it back, and a leaf site's link is
// cut and restored while both servers run.
#include "nats_cluster.h"
#include "test_main.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace ccm::test;

class NatsTopologyTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!NatsCluster::available())
            QSKIP("nats-server is not on PATH");
    }

    void clusterSurvivesTheLossOfAnyServer()
    {
        NatsCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.error()));
        QCOMPARE(cluster.urls().split(QLatin1Char(',')).size(), 3);
        for (int victim = 0; victim < cluster.size(); ++victim) {
            cluster.kill(victim);
            QVERIFY(!cluster.isRunning(victim));
            QVERIFY(!jetStreamAnswers(cluster.url(victim), 300));
            QElapsedTimer sinceKill;
            sinceKill.start();
            QVERIFY2(cluster.waitForJetStream(), qPrintable(cluster.error()));
            qInfo("server n%d killed: JetStream answers on the others after %lld ms", victim,
                static_cast<long long>(sinceKill.elapsed()));
            QVERIFY2(cluster.restart(victim), qPrintable(cluster.error()));
            QVERIFY(jetStreamAnswers(cluster.url(victim)));
        }
    }

    void leafLinkIsCutAndRestored()
    {
        NatsLeafSite site;
        QVERIFY2(site.start(), qPrintable(site.error()));
        QVERIFY(jetStreamAnswers(site.leafUrl()));
        QVERIFY2(site.cutLink(), qPrintable(site.error()));
        QVERIFY(site.leaf().isRunning());
        QVERIFY(site.hub().isRunning());
        QVERIFY(jetStreamAnswers(site.hubUrl()));
        QVERIFY(!jetStreamAnswers(site.leafUrl(), 300));
        QVERIFY2(site.restoreLink(), qPrintable(site.error()));
        QVERIFY(jetStreamAnswers(site.leafUrl()));
    }
};

CCM_TEST_GUILESS_MAIN(NatsTopologyTest)
#include "tst_nats_topology.moc"
