// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "engine/run.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccm::cli {

inline constexpr std::string_view kSessionStartProtocol = "io.choria.ccm.v1.session.start";

/// One event of a session as the store reads it back: a session start, or what is needed of a
/// resource's transaction event for requirements and the summary.
struct SessionRecord {
    std::string eventId;
    std::chrono::system_clock::time_point timestamp;
    bool start = false;
    std::string type;
    std::string name;
    std::string alias;
    std::chrono::nanoseconds duration {0};
    bool changed = false;
    bool refreshed = false;
    bool failed = false;
    bool skipped = false;
    bool noop = false;
    std::size_t unmetRequirements = 0;
    /// The health checks' statuses.
    std::vector<HealthCheckResult::Status> checks;
};

/// A session's events in the order they happened (by timestamp, then event id), and the files
/// that could not be read as events.
struct SessionContents {
    std::vector<SessionRecord> events;
    /// "FILE: why", one per event file skipped.
    std::vector<std::string> problems;
};

/// The latest outcome of `reference` ("type#name", or "type#alias") in the session: its last event
/// whose type matches and whose name or alias is the reference's name, as upstream's
/// IsResourceFailed and ShouldRefresh read it. nullopt when it has none.
std::optional<engine::PriorOutcome> latestOutcome(const SessionContents &contents, const std::string &reference);

/// A session's figures, as upstream's BuildSessionSummary counts them.
struct SessionSummary {
    std::chrono::nanoseconds runTime {0};
    std::size_t total = 0;
    std::size_t unique = 0;
    std::size_t stable = 0;
    std::size_t changed = 0;
    std::size_t failed = 0;
    std::size_t skipped = 0;
    std::size_t refreshed = 0;
    std::size_t unmetRequirements = 0;
    std::size_t errors = 0;
};
SessionSummary summarizeSession(const SessionContents &contents);

/// The summary as `session report` prints it, in upstream's layout.
std::string sessionSummaryText(const SessionSummary &summary);

/// A duration rounded to the millisecond as Go prints one ("0s", "15ms", "1.5s", "2m3.004s").
std::string goDuration(std::chrono::nanoseconds duration);

/// A session store: a directory holding one `<ksuid>.event` JSON file per event, upstream's
/// format, so that a directory is shared with upstream's ccm. Reads take a shared and writes an
/// exclusive flock on `.ccm-session.lock` in it; each event is written to a temporary file and
/// renamed into place, so that concurrent writers never lose or tear one and readers never see
/// half an event.
class SessionStore {
public:
    /// The store at an existing directory (made absolute).
    static Result<SessionStore> open(const std::filesystem::path &directory);
    /// Makes the directory (refusing one that exists, as upstream does; mode 0700) and records a
    /// session start event in it.
    static Result<SessionStore> create(const std::filesystem::path &directory);
    /// The store at an existing (empty) directory, with a session start event recorded in it.
    static Result<SessionStore> start(const std::filesystem::path &directory);

    [[nodiscard]] const std::filesystem::path &directory() const { return m_directory; }

    /// Whether events can be recorded here (the lock file can be opened for writing), so that a
    /// caller can refuse before it changes anything.
    Result<void> checkWritable() const;
    /// Writes the event as upstream writes a transaction event (health check statuses as numbers).
    Result<void> record(const TransactionEvent &event) const;
    /// Every event, in order.
    Result<SessionContents> read() const;

private:
    explicit SessionStore(std::filesystem::path directory)
        : m_directory(std::move(directory))
    {
    }
    Result<void> write(const std::string &eventId, const Json &json) const;

    std::filesystem::path m_directory;
};

/// The JSON of a transaction event as upstream's ccm writes and reads it in a session.
Json sessionEventJson(const TransactionEvent &event);

} // namespace ccm::cli
