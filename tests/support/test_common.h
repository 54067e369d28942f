// SPDX-License-Identifier: Apache-2.0
// Small helpers every test executable may use; Qt only, no project library.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QRandomGenerator>
#include <QString>

#include <grp.h>
#include <pwd.h>
#include <string>
#include <unistd.h>

namespace ccm::test {

inline QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

/// Writes `content` to `path`, replacing it; false when that failed.
inline bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

/// The name of the user the test runs as, or its uid when it has none.
inline QString currentUserName()
{
    const passwd *entry = ::getpwuid(::getuid());
    return entry ? QString::fromUtf8(entry->pw_name) : QString::number(::getuid());
}

/// The name of the test's primary group, or its gid when it has none.
inline QString currentGroupName()
{
    const group *entry = ::getgrgid(::getgid());
    return entry ? QString::fromUtf8(entry->gr_name) : QString::number(::getgid());
}

/// `size` bytes from a generator seeded with `seed`: the same bytes on every run.
inline QByteArray randomBytes(qsizetype size, quint32 seed)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator generator(seed);
    for (char &byte : bytes)
        byte = static_cast<char>(generator.bounded(256));
    return bytes;
}

} // namespace ccm::test
