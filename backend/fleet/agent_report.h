// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "fleet_status.h"
#include "json.h"
#include "transaction_event.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

/// How a run was started.
enum class RunMode { Apply, Health, Remediate };
std::string_view runModeName(RunMode mode);

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
};

/// The JSON of ccm.agent.<token>.run.
Json runReportToJson(const SourceRunReport &report);
/// The JSON of ccm.agent.<token>.event for one finished resource.
Json eventMessage(const SourceRunReport &run, const TransactionEvent &event);

/// The latest run of every source, folded into the CCM_STATUS value. Thread-safe.
class StatusBoard {
public:
    void record(const SourceRunReport &report);
    /// The status value: identity, time of the latest run end, the interval, the version, the sum
    /// of the summaries, the union of failed resources and every source's latest run.
    Json status(std::chrono::seconds interval, const std::string &version) const;

private:
    mutable std::mutex m_mutex;
    std::string m_identity;
    std::chrono::system_clock::time_point m_latestEnd {};
    std::map<std::string, SourceRunReport> m_runs; ///< by source
};

} // namespace ccm::fleet
