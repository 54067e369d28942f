// SPDX-License-Identifier: Apache-2.0
#include "app/batched_output.h"

namespace ccm::cli {

BatchedOutput::BatchedOutput(std::ostream &stream, std::chrono::milliseconds delay)
    : m_stream(stream)
    , m_delay(delay)
{
}

BatchedOutput::~BatchedOutput()
{
    close();
}

void BatchedOutput::flush()
{
    const std::lock_guard lock(m_mutex);
    m_stream.flush();
    m_pending = false;
}

void BatchedOutput::close()
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_closed)
            return;
        m_closed = true;
    }
    m_due.notify_one();
    if (m_flusher.joinable())
        m_flusher.join();
    m_stream.flush();
}

void BatchedOutput::flushWhenDue()
{
    std::unique_lock lock(m_mutex);
    while (true) {
        m_due.wait(lock, [this] { return m_pending || m_closed; });
        if (m_closed)
            return;
        // The batch is due `delay` after its first write, unless a flush() took it before.
        const auto due = std::chrono::steady_clock::now() + m_delay;
        m_due.wait_until(lock, due, [this] { return m_closed || !m_pending; });
        if (m_closed)
            return; // close() flushes
        if (m_pending) {
            m_stream.flush();
            m_pending = false;
        }
    }
}

} // namespace ccm::cli
