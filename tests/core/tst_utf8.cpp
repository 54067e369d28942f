// SPDX-License-Identifier: Apache-2.0
#include "base/utf8.h"
#include "core/model/json.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;

class TestUtf8 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decode_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("length"); // 0: not well-formed
        QTest::addColumn<uint>("codePoint");
        QTest::newRow("ascii") << QByteArray("a") << 1 << 0x61u;
        QTest::newRow("two bytes") << QByteArray("\xC3\xB6") << 2 << 0xF6u;
        QTest::newRow("three bytes") << QByteArray("\xE2\x82\xAC") << 3 << 0x20ACu;
        QTest::newRow("four bytes") << QByteArray("\xF0\x9F\x98\x80") << 4 << 0x1F600u;
        QTest::newRow("stray continuation") << QByteArray("\x80") << 0 << 0u;
        QTest::newRow("truncated") << QByteArray("\xE2\x82") << 0 << 0u;
        QTest::newRow("overlong slash") << QByteArray("\xC0\xAF") << 0 << 0u;
        QTest::newRow("overlong three") << QByteArray("\xE0\x80\xAF") << 0 << 0u;
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << 0 << 0u;
        QTest::newRow("past U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0 << 0u;
        QTest::newRow("bad continuation") << QByteArray("\xC3\x28") << 0 << 0u;
        QTest::newRow("five-byte lead") << QByteArray("\xF8\x88\x80\x80\x80") << 0 << 0u;
    }

    void decode()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, length);
        QFETCH(uint, codePoint);
        char32_t decoded = 0;
        const std::size_t got = decodeUtf8(std::string_view(bytes.constData(), bytes.size()), 0, decoded);
        QCOMPARE(static_cast<int>(got), length);
        if (length > 0) {
            QCOMPARE(static_cast<uint>(decoded), codePoint);
            std::string encoded;
            appendUtf8(encoded, decoded);
            QCOMPARE(QByteArray::fromStdString(encoded), bytes);
        }
    }

    void repairAndFind()
    {
        const std::string text = "ok \xC3\xB6 \xFF end \xE2\x82";
        QCOMPARE(invalidUtf8Offset(text), std::size_t(6));
        QCOMPARE(invalidUtf8Offset("fine \xE2\x82\xAC"), std::string_view::npos);
        QCOMPARE(QByteArray::fromStdString(toValidUtf8(text)),
                 QByteArray("ok \xC3\xB6 \xEF\xBF\xBD end \xEF\xBF\xBD\xEF\xBF\xBD"));
    }

    void hexDigits()
    {
        QCOMPARE(hexDigitValue('0'), 0);
        QCOMPARE(hexDigitValue('9'), 9);
        QCOMPARE(hexDigitValue('a'), 10);
        QCOMPARE(hexDigitValue('F'), 15);
        QCOMPARE(hexDigitValue('g'), -1);
        QCOMPARE(hexDigitValue(' '), -1);
    }

    void jsonNesting()
    {
        // Not raw strings: moc misreads raw strings that hold quotes and brackets.
        QCOMPARE(jsonNestingBeyond("[[1], {\"a\": [2]}]", 3), std::nullopt);
        QCOMPARE(jsonNestingBeyond("[[1], {\"a\": [[2]]}]", 3), std::optional<std::size_t>(13));
        QCOMPARE(jsonNestingBeyond("[\"[[[[\", \"\\\"[[[[\"]", 1), std::nullopt);
        // A quote after an even number of backslashes closes the string; after an odd one it does not.
        QCOMPARE(jsonNestingBeyond("[\"a\\\\\", [[1]]]", 2), std::optional<std::size_t>(9));
        QCOMPARE(jsonNestingBeyond("[\"a\\\\\\\", [[1]]\"]", 2), std::nullopt);
        QCOMPARE(jsonNestingBeyond("[\"unterminated [[[", 1), std::nullopt);
    }
};

CCM_TEST_GUILESS_MAIN(TestUtf8)
#include "tst_utf8.moc"
