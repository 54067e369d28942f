// SPDX-License-Identifier: Apache-2.0
// The file type's answer to status: the path as it is, and how it differs from given properties.
#include "base/sha256.h"
#include "core/model/validator.h"
#include "engine/resource_status.h"
#include "engine/resources/file/file_type.h"
#include "engine/resources/resource_support.h"

#include <cstdio>

namespace ccm::engine {

namespace {

std::string octal(unsigned mode)
{
    char text[16];
    std::snprintf(text, sizeof text, "%04o", mode);
    return text;
}

std::string fileSummary(const FileState &state)
{
    if (state.ensure == Ensure::Absent)
        return "absent";
    std::string summary = ensureText(state.ensure);
    if (state.link)
        summary += " (symbolic link)";
    summary += ", " + octal(state.mode) + " " + state.owner + ":" + state.group;
    if (state.checksum)
        summary += ", sha256 " + shortChecksum(*state.checksum);
    return summary;
}

/// A string property, nullopt when it is not set; an Error when it is set to something else.
Result<std::optional<std::string>> textProperty(const Json &properties, const char *key)
{
    if (!isSet(properties, key))
        return std::optional<std::string>();
    if (!properties[key].is_string())
        return invalidProperty(std::string(key) + " must be a string, not " + describeJsonType(properties[key]));
    return std::optional<std::string>(properties[key].get<std::string>());
}

/// Owner or group: the ids are compared, as apply does, so "0" and "root" are the same.
template<typename Lookup>
void compareId(ResourceState &result, const char *key, const std::string &wanted, const std::string &currentName,
    unsigned currentId, Lookup lookup)
{
    auto id = lookup(wanted);
    if (!id) {
        result.notes.push_back(std::string(key) + " '" + wanted + "': " + id.error().message);
        addDifference(result, key, currentName, wanted);
    } else if (static_cast<unsigned>(id.value()) != currentId) {
        addDifference(result, key, currentName, wanted);
    }
}

/// The checksum the content or source declares; nullopt when neither is set or the source cannot
/// be compared (said in a note).
Result<std::optional<std::string>> wantedChecksum(
    const Json &properties, FileProvider &files, const StatusContext &context, ResourceState &result)
{
    auto content = textProperty(properties, "content");
    if (!content)
        return content.error();
    if (*content)
        return std::optional<std::string>(sha256Hex(**content));
    auto sourceText = textProperty(properties, "source");
    if (!sourceText)
        return sourceText.error();
    if (!*sourceText || (*sourceText)->empty())
        return std::optional<std::string>();
    std::filesystem::path source = **sourceText;
    if (source.is_relative() && !context.workingDirectory.empty())
        source = context.workingDirectory / source;
    if (!context.readable(source)) {
        result.notes.push_back("the content is not compared: the source " + source.string() + " may not be read");
        return std::optional<std::string>();
    }
    auto checksum = files.checksum(source);
    if (!checksum) {
        result.notes.push_back("the content is not compared: cannot read the source: " + checksum.error().message);
        return std::optional<std::string>();
    }
    return std::optional<std::string>(std::move(checksum).value());
}

Result<void> compareFile(const FileState &state, const Json &properties, FileProvider &files,
    const StatusContext &context, ResourceState &result)
{
    auto ensureValue = textProperty(properties, "ensure");
    if (!ensureValue)
        return ensureValue.error();
    std::optional<Ensure> wanted;
    if (*ensureValue) {
        wanted = parseEnsure(**ensureValue);
        if (wanted != Ensure::Present && wanted != Ensure::Absent && wanted != Ensure::Directory)
            return invalidProperty("ensure '" + **ensureValue + "' is not one of present, absent, directory");
        if (*wanted != state.ensure) {
            addDifference(result, "ensure", ensureText(state.ensure), ensureText(*wanted));
            return {};
        }
    }
    // A mode apply would refuse is an error whatever the path is now.
    if (auto mode = textProperty(properties, "mode"); !mode) {
        return mode.error();
    } else if (*mode && !(*mode)->empty()) {
        if (auto bits = parseFileMode(**mode); !bits)
            return invalidProperty(bits.error().message);
    }
    if (state.ensure == Ensure::Absent)
        return {};
    if (state.ensure == Ensure::Present) {
        auto checksum = wantedChecksum(properties, files, context, result);
        if (!checksum)
            return checksum.error();
        if (*checksum && state.checksum && *state.checksum != **checksum)
            addDifference(result, isSet(properties, "content") ? "content" : "source", "sha256:" + *state.checksum,
                "sha256:" + **checksum);
    }
    for (const char *key : {"owner", "group", "mode"}) {
        auto value = textProperty(properties, key);
        if (!value)
            return value.error();
        if (!*value || (*value)->empty())
            continue;
        const std::string &text = **value;
        if (std::string_view(key) == "owner") {
            compareId(result, key, text, state.owner, state.uid, [&](const std::string &v) { return files.userId(v); });
        } else if (std::string_view(key) == "group") {
            compareId(
                result, key, text, state.group, state.gid, [&](const std::string &v) { return files.groupId(v); });
        } else {
            auto bits = parseFileMode(text);
            if (!bits)
                return invalidProperty(bits.error().message);
            if (bits.value() != state.mode)
                addDifference(result, key, octal(state.mode), octal(bits.value()));
        }
    }
    return {};
}

} // namespace

Result<ResourceState> FileType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &context) const
{
    auto *files = dynamic_cast<FileProvider *>(&provider);
    if (!files)
        return wrongProvider(provider, "a file provider");
    if (name.empty() || name.front() != '/' || !isAbsoluteCleanPath(name))
        return invalidProperty("file name '" + name + "' must be a clean absolute path starting with /");
    const std::filesystem::path path = name;
    const bool readable = context.readable(path);
    auto state = files->status(path, readable, nullptr);
    if (!state)
        return state.error();
    ResourceState result;
    result.state = fileStateToJson(path, state.value(), files->name());
    result.summary = fileSummary(state.value());
    if (!readable && state->ensure == Ensure::Present)
        result.notes.push_back("the content of " + name + " is not read: the caller may not read it");
    if (auto compared = compareFile(state.value(), properties, *files, context, result); !compared)
        return compared.error();
    return result;
}

} // namespace ccm::engine
