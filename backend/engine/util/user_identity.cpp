// SPDX-License-Identifier: Apache-2.0
#include "engine/util/user_identity.h"

#include "base/user_database.h"
#include "engine/run.h"

#include <algorithm>
#include <cerrno>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ccm::engine {

namespace {

bool isMember(const UserIdentity &user, gid_t gid)
{
    return user.gid == gid || std::find(user.groups.begin(), user.groups.end(), gid) != user.groups.end();
}

/// The permission class of `user` on a file: the owner bits, the group bits or the other bits.
bool permits(const UserIdentity &user, const struct stat &info, mode_t ownerBit, mode_t groupBit, mode_t otherBit)
{
    if (info.st_uid == user.uid)
        return (info.st_mode & ownerBit) != 0;
    if (isMember(user, info.st_gid))
        return (info.st_mode & groupBit) != 0;
    return (info.st_mode & otherBit) != 0;
}

} // namespace

UserIdentity describeUser(uid_t uid, gid_t gid)
{
    UserIdentity identity;
    identity.uid = uid;
    identity.gid = gid;
    identity.name = std::to_string(uid);
    identity.groups = {gid};
    const auto user = findUser(uid);
    if (!user || !*user)
        return identity;
    identity.name = (*user)->name;
    if (auto groups = groupsOf((*user)->name, (*user)->gid))
        identity.groups = std::move(*groups);
    return identity;
}

bool userMayRead(const UserIdentity &user, const std::filesystem::path &path)
{
    if (user.uid == 0)
        return true;
    const std::filesystem::path absolute = path.lexically_normal();
    struct stat info { };
    if (::stat(absolute.c_str(), &info) != 0)
        return errno == ENOENT || errno == ENOTDIR;
    if (!permits(user, info, S_IRUSR, S_IRGRP, S_IROTH))
        return false;
    for (std::filesystem::path directory = absolute.parent_path(); !directory.empty();
         directory = directory.parent_path()) {
        struct stat directoryInfo { };
        if (::stat(directory.c_str(), &directoryInfo) != 0 || !permits(user, directoryInfo, S_IXUSR, S_IXGRP, S_IXOTH))
            return false;
        if (directory == directory.root_path())
            break;
    }
    return true;
}

Credentials userCredentials(const UserIdentity &user)
{
    return Credentials {user.uid, user.gid, user.groups};
}

void runAsUser(RunOptions &options, const UserIdentity &user, bool readFilesAsUser)
{
    options.processCredentials = userCredentials(user);
    options.mayShowDiff = [user](const std::filesystem::path &path) { return userMayRead(user, path); };
    if (!readFilesAsUser)
        return;
    options.readAsCaller = [user](const std::function<void()> &read) {
        if (::geteuid() != 0) {
            read();
            return true;
        }
        const ThreadFileIdentity identity(user);
        if (!identity.active())
            return false;
        read();
        return true;
    };
}

namespace {

// The C library's setgroups changes every thread of the process; the system call changes only
// the calling one, and setfsuid and setfsgid are per thread either way.
bool setThreadGroups(const std::vector<gid_t> &groups)
{
    return ::syscall(SYS_setgroups, groups.size(), groups.data()) == 0;
}

uid_t currentFsUid()
{
    return static_cast<uid_t>(::syscall(SYS_setfsuid, static_cast<uid_t>(-1)));
}

gid_t currentFsGid()
{
    return static_cast<gid_t>(::syscall(SYS_setfsgid, static_cast<gid_t>(-1)));
}

} // namespace

ThreadFileIdentity::ThreadFileIdentity(const UserIdentity &user)
{
    if (::geteuid() != 0)
        return;
    m_uid = currentFsUid();
    m_gid = currentFsGid();
    const int count = ::getgroups(0, nullptr);
    if (count < 0)
        return;
    m_groups.resize(static_cast<std::size_t>(count));
    if (::getgroups(count, m_groups.data()) != count)
        return;
    // Groups and gid first: dropping the uid from 0 also drops the right to change them.
    if (!setThreadGroups(user.groups))
        return;
    ::syscall(SYS_setfsgid, user.gid);
    ::syscall(SYS_setfsuid, user.uid);
    m_active = currentFsUid() == user.uid && currentFsGid() == user.gid;
    if (!m_active) {
        ::syscall(SYS_setfsuid, m_uid);
        ::syscall(SYS_setfsgid, m_gid);
        setThreadGroups(m_groups);
    }
}

ThreadFileIdentity::~ThreadFileIdentity()
{
    if (!m_active)
        return;
    ::syscall(SYS_setfsuid, m_uid);
    ::syscall(SYS_setfsgid, m_gid);
    setThreadGroups(m_groups);
}

} // namespace ccm::engine
