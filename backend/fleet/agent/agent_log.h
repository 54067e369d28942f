// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <mutex>
#include <ostream>
#include <string>
#include <string_view>

namespace ccm::fleet {

/// The agent's log: one line per message on a stream (stderr), below a level left out. Under
/// journald ($JOURNAL_STREAM set) each line starts with its syslog priority, "<3>" to "<7>", which
/// journald turns into the entry's priority. Thread-safe.
class AgentLog {
public:
    enum class Level { Debug, Info, Warn, Error };

    AgentLog(std::ostream &out, bool journald);

    /// "debug", "info", "warn" or "error" (the configuration's log_level); others read as info.
    void setLevel(std::string_view level);
    bool enabled(Level level) const;
    void write(Level level, std::string_view message);

    void debug(std::string_view message) { write(Level::Debug, message); }
    void info(std::string_view message) { write(Level::Info, message); }
    void warn(std::string_view message) { write(Level::Warn, message); }
    void error(std::string_view message) { write(Level::Error, message); }

private:
    mutable std::mutex m_mutex;
    std::ostream &m_out;
    bool m_journald;
    Level m_level = Level::Info;
};

} // namespace ccm::fleet
