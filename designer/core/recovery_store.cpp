// SPDX-License-Identifier: Apache-2.0
#include "designer/core/recovery_store.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>
#include <utility>

namespace ccm::designer {
namespace {

constexpr auto kSuffix = "ccm-recovery";
/// Copies are the text of one manifest and a few fields; anything much larger is not one.
constexpr qint64 kMaxCopyBytes = 64 * 1024 * 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("ccm::designer::RecoveryStore", text);
}

std::optional<RecoveryCopy> parseCopy(const QString &path, bool withText, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read the recovery copy %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxCopyBytes) {
        if (error)
            *error = tr("The recovery copy %1 is too large.").arg(QDir::toNativeSeparators(path));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &parseError);
    const QJsonObject object = json.object();
    if (parseError.error != QJsonParseError::NoError || !object.value(QLatin1String("text")).isString()) {
        if (error)
            *error = tr("The recovery copy %1 is damaged.").arg(QDir::toNativeSeparators(path));
        return std::nullopt;
    }
    RecoveryCopy copy;
    copy.recoveryPath = path;
    copy.originalPath = object.value(QLatin1String("original")).toString();
    copy.manifestPath = object.value(QLatin1String("manifest")).toString();
    copy.savedAt = QDateTime::fromString(object.value(QLatin1String("saved")).toString(), Qt::ISODateWithMs);
    if (withText)
        copy.text = object.value(QLatin1String("text")).toString();
    return copy;
}

} // namespace

RecoveryStore::RecoveryStore(QString directory, Clock clock)
    : m_directory(std::move(directory))
    , m_clock(clock ? std::move(clock) : Clock(&QDateTime::currentDateTimeUtc))
{
}

QString RecoveryStore::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QLatin1String("/recovery");
}

QString RecoveryStore::newUntitledKey()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QString RecoveryStore::recoveryPathFor(const QString &documentPath, const QString &untitledKey) const
{
    QString name;
    if (documentPath.isEmpty()) {
        name = QLatin1String("untitled-") + untitledKey;
    } else {
        const QByteArray hash
            = QCryptographicHash::hash(QFileInfo(documentPath).absoluteFilePath().toUtf8(), QCryptographicHash::Sha256);
        name = QString::fromLatin1(hash.toHex().left(32));
    }
    return m_directory + QLatin1Char('/') + name + QLatin1Char('.') + QLatin1String(kSuffix);
}

bool RecoveryStore::write(const QString &recoveryPath, const QString &documentPath, const QString &text, QString *error,
    const QString &manifestPath) const
{
    if (!QDir().mkpath(QFileInfo(recoveryPath).absolutePath())) {
        if (error)
            *error = tr("Cannot create the recovery directory %1.")
                         .arg(QDir::toNativeSeparators(QFileInfo(recoveryPath).absolutePath()));
        return false;
    }
    QJsonObject object;
    object.insert(
        QLatin1String("original"), documentPath.isEmpty() ? QString() : QFileInfo(documentPath).absoluteFilePath());
    if (!manifestPath.isEmpty())
        object.insert(QLatin1String("manifest"), QFileInfo(manifestPath).absoluteFilePath());
    object.insert(QLatin1String("saved"), m_clock().toString(Qt::ISODateWithMs));
    object.insert(QLatin1String("text"), text);
    QSaveFile file(recoveryPath);
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Cannot write the recovery copy %1: %2")
                         .arg(QDir::toNativeSeparators(recoveryPath), file.errorString());
        return false;
    }
    return true;
}

QList<RecoveryCopy> RecoveryStore::list() const
{
    QList<RecoveryCopy> out;
    const QDir dir(m_directory);
    const QStringList names = dir.entryList({QLatin1String("*.") + QLatin1String(kSuffix)}, QDir::Files);
    for (const QString &name : names) {
        if (auto copy = parseCopy(dir.filePath(name), false, nullptr))
            out.append(std::move(*copy));
    }
    std::stable_sort(
        out.begin(), out.end(), [](const RecoveryCopy &a, const RecoveryCopy &b) { return a.savedAt > b.savedAt; });
    return out;
}

std::optional<RecoveryCopy> RecoveryStore::read(const QString &recoveryPath, QString *error) const
{
    return parseCopy(recoveryPath, true, error);
}

bool RecoveryStore::remove(const QString &recoveryPath) const
{
    return QFile::remove(recoveryPath) || !QFileInfo::exists(recoveryPath);
}

} // namespace ccm::designer
