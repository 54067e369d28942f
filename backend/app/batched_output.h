// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <thread>

namespace ccm::cli {

/// A stream written in batches: what is written reaches the stream's destination (is flushed) at
/// most `delay` later, whatever the writer does next, and at once on flush() or close(). A run of
/// thousands of quick resources then costs the reader a few wake-ups instead of one per line, while
/// the line before a slow resource still shows within the delay. Writes come from one thread; a
/// second one of our own, started at the first write, flushes when a batch is due.
class BatchedOutput {
public:
    /// A tenth of a second: too short for a person to notice, long enough to gather the lines of
    /// hundreds of stable resources.
    static constexpr std::chrono::milliseconds kDelay {100};

    explicit BatchedOutput(std::ostream &stream, std::chrono::milliseconds delay = kDelay);
    /// Flushes what is left (close()).
    ~BatchedOutput();
    BatchedOutput(const BatchedOutput &) = delete;
    BatchedOutput &operator=(const BatchedOutput &) = delete;

    /// Calls `write(stream)`; what it writes is flushed within the delay.
    template <typename Write>
    void write(Write &&write)
    {
        bool startsBatch = false;
        {
            const std::lock_guard lock(m_mutex);
            std::forward<Write>(write)(m_stream);
            startsBatch = !m_pending;
            m_pending = true;
            if (!m_flusher.joinable() && !m_closed)
                m_flusher = std::thread([this] { flushWhenDue(); });
        }
        if (startsBatch)
            m_due.notify_one();
    }

    /// Flushes what was written so far now.
    void flush();
    /// Flushes and stops batching; the stream may then be written directly again.
    void close();

private:
    void flushWhenDue();

    std::ostream &m_stream;
    const std::chrono::milliseconds m_delay;
    std::mutex m_mutex;
    std::condition_variable m_due;
    bool m_pending = false; ///< written since the last flush
    bool m_closed = false;
    std::thread m_flusher; ///< not started until something is written
};

} // namespace ccm::cli
