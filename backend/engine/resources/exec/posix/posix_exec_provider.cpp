// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/exec/posix/posix_exec_provider.h"

#include "base/shell_words.h"
#include "engine/resources/exec/creates_status.h"
#include "engine/resources/registration.h"

namespace ccm::engine {

PosixExecProvider::PosixExecProvider(CommandRunner &runner)
    : m_runner(runner)
{
}

Result<ExecState> PosixExecProvider::status(const ExecProperties &properties)
{
    return createsStatus(properties);
}

Result<CommandResult> PosixExecProvider::execute(const ExecProperties &properties)
{
    auto words = splitShellWords(properties.command);
    if (!words)
        return Error {"invalid_command", "invalid command: " + words.error().message};
    if (words->empty())
        return Error {"invalid_command", "no command specified"};
    return m_runner.run(execCommand(std::move(words).value(), properties));
}

Result<bool> PosixExecProvider::evaluateGuard(const std::string &command, const ExecProperties &properties)
{
    auto words = splitShellWords(command);
    if (!words)
        return Error {"invalid_command", "invalid guard command: " + words.error().message};
    if (words->empty())
        return Error {"invalid_command", "empty guard command"};
    Command guard = execCommand(std::move(words).value(), properties);
    return guardVerdict(m_runner.run(guard), properties);
}

Result<std::optional<int>> PosixExecProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    return std::optional<int>(1);
}

std::unique_ptr<Provider> PosixExecProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<PosixExecProvider>(runner);
}

void registerPosixExecProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<PosixExecProviderFactory>());
}

} // namespace ccm::engine
