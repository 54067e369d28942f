// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "engine/util/command_runner.h"
#include "engine/util/user_identity.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccm::engine {

// What a host has that a capture can write down (docs/capture.md): its installed packages, its
// services and its files. The capture dialog lists these; captureHost() reads them too.

/// An installed package, as the package manager reports it.
struct InstalledPackage {
    std::string name; ///< "nginx", "libc6:amd64" for a foreign architecture on dpkg
    std::string version; ///< the full version ("1.22.1-9", "1:2.3-4.el9")
    std::string arch;
    std::string summary; ///< the one-line description, empty when unknown
};

/// The fully installed packages, sorted by name: dpkg-query on hosts with dpkg, rpm otherwise.
/// Error code "no_package_manager" when neither is found, "command" when the query fails.
Result<std::vector<InstalledPackage>> listInstalledPackages(CommandRunner &runner);

/// A systemd service unit.
struct ServiceUnit {
    std::string name; ///< without ".service"
    bool running = false;
    bool enabled = false;
    std::string activeState; ///< systemd's word: "active", "inactive", "failed"
    std::string enabledState; ///< systemd's word: "enabled", "disabled", "static", "masked", ...
    std::string description;
    /// Whether a service resource can express it: not static, not masked, not generated, not
    /// a template ("getty@"); when false, `reason` says why.
    bool capturable = true;
    std::string reason;
};

/// The service units, sorted by name, from `systemctl list-unit-files --type=service` and
/// `systemctl list-units --type=service --all` (both --no-legend --plain --no-pager). Error code
/// "no_service_manager" when systemctl is not found or systemd is not running, "command" when a
/// query fails.
Result<std::vector<ServiceUnit>> listServices(CommandRunner &runner);

/// What a directory entry is.
enum class EntryKind { File, Directory, Symlink, Socket, Device, Fifo, Other };
std::string_view entryKindName(EntryKind kind);

/// One entry of a directory, as lstat() sees it (links are not followed).
struct DirectoryEntry {
    std::string name;
    EntryKind kind = EntryKind::Other;
    std::string owner; ///< user name, or the uid in decimal when it has none
    std::string group; ///< group name, or the gid in decimal
    std::uint32_t mode = 0; ///< permission bits, 07777
    std::uint64_t size = 0;
    std::string linkTarget; ///< for symlinks
    /// Whether the reader may read it (a directory: list it): judged with the reader's identity.
    bool readable = false;
    /// Only its owner may read it (neither group nor others have read permission).
    bool privateToOwner = false;
};

/// The entries of `directory`, sorted by name, at most `maxEntries` of them (`truncated` says
/// when more were left). With `reader`, the directory is listed with that user's file system
/// identity (ThreadFileIdentity) and `readable` is judged for that user; an error when the user
/// may not list it. Error codes "not_found", "not_directory", "permission", "io".
struct DirectoryListing {
    std::filesystem::path path;
    std::vector<DirectoryEntry> entries;
    bool truncated = false;
};
Result<DirectoryListing> listDirectory(const std::filesystem::path &directory,
    const std::optional<UserIdentity> &reader, std::size_t maxEntries = 10'000);

} // namespace ccm::engine
