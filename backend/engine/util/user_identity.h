// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/util/command_runner.h"

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ccm::engine {

struct RunOptions;

/// A user's identity as the kernel judges file access and runs processes: uid, gid and groups.
struct UserIdentity {
    uid_t uid = 0;
    gid_t gid = 0;
    /// The groups of the user, primary group included; just gid when the user is unknown.
    std::vector<gid_t> groups;
    /// The user name, or the uid in decimal when the uid has no user.
    std::string name;
};

/// The identity of a uid and gid: the user's name and groups from the user database.
UserIdentity describeUser(uid_t uid, gid_t gid);

/// Whether `user` could read the file at `path` by its permission bits: search permission on every
/// directory above it and read permission on the file, judged by owner, group and other bits the
/// way the kernel does for that uid and those groups (ACLs are not consulted, so this may refuse
/// what an ACL would allow, never the reverse). Root may read everything; a path that does not
/// exist reveals nothing and is allowed.
bool userMayRead(const UserIdentity &user, const std::filesystem::path &path);

/// The credentials commands run with as `user`.
Credentials userCredentials(const UserIdentity &user);

/// Makes a run act for `user` rather than for this process: every process the run starts (guards,
/// health checks, goss, provider commands, scaffold post commands) runs with the user's credentials, a file's diff is
/// shown only when the user may read the file, and, with `readFilesAsUser`, the manifest's own file reads (deferred
/// templates, child manifests) are made with the user's file system identity (ThreadFileIdentity; a process that is not
/// root reads as itself). The one way the daemon and the preview responder run a manifest for somebody else.
void runAsUser(RunOptions &options, const UserIdentity &user, bool readFilesAsUser);

/// While it lives, the calling thread opens and reads files with the file system identity of a
/// user (its uid, gid and groups), so that what a manifest's templates read on that user's behalf
/// is what the user could read itself. Linux keeps these per thread when set with the raw system
/// calls, so the process's other threads keep their own. Needs root; in any other process it
/// changes nothing and active() is false.
class ThreadFileIdentity {
public:
    explicit ThreadFileIdentity(const UserIdentity &user);
    ~ThreadFileIdentity();
    ThreadFileIdentity(const ThreadFileIdentity &) = delete;
    ThreadFileIdentity &operator=(const ThreadFileIdentity &) = delete;

    /// Whether the thread now uses the user's identity.
    [[nodiscard]] bool active() const { return m_active; }

private:
    bool m_active = false;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    std::vector<gid_t> m_groups;
};

} // namespace ccm::engine
