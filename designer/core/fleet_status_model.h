// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace ccm::designer {

/// The answer of fleet.status as a table: a row per host with the age of its last run, the
/// resources it changed and failed, their total, and whether it is stale (no run for more than
/// twice its interval plus a minute: the agent may be stopped or cut off).
class FleetStatusModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { HostColumn, LastRunColumn, ChangedColumn, FailedColumn, TotalColumn, ColumnCount };
    enum Role {
        StaleRole = Qt::UserRole + 1, ///< bool
        AgeRole, ///< qint64: seconds since the last run ended
    };

    explicit FleetStatusModel(QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Replaces the rows with the hosts of a fleet.status result; entries that are not objects or
    /// have no identity are skipped.
    void setStatus(const ccm::Json &result);
    [[nodiscard]] int staleCount() const;

    /// "just now", "5 min ago", "3 h ago", "2 d ago".
    [[nodiscard]] static QString relativeAge(qint64 seconds);

private:
    struct Host {
        QString identity;
        QString time;
        qint64 age = 0;
        bool stale = false;
        int changed = 0;
        int failed = 0;
        int total = 0;
        QStringList failedResources;
    };
    [[nodiscard]] QVariant display(const Host &host, int column) const;
    [[nodiscard]] QString toolTip(const Host &host) const;

    std::vector<Host> m_hosts;
};

} // namespace ccm::designer
