// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

class NatsConnection;

inline constexpr std::string_view kStatusBucket = "CCM_STATUS";

/// The contract's NATS subject token of an identity: every character outside [A-Za-z0-9_-]
/// becomes '_'.
std::string subjectToken(std::string_view identity);
/// The contract's CCM_STATUS key of an identity: every character outside [-/_=.A-Za-z0-9]
/// becomes '_'.
std::string statusKey(std::string_view identity);

/// One host's CCM_STATUS value.
struct HostStatus {
    std::string identity;
    std::chrono::system_clock::time_point time;
    std::int64_t ageSeconds = 0;
    bool stale = false; ///< now - time > 2 * interval_seconds + 60 s
    Json value; ///< the value as the agent wrote it
};

struct FleetStatus {
    std::vector<HostStatus> hosts; ///< sorted by identity
    std::vector<std::string> problems; ///< values that could not be read, one line each
};

/// Parses one CCM_STATUS value at `now`. Error code "bad_status" naming the key and field.
Result<HostStatus> parseHostStatus(
    const std::string &key, std::string_view value, std::chrono::system_clock::time_point now);

/// Reads every value of CCM_STATUS. A missing bucket is an empty fleet (no agent reported yet).
Result<FleetStatus> readFleetStatus(NatsConnection &connection, std::chrono::system_clock::time_point now);

/// A host as fleet.status reports it: identity, time, age_seconds, stale, summary,
/// failed_resources, runs.
Json hostStatusToJson(const HostStatus &host);

} // namespace ccm::fleet
