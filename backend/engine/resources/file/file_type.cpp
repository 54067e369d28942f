// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/file/file_type.h"

#include "base/file_reading.h"
#include "base/sha256.h"
#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"
#include "engine/util/unified_diff.h"

#include <cstdio>
#include <ctime>
#include <vector>

namespace ccm::engine {

namespace {

// Diffs are for people reading a preview; beyond this a diff is noise and reading it costs memory.
constexpr std::size_t kDiffLimit = 1024 * 1024;

std::string octalMode(unsigned mode)
{
    char text[16];
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

std::string parenthesized(const std::vector<std::string> &parts)
{
    return parts.empty() ? std::string() : " (" + joined(parts) + ")";
}

/// The resource as the manifest asks for it, checked.
struct Desired {
    std::filesystem::path path;
    Ensure ensure = Ensure::Absent;
    std::optional<std::string> content;
    std::optional<std::filesystem::path> source;
    std::string owner;
    std::string group;
    std::string mode;
    unsigned modeBits = 0;
    bool force = false;

    [[nodiscard]] bool managesContent() const { return content || source; }
};

Result<void> readAttribute(const Json &properties, const char *key, std::string &into)
{
    const std::string name = key;
    if (!isSet(properties, key))
        return invalidProperty(name + " is required unless ensure is absent");
    const Json &value = properties[key];
    if (name == "mode" && value.is_number_integer())
        return invalidProperty(
            "mode must be a quoted string such as \"0644\"; unquoted, YAML reads it as the number " + value.dump());
    if (!value.is_string())
        return invalidProperty(name + " must be a string, not " + describeJsonType(value));
    into = value.get<std::string>();
    if (into.empty())
        return invalidProperty(name + " must not be empty");
    return {};
}

/// content or source, where the file's content comes from; a relative source is found from the
/// manifest's working directory.
Result<void> readContentOrSource(const Json &properties, const ApplyContext &context, Desired &desired)
{
    if (isSet(properties, "content")) {
        if (!properties["content"].is_string())
            return invalidProperty("content must be a string or null, not " + describeJsonType(properties["content"]));
        desired.content = properties["content"].get<std::string>();
    }
    if (isSet(properties, "source")) {
        if (!properties["source"].is_string())
            return invalidProperty("source must be a string, not " + describeJsonType(properties["source"]));
        std::filesystem::path source = properties["source"].get<std::string>();
        if (source.empty())
            return invalidProperty("source must not be empty; leave it out to manage only attributes");
        if (source.is_relative() && !context.workingDirectory.empty())
            source = context.workingDirectory / source;
        desired.source = std::move(source);
    }
    if (desired.content && desired.source)
        return invalidProperty("content and source are mutually exclusive; keep one of them");
    return {};
}

Result<Desired> readDesired(const std::string &name, const Json &properties, const ApplyContext &context)
{
    if (!properties.is_object())
        return invalidProperty("the properties must be a map, not " + describeJsonType(properties));
    Desired desired;
    if (name.empty() || name.front() != '/')
        return invalidProperty("file name '" + name + "' must be an absolute path starting with /");
    if (!isAbsoluteCleanPath(name))
        return invalidProperty("file name '" + name + "' must be a clean path without '.', '..', '//' or a trailing /");
    desired.path = name;

    if (!isSet(properties, "ensure"))
        return invalidProperty("ensure is required (present, absent, directory)");
    if (!properties["ensure"].is_string())
        return invalidProperty("ensure must be a string, not " + describeJsonType(properties["ensure"]));
    const auto &ensure = properties["ensure"].get_ref<const std::string &>();
    const std::optional<Ensure> state = parseEnsure(ensure);
    if (state != Ensure::Present && state != Ensure::Absent && state != Ensure::Directory)
        return invalidProperty("ensure '" + ensure + "' is not one of present, absent, directory");
    desired.ensure = *state;

    if (auto read = readContentOrSource(properties, context, desired); !read)
        return read.error();

    if (isSet(properties, "force")) {
        if (!properties["force"].is_boolean())
            return invalidProperty("force must be true or false, not " + describeJsonType(properties["force"]));
        desired.force = properties["force"].get<bool>();
    }
    if (desired.force && desired.ensure != Ensure::Absent)
        return invalidProperty(
            "force is only valid with ensure: absent (ensure is " + ensureText(desired.ensure) + ")");
    if (desired.force && name == "/")
        return invalidProperty("force cannot be used to remove /");

    // Removal never consults the attributes, so a manifest that only removes may leave them out.
    if (desired.ensure != Ensure::Absent) {
        for (const auto &[key, into] : {std::pair {"owner", &desired.owner}, std::pair {"group", &desired.group},
                 std::pair {"mode", &desired.mode}}) {
            if (auto read = readAttribute(properties, key, *into); !read)
                return read.error();
        }
        auto mode = parseFileMode(desired.mode);
        if (!mode)
            return invalidProperty(mode.error().message);
        desired.modeBits = mode.value();
    }
    return desired;
}

/// The ids the desired owner and group stand for, and the content checksum when content is managed.
struct ExpectedFile {
    uid_t uid = 0;
    gid_t gid = 0;
    std::string checksum;
};

Result<ExpectedFile> expectedState(const Desired &desired, FileProvider &provider)
{
    ExpectedFile expected;
    if (desired.ensure == Ensure::Absent)
        return expected;
    auto uid = provider.userId(desired.owner);
    if (!uid)
        return uid.error();
    auto gid = provider.groupId(desired.group);
    if (!gid)
        return gid.error();
    expected.uid = uid.value();
    expected.gid = gid.value();
    if (desired.ensure == Ensure::Present && desired.content) {
        expected.checksum = sha256Hex(*desired.content);
    } else if (desired.ensure == Ensure::Present && desired.source) {
        // Streamed, so a source of any size is compared in constant memory.
        auto checksum = provider.checksum(*desired.source);
        if (!checksum)
            return checksum.error().withContext("cannot read the source");
        expected.checksum = std::move(checksum).value();
    }
    return expected;
}

bool comparesContent(const Desired &desired)
{
    return desired.ensure == Ensure::Present && desired.managesContent();
}

bool contentDiffers(const FileState &current, const Desired &desired, const ExpectedFile &expected)
{
    return comparesContent(desired) && current.checksum != expected.checksum;
}

/// Owner, group and mode as they differ, "owner 1000 -> root" (current -> desired). Ids are compared,
/// so "0" and "root" are the same owner.
std::vector<std::string> attributeDifferences(
    const FileState &current, const Desired &desired, const ExpectedFile &expected)
{
    std::vector<std::string> differences;
    if (current.uid != expected.uid)
        differences.push_back("owner " + current.owner + " -> " + desired.owner);
    if (current.gid != expected.gid)
        differences.push_back("group " + current.group + " -> " + desired.group);
    if (current.mode != desired.modeBits)
        differences.push_back("mode " + octalMode(current.mode) + " -> " + octalMode(desired.modeBits));
    return differences;
}

/// Everything in which current is not what the resource asks for, in the order of the checks:
/// ensure, content, owner, group, mode.
std::vector<std::string> differences(const FileState &current, const Desired &desired, const ExpectedFile &expected)
{
    if (current.ensure != desired.ensure)
        return {"ensure " + ensureText(current.ensure) + " -> " + ensureText(desired.ensure)};
    if (desired.ensure == Ensure::Absent)
        return {};
    std::vector<std::string> found;
    if (contentDiffers(current, desired, expected)) {
        const auto shortSum
            = [](const std::optional<std::string> &sum) { return sum ? sum->substr(0, 12) : std::string("none"); };
        found.push_back("content sha256 " + shortSum(current.checksum) + " -> " + shortSum(expected.checksum));
    }
    for (std::string &difference : attributeDifferences(current, desired, expected))
        found.push_back(std::move(difference));
    return found;
}

/// The unified diff of a content change, when both sides are text small enough to show and the
/// caller may see the file.
std::optional<std::string> contentDiff(
    FileProvider &provider, const FileState &current, const Desired &desired, const ApplyContext &context)
{
    // The diff shows both sides: the caller must be able to read the target and the source.
    if (context.mayShowDiff
        && (!context.mayShowDiff(desired.path) || (desired.source && !context.mayShowDiff(*desired.source))))
        return std::nullopt;
    std::string before;
    const bool created = current.ensure == Ensure::Absent;
    if (!created) {
        if (current.size >= kDiffLimit)
            return std::nullopt;
        auto read = provider.readForDiff(desired.path, kDiffLimit - 1);
        if (!read)
            return std::nullopt;
        before = std::move(read).value();
    }
    std::string after;
    if (desired.content) {
        if (desired.content->size() >= kDiffLimit)
            return std::nullopt;
        after = *desired.content;
    } else {
        auto read = provider.readForDiff(*desired.source, kDiffLimit - 1);
        if (!read)
            return std::nullopt;
        after = std::move(read).value();
    }
    if (!isProbablyText(before) || !isProbablyText(after))
        return std::nullopt;
    const std::string label = desired.path.string();
    std::string diff = unifiedDiff(before, after, created ? "/dev/null" : label, label);
    if (diff.empty())
        return std::nullopt;
    return diff;
}

enum class FileAction { None, Remove, CreateDirectory, Store, SetAttributes };

struct FileDecision {
    FileAction action = FileAction::None;
    std::string noopMessage;
};

Result<FileDecision> decide(const FileState &current, const Desired &desired, const ExpectedFile &expected)
{
    const std::vector<std::string> attributes = attributeDifferences(current, desired, expected);
    if (desired.ensure == Ensure::Absent) {
        if (current.ensure == Ensure::Absent)
            return FileDecision {};
        if (current.ensure != Ensure::Directory || current.link)
            return FileDecision {FileAction::Remove, "Would have removed the file"};
        if (desired.force)
            return FileDecision {FileAction::Remove, "Would have recursively removed the directory"};
        if (current.empty == false)
            return directoryNotEmptyError(desired.path);
        return FileDecision {FileAction::Remove, "Would have removed the directory"};
    }

    if (desired.ensure == Ensure::Directory) {
        if (current.ensure != Ensure::Directory)
            return FileDecision {FileAction::CreateDirectory, "Would have created directory"};
        if (attributes.empty())
            return FileDecision {};
        return FileDecision {FileAction::CreateDirectory, "Would have updated attributes" + parenthesized(attributes)};
    }

    if (current.ensure == Ensure::Directory)
        return Error {"is_directory",
            "cannot manage " + desired.path.string()
                + " as a file: it exists as a directory; use ensure: directory to manage directories"};
    if (current.ensure == Ensure::Absent)
        return FileDecision {FileAction::Store,
            desired.managesContent() ? "Would have created the file"
                                     : "Would have created an empty file with requested attributes"};
    const bool content = contentDiffers(current, desired, expected);
    if (!content && attributes.empty())
        return FileDecision {};
    if (!desired.managesContent())
        return FileDecision {FileAction::SetAttributes, "Would have updated attributes" + parenthesized(attributes)};
    return FileDecision {FileAction::Store,
        (content ? "Would have updated the file content" : "Would have updated attributes")
            + parenthesized(attributes)};
}

Result<void> act(FileAction action, const Desired &desired, FileProvider &provider)
{
    switch (action) {
    case FileAction::Remove:
        return provider.remove(desired.path, desired.force);
    case FileAction::CreateDirectory:
        return provider.createDirectory(desired.path, desired.owner, desired.group, desired.mode);
    case FileAction::Store:
        return provider.store(desired.path, desired.content ? std::string_view(*desired.content) : std::string_view(),
            desired.source.value_or(std::filesystem::path()), desired.owner, desired.group, desired.mode);
    case FileAction::SetAttributes:
        return provider.setAttributes(desired.path, desired.owner, desired.group, desired.mode);
    case FileAction::None:
        break;
    }
    return {};
}

} // namespace

Json fileStateToJson(const std::filesystem::path &path, const FileState &state, std::string_view provider)
{
    const bool exists = state.ensure != Ensure::Absent;
    Json metadata = Json::object();
    // Room for every field at once, rather than growing four times for each stable file.
    metadata.get_ref<Json::object_t &>().reserve(11);
    metadata["name"] = path.string();
    metadata["checksum"] = state.checksum ? Json(*state.checksum) : Json(nullptr);
    metadata["owner"] = exists ? Json(state.owner) : Json(nullptr);
    metadata["group"] = exists ? Json(state.group) : Json(nullptr);
    metadata["uid"] = exists ? Json(state.uid) : Json(nullptr);
    metadata["gid"] = exists ? Json(state.gid) : Json(nullptr);
    metadata["mode"] = exists ? Json(octalMode(state.mode)) : Json(nullptr);
    metadata["size"] = exists ? Json(state.size) : Json(nullptr);
    metadata["mtime"] = exists ? Json(formatTimestamp(state.mtime)) : Json(nullptr);
    metadata["provider"] = std::string(provider);
    metadata["link"] = state.link;
    Json status = Json::object();
    status["ensure"] = ensureText(state.ensure);
    status["metadata"] = std::move(metadata);
    return status;
}

Error directoryNotEmptyError(const std::filesystem::path &path)
{
    return Error {"directory_not_empty",
        "cannot remove " + path.string() + ": directory is not empty, set 'force: true' to remove it recursively"};
}

std::optional<std::filesystem::path> FileType::contentToCompare(const std::string &name, const Json &properties) const
{
    if (parseEnsure(stringMember(properties, "ensure")) != Ensure::Present)
        return std::nullopt;
    const auto isSetString = [&](const char *key) {
        const auto found = properties.find(key);
        return found != properties.end() && found->is_string();
    };
    if (!isSetString("content") && !isSetString("source"))
        return std::nullopt;
    return std::filesystem::path(name);
}

Result<void> FileType::apply(const std::string &name, const Json &properties, Provider &provider, ApplyContext &context,
    TransactionEvent &event) const
{
    auto *files = dynamic_cast<FileProvider *>(&provider);
    if (!files)
        return wrongProvider(provider, "a file provider");
    auto desired = readDesired(name, properties, context);
    if (!desired)
        return desired.error();
    auto expected = expectedState(desired.value(), *files);
    if (!expected)
        return expected.error();

    auto current = files->status(desired->path, comparesContent(desired.value()), context.checksumReadAhead);
    if (!current)
        return current.error();
    event.status = fileStateToJson(desired->path, current.value(), files->name());
    event.finalEnsure = ensureText(current->ensure);

    auto decision = decide(current.value(), desired.value(), expected.value());
    if (!decision)
        return decision.error();
    if (decision->action == FileAction::None)
        return {};

    if (decision->action == FileAction::Store && desired->managesContent())
        event.diff = contentDiff(*files, current.value(), desired.value(), context);
    if (context.noop) {
        event.changed = true;
        event.noopMessage = decision->noopMessage;
        context.log.log(LogLevel::Debug, decision->noopMessage);
        return {};
    }

    if (auto done = act(decision->action, desired.value(), *files); !done)
        return done.error();
    event.changed = true;
    auto after = files->status(desired->path, comparesContent(desired.value()), nullptr);
    if (!after)
        return after.error();
    event.status = fileStateToJson(desired->path, after.value(), files->name());
    event.finalEnsure = ensureText(after->ensure);
    if (const auto remaining = differences(after.value(), desired.value(), expected.value()); !remaining.empty())
        return desiredStateNotAchieved(joined(remaining));
    return {};
}

void registerFileResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<FileType>());
    registerPosixFileProvider(catalog);
}

} // namespace ccm::engine
