// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/util/user_identity.h"

#include <optional>
#include <string_view>

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

/// Who is on the other end of a connection: the identity of its user.
using Peer = engine::UserIdentity;

/// The peer of a connected Unix socket from SO_PEERCRED, with its user's groups; nullopt when the
/// kernel does not tell.
std::optional<Peer> socketPeer(int fd);

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

} // namespace ccm::daemon
