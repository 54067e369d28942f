// SPDX-License-Identifier: Apache-2.0
#include "base/file_reading.h"

#include "base/unique_fd.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ccm {
namespace {

FileReadFailure failureOf(int error)
{
    using Kind = FileReadFailure::Kind;
    if (error == ENOENT)
        return {Kind::Missing, error, 0};
    // Sockets cannot be opened at all; they are not files to read either.
    if (error == ENXIO)
        return {Kind::NotRegular, error, 0};
    return {Kind::Unreadable, error, 0};
}

} // namespace

Result<std::string, FileReadFailure> readRegularFile(const std::filesystem::path &path, std::size_t maxBytes)
{
    using Kind = FileReadFailure::Kind;
    const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0)
        return failureOf(errno);
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return failureOf(errno);
    if (S_ISDIR(info.st_mode))
        return FileReadFailure{Kind::Directory, 0, 0};
    if (!S_ISREG(info.st_mode))
        return FileReadFailure{Kind::NotRegular, 0, 0};
    const auto size = static_cast<std::uintmax_t>(info.st_size);
    if (size > maxBytes)
        return FileReadFailure{Kind::TooLarge, 0, size};

    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    // Not zeroed: read() fills what is used, and zeroing would touch all sixteen pages of it for
    // every file, most of them a page or two long.
    std::array<char, 65536> buffer; // NOLINT(cppcoreguidelines-pro-type-member-init)
    while (true) {
        const ssize_t count = ::read(fd.get(), buffer.data(), buffer.size());
        if (count < 0) {
            if (errno == EINTR)
                continue;
            return failureOf(errno);
        }
        if (count == 0)
            return text;
        if (text.size() + static_cast<std::size_t>(count) > maxBytes)
            return FileReadFailure{Kind::TooLarge, 0, text.size() + static_cast<std::size_t>(count)};
        text.append(buffer.data(), static_cast<std::size_t>(count));
    }
}

Result<std::string> readTextFile(const std::filesystem::path &path, std::size_t maxBytes)
{
    auto text = readRegularFile(path, maxBytes);
    if (text)
        return std::move(text).value();
    const FileReadFailure &failure = text.error();
    const std::string prefix = path.string() + ": cannot read: ";
    switch (failure.kind) {
    case FileReadFailure::Kind::Missing:
        return makeError(ReadErrc::NotFound, prefix + std::strerror(failure.error));
    case FileReadFailure::Kind::Directory:
    case FileReadFailure::Kind::NotRegular:
        return makeError(ReadErrc::Unreadable, prefix + "not a regular file");
    case FileReadFailure::Kind::TooLarge:
        return makeError(ReadErrc::TooLarge, prefix + "larger than " + std::to_string(maxBytes) + " bytes");
    case FileReadFailure::Kind::Unreadable:
        break;
    }
    return makeError(ReadErrc::Unreadable, prefix + std::strerror(failure.error));
}

} // namespace ccm
