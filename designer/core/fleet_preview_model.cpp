// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_preview_model.h"

#include "designer/core/json_members.h"

#include <QTimer>

#include <chrono>

namespace ccm::designer {
namespace {

constexpr int kNoOutcome = -1;
constexpr qint64 kFrameMs = 16; ///< the shortest time between two flushes

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

std::optional<FleetChange> changeNamed(const QString &name)
{
    static const QHash<QString, FleetChange> changes {{QStringLiteral("unchanged"), FleetChange::Unchanged},
        {QStringLiteral("intended"), FleetChange::Intended}, {QStringLiteral("drift"), FleetChange::Drift},
        {QStringLiteral("added"), FleetChange::Added}, {QStringLiteral("failed"), FleetChange::Failed},
        {QStringLiteral("uncompared"), FleetChange::Uncompared}};
    const auto found = changes.find(name);
    if (found == changes.end())
        return std::nullopt;
    return *found;
}

/// A changed cell's symbol by its class: drift and additions stand apart from intended changes.
QString changeSymbol(int change)
{
    switch (FleetChange(change)) {
    case FleetChange::Drift:
        return QStringLiteral("≈");
    case FleetChange::Added:
        return QStringLiteral("+");
    case FleetChange::Uncompared:
        return QStringLiteral("?");
    default:
        return {};
    }
}

QString changeExplanation(FleetChange change)
{
    switch (change) {
    case FleetChange::Intended:
        return FleetPreviewModel::tr("intended: only this proposal changes it");
    case FleetChange::Drift:
        return FleetPreviewModel::tr(
            "drift: the host differs from its current bundle too; this proposal would also repair it");
    case FleetChange::Added:
        return FleetPreviewModel::tr("added: the host's current bundle does not have it");
    case FleetChange::Uncompared:
        return FleetPreviewModel::tr("uncompared: its run under the current bundle failed or did not happen");
    default:
        return {};
    }
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
        if (role == IntendedCountRole)
            return resource.intended;
        if (role == DriftCountRole)
            return resource.drift;
        if (role == Qt::DisplayRole && resource.failed > 0)
            return tr("%1 ✗").arg(resource.failed);
        if (role == Qt::DisplayRole && resource.changed > 0)
            return tr("%1 ●").arg(resource.changed);
        if (role == Qt::ToolTipRole)
            return tr("%1: would change on %2 hosts (intended on %3, drift on %4), failed on %5")
                .arg(resource.name)
                .arg(resource.changed)
                .arg(resource.intended)
                .arg(resource.drift)
                .arg(resource.failed);
        return {};
    }
    if (role == IntendedCountRole)
        return m_intendedTotal;
    if (role == DriftCountRole)
        return m_driftTotal;
    if (role == Qt::ToolTipRole && column == ChangedColumn)
        return tr("%1 would change: %2 intended, %3 drift").arg(m_changedTotal).arg(m_intendedTotal).arg(m_driftTotal);
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
    if (role == IntendedCountRole)
        return host.intended;
    if (role == DriftCountRole)
        return host.drift;
    if (role == Qt::ToolTipRole && column == StateColumn && !host.message.isEmpty())
        return host.message;
    if (role == Qt::ToolTipRole && column == StateColumn && !host.comparisonNote.isEmpty())
        return host.comparisonNote;
    if (role == Qt::ToolTipRole && column == ChangedColumn && host.comparison == FleetComparison::Compared)
        return tr("%1 would change: %2 intended, %3 drift").arg(host.changed).arg(host.intended).arg(host.drift);
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
    const int change = changeOf(host, resource);
    if (role == ChangeRole)
        return change;
    if (role == TileColourRole)
        return tileColour(outcome, change);
    if (role == Qt::DisplayRole) {
        const QString symbol = isChange(outcome) ? changeSymbol(change) : QString();
        return symbol.isEmpty() ? symbolOf(outcome) : symbol;
    }
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1 on %2: %3")
                          .arg(m_resources[size_t(resource)].name, host.identity, outcomeName(Outcome(outcome), true));
        if (const QString why = change < 0 ? QString() : changeExplanation(FleetChange(change)); !why.isEmpty())
            tip += QLatin1Char('\n') + why;
        const auto event = m_events.find(cellKey(int(&host - m_hosts.data()), resource));
        if (const QString message = event == m_events.end() ? QString() : eventMessage(event->second);
            !message.isEmpty())
            tip += QLatin1Char('\n') + message;
        return tip;
    }
    return {};
}

int FleetPreviewModel::changeOf(const Host &host, int resource) const
{
    if (host.comparison != FleetComparison::Compared)
        return kNoOutcome;
    const int change = size_t(resource) < host.changes.size() ? host.changes[size_t(resource)] : kNoOutcome;
    return change == kNoOutcome ? int(FleetChange::Unchanged) : change;
}

QColor FleetPreviewModel::tileColour(int outcome, int change)
{
    if (isChange(outcome) && change == int(FleetChange::Drift))
        return {0x8e, 0x24, 0xaa};
    switch (Outcome(outcome)) {
    case Outcome::Changed:
        return {0xe0, 0x8a, 0x00};
    case Outcome::Failed:
        return {0xd3, 0x2f, 0x2f};
    case Outcome::Refreshed:
        return {0x1e, 0x88, 0xe5};
    case Outcome::Unmet:
        return {0xe6, 0x51, 0x00};
    case Outcome::Skipped:
        return {0x9e, 0x9e, 0x9e};
    case Outcome::Stable:
        return {0x43, 0xa0, 0x47};
    }
    return {0x9e, 0x9e, 0x9e};
}

QString FleetPreviewModel::changeName(FleetChange change)
{
    switch (change) {
    case FleetChange::Unchanged:
        return tr("unchanged");
    case FleetChange::Intended:
        return tr("intended");
    case FleetChange::Drift:
        return tr("drift");
    case FleetChange::Added:
        return tr("added");
    case FleetChange::Failed:
        return tr("failed");
    case FleetChange::Uncompared:
        return tr("uncompared");
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
        return host.comparison == FleetComparison::None ? tr("done · no current bundle") : tr("done");
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
    m_intendedTotal = m_driftTotal = 0;
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
    if (*state == FleetHostState::Done) {
        takeComparison(host, params);
        takeStable(host, params);
    }
    setHostState(host, *state, stringOf(params, "message"));
}

void FleetPreviewModel::takeStable(int host, const Json &params)
{
    const auto stable = params.find("stable");
    if (stable == params.end() || !stable->is_array())
        return;
    for (const Json &name : *stable) {
        if (!name.is_string() || name.get_ref<const std::string &>().empty())
            continue;
        const int column = resourceIndex(QString::fromStdString(name.get_ref<const std::string &>()));
        // A resource the host sent an event for keeps that event: it says more than the list.
        const std::vector<qint8> &cells = m_hosts[size_t(host)].cells;
        if (size_t(column) < cells.size() && cells[size_t(column)] != kNoOutcome)
            continue;
        setCell(host, column, int(Outcome::Stable));
    }
}

void FleetPreviewModel::takeComparison(int host, const Json &params)
{
    const auto compare = params.find("compare");
    if (compare == params.end() || !compare->is_object()
        || m_hosts[size_t(host)].comparison != FleetComparison::Unknown)
        return;
    const QString state = stringOf(*compare, "state");
    if (state == QLatin1String("none")) {
        m_hosts[size_t(host)].comparison = FleetComparison::None;
        m_hosts[size_t(host)].comparisonNote = stringOf(*compare, "reason");
        return;
    }
    if (state != QLatin1String("compared"))
        return;
    m_hosts[size_t(host)].comparison = FleetComparison::Compared;
    const auto classes = params.find("classes");
    if (classes == params.end() || !classes->is_object())
        return;
    for (const auto &[resource, value] : classes->items()) {
        const auto change
            = value.is_string() ? changeNamed(QString::fromStdString(value.get<std::string>())) : std::nullopt;
        if (change && !resource.empty())
            setChange(host, resourceIndex(QString::fromStdString(resource)), int(*change));
    }
}

void FleetPreviewModel::setChange(int host, int resource, int change)
{
    Host &entry = m_hosts[size_t(host)];
    Resource &column = m_resources[size_t(resource)];
    if (entry.changes.size() <= size_t(resource))
        entry.changes.resize(size_t(resource) + 1, qint8(kNoOutcome));
    const int old = entry.changes[size_t(resource)];
    const int intended = int(change == int(FleetChange::Intended)) - int(old == int(FleetChange::Intended));
    const int drift = int(change == int(FleetChange::Drift)) - int(old == int(FleetChange::Drift));
    entry.changes[size_t(resource)] = qint8(change);
    entry.intended += intended;
    entry.drift += drift;
    column.intended += intended;
    column.drift += drift;
    m_intendedTotal += intended;
    m_driftTotal += drift;
    markDirty(host);
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
    // Read in place: the result of a large fleet is megabytes, and value() would copy it.
    static const Json noHosts = Json::array();
    const auto found = result.find("hosts");
    const Json &hosts = found != result.end() && found->is_array() ? *found : noHosts;
    for (const Json &item : hosts) {
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
    // At most one flush a frame: each makes the views relayout and repaint, and notifications of a
    // large fleet come in hundreds of reads a second.
    const qint64 since = m_lastFlush.isValid() ? m_lastFlush.elapsed() : kFrameMs;
    QTimer::singleShot(
        std::chrono::milliseconds(std::max<qint64>(0, kFrameMs - since)), Qt::PreciseTimer, this, [this] {
            if (m_flushScheduled)
                flush();
        });
}

void FleetPreviewModel::flush()
{
    m_flushScheduled = false;
    m_lastFlush.start();
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

int FleetPreviewModel::changeAt(int row, int column) const
{
    if (outcomeAt(row, column) == kNoOutcome)
        return kNoOutcome;
    return changeOf(m_hosts[size_t(row - 1)], column - FirstResourceColumn);
}

FleetComparison FleetPreviewModel::comparisonAt(int row) const
{
    return row >= 1 && row <= m_shownHosts ? m_hosts[size_t(row - 1)].comparison : FleetComparison::Unknown;
}

QString FleetPreviewModel::comparisonNoteAt(int row) const
{
    return row >= 1 && row <= m_shownHosts ? m_hosts[size_t(row - 1)].comparisonNote : QString();
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

bool FleetPreviewFilter::accepts(const QModelIndex &counts) const
{
    const auto count = [&counts](int role) { return counts.data(role).toInt(); };
    switch (m_mode) {
    case Mode::All:
        return true;
    case Mode::ChangesOnly:
        return count(FleetPreviewModel::ChangedCountRole) > 0 || count(FleetPreviewModel::FailedCountRole) > 0;
    case Mode::FailuresOnly:
        return count(FleetPreviewModel::FailedCountRole) > 0;
    case Mode::DriftOnly:
        return count(FleetPreviewModel::DriftCountRole) > 0;
    case Mode::IntendedOnly:
        return count(FleetPreviewModel::IntendedCountRole) > 0;
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
    if ((m_mode == Mode::ChangesOnly || m_mode == Mode::FailuresOnly)
        && host.data(FleetPreviewModel::HostStateRole).toInt() == int(FleetHostState::Failed))
        return true;
    return accepts(host);
}

bool FleetPreviewFilter::filterAcceptsColumn(int column, const QModelIndex &parent) const
{
    if (column < FleetPreviewModel::FirstResourceColumn)
        return true;
    return accepts(sourceModel()->index(FleetPreviewModel::kTotalsRow, column, parent));
}

} // namespace ccm::designer
