// SPDX-License-Identifier: Apache-2.0
// Small helpers every test executable may use; Qt only, no project library. A helper that more
// than one test wants lives here, once: the tests of a directory compile in batches, where two
// file-local copies of one name clash.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QRandomGenerator>
#include <QString>

#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <unistd.h>

namespace ccm::test {

/// The Python the tests run their helper scripts with (CCM_PYTHON3: the distribution's first).
inline QString python3()
{
    return QStringLiteral(CCM_PYTHON3);
}

inline QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

/// A UTF-8 literal as a QString (QT_NO_CAST_FROM_ASCII forbids the implicit conversion).
inline QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// The file's content; empty when it cannot be read (or is not there).
inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The file's content, or "<unreadable>", which no expected content equals.
inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

/// Writes `content` to `path`, replacing it; false when that failed.
inline bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

/// The bytes as a string_view, for the functions that take text that way.
inline std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
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

/// A TCP port of the loopback interface that nothing listens on at the time of the call.
inline quint16 freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address);
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

} // namespace ccm::test
