// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::fleet {

struct FleetStatus;

/// --max-failed: how many of a ring's hosts may fail before its gate closes, as a count ("2") or
/// a share of the ring's hosts ("10%", rounded down).
struct FailureBudget {
    std::size_t count = 0;
    std::optional<double> percent;

    /// "0", "3", "25%", "2.5%"; error code "usage" saying what is wrong.
    static Result<FailureBudget> parse(std::string_view text);
    /// How many of `hosts` may fail.
    [[nodiscard]] std::size_t allowed(std::size_t hosts) const;
    /// As parse() reads it back.
    [[nodiscard]] std::string text() const;
};

/// Where one host of a ring stands on the release being rolled out (or restored).
enum class RingHostState {
    Waiting, ///< it has not reported a run of the release yet
    Applied, ///< it ran the release without a failed resource or a CRITICAL health check
    Failed, ///< it ran the release and a resource failed or a health check was CRITICAL, or it refused it
    Silent, ///< it never reported the release before the ring's time limit
};

std::string_view ringHostStateName(RingHostState state);
std::optional<RingHostState> parseRingHostState(std::string_view name);

struct RingHost {
    RingHostState state = RingHostState::Waiting;
    std::string reason; ///< why it failed or stayed silent; empty otherwise
};

/// A ring's gate after its wait: the counts and whether they are within the budget.
struct GateVerdict {
    bool passed = false;
    std::size_t hosts = 0;
    std::size_t applied = 0;
    std::size_t failed = 0; ///< failed and silent hosts together
    std::size_t silent = 0;
    std::size_t waiting = 0; ///< not reported yet: the gate cannot pass while any is
    std::size_t allowed = 0;
    std::string summary; ///< one line: "3 hosts: 2 applied, 1 failed (1 silent); at most 0 may fail"
};

/// A `.run` message as published on ccm.agent.<identity>.run, read for RingWatch::observeRun():
/// nullopt unless it is a JSON object of at most 1 MiB nested at most 64 levels deep (anyone may
/// publish there, and values nested deeper are copied and freed by recursion).
std::optional<Json> parseRunMessage(std::string_view text);

/// Follows the hosts that watch one object (a ring) while a release reaches them, from their
/// CCM_STATUS records and their `.run` messages, both as agents write them (docs/agent.md). A
/// host belongs to the ring when one of its sources is the ring's `obj://` URL; one whose status
/// is stale is not waited for. Everything read is checked: a record or message of the wrong shape
/// changes nothing.
class RingWatch {
public:
    /// `source`: the ring's obj://BUCKET/NAME URL; `digest`: the release it waits for.
    RingWatch(std::string source, std::string digest);

    /// Adds the live hosts whose status lists a run of the source, and reads where they stand.
    void observeStatus(const FleetStatus &status);
    /// Reads one `.run` message (or status run entry) of any host; runs of other sources go by.
    /// A host that reports the source and is not followed yet is followed from now on.
    void observeRun(const Json &run);
    /// Every host that is still Waiting becomes Silent with `reason`.
    void closeWaiting(const std::string &reason);

    [[nodiscard]] bool allReported() const;
    [[nodiscard]] GateVerdict verdict(const FailureBudget &budget) const;
    [[nodiscard]] const std::map<std::string, RingHost> &hosts() const { return m_hosts; }
    [[nodiscard]] const std::string &source() const { return m_source; }
    [[nodiscard]] const std::string &digest() const { return m_digest; }

    /// The hosts as JSON, {"IDENTITY": {"state", "reason"}}, and back (for the rollout record).
    [[nodiscard]] Json hostsToJson() const;
    void restoreHosts(const Json &hosts);

private:
    void judge(const std::string &identity, const Json &run);

    std::string m_source;
    std::string m_digest;
    std::map<std::string, RingHost> m_hosts;
};

} // namespace ccm::fleet
