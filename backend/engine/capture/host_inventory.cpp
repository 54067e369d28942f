// SPDX-License-Identifier: Apache-2.0
#include "engine/capture/host_inventory.h"

#include "base/text.h"
#include "base/user_database.h"
#include "base/utf8.h"
#include "engine/resources/package/package_type.h"
#include "engine/resources/package/rpm_query.h"
#include "engine/resources/service/service_type.h"
#include "engine/resources/service/systemd/systemd_service_provider.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>
#include <utility>

namespace ccm::engine {

namespace {

using namespace std::chrono_literals;

constexpr std::size_t kInventoryOutputLimit = 64 * 1024 * 1024;

/// The lines of a command's output, without their line ends; empty lines are dropped.
std::vector<std::string_view> inventoryLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        const std::string_view line = text.substr(0, newline);
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        if (!trimAsciiSpace(line).empty())
            lines.push_back(line);
    }
    return lines;
}

/// The fields of a line separated by `separator`.
std::vector<std::string_view> inventorySplit(std::string_view line, char separator)
{
    std::vector<std::string_view> fields;
    for (;;) {
        const std::size_t at = line.find(separator);
        fields.push_back(line.substr(0, at));
        if (at == std::string_view::npos)
            return fields;
        line.remove_prefix(at + 1);
    }
}

/// The whitespace-separated words of a line, at most `count`; the last one takes the rest of the
/// line (a description with spaces), trimmed.
std::vector<std::string_view> inventoryColumns(std::string_view line, std::size_t count)
{
    std::vector<std::string_view> columns;
    line = trimAsciiSpace(line);
    while (!line.empty() && columns.size() + 1 < count) {
        std::size_t end = 0;
        while (end < line.size() && !isAsciiSpace(line[end]))
            ++end;
        columns.push_back(line.substr(0, end));
        line = trimAsciiSpace(line.substr(end));
    }
    if (!line.empty())
        columns.push_back(line);
    return columns;
}

/// A query of the inventory: its output, or an Error when it could not run or did not end well.
Result<CommandResult> runInventoryQuery(CommandRunner &runner, std::vector<std::string> argv)
{
    Command command;
    command.argv = std::move(argv);
    command.timeout = 120s;
    command.outputLimit = kInventoryOutputLimit;
    auto result = runPackageCommand(runner, command);
    if (!result && result.error().code == "command_not_found")
        return result;
    if (!result)
        return Error {"command", "cannot run " + describeCommand(command.argv) + ": " + result.error().message};
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut) {
        const Error failed = packageCommandFailed(command, *result);
        return Error {"command", failed.message};
    }
    if (result->stdoutTruncated)
        return Error {"command",
            describeCommand(command.argv) + " printed more than " + std::to_string(kInventoryOutputLimit) + " bytes"};
    return result;
}

/// One line of kDpkgFormat: a package dpkg has fully installed, or nullopt for any other line.
std::optional<InstalledPackage> parseDpkgInventoryLine(std::string_view line)
{
    const std::vector<std::string_view> fields = inventorySplit(line, '\t');
    if (fields.size() < 5 || fields[0].empty() || fields[1].empty())
        return std::nullopt;
    // "want eflag status": held packages ("hold ok installed") and packages selected for removal
    // are installed all the same; half-installed, unpacked or config-files packages are not.
    const std::vector<std::string_view> status = inventoryColumns(fields[3], 3);
    if (status.size() != 3 || status[1] != "ok" || status[2] != "installed")
        return std::nullopt;
    InstalledPackage package;
    package.name = std::string(fields[0]);
    package.version = std::string(fields[1]);
    package.arch = std::string(fields[2]);
    package.summary = toValidUtf8(trimAsciiSpace(fields[4]));
    return package;
}

std::vector<InstalledPackage> parseDpkgInventory(std::string_view text)
{
    std::vector<InstalledPackage> packages;
    for (std::string_view line : inventoryLines(text))
        if (auto package = parseDpkgInventoryLine(line))
            packages.push_back(std::move(*package));
    return packages;
}

std::vector<InstalledPackage> parseRpmInventory(std::string_view text)
{
    std::vector<InstalledPackage> packages;
    for (std::string_view line : inventoryLines(text)) {
        const std::size_t tab = line.find('\t');
        auto state = parseRpmQueryLine(trimAsciiSpace(line.substr(0, tab)));
        // The keys rpm imported show as gpg-pubkey packages without an architecture.
        if (!state || state->name == "gpg-pubkey")
            continue;
        InstalledPackage package;
        package.name = std::move(state->name);
        package.version = std::move(state->version);
        package.arch = std::move(state->arch);
        if (tab != std::string_view::npos)
            package.summary = toValidUtf8(trimAsciiSpace(line.substr(tab + 1)));
        packages.push_back(std::move(package));
    }
    return packages;
}

} // namespace

Result<std::vector<InstalledPackage>> listInstalledPackages(CommandRunner &runner)
{
    std::vector<InstalledPackage> packages;
    auto dpkg = runInventoryQuery(runner,
        {"dpkg-query", "-W", "-f=${binary:Package}\\t${Version}\\t${Architecture}\\t${Status}\\t${binary:Summary}\\n"});
    if (dpkg) {
        packages = parseDpkgInventory(dpkg->stdoutText);
    } else if (dpkg.error().code != "command_not_found") {
        return dpkg.error();
    } else {
        auto rpm = runInventoryQuery(runner, {"rpm", "-qa", "--qf", std::string(kRpmQueryFormat) + "\\t%{SUMMARY}\\n"});
        if (!rpm && rpm.error().code == "command_not_found")
            return Error {"no_package_manager",
                "neither dpkg-query nor rpm is installed on this host, so its packages cannot be listed"};
        if (!rpm)
            return rpm.error();
        packages = parseRpmInventory(rpm->stdoutText);
    }
    std::sort(packages.begin(), packages.end(), [](const InstalledPackage &a, const InstalledPackage &b) {
        return std::tie(a.name, a.arch, a.version) < std::tie(b.name, b.arch, b.version);
    });
    return packages;
}

namespace {

constexpr std::string_view kServiceSuffix = ".service";

/// What the two listings say about one unit.
struct InventoryUnitRow {
    std::string fileState; ///< list-unit-files' STATE, empty when it does not list the unit
    std::string loadState; ///< list-units' LOAD, empty when it does not list the unit
    std::string activeState;
    std::string description;
};

/// Whether systemctl said that systemd does not run here (in a container, a chroot, at build time).
bool systemdAbsentOutput(const CommandResult &result)
{
    for (const std::string *text : {&result.stdoutText, &result.stderrText})
        if (text->find("System has not been booted with systemd") != std::string::npos
            || text->find("Failed to connect to bus") != std::string::npos)
            return true;
    return false;
}

Result<CommandResult> runSystemctl(CommandRunner &runner, std::vector<std::string> argv, bool checked)
{
    Command command;
    command.argv = std::move(argv);
    command.timeout = 120s;
    command.outputLimit = kInventoryOutputLimit;
    Result<CommandResult> result = [&] {
        const std::lock_guard<std::mutex> lock(serviceGlobalLock());
        return runner.run(command);
    }();
    if (!result && result.error().code == "command_not_found")
        return Error {"no_service_manager",
            "systemctl is not installed on this host, so its services cannot be listed (" + result.error().message
                + ")"};
    if (!result)
        return Error {"command", "cannot run " + describeCommand(command.argv) + ": " + result.error().message};
    if (result->exitCode != 0 && systemdAbsentOutput(*result))
        return Error {"no_service_manager",
            "systemd is not running on this host, so its services cannot be listed (systemctl says: "
                + toValidUtf8(trimAsciiSpace(result->stderrText.empty() ? result->stdoutText : result->stderrText))
                + ")"};
    if (!checked)
        return result;
    if (result->exitCode != 0 || result->signal != 0 || result->timedOut || result->stdoutTruncated) {
        const Error failed = packageCommandFailed(command, *result);
        return Error {
            "command", result->stdoutTruncated ? failed.message + " (its output was too long)" : failed.message};
    }
    return result;
}

/// The unit name without ".service", or empty when the word is not a service unit.
std::string serviceName(std::string_view unit)
{
    if (unit.size() <= kServiceSuffix.size() || !unit.ends_with(kServiceSuffix))
        return {};
    return std::string(unit.substr(0, unit.size() - kServiceSuffix.size()));
}

/// list-unit-files: "UNIT STATE [PRESET]".
void addUnitFiles(std::map<std::string, InventoryUnitRow> &rows, std::string_view text)
{
    for (std::string_view line : inventoryLines(text)) {
        const std::vector<std::string_view> columns = inventoryColumns(line, 3);
        if (columns.size() < 2)
            continue;
        const std::string name = serviceName(columns[0]);
        if (!name.empty())
            rows[name].fileState = std::string(columns[1]);
    }
}

/// list-units: "UNIT LOAD ACTIVE SUB DESCRIPTION", a failed unit perhaps marked with a leading "●".
void addUnits(std::map<std::string, InventoryUnitRow> &rows, std::string_view text)
{
    for (std::string_view line : inventoryLines(text)) {
        line = trimAsciiSpace(line);
        for (std::string_view marker : {"\u25CF", "*"})
            if (line.starts_with(marker))
                line = trimAsciiSpace(line.substr(marker.size()));
        const std::vector<std::string_view> columns = inventoryColumns(line, 5);
        if (columns.size() < 4)
            continue;
        const std::string name = serviceName(columns[0]);
        if (name.empty())
            continue;
        InventoryUnitRow &row = rows[name];
        row.loadState = std::string(columns[1]);
        row.activeState = std::string(columns[2]);
        if (columns.size() == 5)
            row.description = toValidUtf8(columns[4]);
    }
}

/// Why a service resource cannot express the unit, or empty when it can.
std::string uncapturableReason(
    const ServiceUnit &unit, const std::optional<bool> &running, const std::optional<bool> &atBoot)
{
    const std::string &state = unit.enabledState;
    if (unit.name.ends_with('@'))
        return "a template unit: a service resource manages its instances (" + unit.name + "NAME), not the template";
    if (state == "static")
        return "static: the unit has no [Install] section, so it cannot be enabled or disabled; it runs when another "
               "unit needs it";
    if (state == "masked" || state == "masked-runtime")
        return "masked: systemd refuses to start it until it is unmasked";
    if (state == "generated")
        return "generated at boot by a systemd generator from other configuration (/etc/fstab, an init script); "
               "manage that configuration instead";
    if (state == "transient")
        return "transient: created at run time (systemd-run) and gone once it stops";
    if (state == "alias")
        return "an alias of another unit: capture the unit it names";
    if (state == "bad")
        return "its unit file is invalid (systemctl says bad)";
    if (state.empty())
        return "systemd reports no unit file state for it";
    if (unit.name.find('@') != std::string::npos)
        return "an instance of the template " + unit.name.substr(0, unit.name.find('@') + 1)
            + ": service resource names may not contain '@' (in this project's schema and upstream's)";
    if (!atBoot)
        return "systemd reports the unit file state '" + state + "', which a service resource does not handle";
    if (!running)
        return "systemd reports the active state '" + unit.activeState + "', which a service resource does not handle";
    return {};
}

ServiceUnit describeUnit(const std::string &name, const InventoryUnitRow &row)
{
    ServiceUnit unit;
    unit.name = name;
    unit.activeState = row.activeState.empty() ? "inactive" : row.activeState;
    unit.enabledState = row.fileState;
    unit.description = row.description;
    const std::optional<bool> running = systemdActiveRunning(unit.activeState);
    const std::optional<bool> atBoot = systemdEnabledAtBoot(unit.enabledState);
    unit.running = running.value_or(false);
    unit.enabled = atBoot.value_or(false);
    unit.reason = uncapturableReason(unit, running, atBoot);
    unit.capturable = unit.reason.empty();
    return unit;
}

} // namespace

Result<std::vector<ServiceUnit>> listServices(CommandRunner &runner)
{
    const std::vector<std::string> options = {"--system", "--no-legend", "--plain", "--no-pager"};
    std::vector<std::string> filesArgv = {"systemctl", "list-unit-files", "--type=service"};
    std::vector<std::string> unitsArgv = {"systemctl", "list-units", "--type=service", "--all"};
    filesArgv.insert(filesArgv.end(), options.begin(), options.end());
    unitsArgv.insert(unitsArgv.end(), options.begin(), options.end());

    // list-units first: it is the one that needs a running systemd (list-unit-files reads the
    // unit files and answers without it).
    auto units = runSystemctl(runner, unitsArgv, true);
    if (!units)
        return units.error();
    auto files = runSystemctl(runner, filesArgv, true);
    if (!files)
        return files.error();

    std::map<std::string, InventoryUnitRow> rows;
    addUnitFiles(rows, files->stdoutText);
    addUnits(rows, units->stdoutText);
    std::vector<ServiceUnit> services;
    for (auto &[name, row] : rows) {
        // A unit some other unit names but that has no unit file is not installed.
        if (row.fileState.empty() && (row.loadState.empty() || row.loadState == "not-found"))
            continue;
        if (row.fileState.empty()) {
            // Instances of templates ("getty@tty1") are loaded without a unit file of their own.
            auto enabled = runSystemctl(
                runner, {"systemctl", "is-enabled", "--system", name + std::string(kServiceSuffix)}, false);
            if (!enabled)
                return enabled.error();
            row.fileState = std::string(trimAsciiSpace(enabled->stdoutText));
        }
        services.push_back(describeUnit(name, row));
    }
    return services;
}

std::string_view entryKindName(EntryKind kind)
{
    switch (kind) {
    case EntryKind::File:
        return "file";
    case EntryKind::Directory:
        return "directory";
    case EntryKind::Symlink:
        return "symlink";
    case EntryKind::Socket:
        return "socket";
    case EntryKind::Device:
        return "device";
    case EntryKind::Fifo:
        return "fifo";
    case EntryKind::Other:
        break;
    }
    return "other";
}

namespace {

EntryKind entryKindOf(mode_t mode)
{
    if (S_ISREG(mode))
        return EntryKind::File;
    if (S_ISDIR(mode))
        return EntryKind::Directory;
    if (S_ISLNK(mode))
        return EntryKind::Symlink;
    if (S_ISSOCK(mode))
        return EntryKind::Socket;
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return EntryKind::Device;
    if (S_ISFIFO(mode))
        return EntryKind::Fifo;
    return EntryKind::Other;
}

/// An entry as read inside the reader's identity; names are resolved afterwards.
struct ListedEntry {
    DirectoryEntry entry;
    uid_t uid = 0;
    gid_t gid = 0;
};

/// Whether `user` may list the directory at `path`: read it for its names and search it to reach
/// them ("." inside it is reachable only with search permission).
bool readerMayList(const UserIdentity &user, const std::filesystem::path &path)
{
    return userMayRead(user, path) && userMayRead(user, path / ".");
}

/// Whether the entry `name` of the open directory may be read (a directory: listed): for a reader
/// by the permission bits, as diffs are judged; for this process as the kernel decides.
bool entryReadable(const std::optional<UserIdentity> &reader, int directoryFd, const std::filesystem::path &path,
    const std::string &name, EntryKind kind)
{
    if (kind == EntryKind::Symlink)
        return true;
    if (reader)
        return kind == EntryKind::Directory ? readerMayList(*reader, path / name) : userMayRead(*reader, path / name);
    const int mode = kind == EntryKind::Directory ? R_OK | X_OK : R_OK;
    return ::faccessat(directoryFd, name.c_str(), mode, AT_EACCESS) == 0;
}

Error directoryError(const std::filesystem::path &path, int error, const std::optional<UserIdentity> &reader)
{
    const std::string who = reader ? " as user " + reader->name : std::string();
    switch (error) {
    case ENOENT:
        return Error {"not_found", "cannot list " + path.string() + ": no such directory"};
    case ENOTDIR:
        return Error {"not_directory", "cannot list " + path.string() + ": it is not a directory"};
    case EACCES:
    case EPERM:
        return Error {"permission", "cannot list " + path.string() + who + ": permission denied"};
    default:
        return systemError("cannot list " + path.string() + who, error);
    }
}

/// Reads the directory's entries with lstat (inside the reader's file system identity when the
/// caller took it).
Result<std::vector<ListedEntry>> readEntries(
    const std::filesystem::path &path, const std::optional<UserIdentity> &reader)
{
    DIR *directory = ::opendir(path.c_str());
    if (!directory)
        return directoryError(path, errno, reader);
    const int fd = ::dirfd(directory);
    std::vector<ListedEntry> listed;
    errno = 0;
    while (const dirent *found = ::readdir(directory)) {
        const std::string name = found->d_name;
        if (name == "." || name == "..")
            continue;
        struct stat info { };
        if (::fstatat(fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0)
            continue; // removed since it was read, or not reachable: not listed
        ListedEntry item;
        item.entry.name = name;
        item.entry.kind = entryKindOf(info.st_mode);
        item.entry.mode = static_cast<std::uint32_t>(info.st_mode & 07777);
        item.entry.size = static_cast<std::uint64_t>(info.st_size);
        item.uid = info.st_uid;
        item.gid = info.st_gid;
        if (item.entry.kind == EntryKind::Symlink) {
            std::string target(static_cast<std::size_t>(std::max<off_t>(info.st_size, 0)) + 1, '\0');
            const ssize_t length = ::readlinkat(fd, name.c_str(), target.data(), target.size());
            target.resize(length < 0 ? 0 : static_cast<std::size_t>(length));
            item.entry.linkTarget = std::move(target);
        } else {
            item.entry.privateToOwner = (info.st_mode & (S_IRGRP | S_IROTH)) == 0;
        }
        item.entry.readable = entryReadable(reader, fd, path, name, item.entry.kind);
        listed.push_back(std::move(item));
        errno = 0;
    }
    const int readError = errno;
    ::closedir(directory);
    if (readError != 0)
        return directoryError(path, readError, reader);
    return listed;
}

/// The user's name, or the uid in decimal; the same for groups.
std::string ownerName(uid_t uid, std::map<uid_t, std::string> &cache)
{
    if (auto known = cache.find(uid); known != cache.end())
        return known->second;
    auto found = findUser(uid);
    std::string name = found && *found ? (*found)->name : std::to_string(uid);
    cache.emplace(uid, name);
    return name;
}

std::string groupName(gid_t gid, std::map<gid_t, std::string> &cache)
{
    if (auto known = cache.find(gid); known != cache.end())
        return known->second;
    auto found = findGroup(gid);
    std::string name = found && *found ? (*found)->name : std::to_string(gid);
    cache.emplace(gid, name);
    return name;
}

} // namespace

Result<DirectoryListing> listDirectory(
    const std::filesystem::path &directory, const std::optional<UserIdentity> &reader, std::size_t maxEntries)
{
    Result<std::vector<ListedEntry>> listed = std::vector<ListedEntry>();
    if (reader && ::geteuid() == 0) {
        const ThreadFileIdentity identity(*reader);
        if (!identity.active())
            return Error {"permission",
                "cannot list " + directory.string() + " as user " + reader->name + ": cannot take the user's identity"};
        listed = readEntries(directory, reader);
    } else {
        if (reader && !readerMayList(*reader, directory))
            return directoryError(directory, EACCES, reader);
        listed = readEntries(directory, reader);
    }
    if (!listed)
        return listed.error();

    std::vector<ListedEntry> &entries = listed.value();
    std::sort(entries.begin(), entries.end(),
        [](const ListedEntry &a, const ListedEntry &b) { return a.entry.name < b.entry.name; });
    DirectoryListing listing;
    listing.path = directory;
    listing.truncated = entries.size() > maxEntries;
    if (listing.truncated)
        entries.resize(maxEntries);
    std::map<uid_t, std::string> users;
    std::map<gid_t, std::string> groups;
    for (ListedEntry &item : entries) {
        item.entry.owner = ownerName(item.uid, users);
        item.entry.group = groupName(item.gid, groups);
        listing.entries.push_back(std::move(item.entry));
    }
    return listing;
}

} // namespace ccm::engine
