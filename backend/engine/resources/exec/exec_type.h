// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "engine/resource.h"
#include "engine/util/command_runner.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::engine {

/// An exec resource's properties, resolved and checked. An empty string means the property is
/// not set, as it does in CCM.
struct ExecProperties {
    /// The command line: the `command` property, or the resource's name when it has none.
    std::string command;
    /// Where the command and its guards run; empty keeps the backend's directory.
    std::string cwd;
    /// KEY=VALUE entries added to the runner's environment.
    std::vector<std::string> environment;
    /// Colon-separated absolute directories that become PATH, also for finding the program.
    std::string path;
    /// The exit codes that count as success.
    std::vector<int> returns {0};
    /// How long the command and each guard may run; zero is no limit.
    std::chrono::milliseconds timeout {0};
    /// The timeout as written, for messages.
    std::string timeoutText;
    /// When this path exists the command does not run (unless a subscription triggers it).
    std::string creates;
    std::string onlyIf;
    std::string unless;
    bool refreshOnly = false;
    bool logOutput = false;

    /// Reads the resolved properties of resource `name`. Values that came out of templates are
    /// checked again with validation's messages: the command's quoting, environment entries,
    /// absolute path entries, the timeout, exit codes. A relative cwd or creates is taken from
    /// `workingDirectory`, the manifest's directory.
    static Result<ExecProperties> fromJson(
        const std::string &name, const Json &properties, const std::filesystem::path &workingDirectory);
};

/// What an exec provider found on the system and how the command and its guards ended.
struct ExecState {
    /// `creates` is set and exists.
    bool createsSatisfied = false;
    /// The command's exit code when it ran in this apply (-1 when a signal ended it).
    std::optional<int> exitCode;
    /// Whether the guard exited 0; nullopt when it was not run.
    std::optional<bool> onlyIfSatisfied;
    std::optional<bool> unlessSatisfied;
};

/// The state as it goes into the event: {"ensure": "present", "exit_code", "creates_satisfied",
/// "onlyif_satisfied", "unless_satisfied"}, null for what is not known.
Json execStateToJson(const ExecState &state);

/// The part of exec that runs processes; posix and shell differ in how a command line becomes argv.
class ExecProvider : public Provider {
public:
    /// Whether `creates` exists; lstat, so a dangling symbolic link counts. An Error when that
    /// cannot be told (a directory on the way is unreadable).
    [[nodiscard]] virtual Result<ExecState> status(const ExecProperties &properties) = 0;

    /// Runs the command with the properties' cwd, environment, path and timeout, as the runner's
    /// user (the backend's own: a command runs only in a real apply). An Error when it cannot be started; how it ended
    /// (exit code, signal, timeout, output) is the result.
    [[nodiscard]] virtual Result<CommandResult> execute(const ExecProperties &properties) = 0;

    /// Runs a guard command like the command (as the runner's identity, the preview user in a
    /// preview): true when it exits 0, false for any other exit or a signal. An Error when it
    /// cannot be started or times out, because then nothing is known about the condition.
    [[nodiscard]] virtual Result<bool> evaluateGuard(const std::string &command, const ExecProperties &properties) = 0;
};

/// The process a provider runs for argv: the properties' cwd, environment and timeout, and PATH
/// from `path` after the environment, so that the dedicated property wins over a PATH= entry.
Command execCommand(std::vector<std::string> argv, const ExecProperties &properties);

/// A guard's verdict from what the runner answered (see ExecProvider::evaluateGuard).
Result<bool> guardVerdict(Result<CommandResult> outcome, const ExecProperties &properties);

/// Runs commands with idempotency controls. The decision, first match: a subscribe refresh runs
/// the command; an existing `creates` is stable (guards are not run); `onlyif` exiting non-zero
/// or `unless` exiting 0 is stable; refreshonly without a refresh is stable; otherwise the
/// command runs. Guards run in noop too. After a run the exit code must be one of `returns`
/// unless `creates` now exists.
class ExecType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "exec"; }
    [[nodiscard]] std::string defaultEnsure() const override { return ensureText(Ensure::Present); }

    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// Whether `creates` exists, when it is given; without it the state of a command cannot be
    /// told without running it (or its guards), and the state says so.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
