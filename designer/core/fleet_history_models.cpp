// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_history_models.h"

#include "designer/core/json_members.h"
#include "designer/core/rollout_model.h"

#include <QDateTime>
#include <QLocale>

#include <set>

namespace ccm::designer {
namespace {

const QString kObjectScheme = QStringLiteral("obj://");

const Json &arrayMember(const Json &object, const char *key)
{
    static const Json empty = Json::array();
    if (!object.is_object())
        return empty;
    const auto found = object.find(key);
    return found != object.end() && found->is_array() ? *found : empty;
}

} // namespace

ReleaseEntry ReleaseEntry::fromJson(const Json &release)
{
    if (!release.is_object())
        return {};
    return ReleaseEntry {stringOf(release, "name"), stringOf(release, "bucket"), stringOf(release, "digest"),
        integerOf(release, "size").value_or(0), stringOf(release, "time"), stringOf(release, "publisher"),
        stringOf(release, "signer"), stringOf(release, "message"), stringOf(release, "location")};
}

ReleaseListModel::ReleaseListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ReleaseListModel::setReleases(const Json &result)
{
    beginResetModel();
    m_releases.clear();
    for (const Json &release : arrayMember(result, "releases")) {
        if (release.is_object())
            m_releases.append(ReleaseEntry::fromJson(release));
    }
    endResetModel();
}

void ReleaseListModel::clear()
{
    beginResetModel();
    m_releases.clear();
    endResetModel();
}

int ReleaseListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_releases.size());
}

int ReleaseListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReleaseListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReleaseEntry &release = m_releases[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn:
            return localTimeText(release.time);
        case PublisherColumn:
            return release.publisher;
        case SignerColumn:
            return release.signer.isEmpty() ? tr("unsigned") : release.signer;
        case SizeColumn:
            return sizeText(release.size);
        case MessageColumn:
            return release.message;
        case DigestColumn:
            return release.digest;
        }
    }
    if (role == Qt::ToolTipRole)
        return tr("%1\n%2\nkept at %3").arg(release.digest, release.message, release.location);
    if (role == Qt::TextAlignmentRole && index.column() == SizeColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ReleaseListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case PublisherColumn:
        return tr("Publisher");
    case SignerColumn:
        return tr("Signer");
    case SizeColumn:
        return tr("Size");
    case MessageColumn:
        return tr("Message");
    case DigestColumn:
        return tr("Digest");
    }
    return {};
}

RolloutListModel::RolloutListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RolloutListModel::setRollouts(const Json &result)
{
    beginResetModel();
    m_rollouts.clear();
    for (const Json &rollout : arrayMember(result, "rollouts")) {
        if (rollout.is_object() && !stringOf(rollout, "id").isEmpty())
            m_rollouts.append(rollout);
    }
    endResetModel();
}

Json RolloutListModel::rollout(int row) const
{
    return row >= 0 && row < m_rollouts.size() ? m_rollouts[row] : Json();
}

int RolloutListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rollouts.size());
}

int RolloutListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RolloutListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || role != Qt::DisplayRole)
        return {};
    const Json &rollout = m_rollouts[index.row()];
    switch (index.column()) {
    case CreatedColumn:
        return localTimeText(stringOf(rollout, "created"));
    case StateColumn:
        return RolloutModel::stateText(stringOf(rollout, "state"));
    case BucketColumn:
        return stringOf(rollout, "bucket");
    case RingsColumn: {
        QStringList rings;
        for (const Json &ring : arrayMember(rollout, "rings")) {
            if (ring.is_object() && !stringOf(ring, "name").isEmpty())
                rings << stringOf(ring, "name");
        }
        return rings.join(QStringLiteral(" → "));
    }
    case MessageColumn:
        return stringOf(rollout, "message");
    case IdColumn:
        return stringOf(rollout, "id");
    }
    return {};
}

QVariant RolloutListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CreatedColumn:
        return tr("Started");
    case StateColumn:
        return tr("State");
    case BucketColumn:
        return tr("Bucket");
    case RingsColumn:
        return tr("Rings");
    case MessageColumn:
        return tr("Message");
    case IdColumn:
        return tr("Id");
    }
    return {};
}

QStringList watchedObjects(const Json &status)
{
    std::set<QString> objects;
    for (const Json &host : arrayMember(status, "hosts")) {
        for (const Json &run : arrayMember(host, "runs")) {
            const QString source = stringOf(run, "source");
            QString bucket;
            QString name;
            if (splitObjectUrl(source, &bucket, &name))
                objects.insert(source);
        }
    }
    return QStringList(objects.begin(), objects.end());
}

bool splitObjectUrl(const QString &url, QString *bucket, QString *name)
{
    if (!url.startsWith(kObjectScheme))
        return false;
    const QString path = url.mid(kObjectScheme.size());
    const qsizetype slash = path.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == path.size() - 1)
        return false;
    *bucket = path.left(slash);
    *name = path.mid(slash + 1);
    return true;
}

QString sizeText(qint64 bytes)
{
    if (bytes < 1024)
        return QObject::tr("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QObject::tr("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QObject::tr("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

QString localTimeText(const QString &rfc3339)
{
    const QDateTime time = QDateTime::fromString(rfc3339, Qt::ISODate);
    if (!time.isValid())
        return rfc3339;
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace ccm::designer
