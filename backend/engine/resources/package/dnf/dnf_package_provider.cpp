// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/dnf/dnf_package_provider.h"

#include "base/text.h"
#include "engine/resources/package/generic_version.h"
#include "engine/resources/package/rpm_query.h"
#include "engine/resources/registration.h"

#include <algorithm>
#include <utility>

namespace ccm::engine {

namespace {

const std::vector<std::string> kDnfPrograms = {"dnf", "rpm"};

} // namespace

DnfPackageProvider::DnfPackageProvider(CommandRunner &runner)
    : m_runner(runner)
{
}

Result<void> DnfPackageProvider::runChecked(std::vector<std::string> argv)
{
    Command command;
    command.argv = std::move(argv);
    auto result = runPackageCommand(m_runner, command);
    if (!result)
        return result.error();
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut)
        return packageCommandFailed(command, *result);
    return {};
}

Result<PackageState> DnfPackageProvider::status(const std::string &package)
{
    Command command;
    command.argv = {"rpm", "-q", package, "--queryformat", std::string(kRpmQueryFormat) + "\\n"};
    auto result = runPackageCommand(m_runner, command);
    if (!result)
        return result.error();
    PackageState absent;
    absent.name = package;
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut)
        return absent;

    std::optional<PackageState> highest;
    std::string_view text = result->stdoutText;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = trimAsciiSpace(text.substr(0, newline));
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        auto parsed = parseRpmQueryLine(line);
        if (!parsed)
            continue;
        if (!highest) {
            highest = std::move(parsed);
            continue;
        }
        auto order = compareVersions(parsed->version, highest->version, false);
        if (order && *order > 0)
            highest = std::move(parsed);
    }
    if (!highest)
        return Error {"status_failed",
            describeCommand(command.argv) + " gave output that is not name, epoch, version, release and arch: '"
                + std::string(trimAsciiSpace(result->stdoutText)) + "'"};
    return *highest;
}

Result<void> DnfPackageProvider::install(const std::string &package, const std::string &version)
{
    if (version == kPackagePresent || version == kPackageLatest)
        return runChecked({"dnf", "install", "-y", package});
    return runChecked({"dnf", "install", "-y", package + "-" + version});
}

Result<void> DnfPackageProvider::upgrade(const std::string &package, const std::string &version)
{
    return install(package, version);
}

Result<void> DnfPackageProvider::downgrade(const std::string &package, const std::string &version)
{
    return runChecked({"dnf", "downgrade", "-y", package + "-" + version});
}

Result<void> DnfPackageProvider::uninstall(const std::string &package)
{
    return runChecked({"dnf", "remove", "-y", package});
}

Result<int> DnfPackageProvider::compareVersions(std::string_view a, std::string_view b, bool ignoreTrailingZeroes) const
{
    const EpochVersion left = splitEpoch(a);
    const EpochVersion right = splitEpoch(b);
    if (left.epoch.size() != right.epoch.size())
        return left.epoch.size() < right.epoch.size() ? -1 : 1;
    if (const int order = left.epoch.compare(right.epoch); order != 0)
        return order < 0 ? -1 : 1;
    return compareGenericVersions(left.rest, right.rest, ignoreTrailingZeroes);
}

DnfPackageProviderFactory::DnfPackageProviderFactory(std::string searchPath)
    : m_searchPath(std::move(searchPath))
{
}

Result<std::optional<int>> DnfPackageProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    if (!missingPrograms(kDnfPrograms, m_searchPath).empty())
        return std::optional<int>();
    return std::optional<int>(1);
}

std::string DnfPackageProviderFactory::unavailableReason() const
{
    return missingProgramsReason(missingPrograms(kDnfPrograms, m_searchPath), m_searchPath);
}

std::unique_ptr<Provider> DnfPackageProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<DnfPackageProvider>(runner);
}

void registerDnfPackageProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<DnfPackageProviderFactory>());
}

} // namespace ccm::engine
