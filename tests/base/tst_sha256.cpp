// SPDX-License-Identifier: Apache-2.0
#include "base/hex.h"
#include "base/sha256.h"
#include "test_common.h"
#include "test_main.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::test;

namespace {

/// What the system's sha256sum says about a file, or an empty string when it could not run.
QString sha256sum(const QString &path)
{
    QProcess process;
    process.start(QStringLiteral("sha256sum"), {QStringLiteral("--"), path});
    if (!process.waitForFinished(120000) || process.exitCode() != 0)
        return {};
    return QString::fromLatin1(process.readAllStandardOutput()).section(QLatin1Char(' '), 0, 0);
}

} // namespace

class TestSha256 : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void knownVectors_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty") << QByteArray()
                               << QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc")
                             << QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("two blocks") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                    << QStringLiteral(
                                           "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("million a") << QByteArray(
            1000000, 'a') << QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        QTest::newRow("NUL bytes") << QByteArray(
            3, '\0') << QStringLiteral("709e80c88487a2411e1ee4dfb9f22a861492d20c4765150c0c794abd70f8147c");
    }

    void knownVectors()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, digest);
        QCOMPARE(q(sha256Hex(std::string_view(data.constData(), static_cast<std::size_t>(data.size())))), digest);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("data"));
        QVERIFY(writeFile(path, data));
        const auto fromFile = sha256File(path.toStdString());
        QVERIFY2(fromFile.ok(), fromFile.ok() ? "" : fromFile.error().message.c_str());
        QCOMPARE(q(fromFile.value()), digest);

        // Fed in uneven pieces, incrementally: the same digest, as bytes and as digits.
        const std::string_view whole(data.constData(), static_cast<std::size_t>(data.size()));
        Sha256 pieces;
        for (std::size_t at = 0, step = 1; at < whole.size(); at += step, step = step * 3 + 1)
            pieces.add(whole.substr(at, step));
        const Sha256Digest bytes = pieces.finish();
        QCOMPARE(q(toHex(bytes)), digest);
        QVERIFY(bytes == sha256(whole));
        QCOMPARE(digestBytes(bytes).size(), std::size_t {32});
        Sha256 once;
        once.add(whole);
        QCOMPARE(q(once.finishHex()), digest);
    }

    // Sizes around the read chunk catch a lost or repeated tail.
    void matchesSha256sum_data()
    {
        QTest::addColumn<qsizetype>("size");
        QTest::newRow("one byte") << qsizetype(1);
        QTest::newRow("one chunk less one") << qsizetype(64 * 1024 - 1);
        QTest::newRow("one chunk") << qsizetype(64 * 1024);
        QTest::newRow("one chunk and one") << qsizetype(64 * 1024 + 1);
        QTest::newRow("1 MiB") << qsizetype(1024 * 1024);
        QTest::newRow("3 MiB and a bit") << qsizetype(3 * 1024 * 1024 + 4097);
    }

    void matchesSha256sum()
    {
        QFETCH(qsizetype, size);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("random"));
        QVERIFY(writeFile(path, randomBytes(size, static_cast<quint32>(size))));
        const QString expected = sha256sum(path);
        QCOMPARE(expected.size(), 64);
        const auto digest = sha256File(path.toStdString());
        QVERIFY2(digest.ok(), digest.ok() ? "" : digest.error().message.c_str());
        QCOMPARE(q(digest.value()), expected);
    }

    void sparseFile()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("sparse"));
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        QVERIFY(fd >= 0);
        // A little data at the start and the end, a 1 GiB hole in between.
        QCOMPARE(::pwrite(fd, "head", 4, 0), ssize_t(4));
        QCOMPARE(::ftruncate(fd, off_t(1) << 30), 0);
        QCOMPARE(::pwrite(fd, "tail", 4, (off_t(1) << 30) - 4), ssize_t(4));
        ::close(fd);
        // As printed by sha256sum for this file, which takes it seconds to compute.
        const QString expected = QStringLiteral("f1483c38b2e313b08d719bf55720543560dcbc0f12d4333aac927cef6cad5154");
        const auto digest = sha256File(path.toStdString());
        QVERIFY2(digest.ok(), digest.ok() ? "" : digest.error().message.c_str());
        QCOMPARE(q(digest.value()), expected);
    }

    void followsSymlink()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString target = dir.filePath(QStringLiteral("target"));
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(writeFile(target, "abc"));
        QVERIFY(QFile::link(target, link));
        const auto digest = sha256File(link.toStdString());
        QVERIFY(digest.ok());
        QCOMPARE(digest.value(), sha256Hex("abc"));
    }

    void refusesWhatIsNotARegularFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("directory") << QStringLiteral("directory") << QStringLiteral("not_regular_file")
                                   << QStringLiteral("it is a directory");
        QTest::newRow("character device") << QStringLiteral("device") << QStringLiteral("not_regular_file")
                                          << QStringLiteral("it is a character device");
        // A FIFO without a writer would block a naive open() forever.
        QTest::newRow("fifo") << QStringLiteral("fifo") << QStringLiteral("not_regular_file")
                              << QStringLiteral("it is a FIFO");
        QTest::newRow("socket") << QStringLiteral("socket") << QStringLiteral("not_regular_file")
                                << QStringLiteral("it is a socket");
        QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("io")
                                 << QStringLiteral("cannot open '%1': No such file or directory");
        QTest::newRow("dangling symlink") << QStringLiteral("dangling") << QStringLiteral("io")
                                          << QStringLiteral("cannot open '%1': No such file or directory");
        QTest::newRow("below a file") << QStringLiteral("below file") << QStringLiteral("io")
                                      << QStringLiteral("cannot open '%1': Not a directory");
    }

    void refusesWhatIsNotARegularFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = dir.filePath(QStringLiteral("subject"));
        if (kind == QStringLiteral("directory")) {
            QVERIFY(QDir().mkdir(path));
        } else if (kind == QStringLiteral("device")) {
            path = QStringLiteral("/dev/null");
        } else if (kind == QStringLiteral("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (kind == QStringLiteral("socket")) {
            const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            QVERIFY(fd >= 0);
            sockaddr_un address {};
            address.sun_family = AF_UNIX;
            const QByteArray encoded = QFile::encodeName(path);
            QVERIFY(static_cast<std::size_t>(encoded.size()) < sizeof(address.sun_path));
            std::memcpy(address.sun_path, encoded.constData(), static_cast<std::size_t>(encoded.size()));
            const bool bound = ::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof(address)) == 0;
            ::close(fd);
            QVERIFY(bound);
        } else if (kind == QStringLiteral("dangling")) {
            QVERIFY(QFile::link(dir.filePath(QStringLiteral("nowhere")), path));
        } else if (kind == QStringLiteral("below file")) {
            QVERIFY(writeFile(path, "x"));
            path += QStringLiteral("/inner");
        }
        const auto digest = sha256File(path.toStdString());
        QVERIFY(!digest.ok());
        QCOMPARE(q(digest.error().code), code);
        QVERIFY2(q(digest.error().message).contains(QString(message).replace(QStringLiteral("%1"), path)),
            digest.error().message.c_str());
        QVERIFY2(q(digest.error().message).contains(path), digest.error().message.c_str());
    }
};

CCM_TEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
