// SPDX-License-Identifier: Apache-2.0
#include "engine/util/atomic_file.h"

#include "base/unique_fd.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/file.h>
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
constexpr std::string_view suffixAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
// O_EXCL makes a clash harmless; retrying a few times only matters when someone floods the directory.
constexpr int createAttempts = 64;

std::string quoted(const std::filesystem::path &path)
{
    // Appended rather than "'" + path.string(): GCC 12 -O3 reports -Wrestrict on that (GCC bug 105329).
    std::string text = "'";
    text += path.string();
    text += '\'';
    return text;
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

/// The file being written under its temporary name; removed again unless it was renamed into place.
/// It holds an exclusive flock() on the file from just after its creation until it is destroyed,
/// through a second descriptor so that closing the written one early still reports close() errors:
/// the lock is what tells removeIfAbandoned that the file is still in use.
class TemporaryFile {
public:
    TemporaryFile(int directory, std::string name, int fd, int lock)
        : m_directory(directory)
        , m_name(std::move(name))
        , m_file(fd)
        , m_lock(lock)
    {
    }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;
    ~TemporaryFile()
    {
        // Unlinked while still locked, so no cleaner can have removed it and put another file
        // under the name in between.
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
    UniqueFd m_file;
    UniqueFd m_lock;
    bool m_renamed = false;
};

std::string randomSuffix()
{
    static constexpr std::uint64_t alphabetSize = suffixAlphabet.size();
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
        suffix.push_back(suffixAlphabet[bits % alphabetSize]);
        bits /= alphabetSize;
    }
    return suffix;
}

/// What every temporary name of targetName starts with; the random suffix follows.
std::string temporaryPrefixFor(const std::string &targetName)
{
    const std::size_t room = maximumNameLength - temporaryPrefix.size() - 1 - randomSuffixLength;
    return std::string(temporaryPrefix) + targetName.substr(0, room) + ".";
}

/// Whether candidate is a name temporaryName() makes: for the target whose prefix is given, or,
/// with an empty prefix, for any target.
bool isTemporaryName(std::string_view candidate, const std::string &prefix)
{
    std::string_view suffix;
    if (!prefix.empty()) {
        if (candidate.size() != prefix.size() + randomSuffixLength || !candidate.starts_with(prefix))
            return false;
        suffix = candidate.substr(prefix.size());
    } else {
        // The shortest is `.ccm-` + a one-character name + `.` + the suffix.
        if (candidate.size() < temporaryPrefix.size() + 2 + randomSuffixLength
            || !candidate.starts_with(temporaryPrefix) || candidate[candidate.size() - randomSuffixLength - 1] != '.')
            return false;
        suffix = candidate.substr(candidate.size() - randomSuffixLength);
    }
    return suffix.find_first_not_of(suffixAlphabet) == std::string_view::npos;
}

/// Whether a temporary file may be ours to remove: owned by this process's user or by the owner
/// the current write gives its target (a writer gives its temporary file that owner before the
/// rename).
bool ownedByUs(const struct stat &status, uid_t targetOwner)
{
    return status.st_uid == ::geteuid() || (targetOwner != static_cast<uid_t>(-1) && status.st_uid == targetOwner);
}

/// Removes the temporary file name in directory when an earlier writer left it behind when it died
/// (kill -9, a crash, a power loss), so that such files do not pile up beside their targets.
///
/// A writer holds an exclusive flock() on its temporary file from just after creating it until it
/// has renamed or removed it, and the kernel drops that lock when the writer dies however it dies.
/// So a temporary file that can be locked here has no live writer. The argument, step by step:
/// - Only names made by temporaryName() are looked at (the callers see to it), and only regular
///   files that ownedByUs() accepts. Symbolic links, directories, FIFOs and devices are never
///   opened: lstat says what the name is, O_NOFOLLOW|O_NONBLOCK keeps open() from following a link
///   or waiting on a FIFO swapped in since, and fstat of the opened file must show the same regular
///   file (device and inode) that lstat saw.
/// - flock() locks belong to the open file description, not to the process, so the lock taken
///   here conflicts with a writer in another thread of this process as well as in another process.
///   LOCK_NB: a file that is locked is in use (or another cleaner has it) and is left alone.
/// - A writer that creates its file and has not locked it yet can lose it here: its own flock()
///   then fails while this lock is held (it gives the name up and tries another), or succeeds
///   after the unlink below and fstat() shows no links left (it tries another name as well). It
///   never writes into a file that is no longer in the directory. This holds however long ago the
///   directory was listed: the name may have been remembered from a listing earlier in the run
///   (TemporarySweep), and everything is checked again here on the name as it is now.
/// - Between the lock and the unlink a writer may have renamed the file over its target (it held
///   the lock until then, so this lock came after the rename) and another writer may, however
///   unlikely, have created a new file under the same random name. The name is therefore looked up
///   again and only unlinked while it still refers to the locked inode. Nothing else can change it
///   in between: writers unlink only names they hold locked themselves and create with O_EXCL.
/// - Unlinking removes one directory entry; a hard link elsewhere to the same file keeps its data.
/// Any error just leaves that file in place: cleaning up is never a reason for the write to fail.
/// On NFS, flock() is emulated with POSIX record locks, which a process loses when it closes any
/// descriptor of the file; a writer there can lose its lock when it closes the written descriptor
/// before the rename, and a concurrent writer in that directory may then remove its file. The
/// rename then fails with an error and the target is left as it was; nothing is ever half written.
void removeIfAbandoned(int directory, const char *name, uid_t targetOwner)
{
    struct stat named { };
    if (::fstatat(directory, name, &named, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(named.st_mode)
        || !ownedByUs(named, targetOwner))
        return;
    const UniqueFd candidate(::openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    struct stat opened { };
    if (candidate.get() < 0 || ::fstat(candidate.get(), &opened) != 0 || !S_ISREG(opened.st_mode)
        || opened.st_dev != named.st_dev || opened.st_ino != named.st_ino || !ownedByUs(opened, targetOwner))
        return;
    if (::flock(candidate.get(), LOCK_EX | LOCK_NB) != 0)
        return;
    struct stat again { };
    if (::fstatat(directory, name, &again, AT_SYMLINK_NOFOLLOW) == 0 && again.st_dev == opened.st_dev
        && again.st_ino == opened.st_ino)
        ::unlinkat(directory, name, 0);
}

/// Calls visit with the name of every entry of directory that isTemporaryName() accepts for
/// prefix. Nothing is visited when the directory cannot be listed.
void forEachTemporaryName(int directory, const std::string &prefix, const std::function<void(const char *)> &visit)
{
    const int listing = ::openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listing < 0)
        return;
    DIR *stream = ::fdopendir(listing);
    if (!stream) {
        ::close(listing);
        return;
    }
    while (const dirent *entry = ::readdir(stream)) {
        if (isTemporaryName(entry->d_name, prefix))
            visit(entry->d_name);
    }
    ::closedir(stream);
}

/// Removes the abandoned temporary files of targetName in directory: what a write without a
/// TemporarySweep does.
void removeStaleTemporaries(int directory, const std::string &targetName, uid_t targetOwner)
{
    forEachTemporaryName(directory, temporaryPrefixFor(targetName),
        [&](const char *name) { removeIfAbandoned(directory, name, targetOwner); });
}

std::string temporaryName(const std::string &targetName)
{
    return temporaryPrefixFor(targetName) + randomSuffix();
}

/// Creates and locks a new temporary file for targetName in directory; nullptr and the errno in
/// error when that failed.
std::unique_ptr<TemporaryFile> createTemporary(int directory, const std::string &targetName, int &error)
{
    error = EEXIST;
    for (int attempt = 0; attempt < createAttempts; ++attempt) {
        std::string candidate = temporaryName(targetName);
        UniqueFd file(
            ::openat(directory, candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
        if (file.get() < 0) {
            if ((error = errno) == EEXIST)
                continue;
            return nullptr;
        }
        UniqueFd lock(::fcntl(file.get(), F_DUPFD_CLOEXEC, 0));
        if (lock.get() < 0) {
            error = errno;
            ::unlinkat(directory, candidate.c_str(), 0);
            return nullptr;
        }
        // A cleaner in another process took the fresh file for an abandoned one: it holds the lock
        // and removes the name, or has removed it already. Leave the name to it and pick another.
        // Neither case unlinks by name here, because the name may already belong to someone else.
        if (::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK)
                continue;
            // A file system without flock(): cleaners cannot lock either, so they never remove it.
        } else {
            struct stat status { };
            if (::fstat(file.get(), &status) == 0 && status.st_nlink == 0)
                continue;
        }
        return std::make_unique<TemporaryFile>(directory, std::move(candidate), file.release(), lock.release());
    }
    return nullptr;
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
    UniqueFd directory(::open(directoryPath.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.get() < 0)
        return ioError(context, "cannot open its directory " + quoted(directoryPath), errno);

    if (options.sweep)
        options.sweep->beforeWrite(directory.get(), options.uid);
    else
        removeStaleTemporaries(directory.get(), name, options.uid);
    int createError = 0;
    const std::unique_ptr<TemporaryFile> temporary = createTemporary(directory.get(), name, createError);
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

void TemporarySweep::beforeWrite(int directory, uid_t targetOwner)
{
    struct stat status { };
    if (::fstat(directory, &status) != 0)
        return;
    const auto [swept, first] = m_directories.try_emplace({status.st_dev, status.st_ino});
    Kept &kept = swept->second;
    if (first) {
        ++m_listings;
        forEachTemporaryName(directory, std::string(), [&](const char *name) {
            struct stat named { };
            if (::fstatat(directory, name, &named, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(named.st_mode)
                && !ownedByUs(named, targetOwner))
                kept.emplace(named.st_uid, name);
            else
                removeIfAbandoned(directory, name, targetOwner);
        });
        return;
    }
    if (targetOwner == static_cast<uid_t>(-1))
        return;
    const auto [begin, end] = kept.equal_range(targetOwner);
    for (auto it = begin; it != end; ++it)
        removeIfAbandoned(directory, it->second.c_str(), targetOwner);
    kept.erase(begin, end);
}

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
    UniqueFd input(::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
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
