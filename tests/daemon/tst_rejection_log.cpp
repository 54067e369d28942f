// SPDX-License-Identifier: Apache-2.0
// The rate limit of the daemon's log of rejected input, with the time given by the test.
#include "rejection_log.h"

#include <QTest>

#include <string>
#include <vector>

using namespace ccm::daemon;
using namespace std::chrono_literals;

class TestRejectionLog : public QObject {
    Q_OBJECT

private slots:
    void burstThenSummary_data()
    {
        QTest::addColumn<int>("rejections");
        QTest::addColumn<int>("written");
        QTest::addColumn<QString>("summary");
        QTest::newRow("under the burst") << 3 << 3 << QString();
        QTest::newRow("at the burst") << 5 << 5 << QString();
        QTest::newRow("flood") << 18347 << 6
                               << QStringLiteral("uid 1000: 18342 more rejected (parse_error) in the last 10 s");
    }
    void burstThenSummary()
    {
        QFETCH(int, rejections);
        QFETCH(int, written);
        QFETCH(QString, summary);
        std::vector<std::string> lines;
        RejectionLog log(10s, 5, [&](const std::string &line) { lines.push_back(line); });
        const auto start = RejectionLog::Clock::time_point {};
        for (int i = 0; i < rejections; ++i)
            log.reject(1000, "parse_error", "rejected request: invalid JSON at byte 0", start + 1ms * (i % 1000));
        log.flush(start + 9s);
        QCOMPARE(static_cast<int>(lines.size()), std::min(rejections, 5));
        QCOMPARE(log.nextSummary().has_value(), rejections > 5);
        log.flush(start + 10s);
        QCOMPARE(static_cast<int>(lines.size()), written);
        QCOMPARE(lines.front(), std::string("uid 1000: rejected request: invalid JSON at byte 0"));
        if (!summary.isEmpty())
            QCOMPARE(QString::fromStdString(lines.back()), summary);
        QVERIFY(!log.nextSummary());
    }

    void uidsAndReasonsAreCountedApart()
    {
        std::vector<std::string> lines;
        RejectionLog log(10s, 1, [&](const std::string &line) { lines.push_back(line); });
        const auto start = RejectionLog::Clock::time_point {};
        for (int i = 0; i < 3; ++i) {
            log.reject(1000, "parse_error", "a", start);
            log.reject(1001, "parse_error", "b", start);
            log.reject(1000, "too_large", "c", start);
        }
        QCOMPARE(lines, (std::vector<std::string> {"uid 1000: a", "uid 1001: b", "uid 1000: c"}));
        log.flushAll(start + 2s);
        QCOMPARE(lines.size(), std::size_t(6));
        QCOMPARE(lines[3], std::string("uid 1000: 2 more rejected (parse_error) in the last 2 s"));
    }

    void aNewIntervalWritesAgain()
    {
        std::vector<std::string> lines;
        RejectionLog log(10s, 2, [&](const std::string &line) { lines.push_back(line); });
        const auto start = RejectionLog::Clock::time_point {};
        for (int i = 0; i < 4; ++i)
            log.reject(0, "lost", "x", start);
        // The next rejection after the interval sums up the last one and is written itself.
        log.reject(0, "lost", "y", start + 11s);
        QCOMPARE(lines,
            (std::vector<std::string> {
                "uid 0: x", "uid 0: x", "uid 0: 2 more rejected (lost) in the last 11 s", "uid 0: y"}));
    }
};

QTEST_GUILESS_MAIN(TestRejectionLog)
#include "tst_rejection_log.moc"
