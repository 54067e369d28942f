// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "daemon/dispatcher.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ccm::daemon {

/// A few threads that run the CPU-heavy requests (validate, render, the preparation of an apply)
/// so that the I/O thread keeps answering everybody else. Jobs start in the order submitted. The
/// queue needs no limit of its own: the server submits at most one job per connection.
class WorkPool {
public:
    /// Starts `threads` threads (at least one).
    explicit WorkPool(std::size_t threads);
    /// Drops the jobs not started and waits for the running ones to end.
    ~WorkPool();
    WorkPool(const WorkPool &) = delete;
    WorkPool &operator=(const WorkPool &) = delete;

    /// Queues `job` on behalf of `owner`; it runs on one of the pool's threads.
    void submit(ConnectionId owner, std::function<void()> job);

    /// Forgets the jobs of `owner` that have not started; a running one finishes.
    void drop(ConnectionId owner);

    /// The size that suits this machine: its cores, at least 2 and at most 4.
    static std::size_t defaultThreads();

private:
    void work();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::pair<ConnectionId, std::function<void()>>> m_jobs;
    bool m_stopping = false;
    std::vector<std::thread> m_threads;
};

} // namespace ccm::daemon
