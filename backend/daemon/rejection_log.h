// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>

namespace ccm::daemon {

/// The log of rejected input (bad requests, oversized lines, refused connections), rate-limited
/// so that a client sending garbage cannot fill the disk: per uid and reason, the first `burst`
/// lines of each interval are written, the rest are counted and summed up in one line once the
/// interval is over. Safe to use from any thread.
class RejectionLog {
public:
    using Clock = std::chrono::steady_clock;
    using Sink = std::function<void(const std::string &line)>;

    /// `sink` receives every line written; by default spdlog's info level.
    explicit RejectionLog(std::chrono::seconds interval = std::chrono::seconds(10), int burst = 5, Sink sink = {});

    /// Logs "uid UID: MESSAGE" unless `uid` had `burst` lines for `reason` in this interval already.
    void reject(uid_t uid, std::string_view reason, std::string_view message, Clock::time_point now = Clock::now());

    /// Writes the summary of every interval that has ended by `now`.
    void flush(Clock::time_point now = Clock::now());

    /// Writes the summaries of every interval, ended or not (when the daemon stops).
    void flushAll(Clock::time_point now = Clock::now());

    /// When the next interval with suppressed lines ends, if any: the server wakes up then.
    [[nodiscard]] std::optional<Clock::time_point> nextSummary() const;

private:
    struct Window {
        Clock::time_point start;
        int written = 0;
        std::uint64_t suppressed = 0;
    };
    using Key = std::pair<uid_t, std::string>;

    void summarize(const Key &key, const Window &window, Clock::time_point now);

    std::chrono::seconds m_interval;
    int m_burst;
    Sink m_sink;
    mutable std::mutex m_mutex;
    std::map<Key, Window, std::less<>> m_windows;
};

} // namespace ccm::daemon
