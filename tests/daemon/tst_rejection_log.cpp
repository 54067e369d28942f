// SPDX-License-Identifier: Apache-2.0
// The rate limit of the daemon's log of rejected input (ccm::RateLimitedLog keyed "uid UID", which
// the agent's preview responder and metrics endpoint use with their own keys), with the time given
// by the test, and the cutting of client text for the log.
#include "base/rate_limited_log.h"
#include "test_main.h"

#include <QTest>

#include <string>
#include <vector>

using namespace ccm;
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
        RateLimitedLog log([&](const std::string &line) { lines.push_back(line); }, 10s, 5);
        const auto start = RateLimitedLog::Clock::time_point {};
        for (int i = 0; i < rejections; ++i)
            log.write("uid 1000", "parse_error", "rejected request: invalid JSON at byte 0", start + 1ms * (i % 1000));
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
        RateLimitedLog log([&](const std::string &line) { lines.push_back(line); }, 10s, 1);
        const auto start = RateLimitedLog::Clock::time_point {};
        for (int i = 0; i < 3; ++i) {
            log.write("uid 1000", "parse_error", "a", start);
            log.write("uid 1001", "parse_error", "b", start);
            log.write("uid 1000", "too_large", "c", start);
        }
        QCOMPARE(lines, (std::vector<std::string> {"uid 1000: a", "uid 1001: b", "uid 1000: c"}));
        log.flushAll(start + 2s);
        QCOMPARE(lines.size(), std::size_t(6));
        QCOMPARE(lines[3], std::string("uid 1000: 2 more rejected (parse_error) in the last 2 s"));
    }

    void aNewIntervalWritesAgain()
    {
        std::vector<std::string> lines;
        RateLimitedLog log([&](const std::string &line) { lines.push_back(line); }, 10s, 2);
        const auto start = RateLimitedLog::Clock::time_point {};
        for (int i = 0; i < 4; ++i)
            log.write("uid 0", "lost", "x", start);
        // The next rejection after the interval sums up the last one and is written itself.
        log.write("uid 0", "lost", "y", start + 11s);
        QCOMPARE(lines,
            (std::vector<std::string> {
                "uid 0: x", "uid 0: x", "uid 0: 2 more rejected (lost) in the last 11 s", "uid 0: y"}));
    }

    void anEndedIntervalIsSummedUpByAnyWrite()
    {
        // The agent has no loop that calls flush(): a line of another key brings the summary out.
        std::vector<std::string> lines;
        RateLimitedLog log([&](const std::string &line) { lines.push_back(line); }, 10s, 1, "messages");
        const auto start = RateLimitedLog::Clock::time_point {};
        for (int i = 0; i < 3; ++i)
            log.write("fleet preview", "unreadable", "rejected request (unreadable): bad", start);
        log.write("metrics", "evicted", "closed a slow connection", start + 12s);
        QCOMPARE(lines,
            (std::vector<std::string> {"fleet preview: rejected request (unreadable): bad",
                "fleet preview: 2 more messages (unreadable) in the last 12 s", "metrics: closed a slow connection"}));
    }

    void goingWritesWhatIsDue()
    {
        std::vector<std::string> lines;
        {
            RateLimitedLog log([&](const std::string &line) { lines.push_back(line); }, 10s, 1);
            log.write("metrics", "evicted", "a");
            log.write("metrics", "evicted", "b");
        }
        QCOMPARE(lines.size(), std::size_t(2));
        QVERIFY(lines.back().starts_with("metrics: 1 more rejected (evicted) in the last "));
    }

    void clientTextIsCutAndEscaped_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("longest");
        QTest::addColumn<QByteArray>("logged");
        QTest::newRow("short") << QByteArray("fleet.keygen") << 64 << QByteArray("fleet.keygen");
        QTest::newRow("control characters") << QByteArray("a\nb\x1b") << 64 << QByteArray("a\\x0ab\\x1b");
        QTest::newRow("long") << QByteArray(15 * 1024 * 1024, 'a') << 8 << QByteArray("aaaaaaaa... (15728640 bytes)");
        // Cut before the two-byte e-acute that the 5th byte would split.
        QTest::newRow("utf-8 kept whole") << QByteArray("abcd\xc3\xa9"
                                                        "f")
                                          << 5 << QByteArray("abcd... (7 bytes)");
    }
    void clientTextIsCutAndEscaped()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, longest);
        QFETCH(QByteArray, logged);
        QCOMPARE(
            QByteArray::fromStdString(loggableText(text.toStdString(), static_cast<std::size_t>(longest))), logged);
    }
};

CCM_TEST_GUILESS_MAIN(TestRejectionLog)
#include "tst_rejection_log.moc"
