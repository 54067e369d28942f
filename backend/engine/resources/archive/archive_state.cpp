// SPDX-License-Identifier: Apache-2.0
// The archive type's answer to status: the archive file, and `creates` when it is given.
#include "core/model/validator.h"
#include "engine/resource_status.h"
#include "engine/resources/archive/archive_type.h"
#include "engine/resources/resource_support.h"

#include <algorithm>
#include <cerrno>
#include <sys/stat.h>

namespace ccm::engine {

namespace {

Result<std::optional<std::string>> textOf(const Json &properties, const char *key)
{
    if (!isSet(properties, key))
        return std::optional<std::string>();
    if (!properties[key].is_string())
        return invalidProperty(std::string(key) + " must be a string, not " + describeJsonType(properties[key]));
    return std::optional<std::string>(properties[key].get<std::string>());
}

/// The archive's existence and attributes without its content, for a caller that may not read it.
Result<ArchiveState> unreadArchive(const ArchiveSpec &spec)
{
    ArchiveState state;
    struct stat info { };
    if (::stat(spec.path.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode))
            return Error {"is_directory", "cannot manage " + spec.path.string() + " as an archive: it is a directory"};
        state.archiveExists = true;
        state.ensure = Ensure::Present;
        state.uid = info.st_uid;
        state.gid = info.st_gid;
        state.owner = std::to_string(info.st_uid);
        state.group = std::to_string(info.st_gid);
        state.size = static_cast<std::uint64_t>(info.st_size);
        state.mtime = std::chrono::system_clock::from_time_t(info.st_mtime);
    } else if (errno != ENOENT && errno != ENOTDIR) {
        return Error {"status_failed", "cannot inspect " + spec.path.string()};
    }
    if (spec.creates)
        state.createsExists = ::stat(spec.creates->c_str(), &info) == 0;
    return state;
}

std::string archiveSummary(const ArchiveSpec &spec, const ArchiveState &state)
{
    std::string summary = "absent";
    if (state.archiveExists) {
        summary = "present, " + std::to_string(state.size) + " bytes, " + state.owner + ":" + state.group;
        if (state.checksum)
            summary += ", sha256 " + shortChecksum(*state.checksum);
    }
    if (spec.creates)
        summary += std::string("; creates ") + spec.creates->string()
            + (state.createsExists ? " exists" : " does not exist");
    return summary;
}

/// Ensure, checksum, owner and group as apply compares them (ids, so "0" and "root" are the same),
/// and creates.
Result<void> compareArchive(const Json &properties, const ArchiveSpec &spec, const ArchiveState &state,
    ArchiveProvider &archives, ResourceState &result)
{
    auto ensure = textOf(properties, "ensure");
    if (!ensure)
        return ensure.error();
    if (*ensure) {
        const std::optional<Ensure> wanted = parseEnsure(**ensure);
        if (wanted != Ensure::Present && wanted != Ensure::Absent)
            return invalidProperty("ensure '" + **ensure + "' is not one of present, absent");
        const bool cleanup = isSet(properties, "cleanup") && properties["cleanup"] == Json(true);
        // As apply sees it: an archive that is cleaned up after extraction is not kept.
        if (*wanted == Ensure::Absent || !cleanup) {
            if (*wanted != state.ensure)
                addDifference(result, "ensure", ensureText(state.ensure), ensureText(*wanted));
        } else if (state.archiveExists) {
            addDifference(result, "cleanup", "the archive is still there", "removed after extraction");
        }
        if (*wanted == Ensure::Absent)
            return {};
    }
    if (spec.creates && !state.createsExists)
        addDifference(result, "creates", false, true);
    if (!state.archiveExists)
        return {};
    auto checksum = textOf(properties, "checksum");
    if (!checksum)
        return checksum.error();
    if (*checksum && !(*checksum)->empty() && state.checksum) {
        std::string wanted = **checksum;
        std::ranges::transform(
            wanted, wanted.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (wanted != *state.checksum)
            addDifference(result, "checksum", *state.checksum, wanted);
    }
    for (const char *key : {"owner", "group"}) {
        auto value = textOf(properties, key);
        if (!value)
            return value.error();
        if (!*value || (*value)->empty())
            continue;
        const bool owner = std::string_view(key) == "owner";
        const Result<unsigned> id = owner ? archives.userId(**value) : archives.groupId(**value);
        const unsigned current = owner ? state.uid : state.gid;
        if (!id)
            result.notes.push_back(std::string(key) + " '" + **value + "': " + id.error().message);
        if (!id || id.value() != current)
            addDifference(result, key, owner ? state.owner : state.group, **value);
    }
    return {};
}

} // namespace

Result<ResourceState> ArchiveType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &context) const
{
    auto *archives = dynamic_cast<ArchiveProvider *>(&provider);
    if (!archives)
        return wrongProvider(provider, "an archive provider");
    if (name.empty() || name.front() != '/' || !isAbsoluteCleanPath(name) || archiveExtension(name).empty())
        return invalidProperty(
            "archive name '" + name + "' must be a clean absolute path ending in .tar.gz, .tgz, .tar or .zip");
    ArchiveSpec spec;
    spec.path = name;
    auto creates = textOf(properties, "creates");
    if (!creates)
        return creates.error();
    if (*creates && !(*creates)->empty()) {
        std::filesystem::path path = **creates;
        if (path.is_relative())
            return invalidProperty("creates '" + **creates + "' must be an absolute path");
        spec.creates = path;
    }
    const bool readable = context.readable(spec.path);
    auto state = readable ? archives->status(spec) : unreadArchive(spec);
    if (!state)
        return state.error();
    ResourceState result;
    result.state = archiveStateToJson(spec, state.value(), archives->name());
    result.summary = archiveSummary(spec, state.value());
    if (!readable && state->archiveExists)
        result.notes.push_back("the content of " + name + " is not read: the caller may not read it");
    if (auto compared = compareArchive(properties, spec, state.value(), *archives, result); !compared)
        return compared.error();
    return result;
}

} // namespace ccm::engine
