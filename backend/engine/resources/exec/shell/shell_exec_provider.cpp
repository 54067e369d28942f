// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/exec/shell/shell_exec_provider.h"

#include "base/text.h"
#include "engine/resources/exec/creates_status.h"
#include "engine/resources/registration.h"

#include <sys/stat.h>
#include <utility>

namespace ccm::engine {

ShellExecProvider::ShellExecProvider(CommandRunner &runner, std::string shell)
    : m_runner(runner)
    , m_shell(std::move(shell))
{
}

Result<ExecState> ShellExecProvider::status(const ExecProperties &properties)
{
    return createsStatus(properties);
}

Result<CommandResult> ShellExecProvider::execute(const ExecProperties &properties)
{
    if (trimAsciiSpace(properties.command).empty())
        return Error {"invalid_command", "no command to execute"};
    return m_runner.run(execCommand({m_shell, "-c", properties.command}, properties));
}

Result<bool> ShellExecProvider::evaluateGuard(const std::string &command, const ExecProperties &properties)
{
    if (trimAsciiSpace(command).empty())
        return Error {"invalid_command", "empty guard command"};
    Command guard = execCommand({m_shell, "-c", command}, properties);
    return guardVerdict(m_runner.run(guard), properties);
}

ShellExecProviderFactory::ShellExecProviderFactory(std::string shell)
    : m_shell(std::move(shell))
{
}

bool ShellExecProviderFactory::shellExists() const
{
    struct stat info { };
    return ::stat(m_shell.c_str(), &info) == 0;
}

Result<std::optional<int>> ShellExecProviderFactory::manageable(const Json &properties, const LazyFacts &) const
{
    const auto requested = properties.find("provider");
    const bool asked = requested != properties.end() && requested->is_string() && *requested == "shell";
    if (!asked || !shellExists())
        return std::optional<int>();
    return std::optional<int>(99);
}

std::string ShellExecProviderFactory::unavailableReason() const
{
    return shellExists() ? std::string() : m_shell + " does not exist";
}

std::unique_ptr<Provider> ShellExecProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<ShellExecProvider>(runner, m_shell);
}

void registerShellExecProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<ShellExecProviderFactory>());
}

} // namespace ccm::engine
