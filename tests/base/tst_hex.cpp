// SPDX-License-Identifier: Apache-2.0
#include "base/hex.h"
#include "test_main.h"

#include <QTest>

#include <array>
#include <cstdint>
#include <string>

using namespace ccm;

class TestHex : public QObject {
    Q_OBJECT

private slots:
    void bytesAsTwoLowerCaseDigitsEach()
    {
        const std::array<unsigned char, 5> bytes {0x00, 0x0f, 0xa5, 0x10, 0xff};
        QCOMPARE(toHex(bytes), std::string("000fa510ff"));
        QCOMPARE(toHex({}), std::string());
    }

    void oneByteAppended()
    {
        std::string out = "\\x";
        appendHexByte(out, 0x1b);
        appendHexByte(out, 0x7f);
        QCOMPARE(out, std::string("\\x1b7f"));
    }

    void valuesPaddedToTheirDigits_data()
    {
        QTest::addColumn<quint64>("value");
        QTest::addColumn<int>("digits");
        QTest::addColumn<bool>("upperCase");
        QTest::addColumn<QString>("expected");
        QTest::newRow("byte") << quint64 {0x0a} << 2 << false << QStringLiteral("0a");
        QTest::newRow("upper") << quint64 {0xbeef} << 4 << true << QStringLiteral("BEEF");
        QTest::newRow("padded") << quint64 {0x1f} << 8 << false << QStringLiteral("0000001f");
        QTest::newRow("only the low digits") << quint64 {0x12345} << 4 << false << QStringLiteral("2345");
        QTest::newRow("64-bit hash") << quint64 {0xcbf29ce484222325} << 16 << false
                                     << QStringLiteral("cbf29ce484222325");
        QTest::newRow("more digits than bits") << quint64 {0xff} << 18 << false << QStringLiteral("0000000000000000ff");
        QTest::newRow("none") << quint64 {0xff} << 0 << false << QString();
    }

    void valuesPaddedToTheirDigits()
    {
        QFETCH(quint64, value);
        QFETCH(int, digits);
        QFETCH(bool, upperCase);
        QFETCH(QString, expected);
        std::string out = ">";
        appendHexDigits(out, value, digits, upperCase);
        QCOMPARE(QString::fromStdString(out), QLatin1Char('>') + expected);
    }
};

CCM_TEST_APPLESS_MAIN(TestHex)
#include "tst_hex.moc"
