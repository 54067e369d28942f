// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace ccm::designer {

/// How long after the last edit a document's autosave copy is written, unless set otherwise.
inline constexpr int kDefaultAutosaveDelayMs = 5000;

/// One autosaved copy of a document's text.
struct RecoveryCopy {
    QString recoveryPath; ///< the copy itself
    QString originalPath; ///< the document's file; empty for an untitled document
    /// For the copy of a file a manifest uses (a template), that manifest; empty for a manifest's
    /// own copy.
    QString manifestPath;
    QDateTime savedAt;
    QString text; ///< filled by RecoveryStore::read() only
};

/// Autosave copies of documents with unsaved changes, kept so that work survives a crash. A copy
/// is a small JSON file (original path, time, text) named after a hash of the document's path,
/// or after a key made once per untitled document, in one directory.
class RecoveryStore {
public:
    /// What a copy's time is read from: the current UTC time unless a test orders copies itself.
    using Clock = std::function<QDateTime()>;

    /// directory defaults to defaultDirectory(); clock to QDateTime::currentDateTimeUtc.
    explicit RecoveryStore(QString directory = defaultDirectory(), Clock clock = {});

    /// The "recovery" directory under QStandardPaths::AppLocalDataLocation.
    static QString defaultDirectory();
    /// A key that names an untitled document's copy for as long as the document lives.
    static QString newUntitledKey();

    [[nodiscard]] QString directory() const { return m_directory; }
    /// Where the copy of a document goes: by its path, or by untitledKey when it has none.
    [[nodiscard]] QString recoveryPathFor(const QString &documentPath, const QString &untitledKey = {}) const;

    /// Writes a copy atomically, creating the directory. A non-empty @p manifestPath marks it as
    /// the copy of a file that manifest uses. False with *error set on failure.
    bool write(const QString &recoveryPath, const QString &documentPath, const QString &text, QString *error,
        const QString &manifestPath = {}) const;
    /// The copies present, newest first, without their text. Files that are not copies are
    /// skipped.
    [[nodiscard]] QList<RecoveryCopy> list() const;
    /// One copy with its text; nullopt with *error set when it cannot be read.
    std::optional<RecoveryCopy> read(const QString &recoveryPath, QString *error) const;
    /// Deletes a copy; true when it is gone.
    bool remove(const QString &recoveryPath) const;

private:
    QString m_directory;
    Clock m_clock;
};

} // namespace ccm::designer
