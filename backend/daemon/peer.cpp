// SPDX-License-Identifier: Apache-2.0
#include "peer.h"

#include "user_database.h"

#include <algorithm>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ccm::daemon {

std::string_view roleName(Role role)
{
    switch (role) {
    case Role::None:
        return "none";
    case Role::Preview:
        return "preview";
    case Role::Apply:
        return "apply";
    }
    return "none";
}

namespace {

std::optional<gid_t> groupId(const std::string &name)
{
    const auto entry = findGroup(name);
    if (!entry || !*entry)
        return std::nullopt;
    return (*entry)->gid;
}

bool isMember(const Peer &peer, gid_t gid)
{
    return peer.gid == gid || std::find(peer.groups.begin(), peer.groups.end(), gid) != peer.groups.end();
}

/// The permission class of `peer` on a file: the owner bits, the group bits or the other bits.
bool permits(const Peer &peer, const struct stat &info, mode_t ownerBit, mode_t groupBit, mode_t otherBit)
{
    if (info.st_uid == peer.uid)
        return (info.st_mode & ownerBit) != 0;
    if (isMember(peer, info.st_gid))
        return (info.st_mode & groupBit) != 0;
    return (info.st_mode & otherBit) != 0;
}

} // namespace

Peer describePeer(uid_t uid, gid_t gid)
{
    Peer peer;
    peer.uid = uid;
    peer.gid = gid;
    peer.user = std::to_string(uid);
    peer.groups = {gid};
    const auto user = findUser(uid);
    if (!user || !*user)
        return peer;
    peer.user = (*user)->name;
    if (auto groups = groupsOf((*user)->name, (*user)->gid))
        peer.groups = std::move(*groups);
    return peer;
}

std::optional<Peer> socketPeer(int fd)
{
    ucred credentials {};
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 || length != sizeof credentials)
        return std::nullopt;
    return describePeer(credentials.uid, credentials.gid);
}

Role peerRole(const Peer &peer, AuthMode mode, uid_t owner)
{
    if (mode == AuthMode::User)
        return peer.uid == owner ? Role::Apply : Role::None;
    if (peer.uid == 0)
        return Role::Apply;
    if (const auto applyGroup = groupId("ccm-apply"); applyGroup && isMember(peer, *applyGroup))
        return Role::Apply;
    if (const auto designerGroup = groupId("ccm-designer"); designerGroup && isMember(peer, *designerGroup))
        return Role::Preview;
    return Role::None;
}

bool peerMayRead(const Peer &peer, const std::filesystem::path &path)
{
    if (peer.uid == 0)
        return true;
    const std::filesystem::path absolute = path.lexically_normal();
    struct stat info { };
    if (::stat(absolute.c_str(), &info) != 0)
        return errno == ENOENT || errno == ENOTDIR;
    if (!permits(peer, info, S_IRUSR, S_IRGRP, S_IROTH))
        return false;
    for (std::filesystem::path directory = absolute.parent_path(); !directory.empty();
         directory = directory.parent_path()) {
        struct stat directoryInfo { };
        if (::stat(directory.c_str(), &directoryInfo) != 0 || !permits(peer, directoryInfo, S_IXUSR, S_IXGRP, S_IXOTH))
            return false;
        if (directory == directory.root_path())
            break;
    }
    return true;
}

Credentials peerCredentials(const Peer &peer)
{
    return Credentials {peer.uid, peer.gid, peer.groups};
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

PeerFileAccess::PeerFileAccess(const Peer &peer)
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
    if (!setThreadGroups(peer.groups))
        return;
    ::syscall(SYS_setfsgid, peer.gid);
    ::syscall(SYS_setfsuid, peer.uid);
    m_active = currentFsUid() == peer.uid && currentFsGid() == peer.gid;
    if (!m_active) {
        ::syscall(SYS_setfsuid, m_uid);
        ::syscall(SYS_setfsgid, m_gid);
        setThreadGroups(m_groups);
    }
}

PeerFileAccess::~PeerFileAccess()
{
    if (!m_active)
        return;
    ::syscall(SYS_setfsuid, m_uid);
    ::syscall(SYS_setfsgid, m_gid);
    setThreadGroups(m_groups);
}

} // namespace ccm::daemon
