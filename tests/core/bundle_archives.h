// SPDX-License-Identifier: Apache-2.0
#pragma once

// Gzip tar archives written member by member with libarchive, for tests that need bundles no
// writer of the project would make (hostile, tampered, hand-made).

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QList>
#include <QString>

#include <archive.h>
#include <archive_entry.h>
#include <memory>
#include <utility>

namespace ccm::test {

using Members = QList<std::pair<QByteArray, QByteArray>>;

/// A gzip tar archive at `path` holding `members` (name, content) as regular files, in order.
inline void writeArchive(const QString &path, const Members &members)
{
    std::unique_ptr<archive, decltype(&archive_write_free)> writer(archive_write_new(), archive_write_free);
    archive_write_set_format_pax_restricted(writer.get());
    archive_write_add_filter_gzip(writer.get());
    if (archive_write_open_filename(writer.get(), QFile::encodeName(path).constData()) != ARCHIVE_OK)
        qFatal("cannot write %s", qPrintable(path));
    for (const auto &[name, content] : members) {
        std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
        archive_entry_set_pathname(entry.get(), name.constData());
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_perm(entry.get(), 0644);
        archive_entry_set_size(entry.get(), content.size());
        archive_write_header(writer.get(), entry.get());
        archive_write_data(writer.get(), content.constData(), std::size_t(content.size()));
    }
    archive_write_close(writer.get());
}

/// The regular files of the gzip tar archive at `path`, (name, content) in archive order.
inline Members readArchive(const QString &path)
{
    Members members;
    std::unique_ptr<archive, decltype(&archive_read_free)> reader(archive_read_new(), archive_read_free);
    archive_read_support_filter_gzip(reader.get());
    archive_read_support_format_tar(reader.get());
    if (archive_read_open_filename(reader.get(), QFile::encodeName(path).constData(), 65536) != ARCHIVE_OK)
        qFatal("cannot read %s", qPrintable(path));
    archive_entry *entry = nullptr;
    while (archive_read_next_header(reader.get(), &entry) == ARCHIVE_OK) {
        if (archive_entry_filetype(entry) != AE_IFREG)
            continue;
        QByteArray content(qsizetype(archive_entry_size(entry)), '\0');
        archive_read_data(reader.get(), content.data(), std::size_t(content.size()));
        members.append({QByteArray(archive_entry_pathname(entry)), content});
    }
    return members;
}

/// One line of SHA256SUMS for `content` named `name`.
inline QByteArray sumsLine(const QByteArray &content, const QByteArray &name)
{
    return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex() + "  " + name + '\n';
}

} // namespace ccm::test
