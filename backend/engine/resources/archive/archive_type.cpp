// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/archive/archive_type.h"

#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

namespace ccm::engine {

namespace {

constexpr std::string_view kRedacted = "[redacted]";
constexpr std::string_view kExtensions[] = {".tar.gz", ".tgz", ".tar", ".zip"};

/// A string property that may be missing; an Error when it is there with another kind of value.
Result<std::optional<std::string>> optionalText(const Json &properties, const char *key)
{
    if (!isSet(properties, key))
        return std::optional<std::string>();
    const Json &value = properties[key];
    if (!value.is_string())
        return invalidProperty(std::string(key) + " must be a string, not " + describeJsonType(value));
    return std::optional<std::string>(value.get<std::string>());
}

Result<std::string> requiredText(const Json &properties, const char *key)
{
    auto value = optionalText(properties, key);
    if (!value)
        return value.error();
    if (!value.value())
        return invalidProperty(std::string(key) + " is required unless ensure is absent");
    if (value.value()->empty())
        return invalidProperty(std::string(key) + " must not be empty");
    return *value.value();
}

Result<std::optional<std::filesystem::path>> absolutePath(const Json &properties, const char *key)
{
    auto value = optionalText(properties, key);
    if (!value)
        return value.error();
    if (!value.value())
        return std::optional<std::filesystem::path>();
    const std::string &path = *value.value();
    if (path.empty() || path.front() != '/')
        return invalidProperty(std::string(key) + " '" + path + "' must be an absolute path starting with /");
    if (!isAbsoluteCleanPath(path))
        return invalidProperty(
            std::string(key) + " '" + path + "' must be a clean path without '.', '..', '//' or a trailing /");
    return std::optional<std::filesystem::path>(path);
}

/// The parts of an http(s) URL the type checks.
struct UrlParts {
    std::string scheme;
    std::string userInfo;
    std::string host;
    std::string path;
    std::size_t authorityStart = 0;
    std::size_t authorityEnd = 0;
};

std::optional<UrlParts> splitUrl(const std::string &url)
{
    const auto schemeEnd = url.find("://");
    if (schemeEnd == std::string::npos)
        return std::nullopt;
    UrlParts parts;
    parts.scheme = url.substr(0, schemeEnd);
    std::transform(parts.scheme.begin(), parts.scheme.end(), parts.scheme.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    parts.authorityStart = schemeEnd + 3;
    parts.authorityEnd = std::min(url.find_first_of("/?#", parts.authorityStart), url.size());
    const std::string authority = url.substr(parts.authorityStart, parts.authorityEnd - parts.authorityStart);
    const auto at = authority.rfind('@');
    parts.userInfo = at == std::string::npos ? std::string() : authority.substr(0, at);
    parts.host = at == std::string::npos ? authority : authority.substr(at + 1);
    if (parts.authorityEnd < url.size() && url[parts.authorityEnd] == '/') {
        const std::string rest = url.substr(parts.authorityEnd);
        parts.path = rest.substr(0, rest.find_first_of("?#"));
    }
    return parts;
}

Result<void> checkUrl(const std::string &url, const std::string &nameExtension)
{
    const auto parts = splitUrl(url);
    const std::string shown = redactedUrl(url);
    if (!parts)
        return invalidProperty("url '" + shown + "' is not a URL; expected http:// or https://");
    if (parts->scheme != "http" && parts->scheme != "https")
        return invalidProperty("url scheme '" + parts->scheme + "' is not supported; use http or https");
    if (url.find_first_of(" \t\r\n") != std::string::npos)
        return invalidProperty("url must not contain whitespace");
    if (parts->host.empty() || parts->host.front() == ':')
        return invalidProperty("url '" + shown + "' has no host");
    const std::string urlExtension = archiveExtension(parts->path);
    if (urlExtension.empty())
        return invalidProperty("url path '" + parts->path + "' must end in .tar.gz, .tgz, .tar or .zip");
    if (urlExtension != nameExtension)
        return invalidProperty("url ends in " + urlExtension + " but the archive name ends in " + nameExtension
            + "; they must be the same kind of archive");
    return {};
}

bool isHeaderName(const std::string &name)
{
    static constexpr std::string_view kSymbols = "!#$%&'*+.^_`|~-";
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || kSymbols.find(c) != std::string_view::npos;
    });
}

Result<void> readHeaders(const Json &properties, ArchiveSpec &spec)
{
    if (!isSet(properties, "headers"))
        return {};
    const Json &headers = properties["headers"];
    if (!headers.is_object())
        return invalidProperty("headers must be a map of header names to values, not " + describeJsonType(headers));
    for (const auto &[header, value] : headers.items()) {
        if (!isHeaderName(header))
            return invalidProperty("header name '" + header + "' is not a valid HTTP header name");
        // The value is a secret as often as not, so no message repeats it.
        if (!value.is_string())
            return invalidProperty("header '" + header + "' must be a string, not " + describeJsonType(value));
        const std::string text = value.get<std::string>();
        if (text.find_first_of("\r\n") != std::string::npos)
            return invalidProperty("header '" + header + "' must not contain line breaks");
        spec.headers.emplace_back(header, text);
    }
    return {};
}

Result<void> readCredentials(const Json &properties, ArchiveSpec &spec)
{
    auto username = optionalText(properties, "username");
    if (!username)
        return username.error();
    if (isSet(properties, "password") && !properties["password"].is_string())
        return invalidProperty("password must be a string, not " + describeJsonType(properties["password"]));
    if (username.value().has_value() != isSet(properties, "password"))
        return invalidProperty("username and password are used together for basic authentication");
    if (username.value()) {
        spec.username = *username.value();
        spec.password = properties["password"].get<std::string>();
    }
    return {};
}

/// The archive's own path, which must be absolute and clean; gives its extension.
Result<std::string> checkArchiveName(const std::string &name)
{
    if (name.empty() || name.front() != '/')
        return invalidProperty("archive name '" + name + "' must be an absolute path starting with /");
    if (!isAbsoluteCleanPath(name))
        return invalidProperty(
            "archive name '" + name + "' must be a clean path without '.', '..', '//' or a trailing /");
    std::string nameExtension = archiveExtension(name);
    if (nameExtension.empty())
        return invalidProperty("archive name '" + name + "' must end in .tar.gz, .tgz, .tar or .zip");
    return nameExtension;
}

Result<void> readEnsure(const Json &properties, ArchiveSpec &spec)
{
    auto ensure = optionalText(properties, "ensure");
    if (!ensure)
        return ensure.error();
    if (!ensure.value())
        return invalidProperty("ensure is required (present, absent)");
    const std::optional<Ensure> state = parseEnsure(*ensure.value());
    if (state != Ensure::Present && state != Ensure::Absent)
        return invalidProperty("ensure '" + *ensure.value() + "' is not one of present, absent");
    spec.ensure = *state;
    return {};
}

Result<void> readChecksum(const Json &properties, ArchiveSpec &spec)
{
    auto checksum = optionalText(properties, "checksum");
    if (!checksum)
        return checksum.error();
    if (checksum.value()) {
        std::string sum = *checksum.value();
        if (sum.size() != 64 || !std::all_of(sum.begin(), sum.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c));
            }))
            return invalidProperty("checksum must be the SHA-256 of the archive: 64 hexadecimal characters");
        std::transform(
            sum.begin(), sum.end(), sum.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        spec.checksum = std::move(sum);
    }
    return {};
}

/// extract_parent, creates and cleanup, which only make sense together.
Result<void> readExtraction(const Json &properties, ArchiveSpec &spec)
{
    auto extractParent = absolutePath(properties, "extract_parent");
    if (!extractParent)
        return extractParent.error();
    spec.extractParent = extractParent.value();
    auto creates = absolutePath(properties, "creates");
    if (!creates)
        return creates.error();
    spec.creates = creates.value();

    if (isSet(properties, "cleanup")) {
        if (!properties["cleanup"].is_boolean())
            return invalidProperty("cleanup must be true or false, not " + describeJsonType(properties["cleanup"]));
        spec.cleanup = properties["cleanup"].get<bool>();
    }
    if (spec.cleanup && !spec.extractParent)
        return invalidProperty("cleanup needs extract_parent: only an extracted archive can be cleaned up");
    if (spec.cleanup && !spec.creates)
        return invalidProperty("cleanup needs creates, which tells later runs the archive was already extracted");
    // Without extraction nothing this resource does can make the creates path appear, so the
    // resource would never be stable.
    if (spec.creates && !spec.extractParent)
        return invalidProperty("creates needs extract_parent: only extracting the archive can create it");
    return {};
}

Result<void> readOwnership(const Json &properties, ArchiveSpec &spec)
{
    auto owner = requiredText(properties, "owner");
    if (!owner)
        return owner.error();
    spec.owner = owner.value();
    auto group = requiredText(properties, "group");
    if (!group)
        return group.error();
    spec.group = group.value();
    return {};
}

Result<ArchiveSpec> readSpec(const std::string &name, const Json &properties)
{
    if (!properties.is_object())
        return invalidProperty("the properties must be a map, not " + describeJsonType(properties));
    ArchiveSpec spec;
    const auto nameExtension = checkArchiveName(name);
    if (!nameExtension)
        return nameExtension.error();
    spec.path = name;
    if (auto read = readEnsure(properties, spec); !read)
        return read.error();

    auto url = optionalText(properties, "url");
    if (!url)
        return url.error();
    if (url.value() && !url.value()->empty()) {
        if (auto checked = checkUrl(*url.value(), *nameExtension); !checked)
            return checked.error();
        spec.url = *url.value();
    }

    if (auto read = readChecksum(properties, spec); !read)
        return read.error();
    if (auto read = readExtraction(properties, spec); !read)
        return read.error();
    if (auto read = readCredentials(properties, spec); !read)
        return read.error();
    if (auto read = readHeaders(properties, spec); !read)
        return read.error();

    // Removal never downloads, so a manifest that only removes may leave these out.
    if (spec.ensure == Ensure::Present) {
        if (spec.url.empty())
            return invalidProperty(url.value() ? "url must not be empty" : "url is required unless ensure is absent");
        if (auto read = readOwnership(properties, spec); !read)
            return read.error();
    }
    return spec;
}

/// The ids the desired owner and group stand for.
struct Expected {
    uid_t uid = 0;
    gid_t gid = 0;
};

std::string shortSum(const std::optional<std::string> &sum)
{
    return sum ? sum->substr(0, 12) : std::string("none");
}

bool attributesDiffer(const ArchiveState &state, const Expected &expected)
{
    return state.uid != expected.uid || state.gid != expected.gid;
}

bool checksumDiffers(const ArchiveState &state, const ArchiveSpec &spec)
{
    return spec.checksum && state.checksum != spec.checksum;
}

/// Everything in which state is not what the resource asks for, in the order of the seed's checks:
/// ensure absent, creates, archive existence, owner and group, checksum. Empty when stable.
std::vector<std::string> differences(const ArchiveState &state, const ArchiveSpec &spec, const Expected &expected)
{
    const std::string archive = "archive " + spec.path.string();
    if (spec.ensure == Ensure::Absent) {
        if (state.archiveExists)
            return {archive + " exists"};
        return {};
    }
    std::vector<std::string> found;
    if (spec.creates && !state.createsExists)
        found.push_back("creates " + spec.creates->string() + " does not exist");
    if (!spec.cleanup && !state.archiveExists)
        found.push_back(archive + " does not exist");
    if (spec.cleanup && state.archiveExists)
        found.push_back(archive + " is not cleaned up");
    if (state.archiveExists) {
        if (state.uid != expected.uid)
            found.push_back("owner " + state.owner + " -> " + spec.owner);
        if (state.gid != expected.gid)
            found.push_back("group " + state.group + " -> " + spec.group);
        if (checksumDiffers(state, spec))
            found.push_back("checksum " + shortSum(state.checksum) + " -> " + shortSum(spec.checksum));
    }
    return found;
}

/// The steps that bring the archive to the desired state, in the order they run.
struct Plan {
    bool remove = false;
    bool download = false;
    bool extract = false;
    bool cleanup = false;

    [[nodiscard]] bool empty() const { return !remove && !download && !extract && !cleanup; }

    [[nodiscard]] std::string noopMessage() const
    {
        std::string message;
        const auto add = [&message](bool step, const char *text) {
            if (step)
                message += (message.empty() ? "" : ". ") + std::string(text);
        };
        add(remove, "Would have removed");
        add(download, "Would have downloaded");
        add(extract, "Would have extracted");
        add(cleanup, "Would have cleaned up");
        return message;
    }
};

Plan decide(const ArchiveState &state, const ArchiveSpec &spec, const Expected &expected)
{
    Plan plan;
    if (differences(state, spec, expected).empty())
        return plan;
    if (spec.ensure == Ensure::Absent) {
        plan.remove = true;
        return plan;
    }
    // Once extraction has happened an archive that is to be cleaned up is only removed; fetching it
    // again for that would be wasted.
    const bool extracted = spec.creates && state.createsExists;
    const bool discarded = spec.cleanup && extracted;
    plan.download
        = !discarded && (!state.archiveExists || checksumDiffers(state, spec) || attributesDiffer(state, expected));
    plan.extract = spec.extractParent && (plan.download || (spec.creates && !state.createsExists));
    plan.cleanup = spec.cleanup && (state.archiveExists || plan.download);
    return plan;
}

/// Runs the plan's steps; acted tells whether any of them changed the system, also on an Error.
Result<void> carryOut(const Plan &plan, const ArchiveSpec &spec, ArchiveProvider &provider, Logger &log, bool &acted)
{
    if (plan.remove) {
        auto done = provider.remove(spec.path);
        acted = done.ok();
        return done;
    }
    if (plan.download) {
        if (auto done = provider.download(spec, log); !done)
            return done.error();
        acted = true;
    }
    if (plan.extract) {
        // A failed extraction may have written part of the archive.
        acted = true;
        if (auto done = provider.extract(spec, log); !done)
            return done.error();
        // The download is kept when extraction did not produce what creates names, so the
        // archive can be looked at; removing it would only make the next run fetch it again.
        if (spec.creates) {
            auto after = provider.status(spec);
            if (!after)
                return after.error();
            if (!after->createsExists)
                return desiredStateNotAchieved("extracting " + spec.path.string() + " into "
                    + spec.extractParent->string() + " did not create " + spec.creates->string());
        }
    }
    if (plan.cleanup) {
        if (auto done = provider.remove(spec.path); !done)
            return done.error();
        acted = true;
    }
    return {};
}

} // namespace

std::string archiveExtension(std::string_view path)
{
    for (const std::string_view extension : kExtensions) {
        if (path.size() > extension.size() && path.substr(path.size() - extension.size()) == extension)
            return std::string(extension);
    }
    return {};
}

std::string redactedUrl(const std::string &url)
{
    const auto parts = splitUrl(url);
    if (!parts || parts->userInfo.empty())
        return url;
    const auto colon = parts->userInfo.find(':');
    if (colon == std::string::npos)
        return url;
    return url.substr(0, parts->authorityStart) + parts->userInfo.substr(0, colon + 1) + std::string(kRedacted)
        + url.substr(parts->authorityStart + parts->userInfo.size());
}

Json archiveStateToJson(const ArchiveSpec &spec, const ArchiveState &state, std::string_view provider)
{
    const bool exists = state.archiveExists;
    Json metadata = Json::object();
    metadata["name"] = spec.path.string();
    metadata["checksum"] = state.checksum ? Json(*state.checksum) : Json(nullptr);
    metadata["archive_exists"] = exists;
    metadata["creates_exists"] = state.createsExists;
    metadata["owner"] = exists ? Json(state.owner) : Json(nullptr);
    metadata["group"] = exists ? Json(state.group) : Json(nullptr);
    metadata["mtime"] = exists ? Json(formatTimestamp(state.mtime)) : Json(nullptr);
    metadata["size"] = exists ? Json(state.size) : Json(nullptr);
    metadata["provider"] = std::string(provider);
    Json status = Json::object();
    status["ensure"] = ensureText(state.ensure);
    status["metadata"] = std::move(metadata);
    return status;
}

Result<void> ArchiveType::apply(const std::string &name, const Json &properties, Provider &provider,
    ApplyContext &context, TransactionEvent &event) const
{
    auto *archives = dynamic_cast<ArchiveProvider *>(&provider);
    if (!archives)
        return wrongProvider(provider, "an archive provider");
    auto spec = readSpec(name, properties);
    if (!spec)
        return spec.error();
    Expected expected;
    if (spec->ensure == Ensure::Present) {
        auto uid = archives->userId(spec->owner);
        if (!uid)
            return uid.error();
        auto gid = archives->groupId(spec->group);
        if (!gid)
            return gid.error();
        expected = {uid.value(), gid.value()};
    }

    auto current = archives->status(spec.value());
    if (!current)
        return current.error();
    event.status = archiveStateToJson(spec.value(), current.value(), archives->name());
    event.finalEnsure = ensureText(current->ensure);

    const Plan plan = decide(current.value(), spec.value(), expected);
    if (plan.empty())
        return {};
    if (context.noop) {
        event.changed = true;
        event.noopMessage = plan.noopMessage();
        context.log.log(LogLevel::Debug, event.noopMessage);
        return {};
    }

    bool acted = false;
    const auto done = carryOut(plan, spec.value(), *archives, context.log, acted);
    // What did happen is reported, also when a later step failed.
    event.changed = acted;
    auto after = archives->status(spec.value());
    if (after) {
        event.status = archiveStateToJson(spec.value(), after.value(), archives->name());
        event.finalEnsure = ensureText(after->ensure);
    }
    if (!done)
        return done.error();
    if (!after)
        return after.error();
    if (const auto remaining = differences(after.value(), spec.value(), expected); !remaining.empty())
        return desiredStateNotAchieved(joined(remaining));
    return {};
}

void ArchiveType::redact(Json &properties) const
{
    if (!properties.is_object())
        return;
    if (const auto password = properties.find("password"); password != properties.end() && !password->is_null())
        *password = std::string(kRedacted);
    if (const auto headers = properties.find("headers"); headers != properties.end() && headers->is_object()) {
        for (auto &item : headers->items())
            item.value() = std::string(kRedacted);
    }
    if (const auto url = properties.find("url"); url != properties.end() && url->is_string())
        *url = redactedUrl(url->get<std::string>());
}

void registerArchiveResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<ArchiveType>());
    registerHttpArchiveProvider(catalog);
}

} // namespace ccm::engine
