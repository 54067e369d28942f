// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace ccm {

/// Why a file could not be read. Callers word it for their own messages.
struct FileReadFailure {
    enum class Kind { Missing, Unreadable, Directory, NotRegular, TooLarge };

    Kind kind = Kind::Unreadable;
    int error = 0; ///< errno, for Missing and Unreadable
    std::uintmax_t size = 0; ///< for TooLarge: the file's size, or what was read of a file that grew
};

/// The whole contents of a regular file of at most `maxBytes`. The file is opened without blocking
/// (a FIFO cannot hang the read) and checked once open, so the checks and the read concern the
/// same file; files whose size reads as 0 (/proc) are read whole.
Result<std::string, FileReadFailure> readRegularFile(const std::filesystem::path &path, std::size_t maxBytes);

/// readRegularFile() with a message naming the file. The error code is "not_found" when the file
/// does not exist, "too_large" past `maxBytes`, else "unreadable".
Result<std::string> readTextFile(const std::filesystem::path &path, std::size_t maxBytes);

} // namespace ccm
