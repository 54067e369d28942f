// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/package/package_type.h"

namespace ccm::engine {

/// Manages packages with dpkg-query and apt-get on Debian and its derivatives. Every command runs
/// with DEBIAN_FRONTEND=noninteractive, APT_LISTBUGS_FRONTEND=none and APT_LISTCHANGES_FRONTEND=none
/// and under the process-wide package lock. Versions compare by the Debian policy.
class AptPackageProvider : public PackageProvider {
public:
    /// The environment entries of every command.
    static const std::vector<std::string> &environment();

    explicit AptPackageProvider(CommandRunner &runner);

    [[nodiscard]] std::string_view name() const override { return "apt"; }

    /// `dpkg-query -W -f='${Package} ${Version} ${Architecture} ${db:Status-Status}\n' <package>`:
    /// installed only when the dpkg status is "installed" (config-files, half-installed, unpacked
    /// and the rest are absent, so that an install repairs them); exit code 1 (no such package)
    /// is absent, any other failure an Error.
    [[nodiscard]] Result<PackageState> status(const std::string &package) override;

    /// `apt-get install -y -q -o DPkg::Options::=--force-confold` with `<package>` for "present",
    /// `<package>=<candidate>` for "latest" (the candidate from apt-cache policy) and
    /// `--allow-downgrades <package>=<version>` for a version.
    [[nodiscard]] Result<void> install(const std::string &package, const std::string &version) override;
    /// Same as install: apt-get install moves to the version asked for.
    [[nodiscard]] Result<void> upgrade(const std::string &package, const std::string &version) override;
    /// The candidate of `apt-cache policy`.
    [[nodiscard]] Result<std::optional<std::string>> latestVersion(const std::string &package) override;
    /// Same as install, whose --allow-downgrades permits going back.
    [[nodiscard]] Result<void> downgrade(const std::string &package, const std::string &version) override;
    /// `apt-get -q -y remove <package>`: configuration files stay.
    [[nodiscard]] Result<void> uninstall(const std::string &package) override;

    [[nodiscard]] Result<int> compareVersions(
        std::string_view a, std::string_view b, bool ignoreTrailingZeroes) const override;

    /// The Candidate: line of `apt-cache policy <package>`; an Error when there is none
    /// ("(none)" or no output: no archive offers the package).
    [[nodiscard]] Result<std::string> candidateVersion(const std::string &package);

private:
    Result<CommandResult> run(std::vector<std::string> argv, Command *ran = nullptr);
    Result<void> runChecked(std::vector<std::string> argv);

    CommandRunner &m_runner;
};

/// Selects apt (priority 1) when apt-get and dpkg-query are executables in the search path.
class AptPackageProviderFactory : public ProviderFactory {
public:
    explicit AptPackageProviderFactory(std::string searchPath = ProcessRunner::kPath);

    [[nodiscard]] std::string_view typeName() const override { return "package"; }
    [[nodiscard]] std::string_view name() const override { return "apt"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    /// Which of apt-get and dpkg-query is missing from the search path.
    [[nodiscard]] std::string unavailableReason() const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;

private:
    std::string m_searchPath;
};

} // namespace ccm::engine
