// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "util/command_runner.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace ccm::daemon {

/// What a peer may do.
enum class Role {
    /// backend.hello only.
    None,
    /// Validate, render, facts and noop applies.
    Preview,
    /// Everything.
    Apply,
};

/// "none", "preview" or "apply", as backend.hello reports it.
std::string_view roleName(Role role);

/// Who is on the other end of a connection.
struct Peer {
    uid_t uid = 0;
    gid_t gid = 0;
    /// The groups of the peer's user, primary group included; just gid when the user is unknown.
    std::vector<gid_t> groups;
    /// The user name, or the uid in decimal when the uid has no user.
    std::string user;
};

/// The peer of a connected Unix socket from SO_PEERCRED, with its user's groups; nullopt when the
/// kernel does not tell.
std::optional<Peer> socketPeer(int fd);

/// A peer for a uid and gid: the user's name and groups from the user database.
Peer describePeer(uid_t uid, gid_t gid);

/// How the daemon decides roles.
enum class AuthMode {
    /// A system instance: root and group ccm-apply apply, group ccm-designer previews.
    System,
    /// A user's own instance: only the uid `owner` is served, with role apply.
    User,
};

/// The role of `peer`: in System mode from uid 0 and the groups ccm-apply and ccm-designer
/// (looked up now, so groups created while the daemon runs count); in User mode apply for
/// `owner` and none for everyone else.
Role peerRole(const Peer &peer, AuthMode mode, uid_t owner);

/// Whether `peer` could read the file at `path` by its permission bits: search permission on every
/// directory above it and read permission on the file, judged by owner, group and other bits the
/// way the kernel does for that uid and those groups (ACLs are not consulted, so this may refuse
/// what an ACL would allow, never the reverse). Root may read everything; a path that does not
/// exist reveals nothing and is allowed.
bool peerMayRead(const Peer &peer, const std::filesystem::path &path);

/// The credentials guard commands of a preview for `peer` run with.
Credentials peerCredentials(const Peer &peer);

/// While it lives, the calling thread opens and reads files with the file system identity of a
/// peer (its uid, gid and groups), so that what a manifest's templates read on that peer's behalf
/// is what the peer could read itself. Linux keeps these per thread when set with the raw system
/// calls, so the daemon's other threads keep their own. Needs root; in any other process it
/// changes nothing and active() is false.
class PeerFileAccess {
public:
    explicit PeerFileAccess(const Peer &peer);
    ~PeerFileAccess();
    PeerFileAccess(const PeerFileAccess &) = delete;
    PeerFileAccess &operator=(const PeerFileAccess &) = delete;

    /// Whether the thread now uses the peer's identity.
    [[nodiscard]] bool active() const { return m_active; }

private:
    bool m_active = false;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    std::vector<gid_t> m_groups;
};

} // namespace ccm::daemon
