// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ccm {

/// A log of what others send that they could send without end (bad requests, refused
/// connections), rate-limited so that nobody can fill the disk through it: per key and reason,
/// the first `burst` lines of each interval are written, the rest are counted and summed up in
/// one line once the interval is over. Safe to use from any thread.
class RateLimitedLog {
public:
    using Clock = std::chrono::steady_clock;
    using Sink = std::function<void(const std::string &line)>;

    /// `sink` receives every line, called with the log's lock held (so never concurrently).
    /// `what` names the lines in summaries: "KEY: N more WHAT (REASON) in the last S s".
    explicit RateLimitedLog(Sink sink, std::chrono::seconds interval = std::chrono::seconds(10), int burst = 5,
        std::string what = "rejected");
    /// Writes the summaries still due (flushAll()).
    ~RateLimitedLog();
    RateLimitedLog(const RateLimitedLog &) = delete;
    RateLimitedLog &operator=(const RateLimitedLog &) = delete;

    /// Logs "KEY: MESSAGE" unless `key` had `burst` lines for `reason` in this interval already.
    /// Writes the summaries of intervals that have ended by `now` first, so that they come out
    /// even where nobody calls flush(). `message` is written as given: pass what a client sent
    /// through loggableText().
    void write(
        std::string_view key, std::string_view reason, std::string_view message, Clock::time_point now = Clock::now());

    /// Writes the summary of every interval that has ended by `now`.
    void flush(Clock::time_point now = Clock::now());

    /// Writes the summaries of every interval, ended or not (when the program stops).
    void flushAll(Clock::time_point now = Clock::now());

    /// When the next interval with suppressed lines ends, if any: an event loop wakes up then.
    [[nodiscard]] std::optional<Clock::time_point> nextSummary() const;

private:
    struct Window {
        Clock::time_point start;
        int written = 0;
        std::uint64_t suppressed = 0;
    };
    using Key = std::pair<std::string, std::string>; ///< key, reason

    void flushLocked(Clock::time_point now);
    void summarize(const Key &key, const Window &window, Clock::time_point now);

    Sink m_sink;
    std::chrono::seconds m_interval;
    int m_burst;
    std::string m_what;
    mutable std::mutex m_mutex;
    std::map<Key, Window> m_windows;
};

/// What others sent, made fit for a log line: at most `longest` bytes of it (cut at a character
/// boundary) followed by "... (N bytes)" when it is longer, control characters escaped as \xNN,
/// so that nobody can forge log lines or flood the log through it.
std::string loggableText(std::string_view text, std::size_t longest = 200);

} // namespace ccm
