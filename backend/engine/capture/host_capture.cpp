// SPDX-License-Identifier: Apache-2.0
#include "engine/capture/host_capture.h"

#include "base/temp_dir.h"
#include "base/unique_fd.h"
#include "base/user_database.h"
#include "base/utf8.h"
#include "core/bundle/bundle.h"
#include "engine/capture/host_inventory.h"
#include "engine/util/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm::engine {
namespace {

/// Deeper directories than this are an error: each level holds a descriptor open while the walk
/// is below it.
constexpr std::size_t kCaptureMaxDepth = 100;

/// What the walk of the file arguments shares.
struct CaptureWalk {
    const CaptureRequest &request;
    CapturedManifest &capture;
    /// The host's short name for --data, empty when it is not replaced.
    std::string shortHost;
    std::size_t entries = 0;
    std::size_t bytes = 0;
    bool hostnameUsed = false;
    std::set<std::string, std::less<>> seen;
    std::map<uid_t, std::string> users;
    std::map<gid_t, std::string> groups;
};

std::string captureTimestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string captureHostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0')
        return "localhost";
    return toValidUtf8(name);
}

std::string captureOwnerName(uid_t uid, std::map<uid_t, std::string> &cache)
{
    if (const auto found = cache.find(uid); found != cache.end())
        return found->second;
    auto user = findUser(uid);
    std::string name = user && *user ? (*user)->name : std::to_string(uid);
    cache.emplace(uid, name);
    return name;
}

std::string captureGroupName(gid_t gid, std::map<gid_t, std::string> &cache)
{
    if (const auto found = cache.find(gid); found != cache.end())
        return found->second;
    auto group = findGroup(gid);
    std::string name = group && *group ? (*group)->name : std::to_string(gid);
    cache.emplace(gid, name);
    return name;
}

std::string captureModeText(mode_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

/// The skip kind of what is not a regular file or directory, with why; empty for those two.
std::pair<std::string, std::string> captureKindOf(mode_t mode)
{
    if (S_ISLNK(mode))
        return {"symlink", "a symbolic link cannot be a file resource; capture what it points to with --file"};
    if (S_ISSOCK(mode))
        return {"socket", "a socket is made by the program that listens on it, not by a file resource"};
    if (S_ISFIFO(mode))
        return {"fifo", "a named pipe cannot be a file resource"};
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return {"device", "a device node cannot be a file resource"};
    if (!S_ISREG(mode) && !S_ISDIR(mode))
        return {"unsupported", "a file of this kind cannot be a file resource"};
    return {};
}

/// Control characters other than tab and line ends, and the line breaks of YAML 1.1 readers (NEL,
/// LS, PS), which other readers of the manifest would read differently.
bool captureHasAwkwardCharacters(std::string_view text)
{
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7f)
            return true;
    }
    return text.find("\u0085") != std::string_view::npos || text.find("\u2028") != std::string_view::npos
        || text.find("\u2029") != std::string_view::npos;
}

/// Why the text cannot be written inline, or nullopt when it can.
std::optional<std::string> captureInlineProblem(std::string_view text, std::size_t maxInline)
{
    if (text.size() > maxInline)
        return "content in a source file: larger than the " + std::to_string(maxInline) + " bytes written inline";
    if (invalidUtf8Offset(text) != std::string_view::npos || captureHasAwkwardCharacters(text))
        return std::string("content in a source file: not plain UTF-8 text");
    if (text.find("{{") != std::string_view::npos || text.find("${") != std::string_view::npos)
        return std::string("content in a source file: it holds {{ or ${, which would be expanded as a template");
    return std::nullopt;
}

bool captureAsciiIEquals(std::string_view text, std::size_t at, std::string_view word)
{
    if (at + word.size() > text.size())
        return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i])
            return false;
    }
    return true;
}

/// What makes the text look like it holds a secret, or nullopt.
std::optional<std::string> captureSecretLook(std::string_view text)
{
    if (text.find("PRIVATE KEY") != std::string_view::npos)
        return std::string("a private key");
    for (std::string_view word : {"password", "passwd", "secret", "token", "api_key"}) {
        for (std::size_t at = 0; at < text.size(); ++at) {
            if (!captureAsciiIEquals(text, at, word))
                continue;
            std::size_t after = at + word.size();
            while (after < text.size()
                && (text[after] == ' ' || text[after] == '\t' || text[after] == '"' || text[after] == '\''))
                ++after;
            if (after < text.size() && (text[after] == '=' || text[after] == ':'))
                return "\"" + std::string(word) + "\" followed by a value";
        }
    }
    for (std::size_t at = text.find("AKIA"); at != std::string_view::npos; at = text.find("AKIA", at + 1)) {
        const std::string_view rest = text.substr(at + 4, 16);
        if (rest.size() == 16 && std::all_of(rest.begin(), rest.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
            }))
            return std::string("an AWS access key id");
    }
    return std::nullopt;
}

bool captureHostNameCharacter(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

/// The text with every whole-word occurrence of `host` replaced by its lookup; `replaced` tells
/// whether there was any.
std::string captureReplaceHost(std::string_view text, const std::string &host, bool &replaced)
{
    std::string out;
    std::size_t from = 0;
    for (std::size_t at = text.find(host); at != std::string_view::npos; at = text.find(host, at + 1)) {
        const bool startsWord = at == 0 || !captureHostNameCharacter(text[at - 1]);
        const std::size_t end = at + host.size();
        const bool endsWord = end == text.size() || !captureHostNameCharacter(text[end]);
        if (!startsWord || !endsWord || at < from)
            continue;
        out.append(text.substr(from, at - from));
        out += "{{ lookup('data.hostname') }}";
        from = end;
        replaced = true;
    }
    out.append(text.substr(from));
    return out;
}

void captureSkip(CaptureWalk &walk, const std::string &path, const std::string &kind, const std::string &reason)
{
    walk.capture.skipped.push_back({path, kind, reason});
}

Error captureLimitError(const std::string &what)
{
    return Error {"limit", what + "; narrow the capture with --exclude GLOB"};
}

Json captureFileProperties(CaptureWalk &walk, const char *ensure, const struct stat &info)
{
    Json properties = Json::object();
    properties["ensure"] = ensure;
    properties["owner"] = captureOwnerName(info.st_uid, walk.users);
    properties["group"] = captureGroupName(info.st_gid, walk.groups);
    properties["mode"] = captureModeText(info.st_mode);
    return properties;
}

/// Reads the regular file `name` of the open directory, never following a link or blocking on
/// what replaced the file since it was listed. Sets `skipKind`/`skipReason` instead when it cannot.
std::optional<std::string> captureRead(CaptureWalk &walk, int directory, const std::string &name, struct stat &info,
    std::pair<std::string, std::string> &skip)
{
    const UniqueFd fd(::openat(directory, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd) {
        const int error = errno;
        if (error == ELOOP)
            skip = captureKindOf(S_IFLNK);
        else if (error == ENXIO)
            skip = captureKindOf(S_IFSOCK);
        else if (error == ENOENT)
            skip = {"not_found", "it went away while the capture ran"};
        else
            skip = {"unreadable", std::string("it cannot be read: ") + std::strerror(error)};
        return std::nullopt;
    }
    if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
        skip = captureKindOf(info.st_mode);
        return std::nullopt;
    }
    const std::size_t limit = walk.request.limits.maxFileBytes;
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            skip = {"unreadable", std::string("it cannot be read: ") + std::strerror(errno)};
            return std::nullopt;
        }
        if (got == 0)
            break;
        content.append(buffer, static_cast<std::size_t>(got));
        if (content.size() > limit) {
            skip = {"oversize", "larger than the " + std::to_string(limit) + " bytes a captured file may have"};
            return std::nullopt;
        }
    }
    return content;
}

/// The file as a resource: inline content or a source file, as the rules of a capture say.
void captureContent(
    CaptureWalk &walk, const std::string &path, std::string content, bool privateFile, CapturedResource &resource)
{
    std::optional<std::string> problem = privateFile
        ? std::optional<std::string>("only its owner may read it: content in a source file written 0600")
        : captureInlineProblem(content, walk.request.limits.maxInlineBytes);
    if (!problem) {
        if (const auto secret = captureSecretLook(content)) {
            problem = "content in a source file: it looks like it holds a secret (" + *secret + ")";
            walk.capture.warnings.push_back(path + ": it looks like it holds a secret (" + *secret
                + "), so its content is in a source file, not in the manifest");
        }
    }
    if (problem) {
        const std::string source = "files" + path;
        resource.properties["source"] = source;
        resource.comment = *problem;
        walk.capture.sources.push_back({source, std::move(content), privateFile});
        return;
    }
    if (!walk.shortHost.empty()) {
        bool replaced = false;
        std::string templated = captureReplaceHost(content, walk.shortHost, replaced);
        if (replaced) {
            content = std::move(templated);
            resource.comment = "the host's name is looked up from data.hostname";
            walk.hostnameUsed = true;
        }
    }
    resource.properties["content"] = std::move(content);
}

Result<void> captureRegularFile(
    CaptureWalk &walk, int directory, const std::string &name, const std::string &path, const struct stat &listed)
{
    const std::size_t limit = walk.request.limits.maxFileBytes;
    if (static_cast<std::uint64_t>(listed.st_size) > limit) {
        captureSkip(
            walk, path, "oversize", "larger than the " + std::to_string(limit) + " bytes a captured file may have");
        return {};
    }
    struct stat info = listed;
    std::pair<std::string, std::string> skip;
    auto content = captureRead(walk, directory, name, info, skip);
    if (!content) {
        captureSkip(walk, path, skip.first, skip.second);
        return {};
    }
    walk.bytes += content->size();
    if (walk.bytes > walk.request.limits.maxTotalBytes)
        return captureLimitError("the captured files hold more than "
            + std::to_string(walk.request.limits.maxTotalBytes) + " bytes, the limit of a capture");
    CapturedResource resource {"file", path, captureFileProperties(walk, "present", info), {}};
    captureContent(walk, path, std::move(*content), (info.st_mode & (S_IRGRP | S_IROTH)) == 0, resource);
    walk.capture.resources.push_back(std::move(resource));
    return {};
}

/// Whether the reader may read the entry (a directory: list it): a reader by the permission bits,
/// as diffs and the inventory judge it (the reads themselves are made with its identity too); this
/// process as the kernel decides.
bool captureReadable(
    const CaptureWalk &walk, int directory, const std::string &name, const std::string &path, bool isDirectory)
{
    if (const auto &reader = walk.request.reader)
        return userMayRead(*reader, path) && (!isDirectory || userMayRead(*reader, path + "/."));
    return ::faccessat(directory, name.c_str(), isDirectory ? R_OK | X_OK : R_OK, AT_EACCESS) == 0;
}

std::string captureChildPath(const std::string &parent, const std::string &name)
{
    return parent == "/" ? "/" + name : parent + "/" + name;
}

Result<void> captureEntry(
    CaptureWalk &walk, int directory, const std::string &name, const std::string &path, std::size_t depth);

/// The names in the open directory, sorted by their bytes.
Result<std::vector<std::string>> captureNames(int directory, const std::string &path)
{
    const int copy = ::dup(directory);
    DIR *listing = copy < 0 ? nullptr : ::fdopendir(copy);
    if (!listing) {
        if (copy >= 0)
            closeDescriptor(copy);
        return systemError("cannot list " + path, errno);
    }
    std::vector<std::string> names;
    errno = 0;
    while (const dirent *entry = ::readdir(listing)) {
        const std::string_view entryName = entry->d_name;
        if (entryName != "." && entryName != "..")
            names.emplace_back(entryName);
    }
    const int error = errno;
    ::closedir(listing);
    if (error != 0)
        return systemError("cannot list " + path, error);
    std::sort(names.begin(), names.end());
    return names;
}

Result<void> captureDirectory(
    CaptureWalk &walk, int parent, const std::string &name, const std::string &path, std::size_t depth)
{
    if (depth > kCaptureMaxDepth)
        return captureLimitError(
            path + " lies more than " + std::to_string(kCaptureMaxDepth) + " directories below the captured path");
    const UniqueFd fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat info { };
    if (!fd || ::fstat(fd.get(), &info) != 0) {
        const int error = errno;
        if (error == ELOOP) {
            const auto [kind, reason] = captureKindOf(S_IFLNK);
            captureSkip(walk, path, kind, reason);
        } else if (error == ENOTDIR) {
            captureSkip(walk, path, "unsupported", "it was replaced by something else while the capture ran");
        } else {
            captureSkip(walk, path, "unreadable", std::string("it cannot be listed: ") + std::strerror(error));
        }
        return {};
    }
    walk.capture.resources.push_back({"file", path, captureFileProperties(walk, "directory", info), {}});
    auto names = captureNames(fd.get(), path);
    if (!names)
        return names.error();
    for (const std::string &child : *names) {
        if (auto captured = captureEntry(walk, fd.get(), child, captureChildPath(path, child), depth + 1); !captured)
            return captured;
    }
    return {};
}

bool captureExcluded(const CaptureRequest &request, const std::string &path)
{
    return std::any_of(request.excludes.begin(), request.excludes.end(),
        [&](const std::string &pattern) { return ::fnmatch(pattern.c_str(), path.c_str(), 0) == 0; });
}

Result<void> captureEntry(
    CaptureWalk &walk, int directory, const std::string &name, const std::string &path, std::size_t depth)
{
    if (walk.seen.count(path) || captureExcluded(walk.request, path))
        return {};
    walk.seen.insert(path);
    if (++walk.entries > walk.request.limits.maxFiles)
        return captureLimitError("more than " + std::to_string(walk.request.limits.maxFiles)
            + " files and directories under the captured paths, the limit of a capture");
    struct stat info { };
    if (::fstatat(directory, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
        const int error = errno;
        if (error == ENOENT)
            captureSkip(walk, path, "not_found", "it does not exist");
        else
            captureSkip(walk, path, "unreadable", std::string("it cannot be examined: ") + std::strerror(error));
        return {};
    }
    if (invalidUtf8Offset(path) != std::string::npos) {
        captureSkip(walk, toValidUtf8(path), "unsupported", "its name is not UTF-8, which a manifest cannot hold");
        return {};
    }
    if (const auto [kind, reason] = captureKindOf(info.st_mode); !kind.empty()) {
        captureSkip(walk, path, kind, reason);
        return {};
    }
    const bool isDirectory = S_ISDIR(info.st_mode);
    if (!captureReadable(walk, directory, name, path, isDirectory)) {
        const std::string who = walk.request.reader ? "user " + walk.request.reader->name : "this process";
        captureSkip(walk, path, "unreadable", who + (isDirectory ? " may not list it" : " may not read it"));
        return {};
    }
    if ((info.st_mode & (S_IRGRP | S_IROTH)) == 0 && !walk.request.includePrivate) {
        captureSkip(walk, path, "private", "only its owner may read it; --include-private captures it");
        walk.capture.warnings.push_back(path
            + ": only its owner may read it, so it was left out (--include-private "
              "captures it into a source file written 0600)");
        return {};
    }
    if (isDirectory)
        return captureDirectory(walk, directory, name, path, depth);
    return captureRegularFile(walk, directory, name, path, info);
}

/// The absolute path without "." and ".." parts and without a trailing slash.
Result<std::string> captureNormalisedPath(const std::filesystem::path &path)
{
    if (!path.is_absolute())
        return Error {"bad_request", "--file " + path.string() + ": not an absolute path"};
    std::string text = path.lexically_normal().string();
    while (text.size() > 1 && text.back() == '/')
        text.pop_back();
    return text;
}

Result<void> captureFiles(CaptureWalk &walk)
{
    // Files are opened with the reader's identity where this process may take it (as root).
    std::optional<ThreadFileIdentity> identity;
    if (walk.request.reader)
        identity.emplace(*walk.request.reader);
    for (const std::filesystem::path &argument : walk.request.files) {
        auto path = captureNormalisedPath(argument);
        if (!path)
            return path.error();
        if (auto captured = captureEntry(walk, AT_FDCWD, *path, *path, 0); !captured)
            return captured;
    }
    return {};
}

bool captureMatches(const std::string &pattern, const std::string &name)
{
    return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

/// The data key of a package: its name with everything outside [A-Za-z0-9_] replaced, unique.
std::string capturePackageKey(const std::string &name, const Json &versions)
{
    std::string key = name;
    for (char &c : key) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            c = '_';
    }
    std::string unique = key;
    for (int n = 2; versions.contains(unique); ++n)
        unique = key + "_" + std::to_string(n);
    return unique;
}

Result<void> capturePackages(
    const CaptureRequest &request, CommandRunner &runner, CapturedManifest &capture, Json &versions)
{
    if (request.packages.empty())
        return {};
    auto installed = listInstalledPackages(runner);
    if (!installed)
        return installed.error();
    std::set<std::string, std::less<>> matched;
    for (const std::string &pattern : request.packages) {
        std::size_t count = 0;
        for (const InstalledPackage &package : *installed) {
            if (captureMatches(pattern, package.name)) {
                matched.insert(package.name);
                ++count;
            }
        }
        if (count == 0)
            capture.skipped.push_back({"package " + pattern, "no_match", "no installed package matches the pattern"});
    }
    if (matched.size() > request.limits.maxPackages)
        return Error {"limit",
            "more than " + std::to_string(request.limits.maxPackages)
                + " packages match the patterns, the limit of a capture; narrow the patterns"};
    for (const InstalledPackage &package : *installed) {
        if (!matched.count(package.name))
            continue;
        matched.erase(package.name);
        Json properties = Json::object();
        properties["ensure"] = request.pin ? package.version : "present";
        if (request.pin && request.data) {
            const std::string key = capturePackageKey(package.name, versions);
            versions[key] = package.version;
            properties["ensure"] = "{{ lookup('data.package_versions." + key + "') }}";
        }
        capture.resources.push_back({"package", package.name, std::move(properties), {}});
    }
    return {};
}

Result<void> captureServices(const CaptureRequest &request, CommandRunner &runner, CapturedManifest &capture)
{
    if (request.services.empty())
        return {};
    auto units = listServices(runner);
    if (!units)
        return units.error();
    std::vector<CapturedResource> resources;
    std::set<std::string, std::less<>> matched;
    for (const std::string &pattern : request.services) {
        const auto count = std::count_if(units->begin(), units->end(), [&](const ServiceUnit &unit) {
            const bool match = captureMatches(pattern, unit.name);
            if (match)
                matched.insert(unit.name);
            return match;
        });
        if (count == 0)
            capture.skipped.push_back({"service " + pattern, "no_match", "no service unit matches the pattern"});
    }
    if (matched.size() > request.limits.maxServices)
        return Error {"limit",
            "more than " + std::to_string(request.limits.maxServices)
                + " services match the patterns, the limit of a capture; narrow the patterns"};
    for (const ServiceUnit &unit : *units) {
        if (!matched.count(unit.name))
            continue;
        if (!unit.capturable) {
            capture.skipped.push_back({"service " + unit.name, "unsupported", unit.reason});
            continue;
        }
        Json properties = Json::object();
        properties["ensure"] = unit.running ? "running" : "stopped";
        properties["enable"] = unit.enabled;
        capture.resources.push_back({"service", unit.name, std::move(properties), {}});
    }
    return {};
}

Result<void> captureCheckRequest(const CaptureRequest &request)
{
    for (const auto *patterns : {&request.packages, &request.services, &request.excludes}) {
        for (const std::string &pattern : *patterns) {
            if (pattern.empty() || pattern.find('\0') != std::string::npos)
                return Error {"bad_request", "an empty pattern matches nothing; give a name or a glob pattern"};
        }
    }
    for (const std::filesystem::path &path : request.files) {
        if (auto normalised = captureNormalisedPath(path); !normalised)
            return normalised.error();
    }
    return {};
}

bool captureEndsWith(const std::string &text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(text[text.size() - suffix.size() + i])) != suffix[i])
            return false;
    }
    return true;
}

/// Whether the source may be written at `target`: nothing there, or a regular file with the same
/// bytes; every directory on the way below `directory` a real directory, not a link.
Result<void> captureCheckTarget(const std::filesystem::path &directory, const CapturedSource &source)
{
    const std::filesystem::path relative(source.path);
    std::filesystem::path at = directory;
    for (auto part = relative.begin(); part != relative.end(); ++part) {
        at /= *part;
        const bool last = std::next(part) == relative.end();
        struct stat info { };
        if (::lstat(at.c_str(), &info) != 0) {
            if (errno == ENOENT)
                return {};
            return systemError("cannot examine " + at.string(), errno);
        }
        if (!last && !S_ISDIR(info.st_mode))
            return Error {"conflict",
                at.string() + " is in the way of " + source.path
                    + " (not a directory); move it away or write the capture elsewhere"};
        if (last && !S_ISREG(info.st_mode))
            return Error {"conflict",
                at.string()
                    + " exists and is not a regular file; move it away or write the "
                      "capture elsewhere"};
    }
    const UniqueFd fd(::open(at.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    std::string existing;
    char buffer[65536];
    ssize_t got = 0;
    while (fd && existing.size() <= source.content.size() && (got = ::read(fd.get(), buffer, sizeof buffer)) > 0)
        existing.append(buffer, static_cast<std::size_t>(got));
    if (!fd || got < 0)
        return systemError("cannot read " + at.string(), errno);
    if (existing != source.content)
        return Error {"conflict",
            at.string()
                + " exists and differs from the captured file; it is not replaced: move "
                  "it away or write the capture elsewhere"};
    return {};
}

/// The manifest at `output` and its sources under files/ beside it, every conflict found before
/// anything is written; what this call created is removed again when a later write fails.
Result<std::filesystem::path> captureWriteYaml(const CapturedManifest &capture, const std::filesystem::path &output)
{
    const std::filesystem::path directory = output.has_parent_path() ? output.parent_path() : ".";
    for (const CapturedSource &source : capture.sources) {
        if (auto checked = captureCheckTarget(directory, source); !checked)
            return checked.error();
    }
    std::vector<std::filesystem::path> created;
    const auto undo = [&](const Error &error) {
        std::error_code ignored;
        for (auto it = created.rbegin(); it != created.rend(); ++it)
            std::filesystem::remove(*it, ignored);
        return error;
    };
    for (const CapturedSource &source : capture.sources) {
        const std::filesystem::path target = directory / source.path;
        std::filesystem::path parent;
        for (const auto &part : target.parent_path().lexically_relative(directory)) {
            parent = parent.empty() ? directory / part : parent / part;
            std::error_code error;
            if (std::filesystem::create_directory(parent, error))
                created.push_back(parent);
            else if (error)
                return undo(Error {"io", "cannot make the directory " + parent.string() + ": " + error.message()});
        }
        std::error_code error;
        const bool existed = std::filesystem::exists(std::filesystem::symlink_status(target, error));
        AtomicWriteOptions options;
        options.mode = source.privateContent ? 0600 : 0644;
        if (auto written = writeFileAtomically(target, source.content, options); !written)
            return undo(written.error());
        if (!existed)
            created.push_back(target);
    }
    if (auto written = writeFileAtomically(output, captureToYaml(capture)); !written)
        return undo(written.error());
    return output;
}

/// A bundle of the capture, made from the manifest and files written to a private temporary
/// directory first.
Result<std::filesystem::path> captureWriteBundle(const CapturedManifest &capture, const std::filesystem::path &output)
{
    auto scratch = TempDir::create("ccm-capture");
    if (!scratch)
        return scratch.error();
    const std::filesystem::path manifest = scratch->path() / std::string(kBundleManifestName);
    if (auto written = captureWriteYaml(capture, manifest); !written)
        return written.error();
    const BundlePlan plan = planBundle(manifest);
    if (!plan.ok()) {
        std::string findings;
        for (const BundleFinding &finding : plan.findings)
            findings += "\n" + formatBundleFinding(finding);
        return Error {"bundle", "the capture cannot be bundled:" + findings};
    }
    if (auto written = writeBundle(plan, output); !written)
        return written.error();
    const bool privateContent = std::any_of(capture.sources.begin(), capture.sources.end(),
        [](const CapturedSource &source) { return source.privateContent; });
    if (privateContent && ::chmod(output.c_str(), 0600) != 0)
        return systemError("cannot make " + output.string() + " private", errno);
    if (auto removed = scratch.value().remove(); !removed)
        return removed.error();
    return output;
}

} // namespace

Result<CapturedManifest> captureHost(const CaptureRequest &request, CommandRunner &runner)
{
    if (auto checked = captureCheckRequest(request); !checked)
        return checked.error();
    CapturedManifest capture;
    capture.host = captureHostName();
    capture.capturedAt = captureTimestamp();
    capture.capturedBy = request.reader ? request.reader->name : describeUser(::geteuid(), ::getegid()).name;
    capture.command = request.command;
    Json versions = Json::object();
    if (auto packages = capturePackages(request, runner, capture, versions); !packages)
        return packages.error();
    CaptureWalk walk {request, capture, {}, 0, 0, false, {}, {}, {}};
    if (request.data) {
        const std::string shortHost = capture.host.substr(0, capture.host.find('.'));
        if (shortHost != "localhost")
            walk.shortHost = shortHost;
    }
    if (auto files = captureFiles(walk); !files)
        return files.error();
    if (auto services = captureServices(request, runner, capture); !services)
        return services.error();
    if (walk.hostnameUsed)
        capture.data["hostname"] = walk.shortHost;
    if (!versions.empty())
        capture.data["package_versions"] = std::move(versions);
    return capture;
}

Result<std::filesystem::path> writeCapture(const CapturedManifest &capture, const std::filesystem::path &output)
{
    const std::string name = output.filename().string();
    const bool manifest = captureEndsWith(name, ".yaml") || captureEndsWith(name, ".yml");
    if (!manifest && !isBundlePath(name))
        return Error {"bad_output",
            output.string()
                + ": the output's extension says what is written: .yaml or .yml for a manifest with its files "
                  "beside it, .tar.gz or .tgz for a bundle"};
    // The output's directory is made when it is missing, and removed again when nothing lands in it.
    std::vector<std::filesystem::path> madeDirectories;
    for (std::filesystem::path parent = output.parent_path(); !parent.empty() && parent != parent.root_path();
         parent = parent.parent_path()) {
        std::error_code error;
        if (std::filesystem::exists(std::filesystem::symlink_status(parent, error)))
            break;
        madeDirectories.insert(madeDirectories.begin(), parent);
    }
    const auto removeMade = [&madeDirectories] {
        std::error_code ignored;
        for (auto it = madeDirectories.rbegin(); it != madeDirectories.rend(); ++it)
            std::filesystem::remove(*it, ignored);
    };
    for (const std::filesystem::path &directory : madeDirectories) {
        if (::mkdir(directory.c_str(), 0755) != 0 && errno != EEXIST) {
            const int error = errno;
            removeMade();
            return systemError("cannot make the directory " + directory.string(), error);
        }
    }
    auto written = manifest ? captureWriteYaml(capture, output) : captureWriteBundle(capture, output);
    if (!written)
        removeMade();
    return written;
}

} // namespace ccm::engine
