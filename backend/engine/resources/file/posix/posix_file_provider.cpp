// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/file/posix/posix_file_provider.h"

#include "base/c_handle.h"
#include "base/file_reading.h"
#include "base/sha256.h"
#include "base/text.h"
#include "base/unique_fd.h"
#include "base/user_database.h"
#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/util/atomic_file.h"
#include "engine/util/checksum_read_ahead.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <limits>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ccm::engine {

namespace {

std::optional<std::string> userName(uid_t uid)
{
    const auto entry = findUser(uid);
    return entry && *entry ? std::optional<std::string>((*entry)->name) : std::nullopt;
}

std::optional<std::string> groupName(gid_t gid)
{
    const auto entry = findGroup(gid);
    return entry && *entry ? std::optional<std::string>((*entry)->name) : std::nullopt;
}

/// The name of an id from the cache, or looked up and kept when the database has one; the id as
/// text otherwise, asked again next time.
template<typename Id>
std::string cachedName(
    std::unordered_map<Id, std::string> &cache, Id id, std::optional<std::string> (*lookUpName)(Id))
{
    if (const auto known = cache.find(id); known != cache.end())
        return known->second;
    auto name = lookUpName(id);
    if (!name)
        return std::to_string(id);
    return cache.emplace(id, std::move(*name)).first->second;
}

/// A numeric uid or gid. The all-ones value is refused: chown(2) reads it as "leave unchanged".
template<typename Id> Result<Id> numericId(const std::string &text, const char *what)
{
    unsigned long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value >= std::numeric_limits<Id>::max())
        return Error {"invalid_id", std::string(what) + " id '" + text + "' is out of range"};
    return static_cast<Id>(value);
}

struct Attributes {
    unsigned mode = 0;
    uid_t uid = 0;
    gid_t gid = 0;
};

Result<Attributes> resolveAttributes(
    PosixFileProvider &provider, const std::string &owner, const std::string &group, const std::string &mode)
{
    auto bits = parseFileMode(mode);
    if (!bits)
        return bits.error();
    auto uid = provider.userId(owner);
    if (!uid)
        return uid.error();
    auto gid = provider.groupId(group);
    if (!gid)
        return gid.error();
    return Attributes {bits.value(), uid.value(), gid.value()};
}

std::chrono::system_clock::time_point modificationTime(const struct stat &info)
{
    const auto since = std::chrono::seconds(info.st_mtim.tv_sec) + std::chrono::nanoseconds(info.st_mtim.tv_nsec);
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(since));
}

using DirectoryHandle = CHandle<DIR, ::closedir>;

bool isDotEntry(const char *name)
{
    return std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0;
}

std::optional<bool> directoryIsEmpty(const std::filesystem::path &path)
{
    const DirectoryHandle directory(::opendir(path.c_str()));
    if (!directory)
        return std::nullopt;
    errno = 0;
    while (const dirent *entry = ::readdir(directory.get())) {
        if (!isDotEntry(entry->d_name))
            return false;
    }
    if (errno != 0)
        return std::nullopt;
    return true;
}

// Deeper levels of a tree being removed are closed and found again through "..", so a tree of any
// depth is removed with at most this many directories open.
constexpr std::size_t kOpenLevels = 32;

/// One directory of the branch being removed, with its name in its parent. The handle is closed
/// while the level is far above the one being worked on.
struct OpenLevel {
    DirectoryHandle handle;
    std::string name;
    dev_t device = 0;
    ino_t inode = 0;
};

/// The path of an entry of the deepest level, for messages.
std::filesystem::path branchPath(const std::vector<OpenLevel> &branch, const std::string &entry = {})
{
    std::filesystem::path path = branch.front().name;
    for (std::size_t i = 1; i < branch.size(); ++i)
        path /= branch[i].name;
    return entry.empty() ? path : path / entry;
}

/// Opens a directory without following a link; its handle, or the errno.
Result<OpenLevel, int> openLevel(int parent, const std::string &name, const char *at)
{
    const int fd = ::openat(parent, at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno;
    struct stat info { };
    DIR *handle = ::fstat(fd, &info) == 0 ? ::fdopendir(fd) : nullptr;
    if (!handle) {
        const int error = errno;
        ::close(fd);
        return error;
    }
    return OpenLevel {DirectoryHandle(handle), name, info.st_dev, info.st_ino};
}

/// Makes the directory above the finished level usable again when it was closed, checking through
/// device and inode that ".." still leads to it.
Result<void> reopenParent(std::vector<OpenLevel> &branch, const OpenLevel &finished, const std::filesystem::path &where)
{
    OpenLevel &parent = branch.back();
    if (parent.handle)
        return {};
    auto reopened = openLevel(::dirfd(finished.handle.get()), parent.name, "..");
    if (!reopened)
        return systemError("cannot open the parent of " + where.string(), reopened.error());
    if (reopened->device != parent.device || reopened->inode != parent.inode)
        return Error {"io", "cannot remove " + where.string() + ": the tree was moved while it was being removed"};
    parent.handle = std::move(reopened.value().handle);
    return {};
}

/// The root of removeTree when it cannot be opened as a directory.
Result<void> removeUnopenedRoot(const std::filesystem::path &root, int error)
{
    if (error == ENOENT)
        return {};
    // Replaced by a link or a file since it was inspected: that is removed as it is.
    if (error == ELOOP || error == ENOTDIR) {
        if (::unlink(root.c_str()) != 0 && errno != ENOENT)
            return systemError("cannot remove " + root.string(), errno);
        return {};
    }
    return systemError("cannot open " + root.string(), error);
}

/// Removes the emptied directory at the end of the branch, which then ends at its parent.
Result<void> removeFinishedLevel(std::vector<OpenLevel> &branch)
{
    const std::filesystem::path where = branchPath(branch);
    OpenLevel finished = std::move(branch.back());
    branch.pop_back();
    if (!branch.empty()) {
        if (auto reopened = reopenParent(branch, finished, where); !reopened)
            return reopened.error();
    }
    finished.handle.reset();
    const int parent = branch.empty() ? AT_FDCWD : ::dirfd(branch.back().handle.get());
    if (::unlinkat(parent, finished.name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
        return systemError("cannot remove " + where.string(), errno);
    return {};
}

Result<void> removeTree(const std::filesystem::path &root)
{
    auto top = openLevel(AT_FDCWD, root.string(), root.c_str());
    if (!top)
        return removeUnopenedRoot(root, top.error());

    // Iterative rather than recursive, so the depth of the tree cannot exhaust the stack.
    std::vector<OpenLevel> branch;
    branch.push_back(std::move(top).value());
    while (!branch.empty()) {
        DIR *directory = branch.back().handle.get();
        errno = 0;
        const dirent *entry = ::readdir(directory);
        if (!entry) {
            if (errno != 0)
                return systemError("cannot list " + branchPath(branch).string(), errno);
            if (auto removed = removeFinishedLevel(branch); !removed)
                return removed.error();
            continue;
        }
        const std::string name = entry->d_name;
        if (isDotEntry(name.c_str()))
            continue;
        const int fd = ::dirfd(directory);
        bool isDirectory = entry->d_type == DT_DIR;
        if (entry->d_type == DT_UNKNOWN) {
            struct stat info { };
            if (::fstatat(fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno == ENOENT)
                    continue;
                return systemError("cannot inspect " + branchPath(branch, name).string(), errno);
            }
            isDirectory = S_ISDIR(info.st_mode);
        }
        if (!isDirectory) {
            if (::unlinkat(fd, name.c_str(), 0) != 0 && errno != ENOENT)
                return systemError("cannot remove " + branchPath(branch, name).string(), errno);
            continue;
        }
        auto child = openLevel(fd, name, name.c_str());
        if (!child)
            return systemError("cannot open " + branchPath(branch, name).string(), child.error());
        branch.push_back(std::move(child).value());
        if (branch.size() > kOpenLevels)
            branch[branch.size() - kOpenLevels - 1].handle.reset();
    }
    return {};
}

std::string linkRefusal(const std::filesystem::path &path)
{
    return path.string() + " is a symbolic link; its target is not changed through it";
}

} // namespace

Result<FileState> PosixFileProvider::status(
    const std::filesystem::path &path, bool withChecksum, ChecksumReadAhead *readAhead)
{
    FileState state;
    struct stat info { };
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return state;
        return systemError("cannot inspect " + path.string(), errno);
    }
    if (S_ISLNK(info.st_mode)) {
        state.link = true;
        struct stat target { };
        if (::stat(path.c_str(), &target) == 0)
            info = target;
        else if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP)
            return systemError("cannot inspect the target of the link " + path.string(), errno);
    }
    state.ensure = S_ISDIR(info.st_mode) ? Ensure::Directory : Ensure::Present;
    state.uid = info.st_uid;
    state.gid = info.st_gid;
    state.owner = cachedUserName(info.st_uid);
    state.group = cachedGroupName(info.st_gid);
    state.mode = static_cast<unsigned>(info.st_mode & 07777);
    state.size = static_cast<std::uint64_t>(info.st_size);
    state.mtime = modificationTime(info);
    if (withChecksum && S_ISREG(info.st_mode)) {
        if (readAhead)
            state.checksum = readAhead->checksum(path, info);
        if (!state.checksum) {
            auto checksum = sha256File(path);
            if (!checksum)
                return checksum.error();
            state.checksum = std::move(checksum).value();
        }
    }
    if (S_ISDIR(info.st_mode))
        state.empty = directoryIsEmpty(path);
    return state;
}

Result<void> PosixFileProvider::createDirectory(
    const std::filesystem::path &path, const std::string &owner, const std::string &group, const std::string &mode)
{
    const std::string context = "cannot create directory " + path.string();
    auto attributes = resolveAttributes(*this, owner, group, mode);
    if (!attributes)
        return attributes.error().withContext(context);

    std::filesystem::path parent;
    for (const std::filesystem::path &part : path.parent_path()) {
        parent /= part;
        if (::mkdir(parent.c_str(), 0755) == 0) {
            // mkdir applies the umask; parents are meant to be 0755 whatever it is.
            if (::chmod(parent.c_str(), 0755) != 0)
                return systemError(context + ": cannot make " + parent.string() + " 0755", errno);
            continue;
        }
        if (errno != EEXIST)
            return systemError(context + ": cannot create " + parent.string(), errno);
        struct stat info { };
        if (::stat(parent.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
            return Error {"not_directory", context + ": " + parent.string() + " is not a directory"};
    }

    // Private until owner and mode are set, so no one can slip in before that.
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
        return systemError(context, errno);
    struct stat info { };
    if (::lstat(path.c_str(), &info) != 0)
        return systemError(context, errno);
    if (S_ISLNK(info.st_mode))
        return Error {"is_symlink", context + ": " + linkRefusal(path)};
    if (!S_ISDIR(info.st_mode))
        return Error {"not_directory", context + ": it exists and is not a directory"};

    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd)
        return systemError(context, errno);
    // The owner first: chown may clear set-ID bits, so the mode must come after it.
    const bool owned = ::fchown(fd.get(), attributes->uid, attributes->gid) == 0;
    const int chownError = errno;
    const bool permitted = owned && ::fchmod(fd.get(), attributes->mode) == 0;
    const int chmodError = errno;
    fd.reset();
    if (!owned)
        return systemError(context + ": cannot change its owner and group", chownError);
    if (!permitted)
        return systemError(context + ": cannot change its mode", chmodError);
    return {};
}

Result<void> PosixFileProvider::store(const std::filesystem::path &path, std::string_view content,
    const std::filesystem::path &source, const std::string &owner, const std::string &group, const std::string &mode)
{
    const std::string context = "cannot store " + path.string();
    auto attributes = resolveAttributes(*this, owner, group, mode);
    if (!attributes)
        return attributes.error().withContext(context);
    const std::filesystem::path parent = path.parent_path();
    struct stat info { };
    if (::stat(parent.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        return Error {"not_directory", context + ": " + parent.string() + " is not a directory"};

    AtomicWriteOptions options;
    options.mode = attributes->mode;
    options.uid = attributes->uid;
    options.gid = attributes->gid;
    options.sweep = &m_temporaries;
    auto written
        = source.empty() ? writeFileAtomically(path, content, options) : copyFileAtomically(path, source, options);
    if (!written)
        return written.error();
    return {};
}

Result<void> PosixFileProvider::setAttributes(
    const std::filesystem::path &path, const std::string &owner, const std::string &group, const std::string &mode)
{
    const std::string context = "cannot set attributes of " + path.string();
    auto attributes = resolveAttributes(*this, owner, group, mode);
    if (!attributes)
        return attributes.error().withContext(context);
    struct stat info { };
    if (::lstat(path.c_str(), &info) != 0)
        return systemError(context, errno);
    if (S_ISLNK(info.st_mode))
        return Error {"is_symlink", context + ": " + linkRefusal(path)};
    if (::fchownat(AT_FDCWD, path.c_str(), attributes->uid, attributes->gid, AT_SYMLINK_NOFOLLOW) != 0)
        return systemError(context + ": cannot change its owner and group", errno);
    if (::fchmodat(AT_FDCWD, path.c_str(), attributes->mode, AT_SYMLINK_NOFOLLOW) != 0) {
        const int error = errno;
        // The C library refuses with EOPNOTSUPP when the path became a link since the lstat.
        if ((error == EOPNOTSUPP || error == ENOTSUP) && ::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode))
            return Error {"is_symlink", context + ": " + linkRefusal(path)};
        return systemError(context + ": cannot change its mode", error);
    }
    return {};
}

Result<void> PosixFileProvider::remove(const std::filesystem::path &path, bool force)
{
    struct stat info { };
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return {};
        return systemError("cannot remove " + path.string(), errno);
    }
    if (!S_ISDIR(info.st_mode)) {
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            return systemError("cannot remove " + path.string(), errno);
        return {};
    }
    if (force)
        return removeTree(path);
    if (::rmdir(path.c_str()) != 0) {
        if (errno == ENOTEMPTY || errno == EEXIST)
            return directoryNotEmptyError(path);
        if (errno != ENOENT)
            return systemError("cannot remove " + path.string(), errno);
    }
    return {};
}

std::string PosixFileProvider::cachedUserName(uid_t uid)
{
    return cachedName(m_userNames, uid, userName);
}

std::string PosixFileProvider::cachedGroupName(gid_t gid)
{
    return cachedName(m_groupNames, gid, groupName);
}

Result<uid_t> PosixFileProvider::userId(const std::string &owner)
{
    if (owner.empty())
        return Error {"invalid_owner", "user name cannot be empty"};
    if (isAsciiDigits(owner))
        return numericId<uid_t>(owner, "user");
    if (const auto known = m_userIds.find(owner); known != m_userIds.end())
        return known->second;
    const auto entry = findUser(owner);
    if (!entry)
        return entry.error().withContext("could not lookup user '" + owner + "'");
    if (!*entry)
        return Error {"unknown_user", "could not lookup user '" + owner + "'"};
    m_userIds.emplace(owner, (*entry)->uid);
    return (*entry)->uid;
}

Result<gid_t> PosixFileProvider::groupId(const std::string &group)
{
    if (group.empty())
        return Error {"invalid_group", "group name cannot be empty"};
    if (isAsciiDigits(group))
        return numericId<gid_t>(group, "group");
    if (const auto known = m_groupIds.find(group); known != m_groupIds.end())
        return known->second;
    const auto entry = findGroup(group);
    if (!entry)
        return entry.error().withContext("could not lookup group '" + group + "'");
    if (!*entry)
        return Error {"unknown_group", "could not lookup group '" + group + "'"};
    m_groupIds.emplace(group, (*entry)->gid);
    return (*entry)->gid;
}

Result<std::string> PosixFileProvider::checksum(const std::filesystem::path &path)
{
    return sha256File(path);
}

Result<std::string> PosixFileProvider::readForDiff(const std::filesystem::path &path, std::size_t limit)
{
    return readTextFile(path, limit);
}

Result<std::optional<int>> PosixFileProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    return std::optional<int>(1);
}

std::unique_ptr<Provider> PosixFileProviderFactory::create(CommandRunner &) const
{
    return std::make_unique<PosixFileProvider>();
}

void registerPosixFileProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<PosixFileProviderFactory>());
}

} // namespace ccm::engine
