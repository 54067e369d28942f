// SPDX-License-Identifier: Apache-2.0
#include "atomic_file.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ccm {

namespace {

constexpr std::size_t copyChunkSize = 64 * 1024;
// NAME_MAX of every Linux filesystem CCM manages; a longer temporary name would fail to be created.
constexpr std::size_t maximumNameLength = 255;
constexpr std::string_view temporaryPrefix = ".ccm-";
constexpr std::size_t randomSuffixLength = 6;
// O_EXCL makes a clash harmless; retrying a few times only matters when someone floods the directory.
constexpr int createAttempts = 64;

std::string quoted(const std::filesystem::path &path)
{
    return "'" + path.string() + "'";
}

Error ioError(const std::string &context, const std::string &what, int errorNumber)
{
    return Error {"io", context + ": " + what + ": " + std::strerror(errorNumber)};
}

std::string octal(mode_t mode)
{
    char text[16];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode));
    return text;
}

class Descriptor {
public:
    explicit Descriptor(int fd)
        : m_fd(fd)
    {
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    [[nodiscard]] int get() const { return m_fd; }

    /// Closes now and reports the error close() found, which on NFS can be a failed write.
    int close()
    {
        const int result = ::close(m_fd);
        m_fd = -1;
        return result == 0 ? 0 : errno;
    }

private:
    int m_fd;
};

/// The file being written under its temporary name; removed again unless it was renamed into place.
class TemporaryFile {
public:
    TemporaryFile(int directory, std::string name, int fd)
        : m_directory(directory)
        , m_name(std::move(name))
        , m_file(fd)
    {
    }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;
    ~TemporaryFile()
    {
        if (!m_renamed)
            ::unlinkat(m_directory, m_name.c_str(), 0);
    }

    [[nodiscard]] int fd() const { return m_file.get(); }
    [[nodiscard]] const std::string &name() const { return m_name; }
    int close() { return m_file.close(); }
    void markRenamed() { m_renamed = true; }

private:
    int m_directory;
    std::string m_name;
    Descriptor m_file;
    bool m_renamed = false;
};

std::string randomSuffix()
{
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static constexpr std::uint64_t alphabetSize = sizeof alphabet - 1;
    std::uint64_t bits = 0;
    // The name only has to be hard to guess, not secret; when the entropy pool is not ready yet
    // (early boot) the clock and the process id are good enough, O_EXCL keeps it safe either way.
    if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
        static std::atomic<std::uint64_t> counter = 0;
        bits = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())
            ^ (static_cast<std::uint64_t>(::getpid()) << 40) ^ (++counter * 0x9E3779B97F4A7C15ULL);
    }
    std::string suffix;
    for (std::size_t i = 0; i < randomSuffixLength; ++i) {
        suffix.push_back(alphabet[bits % alphabetSize]);
        bits /= alphabetSize;
    }
    return suffix;
}

std::string temporaryName(const std::string &targetName)
{
    const std::size_t room = maximumNameLength - temporaryPrefix.size() - 1 - randomSuffixLength;
    return std::string(temporaryPrefix) + targetName.substr(0, room) + "." + randomSuffix();
}

/// 0 when all of data was written, otherwise the errno of the failed write.
int writeAll(int fd, const char *data, std::size_t size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
    return 0;
}

/// Writes the new content into fd; returns its size or an error that already carries the context.
using ContentWriter = std::function<Result<std::uint64_t>(int fd)>;

Result<std::uint64_t> replaceAtomically(const std::filesystem::path &target, const AtomicWriteOptions &options,
    const std::string &context, const ContentWriter &writeContent)
{
    const std::string name = target.filename().string();
    std::filesystem::path directoryPath = target.parent_path();
    if (directoryPath.empty())
        directoryPath = ".";
    Descriptor directory(::open(directoryPath.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() < 0)
        return ioError(context, "cannot open its directory " + quoted(directoryPath), errno);

    std::unique_ptr<TemporaryFile> temporary;
    int createError = 0;
    for (int attempt = 0; attempt < createAttempts && !temporary; ++attempt) {
        std::string candidate = temporaryName(name);
        const int fd
            = ::openat(directory.get(), candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0)
            temporary = std::make_unique<TemporaryFile>(directory.get(), std::move(candidate), fd);
        else if ((createError = errno) != EEXIST)
            break;
    }
    if (!temporary)
        return ioError(context, "cannot create a temporary file in " + quoted(directoryPath), createError);
    const std::string temporaryPath = quoted(directoryPath / temporary->name());

    auto size = writeContent(temporary->fd());
    if (!size)
        return size;
    // The owner first: chown clears the set-user-ID and set-group-ID bits that the mode may set.
    if ((options.uid != static_cast<uid_t>(-1) || options.gid != static_cast<gid_t>(-1))
        && ::fchown(temporary->fd(), options.uid, options.gid) != 0) {
        return ioError(context,
            "cannot give " + temporaryPath + " owner " + std::to_string(static_cast<long>(options.uid)) + " and group "
                + std::to_string(static_cast<long>(options.gid)),
            errno);
    }
    if (::fchmod(temporary->fd(), options.mode) != 0)
        return ioError(context, "cannot give " + temporaryPath + " mode " + octal(options.mode), errno);
    if (options.fsync && ::fsync(temporary->fd()) != 0)
        return ioError(context, "cannot flush " + temporaryPath + " to disk", errno);
    if (const int closeError = temporary->close(); closeError != 0)
        return ioError(context, "cannot close " + temporaryPath, closeError);

    if (::renameat(directory.get(), temporary->name().c_str(), directory.get(), name.c_str()) != 0) {
        const int renameError = errno;
        if (renameError == EISDIR)
            return Error {"io", context + ": it is a directory"};
        return ioError(context, "cannot rename " + temporaryPath + " over it", renameError);
    }
    temporary->markRenamed();
    // Without this a power loss could bring back the old directory entry, or none at all.
    if (options.fsync && ::fsync(directory.get()) != 0)
        return ioError(context,
            "the new file is in place but its directory " + quoted(directoryPath) + " cannot be flushed to disk",
            errno);
    return size;
}

std::optional<Error> checkArguments(
    const std::filesystem::path &target, const AtomicWriteOptions &options, const std::string &context)
{
    if ((options.mode & ~static_cast<mode_t>(07777)) != 0)
        return Error {"invalid_mode", context + ": mode " + octal(options.mode) + " has bits outside 07777"};
    const std::filesystem::path name = target.filename();
    if (name.empty() || name == "." || name == "..")
        return Error {"invalid_path", context + ": the path does not end in a file name"};
    return std::nullopt;
}

} // namespace

Result<std::uint64_t> writeFileAtomically(
    const std::filesystem::path &target, std::string_view content, const AtomicWriteOptions &options)
{
    const std::string context = "cannot write " + quoted(target);
    if (auto invalid = checkArguments(target, options, context))
        return *invalid;
    return replaceAtomically(target, options, context, [&](int fd) -> Result<std::uint64_t> {
        if (const int writeError = writeAll(fd, content.data(), content.size()); writeError != 0)
            return ioError(context, "writing the temporary file failed", writeError);
        return static_cast<std::uint64_t>(content.size());
    });
}

Result<std::uint64_t> copyFileAtomically(
    const std::filesystem::path &target, const std::filesystem::path &source, const AtomicWriteOptions &options)
{
    const std::string context = "cannot copy " + quoted(source) + " to " + quoted(target);
    if (auto invalid = checkArguments(target, options, context))
        return *invalid;
    // O_NONBLOCK keeps open() from waiting for a writer when source is a FIFO; it is refused below.
    Descriptor input(::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (input.get() < 0)
        return ioError(context, "cannot open the source", errno);
    struct stat status { };
    if (::fstat(input.get(), &status) != 0)
        return ioError(context, "cannot inspect the source", errno);
    if (!S_ISREG(status.st_mode))
        return Error {"not_regular_file", context + ": the source is not a regular file"};
    const int flags = ::fcntl(input.get(), F_GETFL);
    if (flags < 0 || ::fcntl(input.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        return ioError(context, "cannot prepare the source for reading", errno);
    ::posix_fadvise(input.get(), 0, 0, POSIX_FADV_SEQUENTIAL);

    return replaceAtomically(target, options, context, [&](int fd) -> Result<std::uint64_t> {
        const std::unique_ptr<char[]> buffer(new char[copyChunkSize]);
        std::uint64_t total = 0;
        for (;;) {
            const ssize_t count = ::read(input.get(), buffer.get(), copyChunkSize);
            if (count < 0) {
                if (errno == EINTR)
                    continue;
                return ioError(context, "reading the source failed", errno);
            }
            if (count == 0)
                return total;
            if (const int writeError = writeAll(fd, buffer.get(), static_cast<std::size_t>(count)); writeError != 0)
                return ioError(context, "writing the temporary file failed", writeError);
            total += static_cast<std::uint64_t>(count);
        }
    });
}

} // namespace ccm
