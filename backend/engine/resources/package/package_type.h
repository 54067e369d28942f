// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "engine/resource.h"
#include "engine/util/command_runner.h"

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::engine {

/// The ensure values with a meaning of their own; anything else is a version.
inline constexpr std::string_view kPackagePresent = ensureName(Ensure::Present);
inline constexpr std::string_view kPackageAbsent = ensureName(Ensure::Absent);
inline constexpr std::string_view kPackageLatest = ensureName(Ensure::Latest);

/// What a package provider found on the system about one package.
struct PackageState {
    /// Only a fully installed package counts; half-installed, config-files and the like are absent.
    bool installed = false;
    std::string name;
    /// The installed version as the package manager writes it; empty when absent.
    std::string version;
    std::string arch;
    /// Provider-specific details (dpkg status, rpm epoch and release).
    Json extended = Json::object();

    /// The installed version, or "absent".
    [[nodiscard]] std::string ensure() const { return installed ? version : std::string(kPackageAbsent); }
};

/// The state as it goes into the event: {"ensure": version|"absent", "metadata": {"name",
/// "version", "arch", "provider", "extended"}}, version and arch null when absent.
Json packageStateToJson(const PackageState &state, std::string_view provider);

/// The one lock every package provider of the process holds around the commands it runs, so that
/// two resources never run apt, dpkg, dnf or rpm at the same time and fight over their locks.
std::mutex &packageLock();

/// Runs one package manager command while holding packageLock(). An Error when it cannot start.
Result<CommandResult> runPackageCommand(CommandRunner &runner, const Command &command);

/// The error for a package manager command that ran and failed: the command line, how it ended
/// and the last lines it wrote to stderr (or stdout when stderr is empty).
Error packageCommandFailed(const Command &command, const CommandResult &result);

/// The programs of `programs` that are not executable files in any directory of `searchPath`
/// (colon-separated), for deciding whether a provider can work on this host.
std::vector<std::string> missingPrograms(const std::vector<std::string> &programs, const std::string &searchPath);

/// "apt-get is not in PATH (...)" or "dnf and rpm are not in PATH (...)"; empty when none is missing.
std::string missingProgramsReason(const std::vector<std::string> &missing, const std::string &searchPath);

/// The part of the package type that talks to a package manager. `version` is "present",
/// "latest" or a version string; every method fails with an Error naming the command and what it
/// reported when the package manager fails.
class PackageProvider : public Provider {
public:
    /// The package's state now; absent is a state, not an Error.
    [[nodiscard]] virtual Result<PackageState> status(const std::string &package) = 0;
    /// Installs an absent package at `version`.
    [[nodiscard]] virtual Result<void> install(const std::string &package, const std::string &version) = 0;
    /// Moves an installed package up to `version` ("latest": whatever is newest).
    [[nodiscard]] virtual Result<void> upgrade(const std::string &package, const std::string &version) = 0;
    /// Moves an installed package down to `version`.
    [[nodiscard]] virtual Result<void> downgrade(const std::string &package, const std::string &version) = 0;
    /// Removes the package.
    [[nodiscard]] virtual Result<void> uninstall(const std::string &package) = 0;

    /// The version `ensure: latest` would install now, asked without changing anything, so that a
    /// package already at it is stable (also in noop). nullopt when the package manager cannot tell
    /// cheaply; `latest` then always asks it to upgrade, which it does idempotently.
    [[nodiscard]] virtual Result<std::optional<std::string>> latestVersion(const std::string &package)
    {
        static_cast<void>(package);
        return std::optional<std::string>();
    }

    /// Compares two versions the way this package manager orders them: -1, 0 or 1. An Error
    /// when one of them cannot be a version of this package manager.
    [[nodiscard]] virtual Result<int> compareVersions(
        std::string_view a, std::string_view b, bool ignoreTrailingZeroes) const = 0;
};

/// A package resource's properties, resolved and checked.
struct PackageProperties {
    /// "present", "absent", "latest" or a version.
    std::string ensure;

    /// Reads the resolved properties of package `name`. The name and a version ensure are
    /// checked again with validation's messages (only letters, digits and . _ + : ~ -), because
    /// templates may have produced them; a name may also not start with '-', which a package
    /// manager would read as an option.
    static Result<PackageProperties> fromJson(const std::string &name, const Json &properties);
};

/// Installs, upgrades, downgrades and removes packages. The decision, first match: `latest`
/// installs the newest version when absent and otherwise always asks for an upgrade (the package
/// manager knows whether there is one); a state that is already desired changes nothing; `absent`
/// uninstalls; an absent package is installed (at the version when one is given); an installed
/// version older than the one asked for is upgraded, a newer one downgraded. Versions compare the
/// provider's way. After a change the state is read again: a package that is still not as asked
/// fails with "desired state not achieved"; `latest` only has to be installed. `changed` says
/// whether the installed version differs from before (always true in noop when something would run).
class PackageType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "package"; }

    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// Installed or absent and the version, and whether ensure (present, absent, latest, a
    /// version) is met, versions compared the provider's way.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
