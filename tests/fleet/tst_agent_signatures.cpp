// SPDX-License-Identifier: Apache-2.0
// bundle_keys with real agent processes, a real nats-server and a real HTTP server: bundles put
// straight into the object store with the official NATS JavaScript client (as anyone who may
// write to the bucket could) unsigned, signed by another key, or changed after signing are
// refused by every agent that has the key, which keeps running its last good bundle and says why
// in its log (once per bundle), its metrics and its status; an agent without bundle_keys takes
// them all, as upstream's agent does.
#include "../backend/backend_process.h"
#include "agent_under_test.h"
#include "base/signing_key.h"
#include "fleet/agent/agent_report.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/nats/object_store.h"
#include "http_server.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QStandardPaths>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::AgentUnderTest;
using ccm::test::kConverge;
using ccm::test::q;
using ccm::test::readAll;

namespace {

const QString kSignatureInteropDir = QStringLiteral(CCM_SOURCE_DIR "/tests/fleet/interop");

/// A manifest writing "VERSION TAG\n" to Facts.out.
QByteArray versionManifest(const QByteArray &version)
{
    return "ccm:\n  resources:\n    - file:\n        - \"{{ Facts.out }}\":\n"
           "            ensure: present\n            owner: root\n            group: root\n"
           "            mode: \"0644\"\n            content: \""
        + version + " {{ Facts.tag }}\\n\"\n";
}

bool runTar(const QStringList &arguments)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), arguments);
    return tar.waitForFinished(60000) && tar.exitStatus() == QProcess::NormalExit && tar.exitCode() == 0;
}

/// `archive` unpacked, `manifest` put in place of its manifest.yaml and SHA256SUMS made to match,
/// every other member (SHA256SUMS.sig too) kept: what someone who may write the bucket but does
/// not hold the key can make of a signed bundle.
QByteArray tampered(const QByteArray &archive, const QByteArray &manifest)
{
    QTemporaryDir dir;
    const QString in = dir.filePath(QStringLiteral("in.tar.gz"));
    const QString tree = dir.filePath(QStringLiteral("tree"));
    QDir().mkpath(tree);
    test::writeFile(dir, QStringLiteral("in.tar.gz"), archive);
    if (!runTar({QStringLiteral("-xzf"), in, QStringLiteral("-C"), tree}))
        return {};
    test::writeFile(dir, QStringLiteral("tree/manifest.yaml"), manifest);
    QByteArray sums;
    QStringList members;
    QDirIterator files(tree, QDir::Files, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString relative = QDir(tree).relativeFilePath(files.next());
        members << relative;
        if (relative != QLatin1String("SHA256SUMS") && relative != QLatin1String("SHA256SUMS.sig"))
            sums += QCryptographicHash::hash(readAll(files.filePath()), QCryptographicHash::Sha256).toHex() + "  "
                + relative.toUtf8() + "\n";
    }
    test::writeFile(dir, QStringLiteral("tree/SHA256SUMS"), sums);
    if (!runTar(
            QStringList {QStringLiteral("-czf"), dir.filePath(QStringLiteral("out.tar.gz")), QStringLiteral("-C"), tree}
            + members))
        return {};
    return readAll(dir.filePath(QStringLiteral("out.tar.gz")));
}

} // namespace

class TestAgentSignatures : public QObject {
    Q_OBJECT

    test::NatsServer m_server;
    test::HttpServer m_http;
    QTemporaryDir m_dir;
    QString m_node;
    QString m_publicKey;
    QString m_privateKey;
    QString m_otherKey;

    /// `ccm-backend bundle` of versionManifest(version), signed with `key` unless it is empty.
    QByteArray bundle(const QByteArray &version, const QString &key)
    {
        const QString manifest = test::writeFile(m_dir, QStringLiteral("site/site.yaml"), versionManifest(version));
        const QString out = m_dir.filePath(QStringLiteral("site-%1.tar.gz").arg(QString::fromUtf8(version)));
        QStringList arguments {QStringLiteral("bundle"), manifest, QStringLiteral("-o"), out};
        if (!key.isEmpty())
            arguments << QStringLiteral("--sign") << key;
        const test::BackendRun run = test::runBackend(arguments);
        if (run.exitCode != 0)
            qWarning("bundle failed: %s", qPrintable(run.err));
        return readAll(out);
    }

    /// Puts `bytes` as bundles/site.tgz with the official JavaScript client, and serves them
    /// over HTTP as /site.tgz.
    bool publish(const QByteArray &bytes)
    {
        const QString file = test::writeFile(m_dir, QStringLiteral("upload.tgz"), bytes);
        QProcess client;
        client.start(m_node,
            {kSignatureInteropDir + QStringLiteral("/objectstore.js"), QStringLiteral("put"), m_server.url(),
                QStringLiteral("bundles"), QStringLiteral("site.tgz"), file});
        if (!client.waitForFinished(60000) || client.exitCode() != 0) {
            qWarning("objectstore.js put: %s", client.readAllStandardError().constData());
            return false;
        }
        return test::writeFile(m_http.root() + QStringLiteral("/site.tgz"), bytes);
    }

    Json statusOf(const QString &identity)
    {
        NatsSelection selection;
        selection.url = m_server.urlString();
        KvReader reader(selection, ContextEnvironment::fromProcess());
        auto value = reader.get(std::string(kStatusBucket), statusKey(identity.toStdString()));
        const Json status = value ? Json::parse(*value, nullptr, false) : Json();
        return status.is_object() ? status : Json::object();
    }

    /// The reason the status of `identity` gives for its refused bundle of digest `digest`.
    QString refusalInStatus(const QString &identity, const QString &digest)
    {
        const Json refused = statusOf(identity).value("refused_bundles", Json::array());
        for (const Json &entry : refused.is_array() ? refused : Json::array())
            if (entry.is_object() && q(entry.value("digest", "")) == digest)
                return q(entry.value("reason", ""));
        return {};
    }

private slots:
    void initTestCase()
    {
        m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
        if (m_node.isEmpty())
            QSKIP("node is not installed: this test puts bundles with the official NATS JavaScript client "
                  "(scripts/install-deps installs it)");
        if (!QFile::exists(kSignatureInteropDir + QStringLiteral("/node_modules/nats/package.json")))
            QFAIL("the nats npm package is missing from tests/fleet/interop: run scripts/install-deps");
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed");
        QVERIFY2(m_server.start(), qPrintable(m_server.error()));
        QVERIFY2(m_http.start(), qPrintable(m_http.error()));
        for (const char *name : {"ana", "bo"}) {
            auto key = generateSigningKey();
            QVERIFY(key);
            const QString path = m_dir.filePath(QStringLiteral("keys/%1.pem").arg(QLatin1String(name)));
            QVERIFY(writeKeyPair(*key, path.toStdString(),
                m_dir.filePath(QStringLiteral("keys/%1.pub.pem").arg(QLatin1String(name))).toStdString(), false));
        }
        m_privateKey = m_dir.filePath(QStringLiteral("keys/ana.pem"));
        m_publicKey = m_dir.filePath(QStringLiteral("keys/ana.pub.pem"));
        m_otherKey = m_dir.filePath(QStringLiteral("keys/bo.pem"));
    }

    void onlyBundlesSignedByTheKeyAreTaken()
    {
        const QByteArray v1 = bundle("v1", m_privateKey);
        QVERIFY(publish(v1));
        const QByteArray keys = "bundle_keys:\n  - " + m_publicKey.toUtf8() + "\n";
        const quint16 port = test::freePort();
        AgentUnderTest watcher(QStringLiteral("keyed-obj"), m_server.url());
        watcher.configure(keys + "monitor_port: " + QByteArray::number(port)
            + "\nlog_level: debug\nmanifests:\n  - obj://bundles/site.tgz\n");
        AgentUnderTest poller(QStringLiteral("keyed-http"), m_server.url());
        poller.configure(keys + "poll_interval: 1s\nlog_level: debug\nmanifests:\n  - "
            + m_http.url(QStringLiteral("/files/site.tgz")).toUtf8() + "\n");
        AgentUnderTest open(QStringLiteral("open"), m_server.url());
        open.configure("manifests:\n  - obj://bundles/site.tgz\n");
        const QList<AgentUnderTest *> keyed {&watcher, &poller};
        for (AgentUnderTest *agent : {&watcher, &poller, &open})
            agent->start();
        for (AgentUnderTest *agent : {&watcher, &poller, &open})
            QTRY_COMPARE_WITH_TIMEOUT(
                agent->managed(), QStringLiteral("v1 ") + agent->identity() + QLatin1Char('\n'), kConverge);

        struct Attempt {
            const char *reason;
            QString version;
            QByteArray bytes;
            QString why;
        };
        const QList<Attempt> attempts {
            {"unsigned", QStringLiteral("v2-unsigned"), bundle("v2-unsigned", {}),
                QStringLiteral("it is not signed, and only bundles signed by a trusted key are accepted")},
            {"untrusted_signer", QStringLiteral("v2-other"), bundle("v2-other", m_otherKey),
                QStringLiteral("it is signed by key ")},
            {"invalid_signature", QStringLiteral("v2-tampered"), tampered(v1, versionManifest("v2-tampered")),
                QStringLiteral("its signature is invalid: it does not verify over SHA256SUMS")},
        };
        const QString obj = QStringLiteral("obj://bundles/site.tgz");
        for (const Attempt &attempt : attempts) {
            QVERIFY(!attempt.bytes.isEmpty());
            const qsizetype marks[] {watcher.log().size(), poller.log().size()};
            QVERIFY(publish(attempt.bytes));
            const QString digest = q(objectDigest(attempt.bytes.toStdString()));
            // Upstream's way: an agent without bundle_keys takes whatever is in the bucket.
            QTRY_COMPARE_WITH_TIMEOUT(open.managed(), attempt.version + QStringLiteral(" open\n"), kConverge);
            for (int i = 0; i < keyed.size(); ++i) {
                AgentUnderTest &agent = *keyed[i];
                const QString refusal = QStringLiteral(": refused the bundle ") + digest + QStringLiteral(": ");
                QVERIFY2(agent.waitForLog(refusal + attempt.why, marks[i]), qPrintable(agent.log().mid(marks[i])));
                QVERIFY(agent.log().contains(
                    QStringLiteral("; running the last good bundle ") + q(objectDigest(v1.toStdString()))));
                QTRY_VERIFY_WITH_TIMEOUT(refusalInStatus(agent.identity(), digest).startsWith(attempt.why), kConverge);
                QCOMPARE(agent.managed(), QStringLiteral("v1 ") + agent.identity() + QLatin1Char('\n'));
                QCOMPARE(readAll(agent.cacheDir() + QLatin1Char('/') + agent.cachedBundles().value(0)), v1);
            }
            // The HTTP source is polled every second and sends no validators: the refused bundle
            // comes again, is not taken, and is not logged again.
            QVERIFY(poller.waitForLog(digest + QStringLiteral(" was refused: not fetched again"), marks[1]));
            for (AgentUnderTest *agent : keyed)
                QCOMPARE(agent->log().count(QStringLiteral("refused the bundle ") + digest), 1);
            const QString metrics = test::agentMetrics(port);
            QVERIFY2(metrics.contains(QStringLiteral("ccm_agent_bundle_signature_refusals_total{source=\"") + obj
                         + QStringLiteral("\",reason=\"") + QLatin1String(attempt.reason) + QStringLiteral("\"} 1")),
                qPrintable(metrics));
        }

        // Signed by the key again: taken everywhere, and the refusal is cleared.
        const QByteArray v3 = bundle("v3", m_privateKey);
        QVERIFY(publish(v3));
        for (AgentUnderTest *agent : {&watcher, &poller, &open})
            QTRY_COMPARE_WITH_TIMEOUT(
                agent->managed(), QStringLiteral("v3 ") + agent->identity() + QLatin1Char('\n'), kConverge);
        QTRY_VERIFY_WITH_TIMEOUT(
            statusOf(watcher.identity()).value("refused_bundles", Json::array()).empty(), kConverge);
        const QString metrics = test::agentMetrics(port);
        QVERIFY2(metrics.contains(
                     QStringLiteral("ccm_agent_bundles_refused_total{source=\"") + obj + QStringLiteral("\"} 3")),
            qPrintable(metrics));
    }

    void aCachedBundleTheKeyDidNotSignDoesNotRun()
    {
        // An agent given bundle_keys after it cached an unsigned bundle does not run that bundle.
        const QByteArray plain = bundle("v4-unsigned", {});
        QVERIFY(publish(plain));
        AgentUnderTest agent(QStringLiteral("late-keys"), m_server.url());
        agent.configure("manifests:\n  - obj://bundles/site.tgz\n");
        agent.start({QStringLiteral("--once")});
        QCOMPARE(agent.exitCode(kConverge), 0);
        QCOMPARE(agent.managed(), QStringLiteral("v4-unsigned late-keys\n"));
        QVERIFY(test::writeFile(agent.outFile(), "changed by hand\n"));
        agent.configure("bundle_keys: [" + m_publicKey.toUtf8() + "]\nmanifests:\n  - obj://bundles/site.tgz\n");
        agent.start({QStringLiteral("--once")});
        QCOMPARE(agent.exitCode(kConverge), 1);
        QCOMPARE(agent.managed(), QStringLiteral("changed by hand\n"));
        QVERIFY2(agent.log().contains(QStringLiteral("it is not signed")), qPrintable(agent.log()));
    }
};

CCM_TEST_GUILESS_MAIN(TestAgentSignatures)
#include "tst_agent_signatures.moc"
