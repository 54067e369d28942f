// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_status_model.h"

#include "designer/core/json_members.h"

#include <QBrush>
#include <QColor>

namespace ccm::designer {
namespace {

constexpr qint64 kMinute = 60;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

} // namespace

FleetStatusModel::FleetStatusModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int FleetStatusModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_hosts.size());
}

int FleetStatusModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FleetStatusModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Host &host = m_hosts[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(host, index.column());
    case Qt::ToolTipRole:
        return toolTip(host);
    case Qt::ForegroundRole:
        if (host.stale && (index.column() == HostColumn || index.column() == LastRunColumn))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case Qt::TextAlignmentRole:
        return index.column() >= ChangedColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case StaleRole:
        return host.stale;
    case AgeRole:
        return host.age;
    default:
        return {};
    }
}

QVariant FleetStatusModel::display(const Host &host, int column) const
{
    switch (column) {
    case HostColumn:
        return host.stale ? tr("⚠ %1").arg(host.identity) : host.identity;
    case LastRunColumn:
        return host.stale ? tr("%1 (stale)").arg(relativeAge(host.age)) : relativeAge(host.age);
    case ChangedColumn:
        return host.changed;
    case FailedColumn:
        return host.failed;
    case TotalColumn:
        return host.total;
    default:
        return {};
    }
}

QString FleetStatusModel::toolTip(const Host &host) const
{
    QString text = tr("%1: last run ended %2 (%3)").arg(host.identity, relativeAge(host.age), host.time);
    if (host.stale)
        text += QLatin1Char('\n')
            + tr("Stale: no run for more than twice the agent's interval. Check that the agent runs and reaches "
                 "the NATS server.");
    if (!host.failedResources.isEmpty())
        text += QLatin1Char('\n') + tr("Failed: %1").arg(host.failedResources.join(QLatin1String(", ")));
    return text;
}

QVariant FleetStatusModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case HostColumn:
        return tr("Host");
    case LastRunColumn:
        return tr("Last run");
    case ChangedColumn:
        return tr("Changed");
    case FailedColumn:
        return tr("Failed");
    case TotalColumn:
        return tr("Resources");
    default:
        return {};
    }
}

void FleetStatusModel::setStatus(const Json &result)
{
    std::vector<Host> hosts;
    const Json list = result.is_object() ? result.value("hosts", Json::array()) : Json::array();
    for (const Json &item : list) {
        if (!item.is_object() || stringOf(item, "identity").isEmpty())
            continue;
        Host host;
        host.identity = stringOf(item, "identity");
        host.time = stringOf(item, "time");
        host.age = integerOf(item, "age_seconds").value_or(0);
        host.stale = item.value("stale", false) == true;
        const Json summary = item.value("summary", Json::object());
        if (summary.is_object()) {
            host.changed = int(integerOf(summary, "changed").value_or(0));
            host.failed = int(integerOf(summary, "failed").value_or(0));
            host.total = int(integerOf(summary, "total").value_or(0));
        }
        for (const Json &resource : item.value("failed_resources", Json::array())) {
            if (resource.is_string())
                host.failedResources << QString::fromStdString(resource.get<std::string>());
        }
        hosts.push_back(std::move(host));
    }
    // One answer replaces the whole table: a refresh, not a stream.
    beginResetModel();
    m_hosts = std::move(hosts);
    endResetModel();
}

int FleetStatusModel::staleCount() const
{
    return int(std::count_if(m_hosts.begin(), m_hosts.end(), [](const Host &host) { return host.stale; }));
}

QString FleetStatusModel::relativeAge(qint64 seconds)
{
    if (seconds < kMinute)
        return tr("just now");
    if (seconds < kHour)
        return tr("%1 min ago").arg(seconds / kMinute);
    if (seconds < kDay)
        return tr("%1 h ago").arg(seconds / kHour);
    return tr("%1 d ago").arg(seconds / kDay);
}

} // namespace ccm::designer
