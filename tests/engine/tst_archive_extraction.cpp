// SPDX-License-Identifier: Apache-2.0
#include "archive_test_support.h"
#include "engine/resources/archive/http/archive_extraction.h"
#include "file_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// Everything below path, relative, sorted; symbolic links are listed, not followed.
QStringList tree(const QString &path)
{
    QStringList entries;
    QDir root(path);
    const auto list = [&](const auto &self, const QString &directory) -> void {
        const QFileInfoList infos
            = QDir(directory).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
        for (const QFileInfo &info : infos) {
            entries << root.relativeFilePath(info.filePath());
            if (info.isDir() && !info.isSymLink())
                self(self, info.filePath());
        }
    };
    list(list, path);
    entries.sort();
    return entries;
}

/// Everything below path with what it holds: a file's mode and content, a directory's mode, a
/// link's target. Two equal snapshots mean nothing below path changed.
QStringList snapshot(const QString &path)
{
    QStringList described;
    for (const QString &name : tree(path)) {
        const QString full = path + QLatin1Char('/') + name;
        struct stat info { };
        if (::lstat(QFile::encodeName(full).constData(), &info) != 0) {
            described << name + QStringLiteral(" <gone>");
            continue;
        }
        QString line = name + QStringLiteral(" %1").arg(info.st_mode, 0, 8);
        if (S_ISLNK(info.st_mode))
            line += QStringLiteral(" -> ") + QFileInfo(full).symLinkTarget();
        else if (S_ISREG(info.st_mode))
            line += QStringLiteral(" ") + QString::fromLatin1(readFile(full).toHex());
        described << line;
    }
    return described;
}

} // namespace

class TestArchiveExtraction : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }

    /// Builds an archive of the helper's KIND at name in the temporary directory.
    bool make(const QString &name, const QString &kind, const QString &argument = {})
    {
        QStringList arguments {kArchiveHelper, QStringLiteral("make"), path(name), kind};
        if (!argument.isEmpty())
            arguments << argument;
        QProcess process;
        process.start(ccm::test::python3(), arguments);
        if (!process.waitForFinished(60000) || process.exitCode() != 0) {
            qWarning("%s", process.readAllStandardError().constData());
            return false;
        }
        return true;
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void extractsEachFormat_data()
    {
        QTest::addColumn<QString>("extension");
        QTest::newRow("tar.gz") << QStringLiteral(".tar.gz");
        QTest::newRow("tgz") << QStringLiteral(".tgz");
        QTest::newRow("tar") << QStringLiteral(".tar");
        QTest::newRow("zip") << QStringLiteral(".zip");
    }

    void extractsEachFormat()
    {
        QFETCH(QString, extension);
        const QString archive = QStringLiteral("app") + extension;
        QVERIFY(make(archive, QStringLiteral("app")));
        const QString out = path(QStringLiteral("missing/out"));

        auto extracted = extractArchive(local(path(archive)), local(out), {::geteuid() == 0});
        QVERIFY2(extracted.ok(), extracted.ok() ? "" : extracted.error().message.c_str());
        QCOMPARE(extracted->entries, std::size_t {4});
        QCOMPARE(tree(out),
            QStringList({QStringLiteral("app"), QStringLiteral("app/README"), QStringLiteral("app/bin"),
                QStringLiteral("app/bin/app"), QStringLiteral("app/lib"), QStringLiteral("app/lib/current")}));
        QCOMPARE(readFile(out + QStringLiteral("/app/bin/app")), QByteArray("#!/bin/sh\necho app\n"));
        QCOMPARE(readFile(out + QStringLiteral("/app/README")), QByteArray("read me\n"));
        QVERIFY(QFileInfo(out + QStringLiteral("/app/bin/app")).isExecutable());
        QCOMPARE(
            QFileInfo(out + QStringLiteral("/app/lib/current")).symLinkTarget(), out + QStringLiteral("/app/README"));
        struct stat info { };
        QCOMPARE(::stat(QFile::encodeName(path(QStringLiteral("missing"))).constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, 0755U);

        // Extracting again replaces what is there.
        QVERIFY(writeFile(out + QStringLiteral("/app/README"), "changed\n"));
        auto again = extractArchive(local(path(archive)), local(out), {});
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        QCOMPARE(readFile(out + QStringLiteral("/app/README")), QByteArray("read me\n"));
    }

    void refusesEscapingEntries_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("dot-dot entry") << QStringLiteral("evil.tar.gz") << QStringLiteral("dotdot")
                                       << QStringLiteral("entry '../escaped.txt' has a '..' component");
        QTest::newRow("dot-dot entry in a zip") << QStringLiteral("evil.zip") << QStringLiteral("dotdot")
                                                << QStringLiteral("entry '../escaped.txt' has a '..' component");
        QTest::newRow("absolute entry") << QStringLiteral("evil.tar") << QStringLiteral("absolute")
                                        << QStringLiteral("entry '<absolute>' is an absolute path");
        QTest::newRow("symbolic link leaving the directory")
            << QStringLiteral("evil.tgz") << QStringLiteral("symlink")
            << QStringLiteral("entry 'link' is a symbolic link to '../outside', which is outside <root>");
        QTest::newRow("symbolic link leaving a zip")
            << QStringLiteral("evil.zip") << QStringLiteral("symlink")
            << QStringLiteral("entry 'link' is a symbolic link to '../outside', which is outside <root>");
        QTest::newRow("absolute symbolic link") << QStringLiteral("evil.tar.gz") << QStringLiteral("absolute-symlink")
                                                << QStringLiteral("entry 'link' is a symbolic link to '/etc'");
        QTest::newRow("hard link leaving the directory")
            << QStringLiteral("evil.tar") << QStringLiteral("hardlink")
            << QStringLiteral("entry 'link' is a hard link to '../outside.txt', which has a '..' component");
        QTest::newRow("device file") << QStringLiteral("evil.tar") << QStringLiteral("device")
                                     << QStringLiteral("entry 'null' is a device, FIFO or socket");
        // Links that are inside one by one but lead out through the links before them.
        QTest::newRow("chain of links") << QStringLiteral("evil.tar") << QStringLiteral("chain")
                                        << QStringLiteral(
                                               "entry 'x/a1' is a symbolic link to 'b/..', which is outside <root>");
        QTest::newRow("chain of links in a zip")
            << QStringLiteral("evil.zip") << QStringLiteral("chain")
            << QStringLiteral("entry 'x/a1' is a symbolic link to 'b/..', which is outside <root>");
        QTest::newRow("chain through directories")
            << QStringLiteral("evil.tgz") << QStringLiteral("chain-dirs")
            << QStringLiteral("entry 'e' is a symbolic link to 'd1/d2/up/..', which is outside <root>");
        QTest::newRow("chain through an absolute link")
            << QStringLiteral("evil.tar") << QStringLiteral("absolute-chain")
            << QStringLiteral("entry 'up' is a symbolic link to 'in/..', which is outside <root>");
        QTest::newRow("link to a link") << QStringLiteral("evil.zip") << QStringLiteral("link-to-link")
                                        << QStringLiteral(
                                               "entry 'l2' is a symbolic link to 'd/l1/..', which is outside <root>");
        QTest::newRow("name created after the link")
            << QStringLiteral("evil.tar") << QStringLiteral("later-name")
            << QStringLiteral("entry 's/b' is a symbolic link to 'm/../..', which is outside <root>");
        QTest::newRow("loop of links") << QStringLiteral("evil.tar") << QStringLiteral("loop")
                                       << QStringLiteral(
                                              "entry 'a' is a symbolic link to 'b', which passes through more "
                                              "than 40 symbolic links");
        // Refused part way through: nothing before the refused entry may stay.
        QTest::newRow("file through a link") << QStringLiteral("evil.tar.gz") << QStringLiteral("hop")
                                             << QStringLiteral("entry 'hop/f' passes through the symbolic link 'hop'");
        QTest::newRow("file through a link in a zip")
            << QStringLiteral("evil.zip") << QStringLiteral("hop")
            << QStringLiteral("entry 'hop/f' passes through the symbolic link 'hop'");
        QTest::newRow("hard link through a link")
            << QStringLiteral("evil.tar") << QStringLiteral("hardlink-via-link")
            << QStringLiteral("entry 'h' is a hard link to 'hop/f', which no earlier entry created as a file");
        QTest::newRow("hard link to a name not in the archive")
            << QStringLiteral("evil.tar") << QStringLiteral("hardlink-missing")
            << QStringLiteral("entry 'h' is a hard link to 'missing.txt', which no earlier entry created as a file");
    }

    void refusesEscapingEntries()
    {
        QFETCH(QString, archive);
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const QString absoluteEntry = path(QStringLiteral("escaped-absolute.txt"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("parent/out"))));
        QVERIFY(writeFile(path(QStringLiteral("parent/outside.txt")), "outside\n"));
        const QString out = path(QStringLiteral("parent/out"));
        const QString realOut = QFileInfo(out).canonicalFilePath();
        QVERIFY(make(archive, kind, kind == QStringLiteral("absolute-chain") ? realOut : absoluteEntry));

        auto extracted = extractArchive(local(path(archive)), local(out), {});
        QVERIFY(!extracted.ok());
        const QString message = q(extracted.error().message);
        QVERIFY2(message.startsWith(QStringLiteral("cannot extract %1 into %2: ").arg(path(archive), out)),
            qPrintable(message));
        expected.replace(QStringLiteral("<absolute>"), absoluteEntry).replace(QStringLiteral("<root>"), realOut);
        QVERIFY2(message.contains(expected), qPrintable(message));
        // Nothing at all is extracted, inside or outside the directory.
        QCOMPARE(tree(out), QStringList());
        QCOMPARE(
            tree(path(QStringLiteral("parent"))), QStringList({QStringLiteral("out"), QStringLiteral("outside.txt")}));
        QVERIFY(!QFileInfo::exists(absoluteEntry));
        QCOMPARE(readFile(path(QStringLiteral("parent/outside.txt"))), QByteArray("outside\n"));
    }

    void keepsLinkChainsThatStayInside()
    {
        QVERIFY(make(QStringLiteral("inside.tar"), QStringLiteral("inside-chain")));
        const QString out = path(QStringLiteral("out"));
        auto extracted = extractArchive(local(path(QStringLiteral("inside.tar"))), local(out), {});
        QVERIFY2(extracted.ok(), extracted.ok() ? "" : extracted.error().message.c_str());
        QCOMPARE(extracted->entries, std::size_t {6});
        QCOMPARE(QFileInfo(out + QStringLiteral("/y")).canonicalFilePath(),
            QFileInfo(out + QStringLiteral("/good.txt")).canonicalFilePath());
        QCOMPARE(readFile(out + QStringLiteral("/y")), QByteArray("good\n"));
        QCOMPARE(readFile(out + QStringLiteral("/z")), QByteArray("good\n"));
        QVERIFY(!tree(out).filter(QStringLiteral(".ccm-extract")).size());
    }

    void failsPartWayWithoutATrace_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("name too long in a tar")
            << QStringLiteral("broken.tar") << QStringLiteral("long-name") << QStringLiteral("entry 'one/nnnn");
        QTest::newRow("name too long in a tar.gz")
            << QStringLiteral("broken.tar.gz") << QStringLiteral("long-name") << QStringLiteral("entry 'one/nnnn");
        QTest::newRow("name too long in a zip")
            << QStringLiteral("broken.zip") << QStringLiteral("long-name") << QStringLiteral("entry 'one/nnnn");
        QTest::newRow("file in the way in a tar")
            << QStringLiteral("blocked.tar") << QStringLiteral("blocked") << QStringLiteral("one/kept.txt");
        QTest::newRow("file in the way in a zip")
            << QStringLiteral("blocked.zip") << QStringLiteral("blocked") << QStringLiteral("one/kept.txt");
        QTest::newRow("damaged data in a zip")
            << QStringLiteral("damaged.zip") << QStringLiteral("bad-crc") << QStringLiteral("entry 'damaged.txt'");
        QTest::newRow("damaged data in a tar.gz")
            << QStringLiteral("damaged.tar.gz") << QStringLiteral("bad-crc") << QStringLiteral("gzip data is damaged");
    }

    /// A failure after several entries were written leaves the directory as it was before.
    void failsPartWayWithoutATrace()
    {
        QFETCH(QString, archive);
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QVERIFY(make(archive, kind));
        const QString parent = path(QStringLiteral("parent"));
        const QString out = parent + QStringLiteral("/out");
        QVERIFY(QDir().mkpath(out + QStringLiteral("/one")));
        QVERIFY(writeFile(out + QStringLiteral("/good.txt"), "before\n"));
        QVERIFY(writeFile(out + QStringLiteral("/one/kept.txt"), "kept\n"));
        QVERIFY(QFile::link(QStringLiteral("one/kept.txt"), out + QStringLiteral("/three")));
        QVERIFY(writeFile(parent + QStringLiteral("/beside.txt"), "beside\n"));
        const QStringList before = snapshot(parent);

        auto extracted = extractArchive(local(path(archive)), local(out), {});
        QVERIFY(!extracted.ok());
        QVERIFY2(q(extracted.error().message).contains(expected), extracted.error().message.c_str());
        QCOMPARE(snapshot(parent), before);
    }

    void keepsLinksThatStayInside()
    {
        QVERIFY(make(QStringLiteral("app.tar"), QStringLiteral("app")));
        const QString out = path(QStringLiteral("out"));
        auto extracted = extractArchive(local(path(QStringLiteral("app.tar"))), local(out), {});
        QVERIFY2(extracted.ok(), extracted.ok() ? "" : extracted.error().message.c_str());
        QCOMPARE(QFile::symLinkTarget(out + QStringLiteral("/app/lib/current")), out + QStringLiteral("/app/README"));
    }

    void refusesWritingThroughAnExistingLink()
    {
        QVERIFY(make(QStringLiteral("app.tar.gz"), QStringLiteral("app")));
        QVERIFY(QDir().mkpath(path(QStringLiteral("elsewhere"))));
        QVERIFY(QDir().mkpath(path(QStringLiteral("out/app"))));
        QVERIFY(QFile::link(path(QStringLiteral("elsewhere")), path(QStringLiteral("out/app/bin"))));

        auto extracted
            = extractArchive(local(path(QStringLiteral("app.tar.gz"))), local(path(QStringLiteral("out"))), {});
        QVERIFY(!extracted.ok());
        QVERIFY2(q(extracted.error().message).contains(QStringLiteral("is a symbolic link")),
            extracted.error().message.c_str());
        QCOMPARE(tree(path(QStringLiteral("elsewhere"))), QStringList());
    }

    void extractsIntoTheRealPathOfALinkedDirectory()
    {
        QVERIFY(make(QStringLiteral("app.tar.gz"), QStringLiteral("app")));
        QVERIFY(QDir().mkpath(path(QStringLiteral("real"))));
        QVERIFY(QFile::link(path(QStringLiteral("real")), path(QStringLiteral("linked"))));

        auto extracted
            = extractArchive(local(path(QStringLiteral("app.tar.gz"))), local(path(QStringLiteral("linked"))), {});
        QVERIFY2(extracted.ok(), extracted.ok() ? "" : extracted.error().message.c_str());
        QCOMPARE(readFile(path(QStringLiteral("real/app/README"))), QByteArray("read me\n"));
    }

    void reportsUnreadableArchives_data()
    {
        QTest::addColumn<QString>("archive");
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("garbage") << QStringLiteral("bad.tar.gz") << QByteArray("this is no archive at all");
        QTest::newRow("empty") << QStringLiteral("empty.zip") << QByteArray();
        QTest::newRow("zip named tar") << QStringLiteral("zip.tar") << QByteArray("PK\x03\x04 not a tar");
        QTest::newRow("missing") << QStringLiteral("missing.tar") << QByteArray("<none>");
    }

    void reportsUnreadableArchives()
    {
        QFETCH(QString, archive);
        QFETCH(QByteArray, content);
        if (content != "<none>")
            QVERIFY(writeFile(path(archive), content));
        auto extracted = extractArchive(local(path(archive)), local(path(QStringLiteral("out"))), {});
        QVERIFY(!extracted.ok());
        QVERIFY2(q(extracted.error().message)
                     .startsWith(QStringLiteral("cannot extract %1 into %2: cannot read %1: ")
                                     .arg(path(archive), path(QStringLiteral("out")))),
            extracted.error().message.c_str());
        QCOMPARE(tree(path(QStringLiteral("out"))), QStringList());
    }

    void refusesAFileAsTheDirectory()
    {
        QVERIFY(make(QStringLiteral("app.tar"), QStringLiteral("app")));
        QVERIFY(writeFile(path(QStringLiteral("plain")), "x"));
        auto extracted
            = extractArchive(local(path(QStringLiteral("app.tar"))), local(path(QStringLiteral("plain"))), {});
        QVERIFY(!extracted.ok());
        QCOMPARE(q(extracted.error().message),
            QStringLiteral("cannot extract %1 into %2: %2 is not a directory")
                .arg(path(QStringLiteral("app.tar")), path(QStringLiteral("plain"))));
    }
};

CCM_TEST_GUILESS_MAIN(TestArchiveExtraction)
#include "tst_archive_extraction.moc"
