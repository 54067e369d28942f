// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "fleet/agent/fleet_status.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

class AgentLog;
class NatsLink;

/// How a run was started.
enum class RunMode { Apply, Health, Remediate };
std::string_view runModeName(RunMode mode);

/// A bundle the agent would not take: too large, not unpacking, failing its checksums or holding an
/// invalid manifest. Runs go on from the last good bundle.
struct BundleRefusal {
    std::string digest; ///< "SHA-256=..." of the refused object or download
    std::string reason;
    std::chrono::system_clock::time_point time;
};

/// {"digest", "reason", "time"}.
Json refusalToJson(const BundleRefusal &refusal);
/// The refusal in `json` as refusalToJson() writes it; none when it is not one.
std::optional<BundleRefusal> refusalFromJson(const Json &json);

/// One finished run of one source, as the .run message and the status value carry it.
struct SourceRunReport {
    std::string identity;
    std::string source; ///< credentials redacted
    std::string run; ///< run id
    RunMode mode = RunMode::Apply;
    std::chrono::system_clock::time_point started;
    std::chrono::milliseconds duration {0};
    std::string manifestDigest; ///< "SHA-256=..." of the bundle or manifest bytes; empty when none was read
    RunSummary summary;
    std::vector<std::string> failedResources; ///< "type#name"
    bool cancelled = false;
    bool aborted = false;
    /// Why the run could not start (no bundle, invalid manifest); empty when it ran.
    std::string error;
    /// The source's newest bundle, when it was refused: the run used the last good one.
    std::optional<BundleRefusal> refused;
};

/// The JSON of ccm.agent.<token>.run.
Json runReportToJson(const SourceRunReport &report);
/// The JSON of ccm.agent.<token>.event for one finished resource.
Json eventMessage(const SourceRunReport &run, const TransactionEvent &event);

/// The latest run of every source, folded into the CCM_STATUS value. Thread-safe.
class StatusBoard {
public:
    /// The board of the agent named `identity`, which a status value carries before any run.
    explicit StatusBoard(std::string identity);
    void record(const SourceRunReport &report);
    /// Sets (or with none, clears) the refused bundle of `source`, shown until it is cleared.
    void recordRefusal(const std::string &source, const std::optional<BundleRefusal> &refusal);
    /// The status value: identity, time of the latest run end, the interval, the version, the sum
    /// of the summaries, the union of failed resources, every source's latest run and the bundles
    /// refused now ("refused_bundles": source, digest, reason, time).
    Json status(std::chrono::seconds interval, const std::string &version) const;

private:
    mutable std::mutex m_mutex;
    std::string m_identity;
    std::chrono::system_clock::time_point m_latestEnd {};
    std::map<std::string, SourceRunReport> m_runs; ///< by source
    std::map<std::string, BundleRefusal> m_refusals; ///< by source
};

/// Reports on their way to NATS, oldest first: each run's .run message and the status value as it
/// stood after that run, kept until NATS has taken them. It outlives the Agent, so a SIGHUP reload
/// drops nothing, and keeps a copy in a file (0600) that the next process sends after a restart.
/// Every status is stored in turn, so a change made during an outage reaches CCM_STATUS even when
/// later runs supersede it. Thread-safe.
class ReportOutbox {
public:
    /// Reports kept at most: beyond it the oldest go (a long outage keeps the newest).
    static constexpr std::size_t kMaxReports = 100;

    /// Keeps the reports in `file` from now on. Reports held are written there; when none are held,
    /// those an earlier process left in it are read.
    void persistTo(const std::filesystem::path &file, AgentLog &log);
    /// Queues the .run message `run` of `identity` (null for a status change alone) and the
    /// status value after it, and sends what is queued.
    void send(const std::string &identity, Json run, Json status, NatsLink &nats, AgentLog &log);
    /// Sends what is queued, oldest first, until NATS refuses one (no connection, a JetStream call
    /// that failed); what is left waits for the next call. Returns at once while another thread
    /// sends.
    void flush(NatsLink &nats, AgentLog &log);
    /// How many reports wait.
    std::size_t size() const;

private:
    struct Report {
        std::uint64_t sequence = 0;
        /// Made once when the report is queued and kept in the file: the status put goes out with
        /// it as Nats-Msg-Id, so a put offered again (its answer lost, or after a restart) is
        /// stored once.
        std::string id;
        std::string identity;
        Json run; ///< null: a status change alone, or the .run message already went out
        Json status;
    };

    /// Sends `report`; its run becomes null once the .run message went out.
    Result<void> deliver(Report &report, NatsLink &nats, AgentLog &log);
    void saveLocked(AgentLog &log);

    mutable std::mutex m_mutex;
    std::mutex m_sending;
    std::deque<Report> m_reports;
    std::uint64_t m_nextSequence = 0;
    std::filesystem::path m_file;
    bool m_statusFailed = false; ///< the last status put failed (warned once, then debug)
    bool m_dropping = false; ///< reports were dropped since the queue was last empty (warned once)
    std::string m_saveError; ///< the last error writing the file (warned once)
};

} // namespace ccm::fleet
