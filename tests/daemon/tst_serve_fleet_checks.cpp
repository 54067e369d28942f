// SPDX-License-Identifier: Apache-2.0
// fleet.preview of a user's `ccm-backend serve --user` as a real process, with a real nats-server
// and real preview responders (ccm-preview-fleet): a select that does not parse is refused before
// anything is sent, and a fleet that does not trust the key gives a result whose notice says so.
#include "../fleet/nats_server.h"
#include "../fleet/preview_fleet_process.h"
#include "base/signing_key.h"
#include "daemon_harness.h"
#include "sent_messages.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::test;

class TestServeFleetChecks : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString trustedKey() const { return m_dir.filePath(QStringLiteral("trusted.pem")); }
    QString otherKey() const { return m_dir.filePath(QStringLiteral("other.pem")); }

    Json previewParams(const QString &key, const QString &nats) const
    {
        return Json {{"manifest",
                         "ccm:\n  resources:\n    - file:\n        - " + text(m_dir.filePath(QStringLiteral("role")))
                             + ":\n            ensure: present\n            owner: root\n            group: root\n     "
                               "       mode: \"0644\"\n            content: \"role {{ Facts.role }}\\n\"\n"},
            {"base_dir", text(m_dir.path())}, {"key", text(key)}, {"nats", text(nats)}};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (const QString &key : {trustedKey(), otherKey()}) {
            auto made = generateSigningKey();
            QVERIFY(made);
            const std::string file = text(key);
            QVERIFY(writeKeyPair(*made, file, file.substr(0, file.size() - 4) + ".pub.pem", false));
        }
    }

    void selectThatDoesNotParseIsRefused()
    {
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        // No server listens there: an answer naming the selector was given before connecting.
        Json params = previewParams(trustedKey(), QStringLiteral("nats://127.0.0.1:1"));
        params["select"] = "Facts.role ==";
        const auto reply = client.call("fleet.preview", params);
        QVERIFY(reply);
        QCOMPARE(errorCode(*reply), -32602);
        QCOMPARE((*reply)["error"]["data"].value("path", ""), std::string("select"));
        QCOMPARE((*reply)["error"].value("message", ""),
            std::string("params.select does not parse: unexpected end of expression, expected a value at column 14; "
                        "nothing was sent"));
    }

    void untrustedKeyGivesANotice()
    {
        if (!NatsServer::available())
            QSKIP("nats-server is not installed");
        NatsServer server;
        QVERIFY2(server.start(), qPrintable(server.error()));
        PreviewFleetProcess fleet;
        QVERIFY(fleet.start({QStringLiteral("--nats"), server.url(), QStringLiteral("--trusted"),
            m_dir.filePath(QStringLiteral("trusted.pub.pem")), QStringLiteral("--hosts"), QStringLiteral("2"),
            QStringLiteral("--work"), m_dir.filePath(QStringLiteral("work")), QStringLiteral("--status"),
            QStringLiteral("yes")}));
        DaemonProcess daemon(userMode());
        RpcClient client;
        QVERIFY(client.connectTo(daemon.socket()));
        auto other = loadPrivateKey(text(otherKey()));
        QVERIFY(other);
        const std::string fingerprint = keyFingerprint(other->publicKey);

        Json params = previewParams(otherKey(), server.url());
        params["timeout_ms"] = 2000;
        const auto silent = client.call("fleet.preview", params);
        QVERIFY(silent);
        QVERIFY2(sentProblems("response.fleet.preview", *silent).isEmpty(), silent->dump().c_str());
        const Json &result = (*silent)["result"];
        QCOMPARE(result["totals"].value("silent", -1), 2);
        const std::string notice = result.value("notice", "");
        QVERIFY2(notice.starts_with("none of the 2 agents CCM_STATUS lists as alive answered within 2s. The likely "
                                    "reason: none trusts the key that signed the request (fingerprint "
                     + fingerprint + ")."),
            notice.c_str());
        QVERIFY2(notice.find("copy " + text(m_dir.filePath(QStringLiteral("other.pub.pem")))) != std::string::npos,
            notice.c_str());
        for (const Json &host : result["hosts"]) {
            QCOMPARE(host.value("state", ""), std::string("silent"));
            QCOMPARE(host.value("message", ""),
                "no answer: this agent may not trust the signing key (fingerprint " + fingerprint + ")");
        }

        params = previewParams(trustedKey(), server.url());
        const auto answered = client.call("fleet.preview", params);
        QVERIFY(answered);
        QCOMPARE((*answered)["result"]["totals"].value("answered", -1), 2);
        QVERIFY(!(*answered)["result"].contains("notice"));
    }
};

CCM_TEST_GUILESS_MAIN(TestServeFleetChecks)
#include "tst_serve_fleet_checks.moc"
