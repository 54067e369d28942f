// SPDX-License-Identifier: Apache-2.0
// Small helpers every test executable may use; Qt only, no project library.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QRandomGenerator>
#include <QString>

#include <string>

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
