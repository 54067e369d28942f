// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/package/package_type.h"

namespace ccm::engine {

/// Manages packages with rpm and dnf on Fedora, RHEL and their derivatives, under the
/// process-wide package lock. Versions are VERSION-RELEASE, prefixed with "EPOCH:" when the
/// epoch is not 0, and compare by epoch and then by the generic algorithm.
class DnfPackageProvider : public PackageProvider {
public:
    explicit DnfPackageProvider(CommandRunner &runner);

    [[nodiscard]] std::string_view name() const override { return "dnf"; }

    /// `rpm -q <package> --queryformat '%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\n'`:
    /// a non-zero exit is absent. When several instances are installed (multilib, kernels) the
    /// highest version is reported. Epoch and release also go into the extended metadata.
    [[nodiscard]] Result<PackageState> status(const std::string &package) override;

    /// `dnf install -y <package>` for "present" and "latest", `dnf install -y <package>-<version>`
    /// for a version.
    [[nodiscard]] Result<void> install(const std::string &package, const std::string &version) override;
    /// Same as install: dnf install moves an installed package up.
    [[nodiscard]] Result<void> upgrade(const std::string &package, const std::string &version) override;
    /// `dnf downgrade -y <package>-<version>`.
    [[nodiscard]] Result<void> downgrade(const std::string &package, const std::string &version) override;
    /// `dnf remove -y <package>`.
    [[nodiscard]] Result<void> uninstall(const std::string &package) override;

    /// Epochs ("E:" prefixes, 0 when missing) numerically, then the rest by compareGenericVersions.
    /// Text before a ':' that is not a number is not an epoch; any input compares.
    [[nodiscard]] Result<int> compareVersions(
        std::string_view a, std::string_view b, bool ignoreTrailingZeroes) const override;

private:
    Result<void> runChecked(std::vector<std::string> argv);

    CommandRunner &m_runner;
};

/// Selects dnf (priority 1) when dnf and rpm are executables in the search path.
class DnfPackageProviderFactory : public ProviderFactory {
public:
    explicit DnfPackageProviderFactory(std::string searchPath = ProcessRunner::kPath);

    [[nodiscard]] std::string_view typeName() const override { return "package"; }
    [[nodiscard]] std::string_view name() const override { return "dnf"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    /// Which of dnf and rpm is missing from the search path.
    [[nodiscard]] std::string unavailableReason() const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;

private:
    std::string m_searchPath;
};

} // namespace ccm::engine
