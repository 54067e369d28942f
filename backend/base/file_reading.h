// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error_code.h"
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

/// The codes of readTextFile()'s errors.
enum class ReadErrc {
    NotFound, ///< the file does not exist
    TooLarge, ///< it is larger than allowed
    Unreadable, ///< it is not a regular file, or reading it failed
};

/// readRegularFile() with a message naming the file; its codes are ReadErrc's.
Result<std::string> readTextFile(const std::filesystem::path &path, std::size_t maxBytes);

} // namespace ccm

template<> struct ccm::ErrorCodeNames<ccm::ReadErrc> {
    static constexpr std::array kNames {
        std::pair {ccm::ReadErrc::NotFound, std::string_view("not_found")},
        std::pair {ccm::ReadErrc::TooLarge, std::string_view("too_large")},
        std::pair {ccm::ReadErrc::Unreadable, std::string_view("unreadable")},
    };
};
