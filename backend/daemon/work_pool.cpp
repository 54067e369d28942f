// SPDX-License-Identifier: Apache-2.0
#include "daemon/work_pool.h"

#include <algorithm>
#include <iterator>

namespace ccm::daemon {

WorkPool::WorkPool(std::size_t threads)
{
    threads = std::max<std::size_t>(threads, 1);
    m_threads.reserve(threads);
    for (std::size_t i = 0; i < threads; ++i)
        m_threads.emplace_back([this] { work(); });
}

WorkPool::~WorkPool()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_jobs.clear();
    }
    m_wake.notify_all();
    for (std::thread &thread : m_threads)
        thread.join();
}

void WorkPool::submit(ConnectionId owner, std::function<void()> job)
{
    {
        const std::lock_guard lock(m_mutex);
        m_jobs.emplace_back(owner, std::move(job));
    }
    m_wake.notify_one();
}

void WorkPool::drop(ConnectionId owner)
{
    std::deque<std::pair<ConnectionId, std::function<void()>>> dropped;
    {
        const std::lock_guard lock(m_mutex);
        const auto kept = std::stable_partition(
            m_jobs.begin(), m_jobs.end(), [owner](const auto &entry) { return entry.first != owner; });
        std::move(kept, m_jobs.end(), std::back_inserter(dropped));
        m_jobs.erase(kept, m_jobs.end());
    }
    // The dropped jobs (and the manifests they hold) are freed here, outside the lock.
}

std::size_t WorkPool::defaultThreads()
{
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 4);
}

void WorkPool::work()
{
    while (true) {
        std::function<void()> job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
            if (m_stopping)
                return;
            job = std::move(m_jobs.front().second);
            m_jobs.pop_front();
        }
        job();
    }
}

} // namespace ccm::daemon
