// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_preview_model.h"

#include "designer/core/json_members.h"

#include <QTimer>

namespace ccm::designer {
namespace {

constexpr int kNoOutcome = -1;

bool isChange(int outcome)
{
    return outcome == int(Outcome::Changed) || outcome == int(Outcome::Refreshed);
}

bool isFailure(int outcome)
{
    return outcome == int(Outcome::Failed) || outcome == int(Outcome::Unmet);
}

bool isFinal(FleetHostState state)
{
    return state == FleetHostState::Done || state == FleetHostState::Failed || state == FleetHostState::Declined;
}

std::optional<FleetHostState> stateNamed(const QString &name)
{
    static const QHash<QString, FleetHostState> states {{QStringLiteral("accepted"), FleetHostState::Accepted},
        {QStringLiteral("running"), FleetHostState::Running}, {QStringLiteral("done"), FleetHostState::Done},
        {QStringLiteral("failed"), FleetHostState::Failed}, {QStringLiteral("declined"), FleetHostState::Declined},
        {QStringLiteral("silent"), FleetHostState::Silent}};
    const auto found = states.find(name);
    if (found == states.end())
        return std::nullopt;
    return *found;
}

QString symbolOf(int outcome)
{
    switch (Outcome(outcome)) {
    case Outcome::Stable:
        return QStringLiteral("✓");
    case Outcome::Changed:
        return QStringLiteral("●");
    case Outcome::Failed:
        return QStringLiteral("✗");
    case Outcome::Skipped:
        return QStringLiteral("–");
    case Outcome::Unmet:
        return QStringLiteral("!");
    case Outcome::Refreshed:
        return QStringLiteral("↻");
    }
    return {};
}

/// What fits a narrow column header: the name without its type and, for paths, the last part.
QString shortName(const QString &resource)
{
    const QString name = resource.section(QLatin1Char('#'), 1);
    const QString last = name.section(QLatin1Char('/'), -1, -1, QString::SectionSkipEmpty);
    return last.isEmpty() ? name : last;
}

quint64 cellKey(int host, int resource)
{
    return (quint64(quint32(host)) << 32) | quint32(resource);
}

} // namespace

FleetPreviewModel::FleetPreviewModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int FleetPreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 1 + m_shownHosts;
}

int FleetPreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstResourceColumn + m_shownResources;
}

QVariant FleetPreviewModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == TotalsRole)
        return index.row() == kTotalsRow;
    if (index.row() == kTotalsRow)
        return totalsData(index.column(), role);
    return hostData(m_hosts[size_t(index.row() - 1)], index.column(), role);
}

QVariant FleetPreviewModel::totalsData(int column, int role) const
{
    if (column >= FirstResourceColumn) {
        const Resource &resource = m_resources[size_t(column - FirstResourceColumn)];
        if (role == ChangedCountRole)
            return resource.changed;
        if (role == FailedCountRole)
            return resource.failed;
        if (role == Qt::DisplayRole && resource.failed > 0)
            return tr("%1 ✗").arg(resource.failed);
        if (role == Qt::DisplayRole && resource.changed > 0)
            return tr("%1 ●").arg(resource.changed);
        if (role == Qt::ToolTipRole)
            return tr("%1: would change on %2 hosts, failed on %3")
                .arg(resource.name)
                .arg(resource.changed)
                .arg(resource.failed);
        return {};
    }
    if (role == ChangedCountRole || (role == Qt::DisplayRole && column == ChangedColumn))
        return m_changedTotal;
    if (role == FailedCountRole || (role == Qt::DisplayRole && column == FailedColumn))
        return m_failedTotal;
    if (role == Qt::DisplayRole && column == HostColumn)
        return tr("All hosts (%1)").arg(hostCount());
    if (role == Qt::DisplayRole && column == StateColumn)
        return tr("%1 answered").arg(answeredCount());
    if (role == Qt::ToolTipRole && !m_notice.isEmpty())
        return m_notice;
    return {};
}

QVariant FleetPreviewModel::hostData(const Host &host, int column, int role) const
{
    if (column >= FirstResourceColumn)
        return cellData(host, column - FirstResourceColumn, role);
    if (role == ChangedCountRole)
        return host.changed;
    if (role == FailedCountRole)
        return host.failed;
    if (role == HostStateRole)
        return int(host.state);
    if (role == Qt::ToolTipRole && column == StateColumn && !host.message.isEmpty())
        return host.message;
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case HostColumn:
        return host.identity;
    case StateColumn:
        return stateText(host);
    case ChangedColumn:
        return host.changed;
    case FailedColumn:
        return host.failed;
    default:
        return {};
    }
}

QVariant FleetPreviewModel::cellData(const Host &host, int resource, int role) const
{
    const int outcome = size_t(resource) < host.cells.size() ? host.cells[size_t(resource)] : kNoOutcome;
    if (role == OutcomeRole)
        return outcome;
    if (outcome == kNoOutcome)
        return {};
    if (role == Qt::DisplayRole)
        return symbolOf(outcome);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1 on %2: %3")
                          .arg(m_resources[size_t(resource)].name, host.identity, outcomeName(Outcome(outcome), true));
        const auto event = m_events.find(cellKey(int(&host - m_hosts.data()), resource));
        if (const QString message = event == m_events.end() ? QString() : eventMessage(event->second);
            !message.isEmpty())
            tip += QLatin1Char('\n') + message;
        return tip;
    }
    return {};
}

QString FleetPreviewModel::stateText(const Host &host) const
{
    switch (host.state) {
    case FleetHostState::Accepted:
        return tr("accepted");
    case FleetHostState::Running:
        return host.total > 0 ? tr("running %1/%2").arg(host.done).arg(host.total) : tr("running");
    case FleetHostState::Done:
        return tr("done");
    case FleetHostState::Failed:
        return tr("failed");
    case FleetHostState::Declined:
        return tr("declined");
    case FleetHostState::Silent:
        return tr("silent");
    }
    return {};
}

QVariant FleetPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section >= FirstResourceColumn) {
        const QString &name = m_resources[size_t(section - FirstResourceColumn)].name;
        if (role == Qt::DisplayRole)
            return shortName(name);
        if (role == Qt::ToolTipRole)
            return name;
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case HostColumn:
        return tr("Host");
    case StateColumn:
        return tr("State");
    case ChangedColumn:
        return tr("Changes");
    default:
        return tr("Failures");
    }
}

void FleetPreviewModel::clear()
{
    beginResetModel();
    m_hosts.clear();
    m_resources.clear();
    m_hostIndex.clear();
    m_resourceIndex.clear();
    m_events.clear();
    m_shownHosts = 0;
    m_shownResources = 0;
    m_dirtyFirst = m_dirtyLast = -1;
    m_finished = false;
    m_notice.clear();
    m_changedTotal = m_failedTotal = 0;
    m_stateCounts.fill(0);
    endResetModel();
}

int FleetPreviewModel::hostIndex(const QString &identity)
{
    const auto found = m_hostIndex.constFind(identity);
    if (found != m_hostIndex.constEnd())
        return *found;
    const int index = int(m_hosts.size());
    Host host;
    host.identity = identity;
    m_hosts.push_back(std::move(host));
    ++m_stateCounts[size_t(FleetHostState::Accepted)];
    m_hostIndex.insert(identity, index);
    return index;
}

int FleetPreviewModel::resourceIndex(const QString &resource)
{
    const auto found = m_resourceIndex.constFind(resource);
    if (found != m_resourceIndex.constEnd())
        return *found;
    const int index = int(m_resources.size());
    Resource column;
    column.name = resource;
    m_resources.push_back(std::move(column));
    m_resourceIndex.insert(resource, index);
    return index;
}

void FleetPreviewModel::addHostReport(const Json &params)
{
    if (!params.is_object())
        return;
    const QString identity = stringOf(params, "identity");
    const auto state = stateNamed(stringOf(params, "state"));
    if (identity.isEmpty() || !state)
        return;
    const int host = hostIndex(identity);
    Host &entry = m_hosts[size_t(host)];
    // Reports may overtake each other: a host that finished stays finished.
    if (isFinal(entry.state) && !isFinal(*state))
        return markDirty(host);
    if (*state == FleetHostState::Running) {
        entry.done = int(integerOf(params, "done").value_or(0));
        entry.total = int(integerOf(params, "total").value_or(0));
        entry.current = stringOf(params, "current");
    }
    setHostState(host, *state, stringOf(params, "message"));
}

void FleetPreviewModel::setHostState(int host, FleetHostState state, const QString &message)
{
    Host &entry = m_hosts[size_t(host)];
    --m_stateCounts[size_t(entry.state)];
    ++m_stateCounts[size_t(state)];
    entry.state = state;
    if (!message.isEmpty())
        entry.message = message;
    markDirty(host);
}

void FleetPreviewModel::addEventReport(const Json &params)
{
    if (!params.is_object())
        return;
    const QString identity = stringOf(params, "identity");
    const auto event = params.find("event");
    if (identity.isEmpty() || event == params.end() || !event->is_object())
        return;
    QString resource = stringOf(*event, "resource");
    if (resource.isEmpty())
        resource = stringOf(*event, "type") + QLatin1Char('#') + stringOf(*event, "name");
    const int host = hostIndex(identity);
    const int column = resourceIndex(resource);
    const int outcome = int(outcomeOf(*event));
    if (m_hosts[size_t(host)].state == FleetHostState::Accepted)
        setHostState(host, FleetHostState::Running, {});
    setCell(host, column, outcome);
    if (outcome == int(Outcome::Stable))
        m_events.erase(cellKey(host, column));
    else
        m_events[cellKey(host, column)] = *event;
}

void FleetPreviewModel::setCell(int host, int resource, int outcome)
{
    Host &entry = m_hosts[size_t(host)];
    Resource &column = m_resources[size_t(resource)];
    if (entry.cells.size() <= size_t(resource))
        entry.cells.resize(size_t(resource) + 1, qint8(kNoOutcome));
    const int old = entry.cells[size_t(resource)];
    const int changed = int(isChange(outcome)) - int(isChange(old));
    const int failed = int(isFailure(outcome)) - int(isFailure(old));
    entry.cells[size_t(resource)] = qint8(outcome);
    entry.changed += changed;
    entry.failed += failed;
    column.changed += changed;
    column.failed += failed;
    m_changedTotal += changed;
    m_failedTotal += failed;
    markDirty(host);
}

void FleetPreviewModel::setResult(const Json &result)
{
    if (!result.is_object())
        return;
    for (const Json &item : result.value("hosts", Json::array())) {
        if (!item.is_object())
            continue;
        const QString identity = stringOf(item, "identity");
        const auto state = stateNamed(stringOf(item, "state"));
        if (identity.isEmpty() || !state)
            continue;
        setHostState(hostIndex(identity), *state, stringOf(item, "message"));
    }
    m_notice = stringOf(result, "notice");
    m_finished = true;
    scheduleFlush();
}

void FleetPreviewModel::markDirty(int host)
{
    if (host < m_shownHosts) {
        m_dirtyFirst = m_dirtyFirst < 0 ? host : std::min(m_dirtyFirst, host);
        m_dirtyLast = std::max(m_dirtyLast, host);
    }
    scheduleFlush();
}

void FleetPreviewModel::scheduleFlush()
{
    if (m_flushScheduled)
        return;
    m_flushScheduled = true;
    QTimer::singleShot(0, this, &FleetPreviewModel::flush);
}

void FleetPreviewModel::flush()
{
    m_flushScheduled = false;
    const int hosts = int(m_hosts.size());
    const int resources = int(m_resources.size());
    if (resources > m_shownResources) {
        beginInsertColumns({}, FirstResourceColumn + m_shownResources, FirstResourceColumn + resources - 1);
        m_shownResources = resources;
        endInsertColumns();
    }
    if (m_dirtyFirst >= 0) {
        emit dataChanged(index(1 + m_dirtyFirst, 0), index(1 + m_dirtyLast, columnCount() - 1));
        m_dirtyFirst = m_dirtyLast = -1;
    }
    if (hosts > m_shownHosts) {
        beginInsertRows({}, 1 + m_shownHosts, hosts);
        m_shownHosts = hosts;
        endInsertRows();
    }
    emit dataChanged(index(kTotalsRow, 0), index(kTotalsRow, columnCount() - 1));
    emit updated();
}

int FleetPreviewModel::answeredCount() const
{
    return countIn(FleetHostState::Done) + countIn(FleetHostState::Failed) + countIn(FleetHostState::Declined);
}

int FleetPreviewModel::countIn(FleetHostState state) const
{
    return m_stateCounts[size_t(state)];
}

bool FleetPreviewModel::hasFailures() const
{
    return m_failedTotal > 0 || countIn(FleetHostState::Failed) > 0;
}

int FleetPreviewModel::rowOf(const QString &identity) const
{
    const int host = m_hostIndex.value(identity, -1);
    return host >= 0 && host < m_shownHosts ? 1 + host : -1;
}

int FleetPreviewModel::columnOf(const QString &resource) const
{
    const int column = m_resourceIndex.value(resource, -1);
    return column >= 0 && column < m_shownResources ? FirstResourceColumn + column : -1;
}

QString FleetPreviewModel::identityAt(int row) const
{
    return row >= 1 && row <= m_shownHosts ? m_hosts[size_t(row - 1)].identity : QString();
}

QString FleetPreviewModel::resourceAt(int column) const
{
    const int resource = column - FirstResourceColumn;
    return resource >= 0 && resource < m_shownResources ? m_resources[size_t(resource)].name : QString();
}

FleetHostState FleetPreviewModel::stateAt(int row) const
{
    return row >= 1 && row <= m_shownHosts ? m_hosts[size_t(row - 1)].state : FleetHostState::Silent;
}

int FleetPreviewModel::outcomeAt(int row, int column) const
{
    if (row < 1 || row > m_shownHosts || column < FirstResourceColumn || column >= columnCount())
        return kNoOutcome;
    return cellData(m_hosts[size_t(row - 1)], column - FirstResourceColumn, OutcomeRole).toInt();
}

Json FleetPreviewModel::eventAt(int row, int column) const
{
    if (outcomeAt(row, column) == kNoOutcome)
        return {};
    const auto found = m_events.find(cellKey(row - 1, column - FirstResourceColumn));
    return found == m_events.end() ? Json() : found->second;
}

QString FleetPreviewModel::messageAt(int row, int column) const
{
    return eventMessage(eventAt(row, column));
}

FleetPreviewFilter::FleetPreviewFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
}

void FleetPreviewFilter::setSourceModel(QAbstractItemModel *model)
{
    QSortFilterProxyModel::setSourceModel(model);
    // Which resource columns have changes only shows in the totals row, which every batch updates.
    if (auto *preview = qobject_cast<FleetPreviewModel *>(model)) {
        connect(preview, &FleetPreviewModel::updated, this, [this] {
            if (m_mode != Mode::All)
                invalidateColumnsFilter();
        });
    }
}

void FleetPreviewFilter::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    invalidateFilter();
}

void FleetPreviewFilter::setHost(const QString &identity)
{
    if (identity == m_host)
        return;
    m_host = identity;
    invalidateRowsFilter();
}

bool FleetPreviewFilter::accepts(int changed, int failed) const
{
    switch (m_mode) {
    case Mode::All:
        return true;
    case Mode::ChangesOnly:
        return changed > 0 || failed > 0;
    case Mode::FailuresOnly:
        return failed > 0;
    }
    return true;
}

bool FleetPreviewFilter::filterAcceptsRow(int row, const QModelIndex &parent) const
{
    if (row == FleetPreviewModel::kTotalsRow)
        return true;
    const QModelIndex host = sourceModel()->index(row, FleetPreviewModel::HostColumn, parent);
    if (!m_host.isEmpty()) {
        // The whole name of a host shows that host alone; a part of one shows every host it is in.
        const auto *preview = qobject_cast<const FleetPreviewModel *>(sourceModel());
        const bool exact = preview && preview->rowOf(m_host) >= 0;
        const QString identity = host.data().toString();
        if (exact ? identity != m_host : !identity.contains(m_host, Qt::CaseInsensitive))
            return false;
    }
    if (m_mode != Mode::All && host.data(FleetPreviewModel::HostStateRole).toInt() == int(FleetHostState::Failed))
        return true;
    return accepts(
        host.data(FleetPreviewModel::ChangedCountRole).toInt(), host.data(FleetPreviewModel::FailedCountRole).toInt());
}

bool FleetPreviewFilter::filterAcceptsColumn(int column, const QModelIndex &parent) const
{
    if (column < FleetPreviewModel::FirstResourceColumn)
        return true;
    const QModelIndex totals = sourceModel()->index(FleetPreviewModel::kTotalsRow, column, parent);
    return accepts(totals.data(FleetPreviewModel::ChangedCountRole).toInt(),
        totals.data(FleetPreviewModel::FailedCountRole).toInt());
}

} // namespace ccm::designer
