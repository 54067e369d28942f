// SPDX-License-Identifier: Apache-2.0
#include "core/model/duration.h"
#include "test_main.h"
#include "test_support.h"

#include <QTest>

#include <limits>

using namespace ccm;
using namespace ccm::test;

class TestDuration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("milliseconds"); // -1: invalid
        QTest::newRow("zero") << QStringLiteral("0") << qint64(0);
        QTest::newRow("ms") << QStringLiteral("300ms") << qint64(300);
        QTest::newRow("seconds") << QStringLiteral("30s") << qint64(30000);
        QTest::newRow("fraction") << QStringLiteral("1.5h") << qint64(5400000);
        QTest::newRow("compound") << QStringLiteral("2h45m") << qint64(9900000);
        QTest::newRow("micro") << QStringLiteral("1500us") << qint64(1);
        QTest::newRow("day") << QStringLiteral("1d") << qint64(86400000);
        QTest::newRow("week") << QStringLiteral("2w") << qint64(1209600000);
        QTest::newRow("month") << QStringLiteral("1M") << qint64(2592000000);
        QTest::newRow("year") << QStringLiteral("1y") << qint64(31536000000);
        QTest::newRow("plus") << QStringLiteral("+5s") << qint64(5000);
        QTest::newRow("empty") << QString() << qint64(-1);
        QTest::newRow("no unit") << QStringLiteral("30") << qint64(-1);
        QTest::newRow("negative") << QStringLiteral("-5s") << qint64(-1);
        QTest::newRow("unknown unit") << QStringLiteral("5 minutes") << qint64(-1);
        QTest::newRow("words") << QStringLiteral("soon") << qint64(-1);
        QTest::newRow("two points") << QStringLiteral("1.2.3s") << qint64(-1);
        QTest::newRow("overflow") << QStringLiteral("999999999999y") << qint64(-1);
        // More digits than any floating-point conversion takes.
        QTest::newRow("huge number") << (QStringLiteral("1") + QString(400, QLatin1Char('0')) + QStringLiteral("s"))
                                     << qint64(-1);
        QTest::newRow("long fraction") << (QStringLiteral("2.") + QString(400, QLatin1Char('5')) + QStringLiteral("s"))
                                       << qint64(2555);
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, milliseconds);
        const auto parsed = parseDuration(text.toStdString());
        QCOMPARE(parsed.ok(), milliseconds >= 0);
        if (milliseconds >= 0)
            QCOMPARE(static_cast<qint64>(std::chrono::duration_cast<std::chrono::milliseconds>(parsed.value()).count()),
                     milliseconds);
        else
            QVERIFY(q(parsed.error().message).contains(QStringLiteral("is not a duration")));
    }

    // Durations are whole nanoseconds and read exactly up to the int64 limit, also beyond the
    // 2^53 that a double holds exactly.
    void nanoseconds_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("nanoseconds"); // -1: invalid
        QTest::newRow("largest") << QStringLiteral("9223372036854775807ns") << std::numeric_limits<qint64>::max();
        QTest::newRow("largest in units")
            << QStringLiteral("106751d23h47m16s854ms775us807ns") << std::numeric_limits<qint64>::max();
        QTest::newRow("one past largest") << QStringLiteral("9223372036854775808ns") << qint64(-1);
        QTest::newRow("sum past largest") << QStringLiteral("106751d23h47m16s854ms775us808ns") << qint64(-1);
        QTest::newRow("year and a nanosecond") << QStringLiteral("1y1ns") << qint64(31536000000000001);
        QTest::newRow("fraction of a year") << QStringLiteral("0.5y") << qint64(15768000000000000);
        QTest::newRow("fraction rounds") << QStringLiteral("1.5ns") << qint64(2);
        QTest::newRow("fraction below a nanosecond") << QStringLiteral("0.0000000004s") << qint64(0);
    }

    void nanoseconds()
    {
        QFETCH(QString, text);
        QFETCH(qint64, nanoseconds);
        const auto parsed = parseDuration(text.toStdString());
        QCOMPARE(parsed.ok(), nanoseconds >= 0);
        if (nanoseconds >= 0)
            QCOMPARE(static_cast<qint64>(parsed.value().count()), nanoseconds);
        else
            QVERIFY(q(parsed.error().message).contains(QStringLiteral("too long")));
    }
};

CCM_TEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
