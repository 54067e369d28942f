// SPDX-License-Identifier: Apache-2.0
// Ed25519 signing keys (fleet previews, bundles): generation, PEM files, load errors, signatures and tampering.
#include "base/signing_key.h"
#include "test_common.h"
#include "test_main.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace ccm;
using ccm::test::q;

class TestSigningKey : public QObject {
    Q_OBJECT

private slots:
    void keygenWritesPrivateKeyOnlyForOwner()
    {
        QTemporaryDir dir;
        auto key = generateSigningKey();
        QVERIFY(key);
        QCOMPARE(key->publicKey.size(), kEd25519KeySize);
        const std::string privatePath = dir.filePath(QStringLiteral("k.pem")).toStdString();
        const std::string publicPath = dir.filePath(QStringLiteral("k.pub.pem")).toStdString();
        QVERIFY(writeKeyPair(*key, privatePath, publicPath, false));
        struct stat info { };
        QCOMPARE(::stat(privatePath.c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0600u);

        auto loaded = loadPrivateKey(privatePath);
        QVERIFY(loaded);
        QCOMPARE(loaded->seed, key->seed);
        QCOMPARE(loaded->publicKey, key->publicKey);
        auto publicKey = loadPublicKey(publicPath);
        QVERIFY(publicKey);
        QCOMPARE(*publicKey, key->publicKey);
        QCOMPARE(loadPublicKey(privatePath).value(), key->publicKey);

        auto again = writeKeyPair(*key, privatePath, publicPath, false);
        QVERIFY(!again);
        QCOMPARE(again.error().code, std::string("exists"));
        QVERIFY(writeKeyPair(*key, privatePath, publicPath, true));
    }

    void fingerprintIsSixteenHexOfTheRawKey()
    {
        // SHA-256 of 32 zero bytes starts with 66687aadf862bd77.
        QCOMPARE(q(keyFingerprint(std::string(32, '\0'))), QStringLiteral("66687aadf862bd77"));
    }

    void loadErrors_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("create");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("missing") << QByteArray() << false << "key_not_found"
                                 << "fleet keygen";
        QTest::newRow("not pem") << QByteArray("hello\n") << true << "bad_key"
                                 << "not a PEM file";
        QTest::newRow("garbled pem") << QByteArray("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
                                     << true << "bad_key"
                                     << "no readable private key";
    }

    void loadErrors()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, create);
        QFETCH(QString, code);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("key.pem"));
        if (create)
            QVERIFY(ccm::test::writeFile(path, content));
        auto key = loadPrivateKey(path.toStdString());
        QVERIFY(!key);
        QCOMPARE(q(key.error().code), code);
        QVERIFY2(q(key.error().message).contains(says), key.error().message.c_str());
        QVERIFY2(q(key.error().message).contains(path), key.error().message.c_str());
    }

    void wrongKeyTypeIsRefused()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
            QSKIP("needs the openssl program to make an EC key");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ec.pem"));
        QCOMPARE(QProcess::execute(QStringLiteral("openssl"),
                     {QStringLiteral("genpkey"), QStringLiteral("-algorithm"), QStringLiteral("EC"),
                         QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:P-256"), QStringLiteral("-out"),
                         path}),
            0);
        auto key = loadPrivateKey(path.toStdString());
        QVERIFY(!key);
        QCOMPARE(key.error().code, std::string("bad_key"));
        QVERIFY2(q(key.error().message).contains(QStringLiteral("Ed25519")), key.error().message.c_str());
    }

    void signAndVerify()
    {
        auto key = generateSigningKey();
        auto other = generateSigningKey();
        QVERIFY(key && other);
        const std::string message = R"({"id":"abc"})";
        auto signature = signEd25519(*key, message);
        QVERIFY(signature);
        QCOMPARE(signature->size(), kEd25519SignatureSize);
        QVERIFY(verifyEd25519(key->publicKey, message, *signature));
        QVERIFY(!verifyEd25519(other->publicKey, message, *signature));
        std::string tampered = message;
        tampered[2] = 'x';
        QVERIFY(!verifyEd25519(key->publicKey, tampered, *signature));
        std::string badSignature = *signature;
        badSignature[0] = static_cast<char>(badSignature[0] ^ 1);
        QVERIFY(!verifyEd25519(key->publicKey, message, badSignature));
        QVERIFY(!verifyEd25519(key->publicKey.substr(1), message, *signature));
        QVERIFY(!verifyEd25519(key->publicKey, message, signature->substr(1)));
    }

    void base64RoundTripAndStrictness()
    {
        for (const std::string &text :
            std::vector<std::string> {"", "a", "ab", "abc", "abcd", std::string(100, '\xff')})
            QCOMPARE(decodeBase64(encodeBase64(text)).value(), text);
        for (const char *bad : {"YQ", "Y===", "YQ=a", "Y Q=", "YQ==YQ==", "@@@@"})
            QVERIFY2(!decodeBase64(bad), bad);
    }
};

CCM_TEST_GUILESS_MAIN(TestSigningKey)
#include "tst_signing_key.moc"
