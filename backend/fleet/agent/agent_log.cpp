// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_log.h"

namespace ccm::fleet {
namespace {

std::string_view levelName(AgentLog::Level level)
{
    switch (level) {
    case AgentLog::Level::Debug:
        return "debug";
    case AgentLog::Level::Info:
        return "info";
    case AgentLog::Level::Warn:
        return "warn";
    case AgentLog::Level::Error:
        return "error";
    }
    return "info";
}

/// syslog priorities: err 3, warning 4, info 6, debug 7.
std::string_view priority(AgentLog::Level level)
{
    switch (level) {
    case AgentLog::Level::Debug:
        return "<7>";
    case AgentLog::Level::Info:
        return "<6>";
    case AgentLog::Level::Warn:
        return "<4>";
    case AgentLog::Level::Error:
        return "<3>";
    }
    return "<6>";
}

} // namespace

AgentLog::AgentLog(std::ostream &out, bool journald)
    : m_out(out)
    , m_journald(journald)
{
}

void AgentLog::setLevel(std::string_view level)
{
    const std::lock_guard lock(m_mutex);
    if (level == "debug")
        m_level = Level::Debug;
    else if (level == "warn")
        m_level = Level::Warn;
    else if (level == "error")
        m_level = Level::Error;
    else
        m_level = Level::Info;
}

bool AgentLog::enabled(Level level) const
{
    const std::lock_guard lock(m_mutex);
    return level >= m_level;
}

void AgentLog::write(Level level, std::string_view message)
{
    const std::lock_guard lock(m_mutex);
    if (level < m_level)
        return;
    std::string line;
    if (m_journald)
        line += priority(level);
    else
        line += std::string(levelName(level)) + ": ";
    // One entry per line: embedded newlines would split it into several.
    for (const char c : message)
        line += (c == '\n' || c == '\r') ? ' ' : c;
    line += '\n';
    m_out << line << std::flush;
}

} // namespace ccm::fleet
