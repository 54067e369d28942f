// SPDX-License-Identifier: Apache-2.0
#include "base/file_reading.h"
#include "test_main.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace ccm;
using namespace ccm::test;

class TestFileReading : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::string path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)).toStdString(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(writeFile(m_dir.filePath(QStringLiteral("ten")), "0123456789"));
        QCOMPARE(::mkfifo(path("fifo").c_str(), 0600), 0);
        const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const std::string socketPath = path("socket");
        QVERIFY(socketPath.size() < sizeof(address.sun_path));
        std::copy(socketPath.begin(), socketPath.end(), address.sun_path);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
        ::close(listener);
    }

    void failures_data()
    {
        QTest::addColumn<QString>("file"); // in the temporary directory unless absolute
        QTest::addColumn<int>("maxBytes");
        QTest::addColumn<int>("kind");
        using Kind = FileReadFailure::Kind;
        QTest::newRow("missing") << QStringLiteral("nothing") << 100 << int(Kind::Missing);
        QTest::newRow("directory") << QString() << 100 << int(Kind::Directory);
        QTest::newRow("fifo does not block") << QStringLiteral("fifo") << 100 << int(Kind::NotRegular);
        QTest::newRow("socket") << QStringLiteral("socket") << 100 << int(Kind::NotRegular);
        QTest::newRow("device") << QStringLiteral("/dev/null") << 100 << int(Kind::NotRegular);
        QTest::newRow("too large") << QStringLiteral("ten") << 9 << int(Kind::TooLarge);
        QTest::newRow("under a file") << QStringLiteral("ten/x") << 100 << int(Kind::Unreadable);
    }

    void failures()
    {
        QFETCH(QString, file);
        QFETCH(int, maxBytes);
        QFETCH(int, kind);
        const std::string full = file.startsWith(QLatin1Char('/')) ? file.toStdString() : path(qPrintable(file));
        const auto read = readRegularFile(full, static_cast<std::size_t>(maxBytes));
        QVERIFY(!read.ok());
        QCOMPARE(int(read.error().kind), kind);
        if (kind == int(FileReadFailure::Kind::TooLarge))
            QCOMPARE(read.error().size, std::uintmax_t(10));
    }

    void reads()
    {
        QCOMPARE(q(readRegularFile(path("ten"), 10).value()), QStringLiteral("0123456789"));
        // /proc files report a size of 0 and are still read whole, and still bounded.
        const auto status = readRegularFile("/proc/self/status", 1024 * 1024);
        QVERIFY(status.ok());
        QVERIFY(q(status.value()).contains(QStringLiteral("Pid:")));
        const auto bounded = readRegularFile("/proc/self/status", 16);
        QVERIFY(!bounded.ok());
        QCOMPARE(int(bounded.error().kind), int(FileReadFailure::Kind::TooLarge));
    }
};

CCM_TEST_GUILESS_MAIN(TestFileReading)
#include "tst_file_reading.moc"
