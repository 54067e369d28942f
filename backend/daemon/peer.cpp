// SPDX-License-Identifier: Apache-2.0
#include "daemon/peer.h"

#include "base/user_database.h"

#include <algorithm>
#include <sys/socket.h>

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

} // namespace

std::optional<Peer> socketPeer(int fd)
{
    ucred credentials {};
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0 || length != sizeof credentials)
        return std::nullopt;
    return engine::describeUser(credentials.uid, credentials.gid);
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

} // namespace ccm::daemon
