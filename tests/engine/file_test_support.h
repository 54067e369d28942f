// SPDX-License-Identifier: Apache-2.0
// What the file type and posix file provider tests share: paths between Qt and the system, and
// looking at files without following links.
#pragma once

#include "test_common.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <string>
#include <sys/fsuid.h>
#include <sys/stat.h>

namespace ccm::test {

/// A path in the system's encoding.
inline std::string local(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

/// lstat of path; st_mode is 0 when there is nothing there.
inline struct stat lstatOf(const QString &path)
{
    struct stat status { };
    if (::lstat(QFile::encodeName(path).constData(), &status) != 0)
        status.st_mode = 0;
    return status;
}

/// Makes the calling thread check file access as another user, without the root capabilities that
/// would bypass the checks, for as long as it lives.
class FilesystemIdentity {
public:
    FilesystemIdentity(uid_t uid, gid_t gid)
    {
        ::setfsgid(gid);
        ::setfsuid(uid);
    }
    FilesystemIdentity(const FilesystemIdentity &) = delete;
    FilesystemIdentity &operator=(const FilesystemIdentity &) = delete;
    ~FilesystemIdentity()
    {
        ::setfsuid(0);
        ::setfsgid(0);
    }
};

} // namespace ccm::test
