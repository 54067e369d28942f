// SPDX-License-Identifier: Apache-2.0
// The agent configuration: upstream's keys and their defaults, identity and preview, and every
// bad value or unknown key reported with its line and column.
#include "base/signing_key.h"
#include "fleet/agent/agent_config.h"
#include "test_common.h"
#include "test_main.h"

#include <QtTest>

using namespace ccm;
using namespace ccm::fleet;
using namespace std::chrono_literals;

namespace {

/// Writes NAME.pem (private) and NAME.pub.pem into `dir`, as fleet keygen does.
bool writeKeyPair(const QTemporaryDir &dir, const char *name)
{
    auto key = generateSigningKey();
    if (!key)
        return false;
    const std::string base = dir.filePath(QString::fromLatin1(name)).toStdString();
    return writeKeyPair(*key, base + ".pem", base + ".pub.pem", false).ok();
}

} // namespace

class TestAgentConfig : public QObject {
    Q_OBJECT

private slots:
    void defaults()
    {
        for (const char *text : {"", "# nothing\n\n  # at all\n"}) {
            const auto config = parseAgentConfig(text, "agent.yaml");
            QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
            QCOMPARE(config->interval, std::chrono::milliseconds(5min));
            QCOMPARE(config->healthCheckInterval, 0ms);
            QVERIFY(config->manifests.empty());
            QCOMPARE(config->cacheDir, std::filesystem::path("/etc/choria/ccm/source"));
            QCOMPARE(config->monitorPort, 0);
            QCOMPARE(config->logLevel, std::string("info"));
            QCOMPARE(config->natsContext, std::string("CCM"));
            QVERIFY(config->registration == RegistrationDestination::None);
            QCOMPARE(config->identity, hostIdentity());
            QVERIFY(!config->preview.enabled);
            QCOMPARE(config->preview.user, std::string("nobody"));
            QVERIFY(!config->replicas);
        }
    }

    void replicas()
    {
        for (int count = 1; count <= 5; ++count) {
            const auto config = parseAgentConfig("replicas: " + std::to_string(count) + "\n", "agent.yaml");
            QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
            QCOMPARE(config->replicas, std::optional<int>(count));
        }
    }

    void everyKey()
    {
        const QTemporaryDir keys;
        QVERIFY(writeKeyPair(keys, "alice") && writeKeyPair(keys, "ci"));
        const QByteArray text = R"(interval: 1h30m
health_check_interval: 1m
poll_interval: 5s
manifests:
  - obj://bundles/prod/site.tar.gz
  - https://user:pw@files.example.net/site.tar.gz
  - /srv/site.yaml
  - /srv/site.tgz
external_data_url: kv://site-data/common
cache_dir: /var/cache/ccm
monitor_port: 9100
log_level: debug
nats_context: FLEET
registration: jetstream
identity: web1.example.net
preview:
  enabled: true
  trusted_keys: [KEYS/alice.pub.pem, KEYS/ci.pub.pem]
  user: ccm-preview
)";
        const auto config
            = parseAgentConfig(QByteArray(text).replace("KEYS", keys.path().toUtf8()).toStdString(), "agent.yaml");
        QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
        QCOMPARE(config->interval, std::chrono::milliseconds(90min));
        QCOMPARE(config->healthCheckInterval, std::chrono::milliseconds(1min));
        QCOMPARE(config->pollInterval, std::chrono::milliseconds(5s));
        QCOMPARE(config->manifests.size(), std::size_t(4));
        QCOMPARE(config->manifests[1], std::string("https://user:pw@files.example.net/site.tar.gz"));
        QCOMPARE(config->externalDataUrl, std::string("kv://site-data/common"));
        QCOMPARE(config->cacheDir, std::filesystem::path("/var/cache/ccm"));
        QCOMPARE(config->monitorPort, 9100);
        QCOMPARE(config->logLevel, std::string("debug"));
        QCOMPARE(config->natsContext, std::string("FLEET"));
        QVERIFY(config->registration == RegistrationDestination::JetStream);
        QCOMPARE(config->identity, std::string("web1.example.net"));
        QVERIFY(config->preview.enabled);
        QCOMPARE(config->preview.trustedKeys.size(), std::size_t(2));
        QCOMPARE(config->preview.trustedKeys[1],
            std::filesystem::path(keys.filePath(QStringLiteral("ci.pub.pem")).toStdString()));
        QCOMPARE(config->preview.user, std::string("ccm-preview"));
    }

    void values_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message"); // empty: valid

        QTest::newRow("minimum interval") << QByteArray("interval: 30s\n") << QString();
        QTest::newRow("registration nats") << QByteArray("registration: nats\n") << QString();
        QTest::newRow("log_level warn") << QByteArray("log_level: warn\n") << QString();
        QTest::newRow("preview off without keys") << QByteArray("preview:\n  enabled: false\n") << QString();
        QTest::newRow("poll_interval too short") << QByteArray(
            "poll_interval: 500ms\n") << QStringLiteral("agent.yaml:1:16: poll_interval: must be at least 1s");
        QTest::newRow("interval too short") << QByteArray("log_level: info\ninterval: 29s\n")
                                            << QStringLiteral("agent.yaml:2:11: interval: must be at least 30s");
        QTest::newRow("interval not a duration")
            << QByteArray("interval: soon\n") << QStringLiteral("agent.yaml:1:11: interval: 'soon' is not a duration");
        QTest::newRow("interval a number") << QByteArray(
            "interval: 300\n") << QStringLiteral("agent.yaml:1:11: interval: must be a duration such as 30s");
        QTest::newRow("health_check_interval bad") << QByteArray("health_check_interval: -1m\n")
                                                   << QStringLiteral("agent.yaml:1:24: health_check_interval: '-1m'");
        QTest::newRow("manifests not a list") << QByteArray(
            "manifests: obj://b/k\n") << QStringLiteral("agent.yaml:1:12: manifests: must be a list of strings");
        QTest::newRow("manifest not a string")
            << QByteArray("manifests:\n  - a.yaml\n  - {x: 1}\n")
            << QStringLiteral("agent.yaml:3:5: manifests.1: must be a non-empty string");
        QTest::newRow("monitor_port too big") << QByteArray("monitor_port: 70000\n")
                                              << QStringLiteral("agent.yaml:1:15: monitor_port: must be a port number");
        QTest::newRow("monitor_port a string") << QByteArray(
            "monitor_port: \"9100\"\n") << QStringLiteral("agent.yaml:1:15: monitor_port: must be a port number");
        for (const char *bad : {"0", "6", "-1", "3.5", "\"3\"", "three", "[3]"})
            QTest::newRow(qPrintable(QStringLiteral("replicas ") + QLatin1String(bad)))
                << (QByteArray("replicas: ") + bad + "\n")
                << QStringLiteral("agent.yaml:1:11: replicas: must be a whole number from 1 to 5");
        QTest::newRow("log_level unknown")
            << QByteArray("log_level: verbose\n")
            << QStringLiteral("agent.yaml:1:12: log_level: must be one of debug, info, warn, error");
        QTest::newRow("registration unknown") << QByteArray(
            "registration: kafka\n") << QStringLiteral("agent.yaml:1:15: registration: must be nats or jetstream");
        QTest::newRow("cache_dir empty") << QByteArray("cache_dir: \"\"\n")
                                         << QStringLiteral("agent.yaml:1:12: cache_dir: must not be empty");
        QTest::newRow("nats_context a list")
            << QByteArray("nats_context: [a]\n") << QStringLiteral("agent.yaml:1:15: nats_context: must be a string");
        QTest::newRow("identity empty") << QByteArray("identity: ''\n")
                                        << QStringLiteral("agent.yaml:1:11: identity: must not be empty");
        QTest::newRow("external_data_url a map") << QByteArray(
            "external_data_url: {a: 1}\n") << QStringLiteral("agent.yaml:1:20: external_data_url: must be a string");
        QTest::newRow("unknown key") << QByteArray("interval: 1m\nintervall: 2m\n")
                                     << QStringLiteral(
                                            "agent.yaml:2:1: unknown key 'intervall' (known: bundle_keys, cache_dir,");
        QTest::newRow("unknown preview key")
            << QByteArray("preview:\n  enabled: false\n  keys: []\n")
            << QStringLiteral("agent.yaml:3:3: unknown key 'keys' (known: capture, enabled, trusted_keys, user)");
        QTest::newRow("preview not a map")
            << QByteArray("preview: yes\n") << QStringLiteral("agent.yaml:1:10: preview: must be a map");
        QTest::newRow("preview enabled not a bool") << QByteArray(
            "preview:\n  enabled: 'on'\n") << QStringLiteral("agent.yaml:2:12: preview.enabled: must be true or false");
        QTest::newRow("preview enabled without keys") << QByteArray(
            "preview:\n  enabled: true\n") << QStringLiteral("agent.yaml:2:3: preview: enabled needs at least one key");
        QTest::newRow("trusted_keys item empty")
            << QByteArray("preview:\n  trusted_keys: ['']\n")
            << QStringLiteral("agent.yaml:2:18: preview.trusted_keys.0: must be a non-empty string");
        QTest::newRow("preview user empty") << QByteArray("preview:\n  user: ''\n")
                                            << QStringLiteral("agent.yaml:2:9: preview.user: must not be empty");
        QTest::newRow("not a map") << QByteArray("- a\n- b\n")
                                   << QStringLiteral("agent.yaml:1:1: the configuration must be a map");
        QTest::newRow("bad yaml") << QByteArray("interval: [1m\n") << QStringLiteral("agent.yaml:");
        QTest::newRow("duplicate key") << QByteArray("interval: 1m\ninterval: 2m\n")
                                       << QStringLiteral("agent.yaml:2:1:");
    }

    void values()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const auto config = parseAgentConfig(text.toStdString(), "agent.yaml");
        if (message.isEmpty()) {
            QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
            return;
        }
        QVERIFY(!config.ok());
        QCOMPARE(config.error().code, std::string("bad_config"));
        const QString actual = QString::fromStdString(config.error().message);
        QVERIFY2(actual.startsWith(message), qPrintable(actual));
    }

    void everyProblemIsReported()
    {
        const auto config = parseAgentConfig(
            "interval: 10s\nmonitor_port: 70000\nbogus: 1\npreview:\n  user: ''\n  keys: []\n", "agent.yaml");
        QVERIFY(!config.ok());
        const QStringList lines = QString::fromStdString(config.error().message).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 5);
        QVERIFY2(lines[0].startsWith(QStringLiteral("agent.yaml:1:11: interval: must be at least 30s")),
            qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QStringLiteral("agent.yaml:2:15: monitor_port:")), qPrintable(lines[1]));
        QVERIFY2(lines[2].startsWith(QStringLiteral("agent.yaml:3:1: unknown key 'bogus'")), qPrintable(lines[2]));
        QVERIFY2(lines[3].startsWith(QStringLiteral("agent.yaml:5:9: preview.user:")), qPrintable(lines[3]));
        QVERIFY2(lines[4].startsWith(QStringLiteral("agent.yaml:6:3: unknown key 'keys'")), qPrintable(lines[4]));
    }

    void trustedKeys_data()
    {
        QTest::addColumn<QByteArray>("keys"); // the trusted_keys lines; KEYS is the key directory
        QTest::addColumn<QString>("message"); // empty: valid; else the message's start

        QTest::newRow("public keys") << QByteArray("  trusted_keys:\n    - KEYS/alice.pub.pem\n    - KEYS/ci.pub.pem\n")
                                     << QString();
        QTest::newRow("missing file")
            << QByteArray("  trusted_keys:\n    - KEYS/alice.pub.pem\n    - KEYS/bob.pub.pem\n")
            << QStringLiteral("agent.yaml:5:7: preview.trusted_keys.1: KEYS/bob.pub.pem: no such key file");
        QTest::newRow("not PEM") << QByteArray("  trusted_keys:\n    - KEYS/notes.txt\n")
                                 << QStringLiteral(
                                        "agent.yaml:4:7: preview.trusted_keys.0: KEYS/notes.txt: not a PEM file");
        QTest::newRow("broken PEM")
            << QByteArray("  trusted_keys:\n    - KEYS/broken.pem\n")
            << QStringLiteral("agent.yaml:4:7: preview.trusted_keys.0: KEYS/broken.pem: holds no readable public key");
        QTest::newRow("a directory") << QByteArray("  trusted_keys:\n    - KEYS\n")
                                     << QStringLiteral("agent.yaml:4:7: preview.trusted_keys.0: KEYS: ");
        QTest::newRow("a private key")
            << QByteArray("  trusted_keys:\n    - KEYS/ci.pub.pem\n    - KEYS/alice.pem\n")
            << QStringLiteral("agent.yaml:5:7: preview.trusted_keys.1: KEYS/alice.pem holds a private key");
    }

    void trustedKeys()
    {
        QFETCH(QByteArray, keys);
        QFETCH(QString, message);
        const QTemporaryDir dir;
        QVERIFY(writeKeyPair(dir, "alice") && writeKeyPair(dir, "ci"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a key\n"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("broken.pem")),
            "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"));
        const QByteArray text = "preview:\n  enabled: true\n" + QByteArray(keys).replace("KEYS", dir.path().toUtf8());
        const auto config = parseAgentConfig(text.toStdString(), "agent.yaml");
        if (message.isEmpty()) {
            QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
            QCOMPARE(config->preview.trustedKeys.size(), std::size_t(2));
            return;
        }
        QVERIFY(!config.ok());
        QCOMPARE(config.error().code, std::string("bad_config"));
        const QString actual = QString::fromStdString(config.error().message);
        const QString expected = QString(message).replace(QStringLiteral("KEYS"), dir.path());
        QVERIFY2(actual.startsWith(expected), qPrintable(actual));
    }

    void bundleKeys_data()
    {
        QTest::addColumn<QByteArray>("keys"); // the bundle_keys lines; KEYS is the key directory
        QTest::addColumn<QString>("message"); // empty: valid; else the message's start

        QTest::newRow("public keys") << QByteArray("bundle_keys:\n  - KEYS/alice.pub.pem\n  - KEYS/ci.pub.pem\n")
                                     << QString();
        QTest::newRow("missing file") << QByteArray("bundle_keys:\n  - KEYS/alice.pub.pem\n  - KEYS/bob.pub.pem\n")
                                      << QStringLiteral(
                                             "agent.yaml:3:5: bundle_keys.1: KEYS/bob.pub.pem: no such key file");
        QTest::newRow("a private key") << QByteArray("bundle_keys: [KEYS/alice.pem]\n")
                                       << QStringLiteral(
                                              "agent.yaml:1:15: bundle_keys.0: KEYS/alice.pem holds a private key");
        QTest::newRow("not PEM") << QByteArray("bundle_keys:\n  - KEYS/notes.txt\n")
                                 << QStringLiteral("agent.yaml:2:5: bundle_keys.0: KEYS/notes.txt: not a PEM file");
        QTest::newRow("empty list") << QByteArray("bundle_keys: []\n")
                                    << QStringLiteral(
                                           "agent.yaml:1:14: bundle_keys: must list at least one public key file");
        QTest::newRow("not a list") << QByteArray("bundle_keys: KEYS/alice.pub.pem\n")
                                    << QStringLiteral("agent.yaml:1:14: bundle_keys: ");
    }

    void bundleKeys()
    {
        QFETCH(QByteArray, keys);
        QFETCH(QString, message);
        const QTemporaryDir dir;
        QVERIFY(writeKeyPair(dir, "alice") && writeKeyPair(dir, "ci"));
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a key\n"));
        const QByteArray text = QByteArray(keys).replace("KEYS", dir.path().toUtf8());
        const auto config = parseAgentConfig(text.toStdString(), "agent.yaml");
        if (message.isEmpty()) {
            QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
            QCOMPARE(config->bundleKeys.size(), std::size_t(2));
            QCOMPARE(config->bundleKeys[0],
                loadPublicKey(dir.filePath(QStringLiteral("alice.pub.pem")).toStdString()).value());
            return;
        }
        QVERIFY(!config.ok());
        QCOMPARE(config.error().code, std::string("bad_config"));
        const QString actual = QString::fromStdString(config.error().message);
        const QString expected = QString(message).replace(QStringLiteral("KEYS"), dir.path());
        QVERIFY2(actual.startsWith(expected), qPrintable(actual));
    }

    void withoutBundleKeysNothingIsRequired()
    {
        const auto config = parseAgentConfig("manifests: [obj://b/site.tgz]\n", "agent.yaml");
        QVERIFY(config.ok());
        QVERIFY(config->bundleKeys.empty());
    }

    void trustedKeysUncheckedWhilePreviewIsOff()
    {
        const auto config
            = parseAgentConfig("preview:\n  enabled: false\n  trusted_keys: [/nonexistent/a.pem]\n", "agent.yaml");
        QVERIFY2(config.ok(), config ? "" : config.error().message.c_str());
        QVERIFY(!config->preview.enabled);
    }

    void loadsFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("agent.yaml"));
        QVERIFY(test::writeFile(path, "identity: a\nmonitor_port: x\n"));
        const auto config = loadAgentConfig(path.toStdString());
        QVERIFY(!config.ok());
        QCOMPARE(QString::fromStdString(config.error().message),
            path
                + QStringLiteral(
                    ":2:15: monitor_port: must be a port number from 1 to 65535, or 0 for no metrics endpoint"));
        QVERIFY(!loadAgentConfig(dir.filePath(QStringLiteral("absent.yaml")).toStdString()).ok());
    }
};

CCM_TEST_GUILESS_MAIN(TestAgentConfig)
#include "tst_agent_config.moc"
