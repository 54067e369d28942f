// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <unordered_map>
#include <utility>

namespace ccm {

/// Remembers, for one run of writes (an engine run, an apply), which directories have already been
/// swept of abandoned `.ccm-*` temporary files, so that each directory is listed once per run
/// rather than once per write. The first write of the run into a directory removes every abandoned
/// temporary file in it, whichever target it was for; later writes into that directory only look
/// at the few temporary files that the listing found but had to keep because another user owns
/// them (see writeFileAtomically). A temporary file abandoned after the listing stays until the
/// next run. Whoever runs the writes creates one, passes it through AtomicWriteOptions::sweep and
/// drops it when the run ends; nothing is kept between runs. Not safe for concurrent use.
class TemporarySweep {
public:
    /// Before a write of a file owned by targetOwner into directory (an open descriptor): lists
    /// and sweeps the directory on the first call for it, afterwards only removes the remembered
    /// abandoned temporary files of targetOwner. Never fails; what cannot be removed is left.
    void beforeWrite(int directory, uid_t targetOwner);

    /// How many directory listings this sweep has made: one per directory written into.
    [[nodiscard]] std::size_t listings() const { return m_listings; }

private:
    /// Temporary files a listing found and kept because neither this process's user nor the
    /// owner of that write owns them, by owner: a later write for that owner removes them.
    using Kept = std::unordered_multimap<uid_t, std::string>;
    std::map<std::pair<dev_t, ino_t>, Kept> m_directories;
    std::size_t m_listings = 0;
};

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
    /// The run this write belongs to, whose first write into a directory sweeps it of all
    /// abandoned temporary files; null for a one-off write, which looks only for the abandoned
    /// temporary files of its own target and lists the directory to find them.
    TemporarySweep *sweep = nullptr;
};

/// Replaces target with a new file holding content, owned and permitted as options say; returns
/// the number of bytes written.
///
/// The new file is written under a temporary name `.ccm-<name>.XXXXXX` in target's directory, given
/// its owner, group and mode, flushed, and renamed over target in one step. Readers therefore see
/// either the old file or the complete new one, never a mixture. On any error the temporary file is
/// removed and target is left as it was; the one exception is a failure to flush the directory after
/// the rename, which is reported although the new file is already in place. A crash or kill -9 part
/// way can leave at most one `.ccm-*` temporary file beside target, never a partial target. Such
/// abandoned temporary files are removed by later writes: a regular file named by that pattern,
/// owned by this user or options.uid, that no live writer holds its flock() on. Without
/// options.sweep, the write removes those of target only; with it, the first write of the run into
/// the directory removes those of every target there (and later writes of the run into it, owned
/// by another options.uid, those of that owner the listing kept). Everything else is left alone.
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
