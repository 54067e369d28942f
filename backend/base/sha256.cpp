// SPDX-License-Identifier: Apache-2.0
#include "base/sha256.h"

#include "base/c_handle.h"
#include "base/hex.h"
#include "base/unique_fd.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <new>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm {

namespace {

// Large enough that the per-read system call cost vanishes next to hashing, small enough to stay in
// the L2 cache; page-aligned so that the kernel copies whole pages.
constexpr std::size_t chunkSize = 64 * 1024;
constexpr std::size_t chunkAlignment = 4096;

Error ioError(const std::filesystem::path &path, const char *doing, int errorNumber)
{
    return Error {"io", "cannot " + std::string(doing) + " '" + path.string() + "': " + std::strerror(errorNumber)};
}

const char *fileKind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

struct AlignedDelete {
    void operator()(std::byte *buffer) const { ::operator delete[](buffer, std::align_val_t {chunkAlignment}); }
};

/// SHA-256 fetched once: OpenSSL 3 otherwise looks the algorithm up in its provider tables on every
/// initialisation, which costs more than hashing a small file. Null when no provider offers it.
const EVP_MD *sha256Algorithm()
{
    static const CHandle<EVP_MD, EVP_MD_free> algorithm(EVP_MD_fetch(nullptr, "SHA256", nullptr));
    return algorithm.get();
}

} // namespace

void Sha256::Free::operator()(evp_md_ctx_st *context) const
{
    EVP_MD_CTX_free(context);
}

Sha256::Sha256()
    : m_context(EVP_MD_CTX_new())
{
    const EVP_MD *algorithm = sha256Algorithm();
    if (!algorithm || !m_context || EVP_DigestInit_ex(m_context.get(), algorithm, nullptr) != 1)
        throw std::bad_alloc();
}

Sha256::~Sha256() = default;

void Sha256::add(const void *data, std::size_t size)
{
    EVP_DigestUpdate(m_context.get(), data, size);
}

Sha256Digest Sha256::finish()
{
    Sha256Digest digest {};
    unsigned length = 0;
    EVP_DigestFinal_ex(m_context.get(), digest.data(), &length);
    return digest;
}

std::string Sha256::finishHex()
{
    return toHex(finish());
}

Sha256Digest sha256(std::string_view data)
{
    // A context per thread, reused: making one for every call cost as much as hashing the short
    // contents manifests declare.
    thread_local const CHandle<EVP_MD_CTX, EVP_MD_CTX_free> context(EVP_MD_CTX_new());
    Sha256Digest digest {};
    unsigned length = 0;
    // These only fail when OpenSSL cannot allocate, which is the same condition under which
    // building the returned string would fail.
    const EVP_MD *algorithm = sha256Algorithm();
    if (!algorithm || !context || EVP_DigestInit_ex(context.get(), algorithm, nullptr) != 1
        || EVP_DigestUpdate(context.get(), data.data(), data.size()) != 1
        || EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1)
        throw std::bad_alloc();
    return digest;
}

std::string sha256Hex(std::string_view data)
{
    return toHex(sha256(data));
}

Result<std::string> sha256File(const std::filesystem::path &path)
{
    // O_NONBLOCK keeps open() from waiting for a writer when the path is a FIFO; it is refused below,
    // and on a regular file the flag changes nothing.
    const auto notRegular = [&](mode_t mode) {
        return Error {"not_regular_file",
            "cannot checksum '" + path.string() + "': it is " + fileKind(mode)
                + ", only regular files have a checksum"};
    };
    struct stat status { };
    const UniqueFd file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!file) {
        const int openError = errno;
        // Sockets cannot be opened at all; say what the path is rather than "no such device".
        if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode))
            return notRegular(status.st_mode);
        return ioError(path, "open", openError);
    }
    if (::fstat(file.get(), &status) != 0)
        return ioError(path, "inspect", errno);
    if (!S_ISREG(status.st_mode))
        return notRegular(status.st_mode);
    if (status.st_size > static_cast<off_t>(chunkSize))
        ::posix_fadvise(file.get(), 0, 0, POSIX_FADV_SEQUENTIAL);

    return sha256Descriptor(file.get(), path);
}

Result<std::string> sha256Descriptor(int fd, const std::filesystem::path &path, std::optional<std::uint64_t> size)
{
    Sha256 hash;
    const std::unique_ptr<std::byte[], AlignedDelete> buffer(
        new (std::align_val_t {chunkAlignment}) std::byte[chunkSize]);
    std::uint64_t total = 0;
    while (!size || total < *size) {
        const ssize_t count = ::read(fd, buffer.get(), chunkSize);
        if (count < 0) {
            if (errno == EINTR)
                continue;
            return ioError(path, "read", errno);
        }
        if (count == 0)
            break;
        hash.add(buffer.get(), static_cast<std::size_t>(count));
        total += static_cast<std::uint64_t>(count);
    }
    return hash.finishHex();
}

} // namespace ccm
