// SPDX-License-Identifier: Apache-2.0
#include "protocol/line_reader.h"
#include "test_common.h"
#include "test_main.h"

#include <QTest>

using namespace ccm;
using namespace ccm::protocol;
using namespace ccm::test;

class TestLineReader : public QObject {
    Q_OBJECT

private slots:
    void framesLines_data()
    {
        QTest::addColumn<int>("maxLine");
        QTest::addColumn<QStringList>("chunks");
        QTest::addColumn<QStringList>("frames");
        QTest::addColumn<int>("pending");
        const auto l = [](const char *text) { return QStringList {QString::fromUtf8(text)}; };
        QTest::newRow("two lines") << 16 << l("a\nb\n") << QStringList {QStringLiteral("L:a"), QStringLiteral("L:b")}
                                   << 0;
        QTest::newRow("split line") << 16 << QStringList {QStringLiteral("ab"), QStringLiteral("c\n")}
                                    << QStringList {QStringLiteral("L:abc")} << 0;
        QTest::newRow("empty line") << 16 << l("\n") << QStringList {QStringLiteral("L:")} << 0;
        QTest::newRow("unfinished") << 16 << l("abc") << QStringList {} << 3;
        QTest::newRow("exactly the limit") << 4 << l("abcd\n") << QStringList {QStringLiteral("L:abcd")} << 0;
        QTest::newRow("over the limit in one piece")
            << 4 << l("abcde\nx\n") << QStringList {QStringLiteral("T"), QStringLiteral("L:x")} << 0;
        QTest::newRow("over the limit across pieces")
            << 4 << QStringList {QStringLiteral("abc"), QStringLiteral("de"), QStringLiteral("fg\nok\n")}
            << QStringList {QStringLiteral("T"), QStringLiteral("L:ok")} << 0;
        QTest::newRow("newline within the next limit")
            << 4 << QStringList {QStringLiteral("abcde"), QStringLiteral("fghi"), QStringLiteral("\nok\n")}
            << QStringList {QStringLiteral("T"), QStringLiteral("L:ok")} << 0;
        QTest::newRow("no newline within the next limit")
            << 4 << QStringList {QStringLiteral("abcde"), QStringLiteral("fghi"), QStringLiteral("j\nok\n")}
            << QStringList {QStringLiteral("T"), QStringLiteral("X")} << 0;
        QTest::newRow("nothing after lost")
            << 4 << QStringList {QStringLiteral("abcde"), QStringLiteral("fghij"), QStringLiteral("ok\n")}
            << QStringList {QStringLiteral("T"), QStringLiteral("X")} << 0;
    }
    void framesLines()
    {
        QFETCH(int, maxLine);
        QFETCH(QStringList, chunks);
        QFETCH(QStringList, frames);
        QFETCH(int, pending);
        LineReader reader(static_cast<std::size_t>(maxLine));
        std::vector<Frame> found;
        for (const QString &chunk : chunks)
            reader.feed(chunk.toStdString(), found);
        QStringList described;
        for (const Frame &frame : found) {
            switch (frame.kind) {
            case Frame::Kind::Line:
                described << QStringLiteral("L:") + q(frame.text);
                break;
            case Frame::Kind::TooLarge:
                described << QStringLiteral("T");
                break;
            case Frame::Kind::Lost:
                described << QStringLiteral("X");
                break;
            }
        }
        QCOMPARE(described, frames);
        QCOMPARE(reader.pending(), static_cast<std::size_t>(pending));
    }
};

CCM_TEST_GUILESS_MAIN(TestLineReader)
#include "tst_line_reader.moc"
