// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <cstddef>
#include <filesystem>

namespace ccm::engine {

/// How an archive is unpacked.
struct ExtractionOptions {
    /// Restore the owners and the full permission bits the archive records, as tar does for root.
    /// Otherwise the files belong to the process and the umask applies.
    bool restoreOwners = false;
};

/// What an extraction did.
struct ExtractionSummary {
    std::size_t entries = 0;
};

/// Unpacks a .tar.gz, .tgz, .tar or .zip archive (chosen by the extension of its name) into
/// directory, which is created with missing parents (0755) when it does not exist.
///
/// Every entry is checked by ArchiveEntryChecker before anything is written: an absolute name, a
/// `..` component, a symbolic link that leaves the directory once the archive's own links are
/// followed, a name through a link or file of the archive, a hard link to anything but a file the
/// archive created before it, or a device file refuses the whole archive with an error naming the
/// entry, and nothing is extracted. The entries are then written into a new hidden staging
/// directory below the directory's real path (libarchive's guards against `..` and writing through
/// links as a second line of defence) and only moved into place once all of them are written and
/// nothing in the directory would be written through a link or replace a directory by a file. Any
/// failure before the move removes the staging directory and leaves the directory as it was.
Result<ExtractionSummary> extractArchive(
    const std::filesystem::path &archive, const std::filesystem::path &directory, const ExtractionOptions &options);

} // namespace ccm::engine
