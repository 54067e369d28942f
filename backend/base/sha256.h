// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX

namespace ccm {

/// The 32 bytes of a SHA-256 digest.
using Sha256Digest = std::array<unsigned char, 32>;

/// SHA-256 of data fed in pieces: a bundle's members as they are read, an object's chunks as they
/// are stored. Through OpenSSL's EVP interface, which picks the CPU's SHA extensions.
class Sha256 {
public:
    /// Throws std::bad_alloc, like any allocation, when OpenSSL cannot set up the digest.
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void add(const void *data, std::size_t size);
    void add(std::string_view data) { add(data.data(), data.size()); }
    /// The digest of everything added. The object is spent after it.
    [[nodiscard]] Sha256Digest finish();
    /// finish() as 64 lower-case hexadecimal digits.
    [[nodiscard]] std::string finishHex();

private:
    struct Free {
        void operator()(evp_md_ctx_st *context) const;
    };
    std::unique_ptr<evp_md_ctx_st, Free> m_context;
};

/// A digest's bytes as a string: to compare with one decoded from text, or to encode it.
inline std::string digestBytes(const Sha256Digest &digest)
{
    return {reinterpret_cast<const char *>(digest.data()), digest.size()};
}

/// The SHA-256 of data in one call.
Sha256Digest sha256(std::string_view data);

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
