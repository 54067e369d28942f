// SPDX-License-Identifier: Apache-2.0
// Signed bundles: the SHA256SUMS.sig member, reproducible signing (at bundle time and later),
// what unpacking says of unsigned, tampered and foreign signatures, and that upstream's agent
// still unpacks a signed bundle and finds its manifest.
#include "bundle_archives.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/bundle/bundle_signature.h"
#include "test_common.h"
#include "test_main.h"
#include "test_support.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ccm;
using namespace ccm::test;
namespace signature_tests {

using State = BundleSignatureCheck::State;

constexpr const char *kSignedSiteManifest
    = "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
      "            ensure: present\n            owner: root\n            group: root\n"
      "            mode: \"0644\"\n            source: files/motd\n";

SigningKey makeKey()
{
    auto key = generateSigningKey();
    if (!key)
        qFatal("cannot make a key");
    return std::move(key).value();
}

/// The manifest and files/motd in dir/site, and its plan.
BundlePlan sitePlan(const QTemporaryDir &dir)
{
    QDir().mkpath(dir.filePath(QStringLiteral("site/files")));
    if (!writeFile(dir.filePath(QStringLiteral("site/manifest.yaml")), kSignedSiteManifest)
        || !writeFile(dir.filePath(QStringLiteral("site/files/motd")), "hello\n"))
        qFatal("cannot write the site");
    return planBundle(dir.filePath(QStringLiteral("site/manifest.yaml")).toStdString());
}

QString writeSite(const QTemporaryDir &dir, const QString &name, const SigningKey *key)
{
    const QString path = dir.filePath(name);
    if (!writeBundle(sitePlan(dir), path.toStdString(), key))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

BundleSignatureCheck checkOf(const QString &archive)
{
    auto check = readBundleSignature(archive.toStdString());
    if (!check)
        qFatal("cannot open %s: %s", qPrintable(archive), check.error().message.c_str());
    return std::move(check).value();
}

QByteArray memberOf(const Members &members, const QByteArray &name)
{
    for (const auto &[path, content] : members)
        if (path == name)
            return content;
    return {};
}

/// `members` with `name`'s content replaced (or added).
Members withMember(Members members, const QByteArray &name, const QByteArray &content)
{
    for (auto &[path, old] : members)
        if (path == name) {
            old = content;
            return members;
        }
    members.append({name, content});
    return members;
}

} // namespace signature_tests

using namespace signature_tests;

class TestBundleSignature : public QObject {
    Q_OBJECT

private slots:
    void signingIsReproducibleAndNamesTheKey()
    {
        QTemporaryDir dir;
        const SigningKey key = makeKey();
        const QString first = writeSite(dir, QStringLiteral("a.tgz"), &key);
        const QString second = writeSite(dir, QStringLiteral("b.tgz"), &key);
        QCOMPARE(readAll(first), readAll(second));

        const Members members = readArchive(first);
        const QByteArray member = memberOf(members, "SHA256SUMS.sig");
        QVERIFY(member.endsWith('\n'));
        QVERIFY(member.contains(QByteArray("\"fingerprint\":\"") + keyFingerprint(key.publicKey).c_str() + '"'));
        const BundleSignatureCheck check = checkOf(first);
        QCOMPARE(check.state, State::Signed);
        QCOMPARE(check.signature->fingerprint(), keyFingerprint(key.publicKey));
        QVERIFY(check.signedByOneOf({key.publicKey}));
        QCOMPARE(check.refusal({key.publicKey}), std::string());
        QCOMPARE(check.describe(), "signed by key " + keyFingerprint(key.publicKey));
    }

    void anUnsignedBundleSignedLaterIsTheSameBytes()
    {
        QTemporaryDir dir;
        const SigningKey key = makeKey();
        const QString direct = writeSite(dir, QStringLiteral("direct.tgz"), &key);
        const QString plain = writeSite(dir, QStringLiteral("plain.tgz"), nullptr);
        QCOMPARE(checkOf(plain).state, State::Unsigned);
        const QString later = dir.filePath(QStringLiteral("later.tgz"));
        auto signedLater = signBundleFile(plain.toStdString(), key, later.toStdString());
        QVERIFY2(signedLater, signedLater ? "" : signedLater.error().message.c_str());
        QCOMPARE(signedLater->state, State::Signed);
        QCOMPARE(readAll(later), readAll(direct));

        // Signing again with the same key changes nothing; in place works too.
        QVERIFY(signBundleFile(later.toStdString(), key, later.toStdString()));
        QCOMPARE(readAll(later), readAll(direct));
    }

    void anotherKeyReplacesTheSignature()
    {
        QTemporaryDir dir;
        const SigningKey first = makeKey();
        const SigningKey second = makeKey();
        const QString bundle = writeSite(dir, QStringLiteral("site.tgz"), &first);
        QVERIFY(signBundleFile(bundle.toStdString(), second, bundle.toStdString()));
        const BundleSignatureCheck check = checkOf(bundle);
        QCOMPARE(check.state, State::Signed);
        QCOMPARE(check.signature->publicKey, second.publicKey);
        QVERIFY(!check.signedByOneOf({first.publicKey}));
        QCOMPARE(check.refusal({first.publicKey}),
            "it is signed by key " + keyFingerprint(second.publicKey) + ", which is not trusted");
    }

    void aHandMadeBundleWithAFolderIsSignedAtItsManifest()
    {
        // Upstream finds manifest.yaml anywhere; signing moves the base directory to the root,
        // where relative paths resolve exactly as before.
        QTemporaryDir dir;
        const QString archive = dir.filePath(QStringLiteral("hand.tgz"));
        writeArchive(archive, {{"site/manifest.yaml", kSignedSiteManifest}, {"site/files/motd", "hello\n"}});
        const SigningKey key = makeKey();
        const QString signedPath = dir.filePath(QStringLiteral("signed.tgz"));
        auto check = signBundleFile(archive.toStdString(), key, signedPath.toStdString());
        QVERIFY2(check, check ? "" : check.error().message.c_str());
        QCOMPARE(check->state, State::Signed);
        const Members members = readArchive(signedPath);
        QCOMPARE(memberOf(members, "files/motd"), QByteArray("hello\n"));
        QCOMPARE(memberOf(members, "SHA256SUMS"),
            sumsLine("hello\n", "files/motd") + sumsLine(kSignedSiteManifest, "manifest.yaml"));
    }

    void aBundleThatDoesNotVerifyIsNotSigned()
    {
        QTemporaryDir dir;
        const QString changed = dir.filePath(QStringLiteral("changed.tgz"));
        writeArchive(
            changed, {{"manifest.yaml", kSignedSiteManifest}, {"SHA256SUMS", sumsLine("other", "manifest.yaml")}});
        auto refused
            = signBundleFile(changed.toStdString(), makeKey(), dir.filePath(QStringLiteral("o.tgz")).toStdString());
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("does not match") != std::string::npos, refused.error().message.c_str());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("o.tgz"))));

        const QString outside = dir.filePath(QStringLiteral("outside.tgz"));
        writeArchive(outside, {{"site/manifest.yaml", kSignedSiteManifest}, {"notes.txt", "beside"}});
        refused = signBundleFile(outside.toStdString(), makeKey(), dir.filePath(QStringLiteral("o.tgz")).toStdString());
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("'notes.txt' lies outside the manifest's directory") != std::string::npos,
            refused.error().message.c_str());
    }

    void tamperingAfterSigningIsCaught()
    {
        QTemporaryDir dir;
        const SigningKey key = makeKey();
        const Members original = readArchive(writeSite(dir, QStringLiteral("site.tgz"), &key));
        const QByteArray evil = "ccm:\n  resources:\n    - exec:\n        - /bin/false: {}\n";

        // A changed manifest with SHA256SUMS made to match: the signature no longer holds.
        const QByteArray sums = sumsLine("hello\n", "files/motd") + sumsLine(evil, "manifest.yaml");
        const QString rewritten = dir.filePath(QStringLiteral("rewritten.tgz"));
        writeArchive(rewritten, withMember(withMember(original, "manifest.yaml", evil), "SHA256SUMS", sums));
        BundleSignatureCheck check = checkOf(rewritten);
        QCOMPARE(check.state, State::Invalid);
        QVERIFY2(check.problem.find("does not verify") != std::string::npos, check.problem.c_str());
        QVERIFY(!check.signedByOneOf({key.publicKey}));
        QVERIFY(check.refusal({key.publicKey}).starts_with("its signature is invalid: "));

        // A file added outside the manifest's directory is not covered by SHA256SUMS.
        Members moved;
        for (const auto &[path, content] : original)
            moved.append({"site/" + path, content});
        moved.append({QByteArray("other/run.sh"), QByteArray("#!/bin/sh\n")});
        const QString beside = dir.filePath(QStringLiteral("beside.tgz"));
        writeArchive(beside, moved);
        check = checkOf(beside);
        QCOMPARE(check.state, State::Invalid);
        QVERIFY2(check.problem.find("'other/run.sh' lies outside") != std::string::npos, check.problem.c_str());

        // The signature kept, SHA256SUMS dropped.
        Members noSums;
        for (const auto &member : original)
            if (member.first != "SHA256SUMS")
                noSums.append(member);
        const QString bare = dir.filePath(QStringLiteral("bare.tgz"));
        writeArchive(bare, noSums);
        check = checkOf(bare);
        QCOMPARE(check.state, State::Invalid);
        QVERIFY2(check.problem.find("no SHA256SUMS") != std::string::npos, check.problem.c_str());

        // Both dropped: simply unsigned, which a bundle_keys agent refuses.
        Members stripped;
        for (const auto &member : noSums)
            if (member.first != "SHA256SUMS.sig")
                stripped.append(member);
        const QString unsignedPath = dir.filePath(QStringLiteral("stripped.tgz"));
        writeArchive(unsignedPath, stripped);
        QCOMPARE(checkOf(unsignedPath).state, State::Unsigned);
        QCOMPARE(checkOf(unsignedPath).refusal({key.publicKey}),
            std::string("it is not signed, and only bundles signed by a trusted key are accepted"));
    }

    void theMemberIsParsedStrictly_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("problem");
        const SigningKey key = makeKey();
        auto signature = signChecksums(key, "sums");
        const QByteArray good = QByteArray::fromStdString(formatBundleSignature(signature.value()));
        QTest::newRow("not json") << QByteArray("signed!") << s("not a JSON object");
        QTest::newRow("unknown field") << QByteArray(good).replace("{", "{\"x\":1,") << s("unknown field 'x'");
        QTest::newRow("algorithm") << QByteArray(good).replace("ed25519", "rsa") << s("'algorithm'");
        QTest::newRow("short key") << QByteArray(good).replace("\"key\":\"", "\"key\":\"AAAA") << s("'key'");
        QTest::newRow("missing signature")
            << QByteArray(good).replace("\"signature\"", "\"sig\"") << s("unknown field 'sig'");
        QTest::newRow("fingerprint") << QByteArray(good).replace(keyFingerprint(key.publicKey).c_str(),
            "0000000000000000") << s("'fingerprint'");
        QTest::newRow("huge") << QByteArray(8192, ' ') << s("longer than");
    }

    void theMemberIsParsedStrictly()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, problem);
        auto parsed = parseBundleSignature(text.toStdString());
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().code, std::string("bad_signature"));
        QVERIFY2(q(parsed.error().message).contains(problem), parsed.error().message.c_str());
        QVERIFY(q(parsed.error().message).startsWith(QStringLiteral("SHA256SUMS.sig: ")));
    }

    void aDamagedMemberMakesTheSignatureInvalid()
    {
        QTemporaryDir dir;
        const Members original = readArchive(writeSite(dir, QStringLiteral("site.tgz"), nullptr));
        const QString damaged = dir.filePath(QStringLiteral("damaged.tgz"));
        writeArchive(damaged, withMember(original, "SHA256SUMS.sig", "{\"algorithm\":\"ed25519\"}\n"));
        const BundleSignatureCheck check = checkOf(damaged);
        QCOMPARE(check.state, State::Invalid);
        QVERIFY(!check.signature);
        QVERIFY2(check.problem.starts_with("SHA256SUMS.sig: "), check.problem.c_str());
    }

    void upstreamUnpacksASignedBundleAndRunsItsManifest()
    {
        // Upstream's agent (internal/util UntarGz and FindManifestInFiles) takes regular files
        // and directories, refuses names holding "..", and runs the first manifest.yaml in
        // archive order: the bundle's own must come before a child manifest of that name.
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("site/base")));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("site/base/manifest.yaml")),
            "ccm:\n  resources:\n    - file:\n        - /etc/issue:\n            ensure: absent\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("site/manifest.yaml")),
            "ccm:\n  resources:\n    - apply:\n        - base/manifest.yaml: {}\n"));
        const BundlePlan plan = planBundle(dir.filePath(QStringLiteral("site/manifest.yaml")).toStdString());
        QVERIFY(plan.ok());
        const SigningKey key = makeKey();
        const QString bundle = dir.filePath(QStringLiteral("site.tgz"));
        QVERIFY(writeBundle(plan, bundle.toStdString(), &key));
        QCOMPARE(checkOf(bundle).state, State::Signed);

        QProcess check;
        check.start(python3(), {QStringLiteral(CCM_SOURCE_DIR "/tests/core/upstream_unpack_check.py"), bundle});
        QVERIFY(check.waitForFinished(60000));
        const QByteArray output = check.readAllStandardOutput();
        QCOMPARE(check.exitCode(), 0);
        QCOMPARE(output, bundle.toUtf8() + ": manifest.yaml\n");
    }
};

CCM_TEST_GUILESS_MAIN(TestBundleSignature)
#include "tst_bundle_signature.moc"
