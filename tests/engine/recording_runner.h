// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/util/command_runner.h"

#include <mutex>
#include <string>
#include <vector>

namespace ccm {

/// A CommandRunner for tests: answers with recorded outcomes and remembers what it was asked.
class RecordingRunner : public CommandRunner {
public:
    /// Queues an outcome for a command with exactly this argv. Commands with the same argv get
    /// their outcomes in the order they were queued; other commands may come in between.
    void expect(std::vector<std::string> argv, Result<CommandResult> outcome);

    /// The first queued outcome for command.argv, or an "unexpected_command" Error naming the
    /// command and what was still expected.
    Result<CommandResult> run(const Command &command) override;

    /// Every command received so far, unexpected ones included, in order.
    [[nodiscard]] std::vector<Command> commands() const;

    /// The argv of every outcome not consumed yet, in the order queued.
    [[nodiscard]] std::vector<std::vector<std::string>> pending() const;

    /// A result whose stdout (and stderr, when stderrPath is given) is the content of a file of
    /// captured tool output; an Error when a file cannot be read.
    static Result<CommandResult> fromFile(
        const std::string &stdoutPath, int exitCode = 0, const std::string &stderrPath = {});

private:
    struct Expectation {
        std::vector<std::string> argv;
        Result<CommandResult> outcome;
    };

    mutable std::mutex m_mutex;
    std::vector<Expectation> m_expectations;
    std::vector<Command> m_commands;
};

} // namespace ccm
