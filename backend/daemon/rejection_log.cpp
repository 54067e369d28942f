// SPDX-License-Identifier: Apache-2.0
#include "rejection_log.h"

#include <spdlog/spdlog.h>

namespace ccm::daemon {

RejectionLog::RejectionLog(std::chrono::seconds interval, int burst, Sink sink)
    : m_interval(interval)
    , m_burst(burst)
    , m_sink(std::move(sink))
{
    if (!m_sink)
        m_sink = [](const std::string &line) { spdlog::info("{}", line); };
}

void RejectionLog::reject(uid_t uid, std::string_view reason, std::string_view message, Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    Key key {uid, std::string(reason)};
    auto found = m_windows.find(key);
    if (found != m_windows.end() && now - found->second.start >= m_interval) {
        summarize(found->first, found->second, now);
        m_windows.erase(found);
        found = m_windows.end();
    }
    if (found == m_windows.end())
        found = m_windows.emplace(std::move(key), Window {now}).first;
    Window &window = found->second;
    if (window.written < m_burst) {
        ++window.written;
        m_sink("uid " + std::to_string(uid) + ": " + std::string(message));
    } else {
        ++window.suppressed;
    }
}

void RejectionLog::flush(Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    for (auto it = m_windows.begin(); it != m_windows.end();) {
        if (now - it->second.start < m_interval) {
            ++it;
            continue;
        }
        summarize(it->first, it->second, now);
        it = m_windows.erase(it);
    }
}

void RejectionLog::flushAll(Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &[key, window] : m_windows)
        summarize(key, window, now);
    m_windows.clear();
}

std::optional<RejectionLog::Clock::time_point> RejectionLog::nextSummary() const
{
    const std::lock_guard lock(m_mutex);
    std::optional<Clock::time_point> next;
    for (const auto &[key, window] : m_windows) {
        const Clock::time_point end = window.start + m_interval;
        if (window.suppressed > 0 && (!next || end < *next))
            next = end;
    }
    return next;
}

void RejectionLog::summarize(const Key &key, const Window &window, Clock::time_point now)
{
    if (window.suppressed == 0)
        return;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - window.start).count();
    m_sink("uid " + std::to_string(key.first) + ": " + std::to_string(window.suppressed) + " more rejected ("
        + key.second + ") in the last " + std::to_string(std::max<long long>(seconds, 1)) + " s");
}

} // namespace ccm::daemon
