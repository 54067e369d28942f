// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "engine/util/command_runner.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>

namespace ccm::engine {

/// What health checks run with.
struct HealthCheckEnvironment {
    /// Runs the checks; its identity() is the user they run as (a preview user in a preview).
    CommandRunner &runner;
    /// The goss binary; empty looks for `goss` in the fixed PATH of every command.
    std::filesystem::path gossBinary;
    /// Where goss rules are written for goss to read; empty uses the system's temporary directory.
    std::filesystem::path scratchDirectory;
    /// Checked between attempts: a cancelled run does not wait out try_sleep.
    const std::atomic<bool> *cancel = nullptr;
};

/// A check that runs longer than this without its own timeout is stopped.
inline constexpr std::chrono::seconds kDefaultHealthCheckTimeout {60};

/// Runs one health check (ENGINE-SPEC §2) of a resource: a Nagios-style command (split like a shell
/// would, run without one; exit 0 OK, 1 WARNING, 2 CRITICAL, anything else UNKNOWN) or goss rules,
/// up to `tries` times until it is OK, `try_sleep` apart. An Error means the check itself is broken
/// (no command, bad quoting, bad duration); a command that cannot be started or a missing goss
/// binary is an UNKNOWN result whose output says why.
Result<HealthCheckResult> runHealthCheck(const Json &check, const HealthCheckEnvironment &environment);

/// The name a check is reported by: its `name`, else its command, else "goss".
std::string healthCheckLabel(const Json &check);

} // namespace ccm::engine
