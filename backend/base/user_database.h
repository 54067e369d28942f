// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ccm {

// Lookups in the user and group databases (files, LDAP, whatever NSS is configured with), safe to
// call from several threads. Each returns nullopt when there is no such entry and an "io" Error,
// with the C library's reason as its message, when the database could not be read.

struct UserEntry {
    std::string name;
    uid_t uid = 0;
    /// The user's primary group.
    gid_t gid = 0;
};

struct GroupEntry {
    std::string name;
    gid_t gid = 0;
};

Result<std::optional<UserEntry>> findUser(const std::string &name);
Result<std::optional<UserEntry>> findUser(uid_t uid);
Result<std::optional<GroupEntry>> findGroup(const std::string &name);
Result<std::optional<GroupEntry>> findGroup(gid_t gid);

/// Every group user is a member of, primary included; nullopt when the list cannot be had.
std::optional<std::vector<gid_t>> groupsOf(const std::string &user, gid_t primary);

} // namespace ccm
