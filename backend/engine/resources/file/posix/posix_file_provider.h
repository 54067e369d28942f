// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/file/file_type.h"
#include "engine/util/atomic_file.h"

#include <string>
#include <unordered_map>

namespace ccm::engine {

/// Files and directories through POSIX calls. Content is written through a temporary file renamed
/// into place (writeFileAtomically, copyFileAtomically); symbolic links are never followed when
/// attributes are set or paths removed.
class PosixFileProvider : public FileProvider {
public:
    [[nodiscard]] std::string_view name() const override { return "posix"; }

    /// Metadata from lstat, then stat for links; owner and group reverse-resolved to names where the
    /// user database has them. A path that does not exist, or whose parent is no directory, is
    /// "absent"; any other failure to inspect it is an Error.
    [[nodiscard]] Result<FileState> status(
        const std::filesystem::path &path, bool withChecksum, ChecksumReadAhead *readAhead) override;

    /// Missing parents are made 0755; the directory itself gets mode and owner explicitly, so the
    /// umask does not matter. A path that is a symbolic link or no directory is refused.
    [[nodiscard]] Result<void> createDirectory(const std::filesystem::path &path, const std::string &owner,
        const std::string &group, const std::string &mode) override;

    /// Fails with "<parent> is not a directory" when the parent is missing or no directory.
    [[nodiscard]] Result<void> store(const std::filesystem::path &path, std::string_view content,
        const std::filesystem::path &source, const std::string &owner, const std::string &group,
        const std::string &mode) override;

    /// Owner and group first, then the mode, each without following a symbolic link; a link is refused
    /// and its name given in the error.
    [[nodiscard]] Result<void> setAttributes(const std::filesystem::path &path, const std::string &owner,
        const std::string &group, const std::string &mode) override;

    /// With force a directory tree is removed entry by entry, each opened relative to its parent without
    /// following links, so a link inside the tree is unlinked and what it points to kept. However deep
    /// the tree, only a fixed number of its directories are open at a time.
    [[nodiscard]] Result<void> remove(const std::filesystem::path &path, bool force) override;

    /// Digits only: the number, not looked up (as chown(1) does), so ids without a user work.
    /// Otherwise the user database; "could not lookup user 'x'" when it has no such user.
    [[nodiscard]] Result<uid_t> userId(const std::string &owner) override;

    /// As userId, for groups: "could not lookup group 'x'".
    [[nodiscard]] Result<gid_t> groupId(const std::string &group) override;

    [[nodiscard]] Result<std::string> checksum(const std::filesystem::path &path) override;

    [[nodiscard]] Result<std::string> readForDiff(const std::filesystem::path &path, std::size_t limit) override;

private:
    std::string cachedUserName(uid_t uid);
    std::string cachedGroupName(gid_t gid);

    // Answers of the user database, kept for the run (a provider lives as long as one). What is not
    // found is asked again each time: an earlier resource may have created the user or group.
    std::unordered_map<uid_t, std::string> m_userNames;
    std::unordered_map<gid_t, std::string> m_groupNames;
    std::unordered_map<std::string, uid_t> m_userIds;
    std::unordered_map<std::string, gid_t> m_groupIds;
    // The run's writes list each directory once for abandoned temporary files, not once per write.
    TemporarySweep m_temporaries;
};

/// Makes PosixFileProvider: priority 1 for every file resource on every host.
class PosixFileProviderFactory : public ProviderFactory {
public:
    [[nodiscard]] std::string_view typeName() const override { return "file"; }
    [[nodiscard]] std::string_view name() const override { return "posix"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;
};

} // namespace ccm::engine
