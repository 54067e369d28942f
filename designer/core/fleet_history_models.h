// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>
#include <QStringList>

namespace ccm::designer {

/// One release of an object (fleet.releases, bundle.publish, fleet.rollback).
struct ReleaseEntry {
    QString name;
    QString bucket;
    QString digest;
    qint64 size = 0;
    QString time; ///< RFC 3339
    QString publisher;
    QString signer; ///< fingerprint; empty when unsigned
    QString message;
    QString location; ///< obj:// URL of the kept copy, for bundle.open

    /// Reads a RELEASE object; anything missing or of another kind reads as empty.
    static ReleaseEntry fromJson(const ccm::Json &release);
};

/// The release history of an object, newest first: time, publisher, signer, size, message, digest.
class ReleaseListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { TimeColumn, PublisherColumn, SignerColumn, SizeColumn, MessageColumn, DigestColumn, ColumnCount };

    explicit ReleaseListModel(QObject *parent = nullptr);

    /// Shows the "releases" of a fleet.releases result.
    void setReleases(const ccm::Json &result);
    void clear();
    [[nodiscard]] ReleaseEntry release(int row) const { return m_releases.value(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ReleaseEntry> m_releases;
};

/// The rollouts of fleet.rollouts, newest first: when, what, where to, its state and who runs it.
class RolloutListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { CreatedColumn, StateColumn, BucketColumn, RingsColumn, MessageColumn, IdColumn, ColumnCount };

    explicit RolloutListModel(QObject *parent = nullptr);

    /// Shows the "rollouts" of a fleet.rollouts result.
    void setRollouts(const ccm::Json &result);
    /// The ROLLOUT record of `row`; null when there is none.
    [[nodiscard]] ccm::Json rollout(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ccm::Json> m_rollouts;
};

/// The obj:// objects agents watch, read from the runs' "source" of a fleet.status result: the
/// distinct obj://BUCKET/NAME sources, sorted.
[[nodiscard]] QStringList watchedObjects(const ccm::Json &status);

/// Splits obj://BUCKET/NAME into its bucket and name; false when `url` is not of that form.
bool splitObjectUrl(const QString &url, QString *bucket, QString *name);

/// A size in bytes for people: "812 B", "14.2 KiB", "3.1 MiB".
[[nodiscard]] QString sizeText(qint64 bytes);

/// An RFC 3339 time in local time, "2026-11-29 01:35:13"; the text itself when it does not parse.
[[nodiscard]] QString localTimeText(const QString &rfc3339);

} // namespace ccm::designer
