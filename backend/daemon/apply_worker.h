// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "daemon/dispatcher.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace ccm::daemon {

/// Runs one apply at a time on its own thread. What a run reports becomes notification lines for
/// the connection that started it, handed to `post` (called on the worker thread, in order): the
/// apply.progress, apply.event, apply.log and apply.message notifications, then the response to
/// apply.start.
class ApplyWorker : public ApplyControl {
public:
    using Post = std::function<void(ConnectionId connection, std::string line)>;

    explicit ApplyWorker(Post post);
    /// Cancels a run that is going and waits for it to stop.
    ~ApplyWorker() override;
    ApplyWorker(const ApplyWorker &) = delete;
    ApplyWorker &operator=(const ApplyWorker &) = delete;

    Started start(ApplyJob job) override;
    [[nodiscard]] std::optional<Running> running() const override;
    bool cancel(std::string_view run) override;

    /// A connection went away: its run, if it has one, stops before the next resource.
    void connectionClosed(ConnectionId connection);

private:
    void work();

    Post m_post;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<ApplyJob> m_job;
    std::optional<Running> m_running;
    std::atomic<bool> m_cancel {false};
    bool m_stopping = false;
    std::uint64_t m_runCount = 0;
    std::thread m_thread;
};

} // namespace ccm::daemon
