// SPDX-License-Identifier: Apache-2.0
#include "base/rate_limited_log.h"

#include "base/hex.h"

#include <algorithm>

namespace ccm {

RateLimitedLog::RateLimitedLog(Sink sink, std::chrono::seconds interval, int burst, std::string what)
    : m_sink(std::move(sink))
    , m_interval(interval)
    , m_burst(burst)
    , m_what(std::move(what))
{
}

RateLimitedLog::~RateLimitedLog()
{
    flushAll();
}

void RateLimitedLog::write(
    std::string_view key, std::string_view reason, std::string_view message, Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    flushLocked(now);
    Window &window = m_windows.try_emplace(Key {std::string(key), std::string(reason)}, Window {now}).first->second;
    if (window.written < m_burst) {
        ++window.written;
        std::string line;
        line.reserve(key.size() + 2 + message.size());
        line.append(key).append(": ").append(message);
        m_sink(line);
    } else {
        ++window.suppressed;
    }
}

void RateLimitedLog::flush(Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    flushLocked(now);
}

void RateLimitedLog::flushLocked(Clock::time_point now)
{
    for (auto it = m_windows.begin(); it != m_windows.end();) {
        if (now - it->second.start < m_interval) {
            ++it;
            continue;
        }
        summarize(it->first, it->second, now);
        it = m_windows.erase(it);
    }
}

void RateLimitedLog::flushAll(Clock::time_point now)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &[key, window] : m_windows)
        summarize(key, window, now);
    m_windows.clear();
}

std::optional<RateLimitedLog::Clock::time_point> RateLimitedLog::nextSummary() const
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

void RateLimitedLog::summarize(const Key &key, const Window &window, Clock::time_point now)
{
    if (window.suppressed == 0)
        return;
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now - window.start).count();
    m_sink(key.first + ": " + std::to_string(window.suppressed) + " more " + m_what + " (" + key.second
        + ") in the last " + std::to_string(std::max<long long>(seconds, 1)) + " s");
}

std::string loggableText(std::string_view text, std::size_t longest)
{
    std::string_view shown = text.substr(0, longest);
    // Back to the start of a UTF-8 sequence the cut would split.
    if (shown.size() < text.size()) {
        std::size_t end = shown.size();
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80)
            --end;
        shown = shown.substr(0, end);
    }
    std::string out;
    out.reserve(shown.size() + 32);
    for (const char c : shown) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            out += "\\x";
            appendHexByte(out, static_cast<unsigned char>(c));
        } else {
            out += c;
        }
    }
    if (shown.size() < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

} // namespace ccm
