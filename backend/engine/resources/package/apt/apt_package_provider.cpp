// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/apt/apt_package_provider.h"

#include "base/text.h"
#include "engine/resources/package/debian_version.h"
#include "engine/resources/registration.h"

#include <utility>

namespace ccm::engine {

namespace {

const std::vector<std::string> kAptPrograms = {"apt-get", "dpkg-query"};

/// One line of the dpkg-query format: package, version, architecture and status, separated by
/// single spaces; version and architecture may be empty for packages dpkg only knows of.
struct DpkgLine {
    std::string package;
    std::string version;
    std::string arch;
    std::string status;
};

std::optional<DpkgLine> parseDpkgLine(std::string_view line)
{
    const std::size_t first = line.find(' ');
    const std::size_t last = line.rfind(' ');
    if (first == std::string_view::npos || first == last)
        return std::nullopt;
    const std::string_view middle = line.substr(first + 1, last - first - 1);
    const std::size_t split = middle.rfind(' ');
    if (split == std::string_view::npos)
        return std::nullopt;
    return DpkgLine {std::string(line.substr(0, first)), std::string(middle.substr(0, split)),
        std::string(middle.substr(split + 1)), std::string(line.substr(last + 1))};
}

} // namespace

const std::vector<std::string> &AptPackageProvider::environment()
{
    static const std::vector<std::string> entries
        = {"DEBIAN_FRONTEND=noninteractive", "APT_LISTBUGS_FRONTEND=none", "APT_LISTCHANGES_FRONTEND=none"};
    return entries;
}

AptPackageProvider::AptPackageProvider(CommandRunner &runner)
    : m_runner(runner)
{
}

Result<CommandResult> AptPackageProvider::run(std::vector<std::string> argv, Command *ran)
{
    Command command;
    command.argv = std::move(argv);
    command.environment = environment();
    auto result = runPackageCommand(m_runner, command);
    if (ran)
        *ran = std::move(command);
    return result;
}

Result<void> AptPackageProvider::runChecked(std::vector<std::string> argv)
{
    Command command;
    auto result = run(std::move(argv), &command);
    if (!result)
        return result.error();
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut)
        return packageCommandFailed(command, *result);
    return {};
}

Result<PackageState> AptPackageProvider::status(const std::string &package)
{
    Command command;
    auto result = run(
        {"dpkg-query", "-W", "-f=${Package} ${Version} ${Architecture} ${db:Status-Status}\\n", package}, &command);
    if (!result)
        return result.error();
    PackageState state;
    state.name = package;
    if (result->exitCode == 1 && result->signal == 0 && !result->timedOut)
        return state;
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut)
        return packageCommandFailed(command, *result);

    std::optional<DpkgLine> known;
    std::string_view text = result->stdoutText;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = trimAsciiSpace(text.substr(0, newline));
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        auto parsed = parseDpkgLine(line);
        if (!parsed)
            continue;
        if (!known || parsed->status == "installed")
            known = std::move(parsed);
        if (known->status == "installed")
            break;
    }
    if (!known)
        return Error {"status_failed",
            describeCommand(command.argv) + " gave output that is not package, version, architecture and status: '"
                + std::string(trimAsciiSpace(result->stdoutText)) + "'"};
    state.extended["status"] = known->status;
    if (known->status != "installed")
        return state;
    state.installed = true;
    state.name = known->package;
    state.version = known->version;
    state.arch = known->arch;
    return state;
}

Result<std::string> AptPackageProvider::candidateVersion(const std::string &package)
{
    Command command;
    auto result = run({"apt-cache", "policy", package}, &command);
    if (!result)
        return result.error();
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut)
        return packageCommandFailed(command, *result);
    std::string_view text = result->stdoutText;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = trimAsciiSpace(text.substr(0, newline));
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        constexpr std::string_view kCandidate = "Candidate:";
        if (line.substr(0, kCandidate.size()) != kCandidate)
            continue;
        const std::string_view candidate = trimAsciiSpace(line.substr(kCandidate.size()));
        if (candidate.empty() || candidate == "(none)")
            break;
        return std::string(candidate);
    }
    return Error {"no_candidate",
        "no version of package " + package + " is available to install (apt-cache policy " + package
            + " shows no candidate)"};
}

Result<std::optional<std::string>> AptPackageProvider::latestVersion(const std::string &package)
{
    auto candidate = candidateVersion(package);
    if (!candidate)
        return candidate.error();
    return std::optional<std::string>(std::move(candidate).value());
}

Result<void> AptPackageProvider::install(const std::string &package, const std::string &version)
{
    std::vector<std::string> argv = {"apt-get", "install", "-y", "-q", "-o", "DPkg::Options::=--force-confold"};
    if (version == kPackagePresent) {
        argv.push_back(package);
    } else if (version == kPackageLatest) {
        auto candidate = candidateVersion(package);
        if (!candidate)
            return candidate.error();
        argv.push_back(package + "=" + *candidate);
    } else {
        argv.push_back("--allow-downgrades");
        argv.push_back(package + "=" + version);
    }
    return runChecked(std::move(argv));
}

Result<void> AptPackageProvider::upgrade(const std::string &package, const std::string &version)
{
    return install(package, version);
}

Result<void> AptPackageProvider::downgrade(const std::string &package, const std::string &version)
{
    return install(package, version);
}

Result<void> AptPackageProvider::uninstall(const std::string &package)
{
    return runChecked({"apt-get", "-q", "-y", "remove", package});
}

Result<int> AptPackageProvider::compareVersions(std::string_view a, std::string_view b, bool) const
{
    return compareDebianVersions(a, b);
}

AptPackageProviderFactory::AptPackageProviderFactory(std::string searchPath)
    : m_searchPath(std::move(searchPath))
{
}

Result<std::optional<int>> AptPackageProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    if (!missingPrograms(kAptPrograms, m_searchPath).empty())
        return std::optional<int>();
    return std::optional<int>(1);
}

std::string AptPackageProviderFactory::unavailableReason() const
{
    return missingProgramsReason(missingPrograms(kAptPrograms, m_searchPath), m_searchPath);
}

std::unique_ptr<Provider> AptPackageProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<AptPackageProvider>(runner);
}

void registerAptPackageProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<AptPackageProviderFactory>());
}

} // namespace ccm::engine
