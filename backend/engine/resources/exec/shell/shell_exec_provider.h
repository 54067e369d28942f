// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/exec/exec_type.h"

#include <string>

namespace ccm::engine {

/// The shell that runs commands unless a test names another.
inline constexpr const char *kDefaultShell = "/bin/sh";

/// Runs exec commands as `/bin/sh -c "<command>"`, so pipes, redirections, variables and globs
/// work, and so does shell injection through templated values.
class ShellExecProvider : public ExecProvider {
public:
    explicit ShellExecProvider(CommandRunner &runner, std::string shell = kDefaultShell);

    [[nodiscard]] std::string_view name() const override { return "shell"; }

    [[nodiscard]] Result<ExecState> status(const ExecProperties &properties) override;
    /// Error "no command to execute" for a blank command.
    [[nodiscard]] Result<CommandResult> execute(const ExecProperties &properties) override;
    /// Error "empty guard command" for a blank guard; its quoting is the shell's business.
    [[nodiscard]] Result<bool> evaluateGuard(const std::string &command, const ExecProperties &properties) override;

private:
    CommandRunner &m_runner;
    std::string m_shell;
};

/// Never chosen on its own: manageable (priority 99) only for a resource that asks for it with
/// `provider: shell`, and only when the shell exists.
class ShellExecProviderFactory : public ProviderFactory {
public:
    explicit ShellExecProviderFactory(std::string shell = kDefaultShell);

    [[nodiscard]] std::string_view typeName() const override { return "exec"; }
    [[nodiscard]] std::string_view name() const override { return "shell"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    /// "/bin/sh does not exist" when it does not.
    [[nodiscard]] std::string unavailableReason() const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;

private:
    [[nodiscard]] bool shellExists() const;

    std::string m_shell;
};

} // namespace ccm::engine
