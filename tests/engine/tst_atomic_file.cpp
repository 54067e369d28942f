// SPDX-License-Identifier: Apache-2.0
#include "base/sha256.h"
#include "engine/util/atomic_file.h"
#include "file_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

using namespace ccm;
using namespace ccm::test;

namespace {

/// Every entry of a directory, hidden ones included, sorted.
QStringList entries(const QString &directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

struct stat statOf(const QString &path)
{
    struct stat status { };
    if (::lstat(QFile::encodeName(path).constData(), &status) != 0)
        status.st_mode = 0;
    return status;
}

/// Makes every write past a few KiB fail with EFBIG for as long as it lives.
class FileSizeLimit {
public:
    FileSizeLimit()
    {
        ::getrlimit(RLIMIT_FSIZE, &m_saved);
        m_savedHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limited = m_saved;
        limited.rlim_cur = 4096;
        m_active = ::setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_savedHandler);
    }
    [[nodiscard]] bool active() const { return m_active; }

private:
    rlimit m_saved {};
    void (*m_savedHandler)(int) = nullptr;
    bool m_active = false;
};

const QRegularExpression temporaryName(QStringLiteral("^\\.ccm-target\\.[A-Za-z0-9]{6}$"));

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesContentAndMode_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<uint>("mode");
        QTest::addColumn<bool>("flush");
        QTest::newRow("empty") << QByteArray() << 0644u << true;
        QTest::newRow("text") << QByteArray("Welcome\n") << 0640u << true;
        QTest::newRow("NUL bytes") << QByteArray("a\0b\0", 4) << 0600u << true;
        QTest::newRow("1 MiB random") << randomBytes(1024 * 1024, 7) << 0755u << true;
        QTest::newRow("read-only") << QByteArray("frozen") << 0444u << true;
        // A umask of 077 is in force; 0666 must still come out as 0666.
        QTest::newRow("beyond umask") << QByteArray("shared") << 0666u << true;
        QTest::newRow("set-group-ID") << QByteArray("x") << 02750u << true;
        QTest::newRow("no mode bits") << QByteArray("x") << 0u << true;
        QTest::newRow("without fsync") << QByteArray("quick") << 0644u << false;
    }

    void writesContentAndMode()
    {
        QFETCH(QByteArray, content);
        QFETCH(uint, mode);
        QFETCH(bool, flush);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const mode_t savedUmask = ::umask(077);
        const auto written = writeFileAtomically(local(target), view(content), {mode, uid_t(-1), gid_t(-1), flush});
        ::umask(savedUmask);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QCOMPARE(written.value(), static_cast<std::uint64_t>(content.size()));
        QCOMPARE(readFile(target), content);
        const struct stat status = statOf(target);
        QVERIFY(S_ISREG(status.st_mode));
        QCOMPARE(status.st_mode & 07777, mode);
        QCOMPARE(entries(dir.path()), QStringList {QStringLiteral("target")});
    }

    void setsOwnerAndGroup_data()
    {
        QTest::addColumn<int>("uid");
        QTest::addColumn<int>("gid");
        QTest::newRow("both") << 4321 << 8765;
        QTest::newRow("owner only") << 4321 << -1;
        QTest::newRow("group only") << -1 << 8765;
        QTest::newRow("neither") << -1 << -1;
    }

    void setsOwnerAndGroup()
    {
        QFETCH(int, uid);
        QFETCH(int, gid);
        if (::geteuid() != 0 && (uid != -1 || gid != -1))
            QSKIP("giving a file away needs root");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const auto written = writeFileAtomically(local(target), "owned", {04750, uid_t(uid), gid_t(gid), true});
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        const struct stat status = statOf(target);
        QCOMPARE(status.st_uid, uid == -1 ? ::geteuid() : uid_t(uid));
        QCOMPARE(status.st_gid, gid == -1 ? ::getegid() : gid_t(gid));
        // chown after chmod would have dropped the set-user-ID bit.
        QCOMPARE(status.st_mode & 07777, 04750u);
    }

    // An observer polling the directory must never catch the target with its final name but
    // unfinished: wrong mode, wrong owner or short content.
    void neverVisibleUnfinished()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const std::string targetPath = local(target);
        const bool root = ::geteuid() == 0;
        const AtomicWriteOptions options {0640, root ? uid_t(4321) : uid_t(-1), root ? gid_t(8765) : gid_t(-1), false};
        const uid_t expectedUid = root ? uid_t(4321) : ::geteuid();
        const std::string content(256 * 1024, 'c');

        std::atomic<bool> stop = false;
        std::atomic<int> sightings = 0;
        std::atomic<int> unfinished = 0;
        std::thread observer([&] {
            while (!stop) {
                struct stat status { };
                if (::stat(targetPath.c_str(), &status) != 0)
                    continue;
                ++sightings;
                if ((status.st_mode & 07777) != 0640 || status.st_uid != expectedUid
                    || status.st_size != static_cast<off_t>(content.size()))
                    ++unfinished;
            }
        });
        // On a loaded machine the observer may not run for a while: keep replacing the file until it
        // has looked often enough (the cap only guards against an observer that never runs at all).
        bool allWritten = true;
        for (int i = 0; allWritten && (i < 300 || sightings < 100) && i < 100000; ++i) {
            ::unlink(targetPath.c_str());
            allWritten = writeFileAtomically(targetPath, content, options).ok();
        }
        stop = true;
        observer.join();
        QVERIFY(allWritten);
        QVERIFY(sightings >= 100);
        QCOMPARE(unfinished.load(), 0);
    }

    void replacesTheFileInsteadOfRewritingIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const QString oldLink = dir.filePath(QStringLiteral("old"));
        QVERIFY(writeFile(target, "old content"));
        QCOMPARE(::link(QFile::encodeName(target).constData(), QFile::encodeName(oldLink).constData()), 0);
        const ino_t oldInode = statOf(target).st_ino;

        const auto written = writeFileAtomically(local(target), "new", {0600, uid_t(-1), gid_t(-1), true});
        QVERIFY(written.ok());
        QCOMPARE(readFile(target), QByteArray("new"));
        QVERIFY(statOf(target).st_ino != oldInode);
        // A reader holding the old file keeps seeing it whole.
        QCOMPARE(readFile(oldLink), QByteArray("old content"));
        QCOMPARE(statOf(target).st_mode & 07777, 0600u);
    }

    // rename(2) replaces a symbolic link itself; the file it pointed to keeps its content.
    void replacesASymlinkNotItsTarget()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pointedTo = dir.filePath(QStringLiteral("pointed-to"));
        const QString target = dir.filePath(QStringLiteral("target"));
        QVERIFY(writeFile(pointedTo, "untouched"));
        QVERIFY(QFile::link(pointedTo, target));
        const auto written = writeFileAtomically(local(target), "replaced");
        QVERIFY(written.ok());
        QVERIFY(S_ISREG(statOf(target).st_mode));
        QCOMPARE(readFile(target), QByteArray("replaced"));
        QCOMPARE(readFile(pointedTo), QByteArray("untouched"));
    }

    void relativeTargetIsInTheWorkingDirectory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString saved = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const auto written = writeFileAtomically("target", "here");
        QVERIFY(QDir::setCurrent(saved));
        QVERIFY(written.ok());
        QCOMPARE(readFile(dir.filePath(QStringLiteral("target"))), QByteArray("here"));
        QCOMPARE(entries(dir.path()), QStringList {QStringLiteral("target")});
    }

    // The temporary name must still fit in NAME_MAX when the target's name already fills it.
    void longestFileName()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString name(255, QLatin1Char('n'));
        const auto written = writeFileAtomically(local(dir.filePath(name)), "long");
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
        QCOMPARE(readFile(dir.filePath(name)), QByteArray("long"));
        QCOMPARE(entries(dir.path()), QStringList {name});
    }

    void copiesOnlyTheBytes_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("one byte") << QByteArray("x");
        QTest::newRow("one chunk") << randomBytes(64 * 1024, 1);
        QTest::newRow("one chunk and one") << randomBytes(64 * 1024 + 1, 2);
        QTest::newRow("1 MiB and three") << randomBytes(1024 * 1024 + 3, 3);
    }

    void copiesOnlyTheBytes()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString source = dir.filePath(QStringLiteral("source"));
        const QString target = dir.filePath(QStringLiteral("target"));
        QVERIFY(writeFile(source, content));
        QVERIFY(QFile::setPermissions(
            source, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        const timeval longAgo[2] = {{1000000000, 0}, {1000000000, 0}};
        QCOMPARE(::utimes(QFile::encodeName(source).constData(), longAgo), 0);

        const auto copied = copyFileAtomically(local(target), local(source), {0640, uid_t(-1), gid_t(-1), true});
        QVERIFY2(copied.ok(), copied.ok() ? "" : copied.error().message.c_str());
        QCOMPARE(copied.value(), static_cast<std::uint64_t>(content.size()));
        QCOMPARE(readFile(target), content);
        QCOMPARE(readFile(source), content);
        const struct stat status = statOf(target);
        QCOMPARE(status.st_mode & 07777, 0640u);
        QVERIFY(status.st_mtime > 1000000000 + 86400);
        QCOMPARE(entries(dir.path()), (QStringList {QStringLiteral("source"), QStringLiteral("target")}));
    }

    void copiesOntoItself()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const QByteArray content = randomBytes(200 * 1024, 4);
        QVERIFY(writeFile(target, content));
        const auto copied = copyFileAtomically(local(target), local(target), {0600, uid_t(-1), gid_t(-1), true});
        QVERIFY2(copied.ok(), copied.ok() ? "" : copied.error().message.c_str());
        QCOMPARE(readFile(target), content);
        QCOMPARE(statOf(target).st_mode & 07777, 0600u);
        QCOMPARE(entries(dir.path()), QStringList {QStringLiteral("target")});
    }

    // Whatever fails, the target keeps its old content and no temporary file stays behind.
    void failureLeavesTargetAlone_data()
    {
        QTest::addColumn<QString>("situation");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing directory")
            << QStringLiteral("missing directory") << QStringLiteral("io")
            << QStringLiteral("cannot write '%1/missing/target': cannot open its directory '%1/missing': "
                              "No such file or directory");
        QTest::newRow("directory is a file")
            << QStringLiteral("directory is a file") << QStringLiteral("io")
            << QStringLiteral("cannot open its directory '%1/target': Not a directory");
        QTest::newRow("target is a directory") << QStringLiteral("target is a directory") << QStringLiteral("io")
                                               << QStringLiteral("cannot write '%1/target': it is a directory");
        QTest::newRow("mode out of range") << QStringLiteral("mode out of range") << QStringLiteral("invalid_mode")
                                           << QStringLiteral("mode 10644 has bits outside 07777");
        QTest::newRow("no file name") << QStringLiteral("no file name") << QStringLiteral("invalid_path")
                                      << QStringLiteral("the path does not end in a file name");
        QTest::newRow("dot dot") << QStringLiteral("dot dot") << QStringLiteral("invalid_path")
                                 << QStringLiteral("the path does not end in a file name");
        QTest::newRow("write fails part way")
            << QStringLiteral("write fails") << QStringLiteral("io")
            << QStringLiteral("cannot write '%1/target': writing the temporary file failed: File too large");
        QTest::newRow("missing source")
            << QStringLiteral("missing source") << QStringLiteral("io")
            << QStringLiteral("cannot copy '%1/source' to '%1/target': cannot open the source: No such file");
        QTest::newRow("source is a directory")
            << QStringLiteral("source is a directory") << QStringLiteral("not_regular_file")
            << QStringLiteral("the source is not a regular file");
        // Opening a FIFO without a writer would block a naive copy forever.
        QTest::newRow("source is a FIFO") << QStringLiteral("source is a FIFO") << QStringLiteral("not_regular_file")
                                          << QStringLiteral("the source is not a regular file");
        QTest::newRow("source read fails")
            << QStringLiteral("source read fails") << QStringLiteral("io")
            << QStringLiteral("cannot copy '/proc/self/mem' to '%1/target': reading the source failed");
        QTest::newRow("copy write fails") << QStringLiteral("copy write fails") << QStringLiteral("io")
                                          << QStringLiteral("writing the temporary file failed: File too large");
    }

    void failureLeavesTargetAlone()
    {
        QFETCH(QString, situation);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString target = dir.filePath(QStringLiteral("target"));
        const QString source = dir.filePath(QStringLiteral("source"));
        const QByteArray original = "original content\n";
        const QByteArray big = randomBytes(1024 * 1024, 5);
        QVERIFY(writeFile(target, original));
        const mode_t originalMode = statOf(target).st_mode;
        AtomicWriteOptions options;
        options.mode = 0600;

        Result<std::uint64_t> outcome = Error {};
        if (situation == QStringLiteral("missing directory")) {
            outcome = writeFileAtomically(local(dir.filePath(QStringLiteral("missing/target"))), "x", options);
        } else if (situation == QStringLiteral("directory is a file")) {
            outcome = writeFileAtomically(local(target + QStringLiteral("/inner")), "x", options);
        } else if (situation == QStringLiteral("target is a directory")) {
            QVERIFY(QFile::remove(target));
            QVERIFY(QDir().mkdir(target));
            QVERIFY(writeFile(target + QStringLiteral("/kept"), original));
            outcome = writeFileAtomically(local(target), "x", options);
        } else if (situation == QStringLiteral("mode out of range")) {
            options.mode = 010644;
            outcome = writeFileAtomically(local(target), "x", options);
        } else if (situation == QStringLiteral("no file name")) {
            outcome = writeFileAtomically(local(dir.path() + QLatin1Char('/')), "x", options);
        } else if (situation == QStringLiteral("dot dot")) {
            outcome = writeFileAtomically(local(dir.filePath(QStringLiteral("sub/.."))), "x", options);
        } else if (situation == QStringLiteral("write fails")) {
            const FileSizeLimit limit;
            QVERIFY(limit.active());
            outcome = writeFileAtomically(local(target), view(big), options);
        } else if (situation == QStringLiteral("missing source")) {
            outcome = copyFileAtomically(local(target), local(source), options);
        } else if (situation == QStringLiteral("source is a directory")) {
            QVERIFY(QDir().mkdir(source));
            outcome = copyFileAtomically(local(target), local(source), options);
        } else if (situation == QStringLiteral("source is a FIFO")) {
            QCOMPARE(::mkfifo(QFile::encodeName(source).constData(), 0600), 0);
            outcome = copyFileAtomically(local(target), local(source), options);
        } else if (situation == QStringLiteral("source read fails")) {
            // A regular file to stat(), but reading address 0 of this process fails with EIO.
            outcome = copyFileAtomically(local(target), "/proc/self/mem", options);
        } else if (situation == QStringLiteral("copy write fails")) {
            QVERIFY(writeFile(source, big));
            const FileSizeLimit limit;
            QVERIFY(limit.active());
            outcome = copyFileAtomically(local(target), local(source), options);
        } else {
            QFAIL("unknown situation");
        }

        QVERIFY(!outcome.ok());
        QCOMPARE(q(outcome.error().code), code);
        const QString expected = QString(message).replace(QStringLiteral("%1"), dir.path());
        QVERIFY2(q(outcome.error().message).contains(expected), outcome.error().message.c_str());
        if (situation == QStringLiteral("target is a directory")) {
            QCOMPARE(readFile(target + QStringLiteral("/kept")), original);
        } else {
            QCOMPARE(readFile(target), original);
            QCOMPARE(statOf(target).st_mode, originalMode);
        }
        for (const QString &entry : entries(dir.path()))
            QVERIFY2(!entry.startsWith(QStringLiteral(".ccm-")), qPrintable(entry));
    }

    // What the next write of "target" does with entries named like temporary files: only regular
    // files of the temporary name pattern that no live writer holds locked are removed; a one-off
    // write removes only those of its own target, the first write of a run into the directory
    // those of every target.
    void staleTemporaries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("removedByOneOffWrite");
        QTest::addColumn<bool>("removedByRun");
        QTest::newRow("abandoned") << s(".ccm-target.Ab3xYz") << s("file") << true << true;
        QTest::newRow("abandoned, empty") << s(".ccm-target.000000") << s("empty file") << true << true;
        QTest::newRow("abandoned, given the target's owner")
            << s(".ccm-target.Ab3xYz") << s("owned by target owner") << true << true;
        QTest::newRow("owned by someone else")
            << s(".ccm-target.Ab3xYz") << s("owned by another user") << false << false;
        QTest::newRow("symbolic link") << s(".ccm-target.Ab3xYz") << s("symlink") << false << false;
        QTest::newRow("dangling symbolic link") << s(".ccm-target.Ab3xYz") << s("dangling symlink") << false << false;
        QTest::newRow("directory") << s(".ccm-target.Ab3xYz") << s("directory") << false << false;
        QTest::newRow("FIFO") << s(".ccm-target.Ab3xYz") << s("fifo") << false << false;
        QTest::newRow("another target's") << s(".ccm-other.Ab3xYz") << s("file") << false << true;
        QTest::newRow("a longer target's") << s(".ccm-target.conf.Ab3xYz") << s("file") << false << true;
        QTest::newRow("a one-character target's") << s(".ccm-a.Ab3xYz") << s("file") << false << true;
        QTest::newRow("another target's symbolic link") << s(".ccm-other.Ab3xYz") << s("symlink") << false << false;
        QTest::newRow("another target's, someone else's")
            << s(".ccm-other.Ab3xYz") << s("owned by another user") << false << false;
        QTest::newRow("no target name") << s(".ccm-.Ab3xYz") << s("file") << false << false;
        QTest::newRow("no dot before the suffix") << s(".ccm-targetxAb3xYz") << s("file") << false << false;
        QTest::newRow("suffix too short") << s(".ccm-target.Ab3xY") << s("file") << false << false;
        QTest::newRow("suffix too long") << s(".ccm-target.Ab3xYz1") << s("file") << false << false;
        QTest::newRow("suffix outside the alphabet") << s(".ccm-target.Ab-xYz") << s("file") << false << false;
        QTest::newRow("not hidden") << s("ccm-target.Ab3xYz") << s("file") << false << false;
        QTest::newRow("another program's") << s(".target.Ab3xYz") << s("file") << false << false;
    }

    void staleTemporaries()
    {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        QFETCH(bool, removedByOneOffWrite);
        QFETCH(bool, removedByRun);
        for (const bool inRun : {false, true}) {
            const bool removed = inRun ? removedByRun : removedByOneOffWrite;
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            const QString path = dir.filePath(name);
            const std::string local8 = local(path);
            const QString outside = dir.filePath(s("outside"));
            QVERIFY(writeFile(outside, "not to be touched\n"));
            TemporarySweep run;
            AtomicWriteOptions options;
            if (inRun)
                options.sweep = &run;
            constexpr uid_t otherUser = 4242;
            if (kind == s("file") || kind.startsWith(s("owned by"))) {
                QVERIFY(writeFile(path, "left by a killed writer\n"));
            } else if (kind == s("empty file")) {
                QVERIFY(writeFile(path, {}));
            } else if (kind == s("symlink")) {
                QCOMPARE(::symlink(local(outside).c_str(), local8.c_str()), 0);
            } else if (kind == s("dangling symlink")) {
                QCOMPARE(::symlink(local(dir.filePath(s("nowhere"))).c_str(), local8.c_str()), 0);
            } else if (kind == s("directory")) {
                QVERIFY(QDir(dir.path()).mkdir(name));
            } else if (kind == s("fifo")) {
                QCOMPARE(::mkfifo(local8.c_str(), 0600), 0);
            }
            if (kind.startsWith(s("owned by"))) {
                if (::geteuid() != 0)
                    QSKIP("giving a file to another user needs root");
                QCOMPARE(::chown(local8.c_str(), otherUser, uid_t(-1)), 0);
                if (kind == s("owned by target owner"))
                    options.uid = otherUser;
            }

            const auto written = writeFileAtomically(local(dir.filePath(s("target"))), "new\n", options);
            QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
            QCOMPARE(readFile(dir.filePath(s("target"))), QByteArray("new\n"));
            QVERIFY2((statOf(path).st_mode != 0) == !removed, inRun ? "in a run" : "one-off write");
            QCOMPARE(readFile(outside), QByteArray("not to be touched\n"));
            QStringList expected {s("outside"), s("target")};
            if (!removed)
                expected << name;
            expected.sort();
            QCOMPARE(entries(dir.path()), expected);
            QCOMPARE(run.listings(), std::size_t(inRun ? 1 : 0));
        }
    }

    // A run lists each directory once, at its first write there, and removes every abandoned
    // temporary file in it then; one abandoned later in the run is left for the next run.
    void runListsEachDirectoryOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(s("second")));
        QVERIFY(writeFile(dir.filePath(s("keep.conf")), "kept\n"));
        QVERIFY(writeFile(dir.filePath(s(".ccm-other.Ab3xYz")), "left by a killed writer\n"));
        QVERIFY(writeFile(dir.filePath(s(".ccm-target.Cd4eFg")), "left by a killed writer\n"));

        TemporarySweep run;
        AtomicWriteOptions options;
        options.sweep = &run;
        QVERIFY(writeFileAtomically(local(dir.filePath(s("target"))), "1\n", options).ok());
        QCOMPARE(run.listings(), std::size_t(1));
        QCOMPARE(entries(dir.path()), (QStringList {s("keep.conf"), s("second"), s("target")}));

        // Abandoned after the sweep: later writes of the run, its own target's included, keep it.
        QVERIFY(writeFile(dir.filePath(s(".ccm-other.Zz9yY8")), "left by a killed writer\n"));
        for (int i = 0; i < 20; ++i) {
            QVERIFY(writeFileAtomically(local(dir.filePath(s("target"))), "2\n", options).ok());
            QVERIFY(writeFileAtomically(local(dir.filePath(s("other"))), "2\n", options).ok());
        }
        QCOMPARE(run.listings(), std::size_t(1));
        QVERIFY(writeFileAtomically(local(dir.filePath(s("second/target"))), "2\n", options).ok());
        QCOMPARE(run.listings(), std::size_t(2));
        QCOMPARE(entries(dir.path()),
            (QStringList {s(".ccm-other.Zz9yY8"), s("keep.conf"), s("other"), s("second"), s("target")}));

        TemporarySweep next;
        options.sweep = &next;
        QVERIFY(writeFileAtomically(local(dir.filePath(s("target"))), "3\n", options).ok());
        QCOMPARE(next.listings(), std::size_t(1));
        QCOMPARE(entries(dir.path()), (QStringList {s("keep.conf"), s("other"), s("second"), s("target")}));
        QCOMPARE(readFile(dir.filePath(s("other"))), QByteArray("2\n"));
    }

    // The listing keeps temporary files another user owns; a later write of the run that gives
    // its target that owner removes them without listing the directory again.
    void runRemovesAnotherOwnersTemporariesAtTheirOwnersWrite()
    {
        if (::geteuid() != 0)
            QSKIP("giving a file to another user needs root");
        constexpr uid_t otherUser = 4242;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString foreign = dir.filePath(s(".ccm-other.Ab3xYz"));
        QVERIFY(writeFile(foreign, "left by a killed writer\n"));
        QCOMPARE(::chown(local(foreign).c_str(), otherUser, uid_t(-1)), 0);

        TemporarySweep run;
        AtomicWriteOptions options;
        options.sweep = &run;
        QVERIFY(writeFileAtomically(local(dir.filePath(s("target"))), "mine\n", options).ok());
        QVERIFY(QFile::exists(foreign));
        options.uid = otherUser + 1;
        QVERIFY(writeFileAtomically(local(dir.filePath(s("third"))), "theirs\n", options).ok());
        QVERIFY(QFile::exists(foreign));
        options.uid = otherUser;
        QVERIFY(writeFileAtomically(local(dir.filePath(s("other"))), "theirs\n", options).ok());
        QVERIFY(!QFile::exists(foreign));
        QCOMPARE(run.listings(), std::size_t(1));
        QCOMPARE(statOf(dir.filePath(s("other"))).st_uid, otherUser);
    }

    // A temporary file whose writer still runs is kept, however old it looks; once that writer
    // is killed the next write removes it.
    void temporaryOfALiveWriterIsKept_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("inRun");
        QTest::newRow("one-off writes") << s(".ccm-target.Ab3xYz") << false;
        QTest::newRow("runs, another target's") << s(".ccm-other.Ab3xYz") << true;
    }

    void temporaryOfALiveWriterIsKept()
    {
        QFETCH(QString, name);
        QFETCH(bool, inRun);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString temporary = dir.filePath(name);
        const std::string target = local(dir.filePath(s("target")));
        int ready[2];
        QCOMPARE(::pipe2(ready, O_CLOEXEC), 0);
        const pid_t writer = ::fork();
        QVERIFY(writer >= 0);
        if (writer == 0) {
            // Created and locked as a writer does, then held until the test kills it.
            const int fd = ::open(local(temporary).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd < 0 || ::flock(fd, LOCK_EX) != 0 || ::write(fd, "in progress", 11) != 11)
                ::_exit(1);
            (void)!::write(ready[1], "r", 1);
            for (;;)
                ::pause();
        }
        auto stopWriter = qScopeGuard([writer] {
            ::kill(writer, SIGKILL);
            ::waitpid(writer, nullptr, 0);
        });
        ::close(ready[1]);
        char signal = 0;
        QCOMPARE(::read(ready[0], &signal, 1), ssize_t(1));
        ::close(ready[0]);
        const struct timeval old[2] = {{1, 0}, {1, 0}};
        QCOMPARE(::utimes(local(temporary).c_str(), old), 0);

        TemporarySweep firstRun;
        TemporarySweep secondRun;
        AtomicWriteOptions options;
        options.sweep = inRun ? &firstRun : nullptr;
        QVERIFY(writeFileAtomically(target, "first\n", options).ok());
        QCOMPARE(readFile(temporary), QByteArray("in progress"));

        QCOMPARE(::kill(writer, SIGKILL), 0);
        QCOMPARE(::waitpid(writer, nullptr, 0), writer);
        stopWriter.dismiss();
        options.sweep = inRun ? &secondRun : nullptr;
        QVERIFY(writeFileAtomically(target, "second\n", options).ok());
        QCOMPARE(entries(dir.path()), QStringList {s("target")});
        QCOMPARE(readFile(dir.filePath(s("target"))), QByteArray("second\n"));
    }

    // Writers of one target in several processes at once each remove the others' abandoned files
    // but never one still being written: every write succeeds and nothing is left over.
    void concurrentWritersNeverRemoveEachOthersFiles_data()
    {
        QTest::addColumn<bool>("inRuns");
        QTest::newRow("one target, one-off writes") << false;
        QTest::newRow("a target each, a new run every 5 writes") << true;
    }

    void concurrentWritersNeverRemoveEachOthersFiles()
    {
        QFETCH(bool, inRuns);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        constexpr int writers = 4;
        constexpr int writesEach = 150;
        std::vector<pid_t> children;
        auto stopWriters = qScopeGuard([&children] {
            for (const pid_t child : children) {
                ::kill(child, SIGKILL);
                ::waitpid(child, nullptr, 0);
            }
        });
        for (int w = 0; w < writers; ++w) {
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                const std::string content(1000 + w, char('a' + w));
                const std::string target = local(dir.filePath(inRuns ? s("target%1").arg(w) : s("target")));
                std::unique_ptr<TemporarySweep> run;
                for (int i = 0; i < writesEach; ++i) {
                    AtomicWriteOptions options {0644, uid_t(-1), gid_t(-1), false};
                    if (inRuns) {
                        if (i % 5 == 0)
                            run = std::make_unique<TemporarySweep>();
                        options.sweep = run.get();
                    }
                    if (!writeFileAtomically(target, content, options).ok())
                        ::_exit(1);
                }
                ::_exit(0);
            }
            children.push_back(child);
        }
        for (const pid_t child : children) {
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            QVERIFY(WIFEXITED(status));
            QCOMPARE(WEXITSTATUS(status), 0);
        }
        children.clear();
        if (inRuns) {
            QCOMPARE(entries(dir.path()), (QStringList {s("target0"), s("target1"), s("target2"), s("target3")}));
            for (int w = 0; w < writers; ++w)
                QCOMPARE(readFile(dir.filePath(s("target%1").arg(w))), QByteArray(1000 + w, char('a' + w)));
            return;
        }
        QCOMPARE(entries(dir.path()), QStringList {s("target")});
        const QByteArray content = readFile(dir.filePath(s("target")));
        QVERIFY(content.size() >= 1000 && content.size() < 1000 + writers);
        QCOMPARE(content, QByteArray(content.size(), char('a' + content.size() - 1000)));
    }

    // A writer killed at any moment leaves the target absent or whole with one of the contents it
    // was given, never partly written; at most its temporary file remains.
    void killedWriterNeverLeavesAPartialTarget()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const std::string targetPath = local(target);
        constexpr std::size_t size = 200 * 1000 * 1000;
        const std::string first(size, 'a');
        const std::string second(size, 'b');
        const QStringList wholeContents {q(sha256Hex(first)), q(sha256Hex(second))};

        struct Round {
            bool afterAFinishedWrite;
            int milliseconds;
            bool flush;
        };
        // The first round kills the writer inside its first file; the others let it finish a file,
        // then kill it at different points of the next one.
        const Round rounds[] = {{false, 2, false}, {true, 0, false}, {true, 5, true}, {true, 30, false},
            {true, 80, true}, {true, 200, false}};
        for (const Round &round : rounds) {
            int progress[2];
            QCOMPARE(::pipe2(progress, O_CLOEXEC), 0);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            // The writer loops until killed: kill it however this round ends, so that a failed
            // check never leaves it writing behind the test's back.
            auto stopWriter = qScopeGuard([child] {
                if (child > 0 && ::kill(child, SIGKILL) == 0)
                    ::waitpid(child, nullptr, 0);
            });
            if (child == 0) {
                const AtomicWriteOptions options {0644, uid_t(-1), gid_t(-1), round.flush};
                for (unsigned i = 0;; ++i) {
                    if (writeFileAtomically(targetPath, i % 2 == 0 ? second : first, options).ok())
                        (void)!::write(progress[1], "w", 1);
                }
            }
            ::close(progress[1]);
            if (round.afterAFinishedWrite) {
                pollfd finished {progress[0], POLLIN, 0};
                QCOMPARE(::poll(&finished, 1, 60000), 1);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(round.milliseconds));
            QCOMPARE(::kill(child, SIGKILL), 0);
            ::close(progress[0]);
            int status = 0;
            QCOMPARE(::waitpid(child, &status, 0), child);
            stopWriter.dismiss();
            QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

            if (round.afterAFinishedWrite)
                QVERIFY(QFile::exists(target));
            if (QFile::exists(target)) {
                const auto digest = sha256File(targetPath);
                QVERIFY2(digest.ok(), digest.ok() ? "" : digest.error().message.c_str());
                QVERIFY2(wholeContents.contains(q(digest.value())),
                    qPrintable(QStringLiteral("partial target after %1 ms").arg(round.milliseconds)));
            }
            int leftovers = 0;
            for (const QString &entry : entries(dir.path())) {
                if (entry == QStringLiteral("target"))
                    continue;
                QVERIFY2(temporaryName.match(entry).hasMatch(), qPrintable(entry));
                QVERIFY(QFile::remove(dir.filePath(entry)));
                ++leftovers;
            }
            QVERIFY(leftovers <= 1);
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomic_file.moc"
