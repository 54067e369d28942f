// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/ensure.h"
#include "engine/resource.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace ccm::engine {

/// What a file provider found at a path.
struct FileState {
    /// Present for anything that is not a directory (a regular file, a FIFO, a device, a dangling
    /// symbolic link), Directory or Absent.
    Ensure ensure = Ensure::Absent;
    /// The path is a symbolic link. The other fields describe the file it points to, or the link
    /// itself when it points nowhere.
    bool link = false;
    /// The owner's and group's names, or their numbers when the ids have no name.
    std::string owner;
    std::string group;
    uid_t uid = 0;
    gid_t gid = 0;
    /// Permission bits with the set-user-ID, set-group-ID and sticky bits (at most 07777).
    unsigned mode = 0;
    std::uint64_t size = 0;
    std::chrono::system_clock::time_point mtime;
    /// SHA-256 of a regular file's content, only when it was asked for.
    std::optional<std::string> checksum;
    /// For a directory: whether it has no entries; nullopt when it could not be listed or is no
    /// directory.
    std::optional<bool> empty;
};

/// The status of a file resource as events carry it: {"ensure": ..., "metadata": {"name",
/// "checksum", "owner", "group", "uid", "gid", "mode", "size", "mtime", "provider", "link"}}. Fields
/// an absent path has no value for are null; mode is a "0644"-style string, mtime RFC 3339 in UTC.
Json fileStateToJson(const std::filesystem::path &path, const FileState &state, std::string_view provider);

/// The error removing a directory that is not empty gives when force is not set.
Error directoryNotEmptyError(const std::filesystem::path &path);

/// The part of the file type that touches the system. Owners and groups are user or group names,
/// or ids when they are digits only; modes are octal strings as parseFileMode() reads them.
class FileProvider : public Provider {
public:
    /// The state of path. Symbolic links are followed for everything but `link`: a link to a file
    /// is "present", a link to a directory "directory". The content is read, for the checksum, only
    /// when withChecksum is set and the path is a regular file; a checksum `readAhead` has for the
    /// file as it is now is taken instead of reading it (readAhead may be null).
    [[nodiscard]] virtual Result<FileState> status(
        const std::filesystem::path &path, bool withChecksum, ChecksumReadAhead *readAhead)
        = 0;

    /// Makes path a directory with the given attributes, creating missing parents (0755, owned by
    /// the process). An existing directory only gets its attributes set.
    [[nodiscard]] virtual Result<void> createDirectory(
        const std::filesystem::path &path, const std::string &owner, const std::string &group, const std::string &mode)
        = 0;

    /// Replaces path atomically with a regular file holding content, or a copy of source when source
    /// is not empty, owned and permitted as asked before it appears under its name. The parent
    /// directory must exist.
    [[nodiscard]] virtual Result<void> store(const std::filesystem::path &path, std::string_view content,
        const std::filesystem::path &source, const std::string &owner, const std::string &group,
        const std::string &mode)
        = 0;

    /// Sets owner, group and mode of an existing path without touching its content. A symbolic link
    /// is refused rather than followed.
    [[nodiscard]] virtual Result<void> setAttributes(
        const std::filesystem::path &path, const std::string &owner, const std::string &group, const std::string &mode)
        = 0;

    /// Removes path; a path that does not exist is fine. A directory that is not empty is removed
    /// only with force, and then with everything in it. Symbolic links are removed, never followed.
    [[nodiscard]] virtual Result<void> remove(const std::filesystem::path &path, bool force) = 0;

    /// The uid an owner stands for: digits are the uid itself, a name is looked up.
    [[nodiscard]] virtual Result<uid_t> userId(const std::string &owner) = 0;

    /// The SHA-256 of a file's content as lowercase hex, read in constant memory (for sources).
    [[nodiscard]] virtual Result<std::string> checksum(const std::filesystem::path &path) = 0;

    /// The content of a regular file for a preview's diff; an Error when it is not a regular file,
    /// cannot be read or holds more than limit bytes.
    [[nodiscard]] virtual Result<std::string> readForDiff(const std::filesystem::path &path, std::size_t limit) = 0;

    /// The gid a group stands for: digits are the gid itself, a name is looked up.
    [[nodiscard]] virtual Result<gid_t> groupId(const std::string &group) = 0;
};

/// The file type: keeps a path absent, a directory, or a regular file with given content (inline
/// or copied from a source) and owner, group and mode. Without content and source only the
/// attributes are managed and the content is never read.
class FileType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "file"; }

    /// Properties: ensure (present, absent, directory), content (null or missing: attributes only),
    /// source (relative to the context's working directory unless absolute), owner, group, mode,
    /// force. Values that came from templates are checked here again, with the validator's messages.
    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// The file itself, when it is to be present with a content or source to compare.
    [[nodiscard]] std::optional<std::filesystem::path> contentToCompare(
        const std::string &name, const Json &properties) const override;

    /// The path's state (its content's checksum only when the caller may read it) and how ensure,
    /// content or source, owner, group and mode differ.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
