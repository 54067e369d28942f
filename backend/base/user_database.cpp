// SPDX-License-Identifier: Apache-2.0
#include "base/user_database.h"

#include <cerrno>
#include <cstring>
#include <grp.h>
#include <pwd.h>

namespace ccm {

namespace {

// Entries of groups with thousands of members outgrow the usual buffer; an entry past the maximum
// is not a user database entry but a broken one.
constexpr std::size_t kInitialBuffer = 16 * 1024;
constexpr std::size_t kMaximumBuffer = 16 * 1024 * 1024;

/// Runs a reentrant lookup, growing the buffer while the entry does not fit, and hands the entry
/// found to convert.
template<typename Record, typename Entry, typename Lookup, typename Convert>
Result<std::optional<Entry>> lookUp(Lookup lookup, Convert convert)
{
    std::vector<char> buffer(kInitialBuffer);
    for (;;) {
        Record record {};
        Record *result = nullptr;
        const int error = lookup(&record, buffer.data(), buffer.size(), &result);
        if (error == ERANGE && buffer.size() < kMaximumBuffer) {
            buffer.resize(buffer.size() * 2);
            continue;
        }
        if (result != nullptr)
            return std::optional<Entry>(convert(*result));
        // POSIX says 0 for "no such entry"; getpwnam(3) lists these as meaning the same in practice.
        if (error == 0 || error == ENOENT || error == ESRCH || error == EBADF || error == EPERM)
            return std::optional<Entry>();
        return Error {"io", std::strerror(error)};
    }
}

UserEntry userEntry(const passwd &record)
{
    return UserEntry {record.pw_name, record.pw_uid, record.pw_gid};
}

GroupEntry groupEntry(const group &record)
{
    return GroupEntry {record.gr_name, record.gr_gid};
}

} // namespace

Result<std::optional<UserEntry>> findUser(const std::string &name)
{
    return lookUp<passwd, UserEntry>(
        [&name](passwd *entry, char *data, std::size_t size, passwd **result) {
            return ::getpwnam_r(name.c_str(), entry, data, size, result);
        },
        userEntry);
}

Result<std::optional<UserEntry>> findUser(uid_t uid)
{
    return lookUp<passwd, UserEntry>([uid](passwd *entry, char *data, std::size_t size,
                                         passwd **result) { return ::getpwuid_r(uid, entry, data, size, result); },
        userEntry);
}

Result<std::optional<GroupEntry>> findGroup(const std::string &name)
{
    return lookUp<group, GroupEntry>(
        [&name](group *entry, char *data, std::size_t size, group **result) {
            return ::getgrnam_r(name.c_str(), entry, data, size, result);
        },
        groupEntry);
}

Result<std::optional<GroupEntry>> findGroup(gid_t gid)
{
    return lookUp<group, GroupEntry>([gid](group *entry, char *data, std::size_t size,
                                         group **result) { return ::getgrgid_r(gid, entry, data, size, result); },
        groupEntry);
}

std::optional<std::vector<gid_t>> groupsOf(const std::string &user, gid_t primary)
{
    int count = 32;
    std::vector<gid_t> groups(static_cast<std::size_t>(count));
    while (::getgrouplist(user.c_str(), primary, groups.data(), &count) < 0 && count < 65536)
        groups.resize(static_cast<std::size_t>(count) + 1);
    if (count < 0 || static_cast<std::size_t>(count) > groups.size())
        return std::nullopt;
    groups.resize(static_cast<std::size_t>(count));
    return groups;
}

} // namespace ccm
