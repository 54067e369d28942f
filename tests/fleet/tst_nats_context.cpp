// SPDX-License-Identifier: Apache-2.0
// NATS CLI context files: each field, which context is used, the errors, and real connections
// with each kind of credentials to a nats-server that requires them.
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/nkey.h"
#include "nats_server.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace ccm;
using namespace ccm::fleet;
using ccm::test::q;

namespace {

// A user NKey made with the official nkeys.js; the public key checks our derivation.
constexpr const char *kSeed = "SUAB3KB7QFY7V73ORJ4FDGDQMX3JDHI4HM3PRFX63TAG3IAGKZITOCHPPY";
constexpr const char *kPublicKey = "UD7S3D74C7UNYZJQNZ4E7OKC2GHNHXZLK5MJSKWMLC3JFA2DQ6IDAW2Z";

/// Writes a context NAME.json under `configHome`/nats/context.
void writeContext(const QString &configHome, const QString &name, const QByteArray &json)
{
    const QString directory = configHome + QStringLiteral("/nats/context");
    QVERIFY(QDir().mkpath(directory));
    QVERIFY(test::writeFile(directory + QLatin1Char('/') + name + QStringLiteral(".json"), json));
}

/// Runs openssl with `arguments` in `directory`; false, with its output as a warning, on failure.
bool openssl(const QString &directory, const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("openssl"), arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning("openssl %s: %s", qPrintable(arguments.join(QLatin1Char(' '))), process.readAll().constData());
        return false;
    }
    return true;
}

/// A certificate NAME.pem with key NAME.key in `directory`, signed by ca.pem (made first, with
/// NAME "ca", self-signed).
bool makeCertificate(const QString &directory, const QString &name, const QString &extension = {})
{
    const QStringList key {QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
        name + QStringLiteral(".key")};
    if (name.endsWith(QStringLiteral("ca")))
        return openssl(directory,
            QStringList {QStringLiteral("req"), QStringLiteral("-x509")} + key
                + QStringList {QStringLiteral("-out"), name + QStringLiteral(".pem"), QStringLiteral("-days"),
                    QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=") + name});
    if (!test::writeFile(directory + QLatin1Char('/') + name + QStringLiteral(".ext"), extension.toUtf8()))
        return false;
    return openssl(directory,
               QStringList {QStringLiteral("req")} + key
                   + QStringList {QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                       QStringLiteral("/CN=") + name})
        && openssl(directory,
            {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), name + QStringLiteral(".csr"),
                QStringLiteral("-CA"), QStringLiteral("ca.pem"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                QStringLiteral("-CAcreateserial"), QStringLiteral("-days"), QStringLiteral("2"),
                QStringLiteral("-extfile"), name + QStringLiteral(".ext"), QStringLiteral("-out"),
                name + QStringLiteral(".pem")});
}

} // namespace

class TestNatsContext : public QObject {
    Q_OBJECT

private slots:
    void parsesEachField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::newRow("url") << QByteArray("{\"url\": \"nats://a:4222,nats://b:4222\"}") << "url"
                             << "nats://a:4222,nats://b:4222";
        QTest::newRow("user") << QByteArray(R"({"user": "alice"})") << "user"
                              << "alice";
        QTest::newRow("password") << QByteArray(R"({"password": "s3cret"})") << "password"
                                  << "s3cret";
        QTest::newRow("token") << QByteArray(R"({"token": "t0ken"})") << "token"
                               << "t0ken";
        QTest::newRow("creds") << QByteArray(R"({"creds": "/etc/nats/u.creds"})") << "creds"
                               << "/etc/nats/u.creds";
        QTest::newRow("nkey") << QByteArray(R"({"nkey": "/etc/nats/u.nk"})") << "nkey"
                              << "/etc/nats/u.nk";
        QTest::newRow("ca") << QByteArray(R"({"ca": "/etc/nats/ca.pem"})") << "ca"
                            << "/etc/nats/ca.pem";
        QTest::newRow("cert") << QByteArray(R"({"cert": "/etc/nats/c.pem"})") << "cert"
                              << "/etc/nats/c.pem";
        QTest::newRow("key") << QByteArray(R"({"key": "/etc/nats/k.pem"})") << "key"
                             << "/etc/nats/k.pem";
        QTest::newRow("path with ~") << QByteArray(R"({"creds": "~/u.creds"})") << "creds"
                                     << "/home/me/u.creds";
        QTest::newRow("~ only expands in paths") << QByteArray(R"({"password": "~/x"})") << "password"
                                                 << "~/x";
        QTest::newRow("null is unset") << QByteArray(R"({"token": null, "description": "x", "color_scheme": ""})")
                                       << "token"
                                       << "";
    }

    void parsesEachField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, expected);
        auto settings = parseNatsContext(json.toStdString(), "/c/x.json", "/home/me");
        QVERIFY2(settings.ok(), settings.ok() ? "" : settings.error().message.c_str());
        const std::map<QString, std::string NatsSettings::*> members {
            {QStringLiteral("url"), &NatsSettings::url},
            {QStringLiteral("user"), &NatsSettings::user},
            {QStringLiteral("password"), &NatsSettings::password},
            {QStringLiteral("token"), &NatsSettings::token},
            {QStringLiteral("creds"), &NatsSettings::creds},
            {QStringLiteral("nkey"), &NatsSettings::nkey},
            {QStringLiteral("ca"), &NatsSettings::ca},
            {QStringLiteral("cert"), &NatsSettings::cert},
            {QStringLiteral("key"), &NatsSettings::key},
        };
        QCOMPARE(q(settings.value().*members.at(field)), expected);
        QCOMPARE(q(settings->source), QStringLiteral("/c/x.json"));
    }

    void malformedContextsNameTheFile_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("detail");
        QTest::newRow("not JSON") << QByteArray("{\n  \"url\": \"x\",\n  \"user\" \"y\"\n}")
                                  << "broken.json:3:12: not valid JSON (syntax error";
        QTest::newRow("a list") << QByteArray("[]") << "not a JSON object";
        QTest::newRow("number url") << QByteArray(R"({"url": 4222})") << "\"url\" must be a string";
        QTest::newRow("object user") << QByteArray(R"({"user": {}})") << "\"user\" must be a string";
    }

    void malformedContextsNameTheFile()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, detail);
        QTemporaryDir dir;
        writeContext(dir.path(), QStringLiteral("broken"), json);
        const ContextEnvironment environment {"", dir.path().toStdString(), "/nowhere"};
        auto settings = loadNatsContext("broken", environment);
        QVERIFY(!settings.ok());
        QCOMPARE(q(settings.error().code), QStringLiteral("bad_context"));
        const QString message = q(settings.error().message);
        QVERIFY2(message.contains(dir.path() + QStringLiteral("/nats/context/broken.json")), qPrintable(message));
        QVERIFY2(message.contains(detail), qPrintable(message));
    }

    void missingContextNamesTheFile()
    {
        QTemporaryDir dir;
        const ContextEnvironment environment {"", dir.path().toStdString(), "/nowhere"};
        auto settings = loadNatsContext("absent", environment);
        QVERIFY(!settings.ok());
        QCOMPARE(q(settings.error().code), QStringLiteral("context_not_found"));
        QVERIFY(q(settings.error().message).contains(dir.path() + QStringLiteral("/nats/context/absent.json")));
        QVERIFY(q(settings.error().message).contains(QStringLiteral("--nats")));
    }

    void refusesNamesThatAreNotFileNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << "";
        QTest::newRow("parent") << "../secret";
        QTest::newRow("slash") << "a/b";
        QTest::newRow("hidden") << ".x";
    }

    void refusesNamesThatAreNotFileNames()
    {
        QFETCH(QString, name);
        const ContextEnvironment environment {"", "/tmp", "/nowhere"};
        auto settings = loadNatsContext(name.toStdString(), environment);
        QVERIFY(!settings.ok());
        QCOMPARE(q(settings.error().code), QStringLiteral("bad_context"));
    }

    void contextDirectoryFallsBackToHome()
    {
        QCOMPARE(q(contextDirectory({"", "/x/config", "/home/me"}).string()), QStringLiteral("/x/config/nats/context"));
        QCOMPARE(q(contextDirectory({"", "", "/home/me"}).string()), QStringLiteral("/home/me/.config/nats/context"));
    }

    void picksTheContext_data()
    {
        QTest::addColumn<QString>("optionContext");
        QTest::addColumn<QString>("optionUrl");
        QTest::addColumn<QString>("environmentContext");
        QTest::addColumn<bool>("useXdg");
        QTest::addColumn<QString>("expectedUrl");
        QTest::newRow("default CCM") << ""
                                     << ""
                                     << "" << true << "nats://ccm:4222";
        QTest::newRow("NATS_CONTEXT") << ""
                                      << ""
                                      << "env" << true << "nats://env:4222";
        QTest::newRow("--context over NATS_CONTEXT") << "opt"
                                                     << ""
                                                     << "env" << true << "nats://opt:4222";
        QTest::newRow("--nats over everything") << "opt"
                                                << "nats://explicit:1"
                                                << "env" << true << "nats://explicit:1";
        QTest::newRow("--nats with no context file") << "absent"
                                                     << "nats://explicit:2"
                                                     << "" << true << "nats://explicit:2";
        QTest::newRow("~/.config without XDG_CONFIG_HOME") << ""
                                                           << ""
                                                           << "env" << false << "nats://env:4222";
    }

    void picksTheContext()
    {
        QFETCH(QString, optionContext);
        QFETCH(QString, optionUrl);
        QFETCH(QString, environmentContext);
        QFETCH(bool, useXdg);
        QFETCH(QString, expectedUrl);
        QTemporaryDir dir;
        const QString configHome
            = useXdg ? dir.filePath(QStringLiteral("xdg")) : dir.filePath(QStringLiteral("home/.config"));
        writeContext(configHome, QStringLiteral("CCM"), "{\"url\": \"nats://ccm:4222\"}");
        writeContext(configHome, QStringLiteral("env"), "{\"url\": \"nats://env:4222\"}");
        writeContext(configHome, QStringLiteral("opt"), "{\"url\": \"nats://opt:4222\", \"user\": \"u\"}");
        const ContextEnvironment environment {environmentContext.toStdString(),
            useXdg ? configHome.toStdString() : std::string(), dir.filePath(QStringLiteral("home")).toStdString()};
        NatsSelection selection;
        if (!optionContext.isEmpty())
            selection.context = optionContext.toStdString();
        if (!optionUrl.isEmpty())
            selection.url = optionUrl.toStdString();
        auto settings = resolveNatsSettings(selection, environment);
        QVERIFY2(settings.ok(), settings.ok() ? "" : settings.error().message.c_str());
        QCOMPARE(q(settings->url), expectedUrl);
        if (!optionUrl.isEmpty()) {
            // The URL wins whole: nothing of a context (such as its user) is mixed in.
            QVERIFY(settings->user.empty());
            QCOMPARE(q(settings->source), QStringLiteral("--nats"));
        }
    }

    void derivesTheNkeyPublicKey()
    {
        auto bare = nkeyUserPublicKey(kSeed);
        QVERIFY2(bare.ok(), bare.ok() ? "" : bare.error().message.c_str());
        QCOMPARE(q(bare.value()), QString::fromLatin1(kPublicKey));
        const std::string decorated
            = std::string("-----BEGIN USER NKEY SEED-----\n") + kSeed + "\n------END USER NKEY SEED------\n";
        auto inFile = nkeyUserPublicKey(decorated);
        QVERIFY(inFile.ok());
        QCOMPARE(q(inFile.value()), QString::fromLatin1(kPublicKey));

        std::string damaged = kSeed;
        damaged[10] = damaged[10] == 'A' ? 'B' : 'A';
        QCOMPARE(q(nkeyUserPublicKey(damaged).error().code), QStringLiteral("bad_nkey"));
        QCOMPARE(q(nkeyUserPublicKey("UD7S3D74C7UNYZJQ").error().code), QStringLiteral("bad_nkey"));
    }

    void connectsWithEachKindOfCredentials_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QByteArray>("context");
        QTest::addColumn<QString>("expectedError");
        const QByteArray users = "authorization {\n users = [ {user: alice, password: s3cret} ]\n}\n";
        const QByteArray token = "authorization {\n token: t0ken\n}\n";
        const QByteArray nkey = "authorization {\n users = [ {nkey: " + QByteArray(kPublicKey) + "} ]\n}\n";
        QTest::newRow("user and password") << users << QByteArray(R"("user": "alice", "password": "s3cret")") << "";
        QTest::newRow("wrong password") << users << QByteArray(R"("user": "alice", "password": "nope")")
                                        << "auth_failed";
        QTest::newRow("no credentials") << users << QByteArray(R"("description": "none")") << "auth_failed";
        QTest::newRow("token") << token << QByteArray(R"("token": "t0ken")") << "";
        QTest::newRow("wrong token") << token << QByteArray(R"("token": "other")") << "auth_failed";
        QTest::newRow("nkey") << nkey << QByteArray(R"("nkey": "SEED")") << "";
        QTest::newRow("missing nkey file") << nkey << QByteArray(R"("nkey": "/nonexistent/u.nk")") << "bad_settings";
        QTest::newRow("missing creds file")
            << users << QByteArray(R"("creds": "/nonexistent/u.creds")") << "bad_settings";
        QTest::newRow("missing CA file") << users << QByteArray(R"("ca": "/nonexistent/ca.pem")") << "bad_settings";
        QTest::newRow("cert without key") << users << QByteArray(R"("cert": "/nonexistent/c.pem")") << "bad_settings";
    }

    void connectsWithEachKindOfCredentials()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(QByteArray, context);
        QFETCH(QString, expectedError);
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        test::NatsServer server;
        QVERIFY2(server.start({true, authorization}), qPrintable(server.error()));

        QTemporaryDir dir;
        const QString seedFile = dir.filePath(QStringLiteral("user.nk"));
        QVERIFY(test::writeFile(seedFile, QByteArray(kSeed) + '\n'));
        context.replace("SEED", seedFile.toUtf8());
        writeContext(
            dir.path(), QStringLiteral("test"), "{\"url\": \"" + server.url().toUtf8() + "\", " + context + "}");
        auto settings = loadNatsContext("test", {"", dir.path().toStdString(), "/nowhere"});
        QVERIFY2(settings.ok(), settings.ok() ? "" : settings.error().message.c_str());

        auto connection = NatsConnection::connect(settings.value());
        if (expectedError.isEmpty()) {
            QVERIFY2(connection.ok(), connection.ok() ? "" : connection.error().message.c_str());
            return;
        }
        QVERIFY(!connection.ok());
        QCOMPARE(q(connection.error().code), expectedError);
        // Every message says where the settings came from.
        QVERIFY2(
            q(connection.error().message).contains(QStringLiteral("test.json")), connection.error().message.c_str());
    }

    void connectsOverTls_data()
    {
        QTest::addColumn<bool>("serverVerifiesClients");
        QTest::addColumn<QString>("context");
        QTest::addColumn<bool>("connects");
        QTest::newRow("ca") << false << "\"ca\": \"DIR/ca.pem\"" << true;
        QTest::newRow("ca, cert and key") << true
                                          << "\"ca\": \"DIR/ca.pem\", \"cert\": \"DIR/client.pem\", \"key\": "
                                             "\"DIR/client.key\""
                                          << true;
        QTest::newRow("no client certificate") << true << "\"ca\": \"DIR/ca.pem\"" << false;
        QTest::newRow("untrusted server") << false << "\"ca\": \"DIR/other-ca.pem\"" << false;
    }

    void connectsOverTls()
    {
        QFETCH(bool, serverVerifiesClients);
        QFETCH(QString, context);
        QFETCH(bool, connects);
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            QSKIP("openssl is not installed (scripts/install-deps installs it)");
        QTemporaryDir dir;
        const QString path = dir.path();
        QVERIFY(makeCertificate(path, QStringLiteral("other-ca")));
        QVERIFY(makeCertificate(path, QStringLiteral("ca")));
        QVERIFY(makeCertificate(path, QStringLiteral("server"), QStringLiteral("subjectAltName=IP:127.0.0.1\n")));
        QVERIFY(makeCertificate(path, QStringLiteral("client"), QStringLiteral("extendedKeyUsage=clientAuth\n")));

        const QByteArray tls = "tls {\n  cert_file: \"" + path.toUtf8() + "/server.pem\"\n  key_file: \""
            + path.toUtf8() + "/server.key\"\n  ca_file: \"" + path.toUtf8()
            + "/ca.pem\"\n  verify: " + (serverVerifiesClients ? "true" : "false") + "\n}\n";
        test::NatsServer server;
        QVERIFY2(server.start({true, tls}), qPrintable(server.error()));

        const QString url = QStringLiteral("tls://127.0.0.1:") + QString::number(server.port());
        writeContext(path, QStringLiteral("tls"),
            "{\"url\": \"" + url.toUtf8() + "\", " + context.replace(QStringLiteral("DIR"), path).toUtf8() + "}");
        auto settings = loadNatsContext("tls", {"", path.toStdString(), "/nowhere"});
        QVERIFY(settings.ok());
        auto connection = NatsConnection::connect(settings.value(), 5000);
        if (connects) {
            QVERIFY2(connection.ok(), connection.ok() ? "" : connection.error().message.c_str());
            return;
        }
        QVERIFY(!connection.ok());
        QCOMPARE(q(connection.error().code), QStringLiteral("tls_failed"));
        QVERIFY2(q(connection.error().message).contains(url), connection.error().message.c_str());
    }

    void unreachableServer()
    {
        if (!test::NatsServer::available())
            QSKIP("nats-server is not installed (scripts/install-deps installs it)");
        // A port a server just gave up is as good as any to be closed.
        QString url;
        {
            test::NatsServer server;
            QVERIFY2(server.start(), qPrintable(server.error()));
            url = server.url();
        }
        NatsSettings settings;
        settings.url = url.toStdString();
        settings.source = "--nats";
        auto connection = NatsConnection::connect(settings, 2000);
        QVERIFY(!connection.ok());
        QCOMPARE(q(connection.error().code), QStringLiteral("unreachable"));
        QVERIFY2(q(connection.error().message).contains(url), connection.error().message.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestNatsContext)
#include "tst_nats_context.moc"
