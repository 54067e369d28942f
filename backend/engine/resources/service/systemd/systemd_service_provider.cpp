// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/service/systemd/systemd_service_provider.h"

#include "base/text.h"
#include "base/utf8.h"
#include "engine/resources/registration.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <system_error>
#include <utility>

namespace ccm::engine {

namespace {

constexpr std::string_view kSystemctl = "systemctl";
constexpr std::string_view kBootedMarker = "run/systemd/system";

/// What a command wrote to stderr on one line, for messages: lines joined with " | ", the end
/// kept when it is long.
std::string stderrLine(std::string_view text)
{
    constexpr std::size_t kBytes = 512;
    std::string line;
    for (std::string_view rest = trimAsciiSpace(text); !rest.empty();) {
        const std::size_t newline = rest.find('\n');
        const std::string_view part = trimAsciiSpace(rest.substr(0, newline));
        if (!part.empty())
            line.append(line.empty() ? "" : " | ").append(part);
        rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
    }
    if (line.size() > kBytes)
        line = "..." + line.substr(line.size() - kBytes);
    return toValidUtf8(line);
}

/// The failure of a process that did not end by itself, or empty when it exited.
std::string abnormalEnd(const CommandResult &result)
{
    if (result.timedOut)
        return "timed out";
    if (result.signal != 0)
        return "was killed by signal " + std::to_string(result.signal);
    return {};
}

std::vector<std::string> systemctl(const std::string &verb, const std::string &service)
{
    return {std::string(kSystemctl), verb, "--system", service};
}

} // namespace

std::optional<bool> systemdActiveRunning(std::string_view word)
{
    if (word == "active" || word == "reloading")
        return true;
    if (word == "inactive" || word == "failed" || word == "activating" || word == "deactivating")
        return false;
    return std::nullopt;
}

std::optional<bool> systemdEnabledAtBoot(std::string_view word)
{
    static constexpr std::array<std::string_view, 7> kEnabled
        = {"enabled", "enabled-runtime", "alias", "static", "indirect", "generated", "transient"};
    static constexpr std::array<std::string_view, 5> kDisabled
        = {"linked", "linked-runtime", "masked", "masked-runtime", "disabled"};
    for (std::string_view enabled : kEnabled)
        if (word == enabled)
            return true;
    for (std::string_view disabled : kDisabled)
        if (word == disabled)
            return false;
    return std::nullopt;
}

SystemdServiceProvider::SystemdServiceProvider(CommandRunner &runner)
    : m_runner(runner)
{
}

Result<CommandResult> SystemdServiceProvider::query(const std::string &verb, const std::string &service)
{
    Command command;
    command.argv = systemctl(verb, service);
    Result<CommandResult> outcome = [&] {
        const std::lock_guard<std::mutex> lock(serviceGlobalLock());
        return m_runner.run(command);
    }();
    if (!outcome)
        return outcome.error().withContext("cannot run " + describeCommand(command.argv));
    if (const std::string end = abnormalEnd(*outcome); !end.empty())
        return Error {"command_failed", describeCommand(command.argv) + " " + end};
    return outcome;
}

Result<ServiceState> SystemdServiceProvider::status(const std::string &service)
{
    // Both answers come from stdout whatever the exit code: systemctl exits non-zero for most
    // states. When stdout has no word of the tables, stderr usually says why.
    const auto invalid = [&](const std::string &verb, const std::string &word, const CommandResult &result) {
        std::string message
            = "invalid systemctl " + verb + " output for service " + service + ": '" + toValidUtf8(word) + "'";
        if (const std::string detail = stderrLine(result.stderrText); !detail.empty())
            message += " (" + detail + ")";
        return Error {"invalid_output", message};
    };

    auto active = query("is-active", service);
    if (!active)
        return active.error();
    ServiceState state;
    state.activeState = std::string(trimAsciiSpace(active->stdoutText));
    const std::optional<bool> running = systemdActiveRunning(state.activeState);
    if (!running)
        return invalid("is-active", state.activeState, *active);
    state.running = *running;

    auto enabled = query("is-enabled", service);
    if (!enabled)
        return enabled.error();
    state.enabledState = std::string(trimAsciiSpace(enabled->stdoutText));
    if (state.enabledState == "not-found")
        return Error {"service_not_found", "service " + service + " not found"};
    if (state.enabledState == "bad")
        return Error {
            "invalid_unit", "the unit file of service " + service + " is invalid (systemctl is-enabled says bad)"};
    const std::optional<bool> atBoot = systemdEnabledAtBoot(state.enabledState);
    if (!atBoot)
        return invalid("is-enabled", state.enabledState, *enabled);
    state.enabled = *atBoot;
    return state;
}

Result<void> SystemdServiceProvider::runChecked(const std::vector<std::string> &argv)
{
    Command command;
    command.argv = argv;
    auto outcome = m_runner.run(command);
    if (!outcome)
        return outcome.error().withContext("cannot run " + describeCommand(argv));
    if (const std::string end = abnormalEnd(*outcome); !end.empty())
        return Error {"command_failed", describeCommand(argv) + " " + end};
    if (outcome->exitCode != 0) {
        std::string message = describeCommand(argv) + " failed with exit code " + std::to_string(outcome->exitCode);
        if (const std::string detail = stderrLine(outcome->stderrText); !detail.empty())
            message += ": " + detail;
        return Error {"command_failed", message};
    }
    return {};
}

Result<void> SystemdServiceProvider::change(const std::string &verb, const std::string &service)
{
    const std::lock_guard<std::mutex> lock(serviceGlobalLock());
    if (!m_reloaded) {
        if (auto reloaded = runChecked({std::string(kSystemctl), "daemon-reload"}); !reloaded)
            return reloaded;
        m_reloaded = true;
    }
    return runChecked(systemctl(verb, service));
}

Result<void> SystemdServiceProvider::start(const std::string &service)
{
    return change("start", service);
}

Result<void> SystemdServiceProvider::stop(const std::string &service)
{
    return change("stop", service);
}

Result<void> SystemdServiceProvider::restart(const std::string &service)
{
    return change("restart", service);
}

Result<void> SystemdServiceProvider::enable(const std::string &service)
{
    return change("enable", service);
}

Result<void> SystemdServiceProvider::disable(const std::string &service)
{
    return change("disable", service);
}

SystemdServiceProviderFactory::SystemdServiceProviderFactory(std::filesystem::path root)
    : m_root(std::move(root))
{
}

std::string SystemdServiceProviderFactory::unavailableReason() const
{
    const std::string_view path = ProcessRunner::kPath;
    const bool found = findExecutable(std::string(kSystemctl), path, m_root).has_value();
    const std::filesystem::path marker = m_root / kBootedMarker;
    std::error_code error;
    const bool booted = std::filesystem::is_directory(marker, error);

    const std::string notFound = "systemctl is not in PATH (" + std::string(path) + ")";
    const std::string notRunning = "systemd is not running on this host (" + marker.string() + " does not exist)";
    if (!found && !booted)
        return notFound + " and " + notRunning;
    if (!found)
        return notFound;
    if (!booted)
        return notRunning;
    return {};
}

Result<std::optional<int>> SystemdServiceProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    if (!unavailableReason().empty())
        return std::optional<int>();
    return std::optional<int>(1);
}

std::unique_ptr<Provider> SystemdServiceProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<SystemdServiceProvider>(runner);
}

void registerSystemdServiceProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<SystemdServiceProviderFactory>());
}

} // namespace ccm::engine
