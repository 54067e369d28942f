// SPDX-License-Identifier: Apache-2.0
// BatchedOutput: lines are flushed in batches, yet each within the delay of its writing.
#include "app/batched_output.h"
#include "test_main.h"

#include <QDir>
#include <QTest>

#include <mutex>
#include <sstream>
#include <string>

using ccm::cli::BatchedOutput;

namespace {

/// A stream buffer that keeps, at each flush, what had been written up to it.
class RecordingBuffer : public std::stringbuf {
public:
    [[nodiscard]] int flushes() const
    {
        const std::lock_guard lock(m_mutex);
        return m_flushes;
    }
    [[nodiscard]] std::string flushed() const
    {
        const std::lock_guard lock(m_mutex);
        return m_flushed;
    }

protected:
    int sync() override
    {
        const std::lock_guard lock(m_mutex);
        ++m_flushes;
        m_flushed = str();
        return 0;
    }

private:
    mutable std::mutex m_mutex;
    int m_flushes = 0;
    std::string m_flushed;
};

constexpr std::chrono::hours kNever {24};

/// The threads of this process, as the kernel lists them.
qsizetype threadCount()
{
    return QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size();
}

} // namespace

class TestBatchedOutput : public QObject {
    Q_OBJECT

private slots:
    void aWriteIsFlushedWithoutAnotherOne()
    {
        RecordingBuffer buffer;
        std::ostream stream(&buffer);
        BatchedOutput output(stream, std::chrono::milliseconds(20));
        output.write([](std::ostream &out) { out << "first\n"; });
        QTRY_COMPARE_WITH_TIMEOUT(buffer.flushed(), std::string("first\n"), 10000);

        // A later batch is flushed on its own too.
        output.write([](std::ostream &out) { out << "second\n"; });
        QTRY_COMPARE_WITH_TIMEOUT(buffer.flushed(), std::string("first\nsecond\n"), 10000);
    }

    void aRunThatWritesNothingStartsNoThread()
    {
        // An empty manifest's apply writes nothing before its summary: no flushing thread for it.
        const qsizetype before = threadCount();
        RecordingBuffer buffer;
        std::ostream stream(&buffer);
        {
            BatchedOutput output(stream, kNever);
            QCOMPARE(threadCount(), before);
            output.close();
            QCOMPARE(threadCount(), before);
        }
        BatchedOutput output(stream, kNever);
        output.write([](std::ostream &out) { out << "line\n"; });
        QCOMPARE(threadCount(), before + 1);
        output.close();
        QCOMPARE(buffer.flushed(), std::string("line\n"));
        QTRY_COMPARE_WITH_TIMEOUT(threadCount(), before, 10000);
    }

    void quickWritesShareOneFlush()
    {
        RecordingBuffer buffer;
        std::ostream stream(&buffer);
        std::string expected;
        {
            BatchedOutput output(stream, kNever);
            for (int i = 0; i < 1000; ++i) {
                output.write([i](std::ostream &out) { out << "line " << i << '\n'; });
                expected += "line " + std::to_string(i) + '\n';
            }
            QCOMPARE(buffer.flushes(), 0);
        }
        QCOMPARE(buffer.flushes(), 1);
        QCOMPARE(buffer.flushed(), expected);
    }

    void flushAndCloseWriteAtOnce()
    {
        RecordingBuffer buffer;
        std::ostream stream(&buffer);
        BatchedOutput output(stream, kNever);
        output.write([](std::ostream &out) { out << "a\n"; });
        output.flush();
        QCOMPARE(buffer.flushed(), std::string("a\n"));

        output.write([](std::ostream &out) { out << "b\n"; });
        output.close();
        QCOMPARE(buffer.flushed(), std::string("a\nb\n"));
        // The stream is the caller's again; closing twice (and the destructor) changes nothing.
        stream << "c\n";
        output.close();
        QCOMPARE(buffer.flushed(), std::string("a\nb\n"));
    }
};

CCM_TEST_GUILESS_MAIN(TestBatchedOutput)
#include "tst_batched_output.moc"
