// SPDX-License-Identifier: Apache-2.0
#include "base/base64.h"
#include "test_main.h"

#include <QTest>

#include <string>

using namespace ccm;

class TestBase64 : public QObject {
    Q_OBJECT

private slots:
    // RFC 4648 section 10's test vectors, in both alphabets.
    void rfcVectors_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QByteArray>("encoded");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==");
        QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=");
        QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v");
        QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
        QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
        QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
    }

    void rfcVectors()
    {
        QFETCH(QByteArray, data);
        QFETCH(QByteArray, encoded);
        const std::string bytes = data.toStdString();
        QCOMPARE(encodeBase64(bytes), encoded.toStdString());
        QCOMPARE(encodeBase64Url(bytes), encoded.toStdString());
        QCOMPARE(decodeBase64(encoded.toStdString()).value(), bytes);
        QCOMPARE(decodeBase64Lenient(encoded.toStdString()).value(), bytes);
    }

    void theTwoAlphabetsDifferInTheLastTwoDigits()
    {
        const std::string bytes("\xfb\xff\xbf", 3);
        QCOMPARE(encodeBase64(bytes), std::string("+/+/"));
        QCOMPARE(encodeBase64Url(bytes), std::string("-_-_"));
        QCOMPARE(decodeBase64Lenient("-_-_").value(), bytes);
        QCOMPARE(decodeBase64Lenient("+/+/").value(), bytes);
    }

    void everyByteRoundTrips()
    {
        std::string bytes;
        for (int i = 0; i < 256; ++i)
            bytes += static_cast<char>(i);
        for (std::size_t length = 0; length <= bytes.size(); length += 37) {
            const std::string piece = bytes.substr(0, length);
            QCOMPARE(decodeBase64(encodeBase64(piece)).value(), piece);
            QCOMPARE(decodeBase64Lenient(encodeBase64Url(piece)).value(), piece);
        }
    }

    void strictDecodingRejectsWhatItDidNotWrite_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("unpadded") << QByteArray("Zg");
        QTest::newRow("url alphabet") << QByteArray("-_-_");
        QTest::newRow("padding inside") << QByteArray("Zg==Zm8=");
        QTest::newRow("three pads") << QByteArray("Z===");
        QTest::newRow("space") << QByteArray("Zm9 ");
        QTest::newRow("newline") << QByteArray("Zm9v\n");
    }

    void strictDecodingRejectsWhatItDidNotWrite()
    {
        QFETCH(QByteArray, text);
        const auto decoded = decodeBase64(text.toStdString());
        QVERIFY(!decoded);
        QCOMPARE(decoded.error().code, std::string("bad_base64"));
    }

    void lenientDecodingTakesMissingPaddingButNotForeignCharacters()
    {
        QCOMPARE(decodeBase64Lenient("Zm8").value(), std::string("fo"));
        QCOMPARE(decodeBase64Lenient("Zg").value(), std::string("f"));
        QVERIFY(!decodeBase64Lenient("Zm9v!"));
        QVERIFY(!decodeBase64Lenient("Zm9vY"));
    }
};

CCM_TEST_APPLESS_MAIN(TestBase64)
#include "tst_base64.moc"
