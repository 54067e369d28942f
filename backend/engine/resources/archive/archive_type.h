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
#include <utility>
#include <vector>

namespace ccm::engine {

/// An archive resource as the manifest asks for it, after the type checked every property.
struct ArchiveSpec {
    /// Where the archive is saved: an absolute, clean path ending in a supported extension.
    std::filesystem::path path;
    Ensure ensure = Ensure::Present;
    std::string url;
    /// Expected SHA-256 in lower case, when the manifest pins one.
    std::optional<std::string> checksum;
    /// Basic authentication; both set or both empty.
    std::string username;
    std::string password;
    /// Extra request headers in the order the manifest lists them.
    std::vector<std::pair<std::string, std::string>> headers;
    std::string owner;
    std::string group;
    std::optional<std::filesystem::path> extractParent;
    std::optional<std::filesystem::path> creates;
    bool cleanup = false;
};

/// What an archive provider found on the system.
struct ArchiveState {
    /// Present when the archive file exists, otherwise Absent.
    Ensure ensure = Ensure::Absent;
    bool archiveExists = false;
    /// The creates path exists; false when the resource sets none.
    bool createsExists = false;
    /// Owner and group names (their numbers when the ids have no name), and the ids themselves.
    std::string owner;
    std::string group;
    uid_t uid = 0;
    gid_t gid = 0;
    std::uint64_t size = 0;
    std::chrono::system_clock::time_point mtime;
    /// SHA-256 of the archive file, when it exists.
    std::optional<std::string> checksum;
};

/// The extension of an archive path or URL path: ".tar.gz", ".tgz", ".tar", ".zip", or empty when
/// it ends in none of them.
std::string archiveExtension(std::string_view path);

/// url with the password of its user information replaced by "[redacted]", so it can be shown.
std::string redactedUrl(const std::string &url);

/// The status of an archive resource as events carry it: {"ensure": ..., "metadata": {"name",
/// "checksum", "archive_exists", "creates_exists", "owner", "group", "mtime", "size",
/// "provider"}}. Fields a missing archive has no value for are null; mtime is RFC 3339 in UTC.
Json archiveStateToJson(const ArchiveSpec &spec, const ArchiveState &state, std::string_view provider);

/// The part of the archive type that touches the system and the network.
class ArchiveProvider : public Provider {
public:
    /// The archive file's existence, attributes and checksum, and whether spec.creates exists. A
    /// path that exists but is no regular file is an Error.
    [[nodiscard]] virtual Result<ArchiveState> status(const ArchiveSpec &spec) = 0;

    /// Fetches spec.url to spec.path, owned by spec.owner and spec.group, replacing what is there.
    /// When spec.checksum is set a download that does not match it is never put in place.
    [[nodiscard]] virtual Result<void> download(const ArchiveSpec &spec, Logger &log) = 0;

    /// Unpacks spec.path into spec.extractParent, creating that directory when missing.
    [[nodiscard]] virtual Result<void> extract(const ArchiveSpec &spec, Logger &log) = 0;

    /// Removes the archive file; a file that does not exist is fine.
    [[nodiscard]] virtual Result<void> remove(const std::filesystem::path &path) = 0;

    /// The uid an owner stands for: digits are the uid itself, a name is looked up.
    [[nodiscard]] virtual Result<uid_t> userId(const std::string &owner) = 0;

    /// The gid a group stands for: digits are the gid itself, a name is looked up.
    [[nodiscard]] virtual Result<gid_t> groupId(const std::string &group) = 0;
};

/// The archive type: downloads an archive over HTTP(S), optionally extracts it and optionally
/// removes the download afterwards, or keeps the archive file absent.
class ArchiveType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "archive"; }

    /// Properties: ensure (present, absent), url, checksum, username, password, headers, owner,
    /// group, extract_parent, creates, cleanup. Values that came from templates are checked here
    /// again, with the validator's messages.
    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// The password, every header value and the password in the url become "[redacted]".
    void redact(Json &properties) const override;

    /// The archive file (present, checksum when the caller may read it, size, owner) and, when
    /// `creates` is given, whether it exists; differences in ensure, checksum, owner, group, creates.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
