// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "result.h"

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <sys/types.h>

namespace ccm {

/// How the new file is finished before it replaces the target.
struct AtomicWriteOptions {
    /// Permission bits of the new file, at most 07777; the process umask does not apply.
    mode_t mode = 0644;
    /// Owner of the new file; -1 leaves it to the writing process's user.
    uid_t uid = static_cast<uid_t>(-1);
    /// Group of the new file; -1 leaves it to the writing process's group.
    gid_t gid = static_cast<gid_t>(-1);
    /// Whether the file's data and the directory entry reach the disk before the call returns, so
    /// that a power loss cannot leave an empty or missing target afterwards.
    bool fsync = true;
};

/// Replaces target with a new file holding content, owned and permitted as options say; returns
/// the number of bytes written.
///
/// The new file is written under a temporary name `.ccm-<name>.XXXXXX` in target's directory, given
/// its owner, group and mode, flushed, and renamed over target in one step. Readers therefore see
/// either the old file or the complete new one, never a mixture. On any error the temporary file is
/// removed and target is left as it was; the one exception is a failure to flush the directory after
/// the rename, which is reported although the new file is already in place. A crash or kill -9 part
/// way can leave at most one `.ccm-*` temporary file beside target, never a partial target; the next
/// write of target removes such abandoned temporary files of target (regular files of that exact
/// name pattern, owned by this user or options.uid, that no live writer holds its flock() on) and
/// leaves everything else alone.
///
/// A target that is a symbolic link is replaced by a regular file; the file the link pointed to is
/// not touched. Errors name the path involved and the system's reason: "invalid_mode" for bits
/// outside 07777, "invalid_path" when target has no file name, "io" for everything the system refuses.
Result<std::uint64_t> writeFileAtomically(
    const std::filesystem::path &target, std::string_view content, const AtomicWriteOptions &options = {});

/// Replaces target with a copy of the regular file source, streamed in fixed-size chunks, in the
/// same way and with the same guarantees as writeFileAtomically. Only the bytes are copied: mode,
/// owner and group come from options, times are those of the new file. Source may be target itself.
/// A source that is not a regular file is refused with "not_regular_file".
Result<std::uint64_t> copyFileAtomically(
    const std::filesystem::path &target, const std::filesystem::path &source, const AtomicWriteOptions &options = {});

} // namespace ccm
