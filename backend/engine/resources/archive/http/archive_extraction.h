// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "result.h"

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
/// Every entry is checked before anything is written: an absolute name, a `..` component, a
/// symbolic link whose target leaves the directory, a hard link to a name outside it, or a device
/// file refuses the whole archive with an error naming the entry, and nothing is extracted. The
/// entries are then written below the directory's real path with libarchive's guards against
/// `..` and against writing through symbolic links as a second line of defence. A read or write
/// failure part way leaves what was extracted until then.
Result<ExtractionSummary> extractArchive(
    const std::filesystem::path &archive, const std::filesystem::path &directory, const ExtractionOptions &options);

} // namespace ccm::engine
