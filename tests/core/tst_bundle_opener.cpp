// SPDX-License-Identifier: Apache-2.0
// The bundle opener every program uses: a local bundle or one fetched into a private directory,
// unpacked and verified into a private directory that goes with the object, on errors too; and
// which paths name a bundle.
#include "bundle_archives.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "test_main.h"
#include "test_support.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>

using namespace ccm;
using namespace ccm::test;

namespace {

constexpr const char *kManifest = "ccm:\n  resources:\n    - file:\n        - /etc/motd:\n"
                                  "            ensure: present\n            owner: root\n            group: root\n"
                                  "            mode: \"0644\"\n            source: files/motd\n";

QStringList entries(const QString &directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

/// A bundle of kManifest and files/motd, as `ccm-backend bundle` writes it, at dir/site.tar.gz.
QString writeSiteBundle(const QTemporaryDir &dir)
{
    QDir().mkpath(dir.filePath(QStringLiteral("site/files")));
    if (!writeFile(dir.filePath(QStringLiteral("site/manifest.yaml")), kManifest)
        || !writeFile(dir.filePath(QStringLiteral("site/files/motd")), "hello\n"))
        qFatal("cannot write the site");
    const QString archive = dir.filePath(QStringLiteral("site.tar.gz"));
    if (!writeBundle(
            planBundle(dir.filePath(QStringLiteral("site/manifest.yaml")).toStdString()), archive.toStdString()))
        qFatal("cannot write the bundle");
    return archive;
}

} // namespace

class TestBundleOpener : public QObject {
    Q_OBJECT

private slots:
    void aLocalBundleIsUnpackedAndRemovedAfter()
    {
        QTemporaryDir dir;
        const QString archive = writeSiteBundle(dir);
        const QString parent = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(parent));
        QString directory;
        {
            auto bundle = UnpackedBundle::unpack(archive.toStdString(), {}, parent.toStdString());
            QVERIFY2(bundle, bundle ? "" : bundle.error().message.c_str());
            directory = q(bundle->directory().string());
            QCOMPARE(QFileInfo(directory).path(), parent);
            struct stat info { };
            QCOMPARE(::stat(bundle->directory().c_str(), &info), 0);
            QCOMPARE(info.st_mode & 07777, mode_t(0700));
            QCOMPARE(bundle->manifestPath(), bundle->directory() / "manifest.yaml");
            QCOMPARE(readAll(directory + QStringLiteral("/files/motd")), QByteArray("hello\n"));
            QCOMPARE(q(bundle->createdPaths().back()), directory);
            // Moved, the directory lives on with the new owner.
            UnpackedBundle moved = std::move(bundle).value();
            QVERIFY(QFileInfo::exists(directory));
        }
        QVERIFY(!QFileInfo::exists(directory));
        QCOMPARE(entries(parent), QStringList());
    }

    void aFetchedBundleIsUnpackedBesideItsDownload()
    {
        QTemporaryDir dir;
        const QString archive = writeSiteBundle(dir);
        const QString parent = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(parent));
        auto download = BundleDownload::create(parent.toStdString());
        QVERIFY2(download, download ? "" : download.error().message.c_str());
        const QString downloadDirectory = q(download->directory().string());
        QCOMPARE(QFileInfo(downloadDirectory).path(), parent);
        QCOMPARE(
            QFileInfo(downloadDirectory).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
        const std::vector<std::string> covered = download->fetchPaths();
        QCOMPARE(covered.back(), download->directory().string());
        QVERIFY(std::find(covered.begin(), covered.end(), download->archivePath().string()) != covered.end());
        // What a fetch does: the archive appears at archivePath().
        QVERIFY(QFile::copy(archive, q(download->archivePath().string())));
        QString directory;
        {
            auto bundle = UnpackedBundle::unpack(std::move(download).value());
            QVERIFY2(bundle, bundle ? "" : bundle.error().message.c_str());
            directory = q(bundle->directory().string());
            // The download went with the archive; the bundle sits beside where it was.
            QVERIFY(!QFileInfo::exists(downloadDirectory));
            QCOMPARE(entries(parent), QStringList {QFileInfo(directory).fileName()});
            QCOMPARE(readAll(directory + QStringLiteral("/files/motd")), QByteArray("hello\n"));
            // Released, the directory becomes the caller's.
            UnpackedBundle kept = std::move(bundle).value();
            QCOMPARE(q(kept.release().string()), directory);
        }
        QVERIFY(QFileInfo::exists(directory + QStringLiteral("/manifest.yaml")));
        QVERIFY(QDir(directory).removeRecursively());
    }

    void refusedBundlesLeaveNothingBehind_data()
    {
        QTest::addColumn<Members>("members");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray motd = "hello\n";
        QTest::newRow("unsafe path")
            << Members {{"manifest.yaml", kManifest}, {"files/../../escaped", "x"}}
            << QByteArray("member 'files/../../escaped': has a '..' component, an unsafe path that would leave the "
                          "bundle's directory");
        QTest::newRow("absolute path") << Members {{"manifest.yaml", kManifest}, {"/etc/escaped", "x"}}
                                       << QByteArray("member '/etc/escaped': is an absolute path, which is unsafe");
        QTest::newRow("checksum mismatch")
            << Members {{"manifest.yaml", kManifest}, {"files/motd", "changed\n"},
                   {"SHA256SUMS", sumsLine(kManifest, "manifest.yaml") + sumsLine(motd, "files/motd")}}
            << QByteArray(
                   "SHA256SUMS line 2: the SHA-256 of 'files/motd' does not match; the bundle was changed or damaged");
        QTest::newRow("no manifest") << Members {{"files/motd", motd}} << QByteArray("holds no manifest.yaml");
    }

    void refusedBundlesLeaveNothingBehind()
    {
        QFETCH(Members, members);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        const QString parent = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(parent));
        const QString archive = dir.filePath(QStringLiteral("b.tgz"));
        writeArchive(archive, members);
        auto local = UnpackedBundle::unpack(archive.toStdString(), {}, parent.toStdString());
        QVERIFY(!local);
        QVERIFY2(
            local.error().message.find(expected.toStdString()) != std::string::npos, local.error().message.c_str());
        QCOMPARE(entries(parent), QStringList());

        auto download = BundleDownload::create(parent.toStdString());
        QVERIFY(download);
        QVERIFY(QFile::copy(archive, q(download->archivePath().string())));
        auto fetched = UnpackedBundle::unpack(std::move(download).value());
        QVERIFY(!fetched);
        QVERIFY2(
            fetched.error().message.find(expected.toStdString()) != std::string::npos, fetched.error().message.c_str());
        QCOMPARE(entries(parent), QStringList());
    }

    void aDirectoryThatCannotBeMadeIsNamed()
    {
        auto bundle = UnpackedBundle::unpack("/no/such/b.tgz", {}, "/no/such/directory");
        QVERIFY(!bundle);
        QCOMPARE(bundle.error().message,
            std::string("cannot create a temporary directory in /no/such/directory: No such file or directory"));
    }

    void bundlePathsByExtensionInAnyCase_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("bundle");
        QTest::newRow(".tar.gz") << QStringLiteral("site.tar.gz") << true;
        QTest::newRow(".tgz") << QStringLiteral("/srv/site.tgz") << true;
        QTest::newRow("upper case") << QStringLiteral("SITE.TAR.GZ") << true;
        QTest::newRow("mixed case") << QStringLiteral("site.Tgz") << true;
        QTest::newRow("only the extension") << QStringLiteral(".tgz") << true;
        QTest::newRow("tar") << QStringLiteral("site.tar") << false;
        QTest::newRow("gz") << QStringLiteral("site.gz") << false;
        QTest::newRow("yaml") << QStringLiteral("site.tgz.yaml") << false;
        QTest::newRow("no dot") << QStringLiteral("sitetgz") << false;
        QTest::newRow("empty") << QString() << false;
    }

    void bundlePathsByExtensionInAnyCase()
    {
        QFETCH(QString, path);
        QFETCH(bool, bundle);
        QCOMPARE(isBundlePath(path.toStdString()), bundle);
    }
};

CCM_TEST_GUILESS_MAIN(TestBundleOpener)
#include "tst_bundle_opener.moc"
