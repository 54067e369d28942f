// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

/// The key-value bucket that holds one record per rollout, keyed by its id.
inline constexpr std::string_view kRolloutsBucket = "CCM_ROLLOUTS";

/// Where a rollout stands as a whole.
enum class RolloutState {
    Running, ///< a process is taking it through its rings (its heartbeat says whether it lives)
    Paused, ///< stopped between rings on request; `rollout resume` goes on
    Passed, ///< every ring passed its gate
    Failed, ///< a gate closed and the rings were left as they were (--no-rollback), or restoring failed
    RolledBack, ///< a gate closed (or an abort came) and every changed ring is back on its previous release
};

/// Where one ring stands.
enum class RingState {
    Pending, ///< not reached yet
    Publishing, ///< the release is being published to the ring's object: it holds it or the previous one
    Waiting, ///< published; waiting for the ring's agents to report it
    Settling, ///< every agent reported; the gate holds for the settle time
    Passed, ///< the gate passed
    Failed, ///< the gate closed
    RollingBack, ///< the previous release is being put back and waited for
    Restored, ///< the previous release is back and its agents reported it
    RestoreFailed, ///< putting the previous release back failed, or its agents did not report it
};

std::string_view rolloutStateName(RolloutState state);
std::string_view ringStateName(RingState state);

struct RingRecord {
    std::string name; ///< the object the ring's agents watch
    RingState state = RingState::Pending;
    /// The ring's release before the rollout changed it (its object's digest then); empty when
    /// the object did not exist, in which case restoring it removes the object.
    std::string previous;
    std::optional<std::chrono::system_clock::time_point> published;
    Json hosts = Json::object(); ///< RingWatch::hostsToJson() of the latest wait
    std::string verdict; ///< GateVerdict::summary of its gate, or of its restore
};

/// One rollout, as it lives in CCM_ROLLOUTS: everything `rollout resume` needs to go on from any
/// point, written before each step it describes, so that a process killed anywhere leaves every
/// ring on a release the record names.
struct RolloutRecord {
    std::string id;
    std::string bucket;
    std::string digest; ///< the release rolled out (the object store's SHA-256= form)
    std::uint64_t size = 0;
    std::string signer; ///< the signing key's fingerprint
    std::string message;
    std::string owner; ///< user@host of whoever started it
    std::string maxFailed = "0"; ///< FailureBudget::text()
    std::chrono::seconds ringTimeout {600};
    std::chrono::seconds settle {0};
    bool rollback = true;
    RolloutState state = RolloutState::Running;
    std::string request; ///< "", "pause" or "abort": asked of the process running it
    std::chrono::system_clock::time_point created;
    std::chrono::system_clock::time_point updated; ///< the running process's heartbeat
    std::vector<RingRecord> rings;
    std::string report; ///< why it failed, rolled back or paused, in one paragraph
    std::uint64_t revision = 0; ///< of the key-value entry it was read from (not stored)

    /// The ring being worked on, or rings.size() when none is left.
    [[nodiscard]] std::size_t currentRing() const;
    /// True when no process has written the record for longer than `silence`.
    [[nodiscard]] bool abandoned(std::chrono::system_clock::time_point now, std::chrono::seconds silence) const;
};

Json rolloutToJson(const RolloutRecord &record);
/// Reads a record strictly: every field of the right kind, states known, sizes bounded. Error
/// code "bad_rollout" naming the field.
Result<RolloutRecord> parseRollout(std::string_view text);

/// A new rollout id: 12 random characters from [a-z0-9], a valid key-value key.
std::string newRolloutId();
/// Whether `id` could be one (a key a caller may pass on the command line).
bool isRolloutId(std::string_view id);

} // namespace ccm::fleet
