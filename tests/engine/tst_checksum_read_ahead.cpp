// SPDX-License-Identifier: Apache-2.0
// Checksums read ahead on a thread of their own: given only for the very file that was read, and
// unchanged since; everything else is left to the caller.
#include "base/sha256.h"
#include "engine/util/checksum_read_ahead.h"
#include "file_test_support.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <sys/stat.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::engine;
using namespace ccm::test;

namespace {

/// Files written before the read-ahead starts are trusted at once with this: the tests change
/// files in ways the times alone need not show (size, mode, inode), and one test keeps the default.
constexpr std::chrono::nanoseconds trustAtOnce {0};

struct Workload {
    QTemporaryDir dir;
    std::vector<std::filesystem::path> paths;

    explicit Workload(int count)
    {
        for (int i = 0; i < count; ++i) {
            const QString path = dir.filePath(QStringLiteral("f%1.conf").arg(i));
            writeFile(path, QByteArray("setting_") + QByteArray::number(i) + " = enabled\n");
            paths.push_back(local(path));
        }
    }
};

struct stat statOf(const std::filesystem::path &path)
{
    struct stat status { };
    if (::stat(path.c_str(), &status) != 0)
        status.st_mode = 0;
    return status;
}

std::string expected(const std::filesystem::path &path)
{
    auto sum = sha256File(path);
    return sum ? sum.value() : std::string("<unreadable>");
}

} // namespace

class TestChecksumReadAhead : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void givesWhatWasReadForUnchangedFiles()
    {
        Workload work(200);
        QVERIFY(work.dir.isValid());
        ChecksumReadAhead readAhead(work.paths, trustAtOnce);
        readAhead.waitUntilDone();
        for (const auto &path : work.paths) {
            const auto sum = readAhead.checksum(path, statOf(path));
            QVERIFY2(sum.has_value(), path.c_str());
            QCOMPARE(q(*sum), q(expected(path)));
        }
        QCOMPARE(readAhead.hits(), std::size_t(200));
    }

    // Whether the reader is ahead of the caller or behind it, every answer is the file's checksum
    // or nothing: never another file's, never a stale one.
    void answersAreRightWhileReading()
    {
        Workload work(500);
        QVERIFY(work.dir.isValid());
        ChecksumReadAhead readAhead(work.paths, trustAtOnce);
        // Starting from the end leaves the caller ahead of the reader at first.
        for (auto path = work.paths.rbegin(); path != work.paths.rend(); ++path) {
            if (const auto sum = readAhead.checksum(*path, statOf(*path)))
                QCOMPARE(q(*sum), q(expected(*path)));
        }
        for (const auto &path : work.paths)
            QVERIFY(!readAhead.checksum(path, statOf(path)).has_value());
    }

    void changedFilesAreLeftToTheCaller_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("content grew") << QStringLiteral("append");
        QTest::newRow("mode") << QStringLiteral("chmod");
        QTest::newRow("replaced by rename") << QStringLiteral("rename");
        QTest::newRow("removed") << QStringLiteral("remove");
    }

    void changedFilesAreLeftToTheCaller()
    {
        QFETCH(QString, change);
        Workload work(40);
        QVERIFY(work.dir.isValid());
        ChecksumReadAhead readAhead(work.paths, trustAtOnce);
        readAhead.waitUntilDone();

        const std::filesystem::path &changed = work.paths[7];
        const QString path = QString::fromStdString(changed.string());
        if (change == QLatin1String("append")) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write("more\n");
        } else if (change == QLatin1String("chmod")) {
            QVERIFY(::chmod(changed.c_str(), 0600) == 0);
        } else if (change == QLatin1String("rename")) {
            const QString other = work.dir.filePath(QStringLiteral("other"));
            QVERIFY(writeFile(other, readFile(path)));
            QVERIFY(::rename(local(other).c_str(), changed.c_str()) == 0);
        } else {
            QVERIFY(QFile::remove(path));
        }
        QVERIFY(!readAhead.checksum(changed, statOf(changed)).has_value());
        // The files around it are still taken.
        QCOMPARE(q(readAhead.checksum(work.paths[6], statOf(work.paths[6])).value_or("none")),
            q(expected(work.paths[6])));
        QCOMPARE(q(readAhead.checksum(work.paths[8], statOf(work.paths[8])).value_or("none")),
            q(expected(work.paths[8])));
    }

    // A file changed shortly before it is read could change again within the same tick of the file
    // system's clock without its times showing it: such files are not trusted.
    void recentlyChangedFilesAreNotTrusted()
    {
        Workload work(40);
        QVERIFY(work.dir.isValid());
        ChecksumReadAhead readAhead(work.paths);
        readAhead.waitUntilDone();
        for (const auto &path : work.paths)
            QVERIFY(!readAhead.checksum(path, statOf(path)).has_value());
        QCOMPARE(readAhead.hits(), std::size_t(0));
    }

    void onlyRegularFilesAreRead()
    {
        Workload work(4);
        QVERIFY(work.dir.isValid());
        const std::filesystem::path fifo = local(work.dir.filePath(QStringLiteral("fifo")));
        const std::filesystem::path link = local(work.dir.filePath(QStringLiteral("link")));
        const std::filesystem::path directory = local(work.dir.filePath(QStringLiteral("directory")));
        const std::filesystem::path missing = local(work.dir.filePath(QStringLiteral("missing")));
        QVERIFY(::mkfifo(fifo.c_str(), 0644) == 0);
        QVERIFY(::symlink(work.paths[0].c_str(), link.c_str()) == 0);
        QVERIFY(QDir().mkdir(QString::fromStdString(directory.string())));

        // The FIFO has no writer: opening it must not wait for one.
        ChecksumReadAhead readAhead({fifo, link, directory, missing, work.paths[1]}, trustAtOnce);
        readAhead.waitUntilDone();
        for (const auto &path : {fifo, link, directory, missing})
            QVERIFY2(!readAhead.checksum(path, statOf(path)).has_value(), path.c_str());
        QCOMPARE(q(readAhead.checksum(work.paths[1], statOf(work.paths[1])).value_or("none")),
            q(expected(work.paths[1])));
    }

    void eachPathIsAnsweredOnce()
    {
        Workload work(3);
        QVERIFY(work.dir.isValid());
        ChecksumReadAhead readAhead({work.paths[0], work.paths[1], work.paths[0]}, trustAtOnce);
        readAhead.waitUntilDone();
        QVERIFY(readAhead.checksum(work.paths[0], statOf(work.paths[0])).has_value());
        QVERIFY(!readAhead.checksum(work.paths[0], statOf(work.paths[0])).has_value());
        QVERIFY(!readAhead.checksum(work.paths[2], statOf(work.paths[2])).has_value());
        QCOMPARE(readAhead.hits(), std::size_t(1));
    }

    // Destroyed while the reader is still at work; the sanitizer build checks that nothing it uses
    // goes away under it.
    void destroyedWhileReading()
    {
        Workload work(2000);
        QVERIFY(work.dir.isValid());
        {
            ChecksumReadAhead readAhead(work.paths, trustAtOnce);
            QVERIFY(readAhead.checksum(work.paths[0], statOf(work.paths[0])).value_or(expected(work.paths[0]))
                == expected(work.paths[0]));
        }
    }
};

CCM_TEST_GUILESS_MAIN(TestChecksumReadAhead)
#include "tst_checksum_read_ahead.moc"
