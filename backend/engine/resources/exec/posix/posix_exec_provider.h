// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/exec/exec_type.h"

namespace ccm::engine {

/// Runs exec commands without a shell: the command line is split into words the way a shell
/// would split it, and argv[0] is found in the resource's path. Pipes, redirections and
/// variables are passed on literally.
class PosixExecProvider : public ExecProvider {
public:
    explicit PosixExecProvider(CommandRunner &runner);

    [[nodiscard]] std::string_view name() const override { return "posix"; }

    [[nodiscard]] Result<ExecState> status(const ExecProperties &properties) override;
    /// Errors: "no command specified" for a blank command, "invalid command: ..." when its
    /// quoting does not balance, besides the runner's.
    [[nodiscard]] Result<CommandResult> execute(const ExecProperties &properties) override;
    /// Errors: "empty guard command", "invalid guard command: ..." besides the runner's.
    [[nodiscard]] Result<bool> evaluateGuard(const std::string &command, const ExecProperties &properties) override;

private:
    CommandRunner &m_runner;
};

/// The default exec provider: manageable everywhere with priority 1.
class PosixExecProviderFactory : public ProviderFactory {
public:
    [[nodiscard]] std::string_view typeName() const override { return "exec"; }
    [[nodiscard]] std::string_view name() const override { return "posix"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;
};

} // namespace ccm::engine
