// SPDX-License-Identifier: Apache-2.0
#include "recording_runner.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <system_error>

namespace ccm {

namespace {

Result<std::string> readWholeFile(const std::string &path)
{
    std::FILE *file = std::fopen(path.c_str(), "rb");
    if (!file)
        return Error {"io", "cannot read tool output " + path + ": " + std::generic_category().message(errno)};
    std::string content;
    std::array<char, 65536> buffer {};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), file)) > 0)
        content.append(buffer.data(), n);
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed)
        return Error {"io", "cannot read tool output " + path + ": read error"};
    return content;
}

} // namespace

void RecordingRunner::expect(std::vector<std::string> argv, Result<CommandResult> outcome)
{
    const std::lock_guard lock(m_mutex);
    m_expectations.push_back(Expectation {std::move(argv), std::move(outcome)});
}

Result<CommandResult> RecordingRunner::run(const Command &command)
{
    const std::lock_guard lock(m_mutex);
    m_commands.push_back(command);
    const auto match = std::find_if(
        m_expectations.begin(), m_expectations.end(), [&](const Expectation &e) { return e.argv == command.argv; });
    if (match != m_expectations.end()) {
        Result<CommandResult> outcome = std::move(match->outcome);
        m_expectations.erase(match);
        return outcome;
    }
    std::string expected;
    for (const Expectation &e : m_expectations)
        expected += (expected.empty() ? "" : ", ") + describeCommand(e.argv);
    return Error {"unexpected_command",
        "unexpected command: " + describeCommand(command.argv)
            + (expected.empty() ? "; no more commands were expected" : "; still expected: " + expected)};
}

std::vector<Command> RecordingRunner::commands() const
{
    const std::lock_guard lock(m_mutex);
    return m_commands;
}

std::vector<std::vector<std::string>> RecordingRunner::pending() const
{
    const std::lock_guard lock(m_mutex);
    std::vector<std::vector<std::string>> argvs;
    for (const Expectation &e : m_expectations)
        argvs.push_back(e.argv);
    return argvs;
}

Result<CommandResult> RecordingRunner::fromFile(
    const std::string &stdoutPath, int exitCode, const std::string &stderrPath)
{
    CommandResult result;
    result.exitCode = exitCode;
    auto out = readWholeFile(stdoutPath);
    if (!out)
        return out.error();
    result.stdoutText = std::move(out).value();
    if (!stderrPath.empty()) {
        auto err = readWholeFile(stderrPath);
        if (!err)
            return err.error();
        result.stderrText = std::move(err).value();
    }
    return result;
}

} // namespace ccm
