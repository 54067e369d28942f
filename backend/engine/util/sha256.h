// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "result.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ccm {

/// The SHA-256 of data as 64 lower-case hexadecimal digits. Like any allocation, it throws
/// std::bad_alloc when OpenSSL cannot set up the digest.
std::string sha256Hex(std::string_view data);

/// The SHA-256 of a regular file's contents as 64 lower-case hexadecimal digits. The file is read
/// in fixed-size chunks, so memory use does not depend on its size. Symbolic links are followed.
/// Directories, devices, FIFOs and sockets are refused (error code "not_regular_file") without
/// reading from them; an unreadable file gives error code "io" with the system's reason.
Result<std::string> sha256File(const std::filesystem::path &path);

/// The SHA-256 of what is left to read of an open file, read the same way; `path` names it in
/// errors. With `size`, the number of bytes left as the caller just saw it (fstat), reading stops
/// once that many were read rather than reading once more to find the end: the caller must then
/// check by other means that the file did not grow meanwhile.
Result<std::string> sha256Descriptor(
    int fd, const std::filesystem::path &path, std::optional<std::uint64_t> size = std::nullopt);

} // namespace ccm
