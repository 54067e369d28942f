// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/package_type.h"

#include "base/text.h"
#include "base/utf8.h"
#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

#include <algorithm>
#include <utility>

namespace ccm::engine {

namespace {

/// The validator's rule for names and versions, with its wording.
Result<void> checkCharacters(const std::string &what, const std::string &text)
{
    if (auto problem = nameCharacterProblem(text))
        return invalidProperty(what + " " + *problem);
    return {};
}

enum class Action { None, InstallLatest, UpgradeLatest, Install, Upgrade, Downgrade, Uninstall };

struct Decision {
    Action action = Action::None;
    std::string noopMessage;
};

Result<bool> isDesiredState(const PackageProvider &provider, const std::string &ensure, const PackageState &state)
{
    if (ensure == kPackageAbsent)
        return !state.installed;
    if (ensure == kPackagePresent || ensure == kPackageLatest)
        return state.installed;
    if (!state.installed)
        return false;
    auto order = provider.compareVersions(state.version, ensure, false);
    if (!order)
        return order.error();
    return *order == 0;
}

Result<Decision> decide(
    PackageProvider &provider, const std::string &name, const std::string &ensure, const PackageState &state)
{
    if (ensure == kPackageLatest) {
        if (!state.installed)
            return Decision {Action::InstallLatest, "Would have installed latest"};
        auto newest = provider.latestVersion(name);
        if (!newest)
            return newest.error();
        if (*newest) {
            auto order = provider.compareVersions(state.version, **newest, false);
            if (!order)
                return order.error();
            if (*order >= 0)
                return Decision {};
        }
        return Decision {Action::UpgradeLatest, "Would have upgraded to latest"};
    }
    auto desired = isDesiredState(provider, ensure, state);
    if (!desired)
        return desired.error();
    if (*desired)
        return Decision {};
    if (ensure == kPackageAbsent)
        return Decision {Action::Uninstall, "Would have uninstalled"};
    if (!state.installed) {
        if (ensure == kPackagePresent)
            return Decision {Action::Install, "Would have installed"};
        return Decision {Action::Install, "Would have installed version " + ensure};
    }
    auto order = provider.compareVersions(state.version, ensure, false);
    if (!order)
        return order.error();
    if (*order < 0)
        return Decision {Action::Upgrade, "Would have upgraded to " + ensure};
    return Decision {Action::Downgrade, "Would have downgraded to " + ensure};
}

Result<void> act(PackageProvider &provider, Action action, const std::string &name, const std::string &ensure)
{
    switch (action) {
    case Action::None:
        return {};
    case Action::InstallLatest:
    case Action::Install:
        return provider.install(name, ensure);
    case Action::UpgradeLatest:
    case Action::Upgrade:
        return provider.upgrade(name, ensure);
    case Action::Downgrade:
        return provider.downgrade(name, ensure);
    case Action::Uninstall:
        return provider.uninstall(name);
    }
    return {};
}

/// What differs after the provider acted, for "desired state not achieved: ...".
std::string difference(const std::string &name, const std::string &ensure, const PackageState &state)
{
    if (ensure == kPackageAbsent)
        return "package " + name + " is still installed (version " + state.version + ")";
    if (!state.installed)
        return "package " + name + " is not installed";
    return "package " + name + " is at version " + state.version + ", not " + ensure;
}

/// The last few non-empty lines of a command's output, on one line.
std::string outputTail(std::string_view text)
{
    constexpr std::size_t kLines = 5;
    constexpr std::size_t kBytes = 512;
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = trimAsciiSpace(text.substr(0, newline));
        if (!line.empty())
            lines.push_back(line);
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    }
    std::string tail;
    for (std::size_t i = lines.size() > kLines ? lines.size() - kLines : 0; i < lines.size(); ++i)
        tail.append(tail.empty() ? "" : " | ").append(lines[i]);
    if (tail.size() > kBytes)
        tail = "..." + tail.substr(tail.size() - kBytes);
    return toValidUtf8(tail);
}

} // namespace

Result<CommandResult> runPackageCommand(CommandRunner &runner, const Command &command)
{
    const std::lock_guard<std::mutex> guard(packageLock());
    return runner.run(command);
}

Error packageCommandFailed(const Command &command, const CommandResult &result)
{
    std::string message = describeCommand(command.argv);
    if (result.timedOut)
        message += " timed out";
    else if (result.signal != 0)
        message += " was killed by signal " + std::to_string(result.signal);
    else
        message += " failed with exit code " + std::to_string(result.exitCode);
    std::string tail = outputTail(result.stderrText);
    if (tail.empty())
        tail = outputTail(result.stdoutText);
    if (!tail.empty())
        message += ": " + tail;
    return Error {"package_command_failed", message};
}

std::vector<std::string> missingPrograms(const std::vector<std::string> &programs, const std::string &searchPath)
{
    std::vector<std::string> missing;
    for (const std::string &program : programs) {
        if (!findExecutable(program, searchPath))
            missing.push_back(program);
    }
    return missing;
}

std::string missingProgramsReason(const std::vector<std::string> &missing, const std::string &searchPath)
{
    if (missing.empty())
        return {};
    std::string names;
    for (std::size_t i = 0; i < missing.size(); ++i)
        names += (i == 0 ? "" : (i + 1 == missing.size() ? " and " : ", ")) + missing[i];
    return names + (missing.size() == 1 ? " is" : " are") + " not in PATH (" + searchPath + ")";
}

Json packageStateToJson(const PackageState &state, std::string_view provider)
{
    Json metadata = Json::object();
    metadata["name"] = state.name;
    metadata["version"] = state.installed ? Json(state.version) : Json(nullptr);
    metadata["arch"] = state.installed && !state.arch.empty() ? Json(state.arch) : Json(nullptr);
    metadata["provider"] = std::string(provider);
    metadata["extended"] = state.extended;
    Json status = Json::object();
    status["ensure"] = state.ensure();
    status["metadata"] = std::move(metadata);
    return status;
}

std::mutex &packageLock()
{
    static std::mutex lock;
    return lock;
}

Result<PackageProperties> PackageProperties::fromJson(const std::string &name, const Json &properties)
{
    if (!properties.is_object())
        return invalidProperty(std::string("package properties must be a map, not ") + properties.type_name());
    if (name.empty())
        return invalidProperty("package name is empty");
    if (auto checked = checkCharacters("package name '" + name + "'", name); !checked)
        return checked.error();
    if (name.front() == '-')
        return invalidProperty("package name '" + name + "' must not start with '-'");

    PackageProperties parsed;
    const auto ensure = properties.find("ensure");
    if (ensure == properties.end() || ensure->is_null())
        return invalidProperty("ensure is required (present, absent, latest or a version)");
    if (!ensure->is_string())
        return invalidProperty(std::string("ensure must be a string, not ") + ensure->type_name());
    parsed.ensure = ensure->get<std::string>();
    if (parsed.ensure.empty())
        return invalidProperty("ensure must be present, absent, latest or a version");
    if (parsed.ensure != kPackagePresent && parsed.ensure != kPackageAbsent && parsed.ensure != kPackageLatest) {
        if (auto checked = checkCharacters("version '" + parsed.ensure + "'", parsed.ensure); !checked)
            return checked.error();
    }
    return parsed;
}

Result<void> PackageType::apply(const std::string &name, const Json &properties, Provider &provider,
    ApplyContext &context, TransactionEvent &event) const
{
    auto *packages = dynamic_cast<PackageProvider *>(&provider);
    if (!packages)
        return wrongProvider(provider, "a package provider");
    auto parsed = PackageProperties::fromJson(name, properties);
    if (!parsed)
        return parsed.error();
    const std::string &ensure = parsed->ensure;

    auto initial = packages->status(name);
    if (!initial)
        return initial.error();
    event.status = packageStateToJson(*initial, packages->name());
    event.finalEnsure = initial->ensure();

    auto decision = decide(*packages, name, ensure, *initial);
    if (!decision)
        return decision.error();
    if (decision->action == Action::None)
        return {};

    if (context.noop) {
        event.changed = true;
        event.noopMessage = decision->noopMessage;
        context.log.log(LogLevel::Debug, decision->noopMessage);
        return {};
    }

    if (auto acted = act(*packages, decision->action, name, ensure); !acted)
        return acted.error();
    auto after = packages->status(name);
    if (!after)
        return after.error();
    event.status = packageStateToJson(*after, packages->name());
    event.finalEnsure = after->ensure();
    event.changed = after->ensure() != initial->ensure();

    auto desired = isDesiredState(*packages, ensure, *after);
    if (!desired)
        return desired.error();
    if (!*desired)
        return desiredStateNotAchieved(difference(name, ensure, *after));
    return {};
}

void registerPackageResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<PackageType>());
    registerAptPackageProvider(catalog);
    registerDnfPackageProvider(catalog);
}

} // namespace ccm::engine
