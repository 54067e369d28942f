// SPDX-License-Identifier: Apache-2.0
#include "designer/core/rollout_model.h"

#include "designer/core/json_members.h"

#include <QColor>

#include <algorithm>

namespace ccm::designer {
namespace {

/// A host row's internal id is its ring's index plus one; a ring row's is 0.
constexpr quintptr kRingRow = 0;

QString numberText(const Json &object, const char *key)
{
    const auto value = integerOf(object, key);
    return value ? QString::number(*value) : QString();
}

bool isHostState(const QString &state)
{
    return state == QLatin1String("waiting") || state == QLatin1String("applied") || state == QLatin1String("failed")
        || state == QLatin1String("silent");
}

} // namespace

int RolloutRing::count(const QString &hostState) const
{
    return int(std::count_if(
        hosts.begin(), hosts.end(), [&hostState](const RolloutHost &host) { return host.state == hostState; }));
}

RolloutModel::RolloutModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void RolloutModel::clear()
{
    beginResetModel();
    m_rings.clear();
    for (QString *text : {&m_id, &m_bucket, &m_digest, &m_signer, &m_message, &m_owner, &m_state, &m_request, &m_report,
             &m_maxFailed, &m_activity})
        text->clear();
    m_ringTimeout = 0;
    m_settle = 0;
    m_rollback = true;
    endResetModel();
    emit summaryChanged();
}

void RolloutModel::setRecord(const Json &rollout)
{
    if (!rollout.is_object())
        return;
    beginResetModel();
    m_id = stringOf(rollout, "id");
    m_bucket = stringOf(rollout, "bucket");
    m_digest = stringOf(rollout, "digest");
    m_signer = stringOf(rollout, "signer");
    m_message = stringOf(rollout, "message");
    m_owner = stringOf(rollout, "owner");
    m_state = stringOf(rollout, "state");
    m_request = stringOf(rollout, "request");
    m_report = stringOf(rollout, "report");
    m_maxFailed = stringOf(rollout, "max_failed");
    m_ringTimeout = integerOf(rollout, "ring_timeout_seconds").value_or(0);
    m_settle = integerOf(rollout, "settle_seconds").value_or(0);
    m_rollback = !rollout.contains("rollback") || boolOf(rollout, "rollback");
    m_rings.clear();
    const auto rings = rollout.find("rings");
    if (rings != rollout.end() && rings->is_array()) {
        for (const Json &entry : *rings) {
            if (!entry.is_object() || stringOf(entry, "name").isEmpty())
                continue;
            RolloutRing ring {stringOf(entry, "name"), stringOf(entry, "state"), stringOf(entry, "verdict"),
                stringOf(entry, "previous"), {}};
            const auto hosts = entry.find("hosts");
            if (hosts != entry.end() && hosts->is_object()) {
                for (const auto &[identity, host] : hosts->items()) {
                    if (host.is_object() && !identity.empty())
                        ring.hosts.append(
                            {QString::fromStdString(identity), stringOf(host, "state"), stringOf(host, "reason")});
                }
            }
            std::sort(ring.hosts.begin(), ring.hosts.end(),
                [](const RolloutHost &a, const RolloutHost &b) { return a.identity < b.identity; });
            m_rings.append(ring);
        }
    }
    endResetModel();
    emit summaryChanged();
}

bool RolloutModel::applyEvent(const Json &event)
{
    if (!event.is_object())
        return false;
    const QString rollout = stringOf(event, "rollout");
    if (rollout.isEmpty() || (!m_id.isEmpty() && rollout != m_id))
        return false;
    m_id = rollout;
    const QString kind = stringOf(event, "event");
    if (kind == QLatin1String("started")) {
        applyStart(event);
    } else if (kind == QLatin1String("resumed")) {
        m_state = QStringLiteral("running");
        m_request.clear();
        m_activity = tr("Resumed by %1").arg(stringOf(event, "owner"));
    } else if (kind == QLatin1String("requested")) {
        m_request = stringOf(event, "request");
        m_activity = m_request == QLatin1String("abort") ? tr("Abort requested: stopping and rolling back…")
                                                         : tr("Pause requested: stopping after the current ring…");
    } else if (kind == QLatin1String("paused")) {
        m_state = QStringLiteral("paused");
        m_request.clear();
        m_activity = tr("Paused before ring %1").arg(stringOf(event, "ring"));
    } else if (kind == QLatin1String("done")) {
        m_state = stringOf(event, "state");
        m_report = stringOf(event, "report");
        m_request.clear();
        m_activity = tr("Finished: %1").arg(stateText(m_state));
    } else {
        applyRingEvent(kind, event);
    }
    emit summaryChanged();
    return true;
}

void RolloutModel::applyStart(const Json &event)
{
    m_state = QStringLiteral("running");
    m_digest = stringOf(event, "digest");
    m_maxFailed = stringOf(event, "max_failed");
    m_ringTimeout = integerOf(event, "ring_timeout_seconds").value_or(m_ringTimeout);
    m_settle = integerOf(event, "settle_seconds").value_or(m_settle);
    const auto rings = event.find("rings");
    if (m_rings.isEmpty() && rings != event.end() && rings->is_array()) {
        for (const Json &name : *rings) {
            if (name.is_string() && !name.get<std::string>().empty() && ringIndex(QString::fromStdString(name)) < 0) {
                beginInsertRows({}, int(m_rings.size()), int(m_rings.size()));
                m_rings.append(RolloutRing {
                    QString::fromStdString(name.get<std::string>()), QStringLiteral("pending"), {}, {}, {}});
                endInsertRows();
            }
        }
    }
    m_activity = tr("Started rollout %1").arg(m_id);
}

void RolloutModel::applyRingEvent(const QString &kind, const Json &event)
{
    const int ring = ringOf(event);
    if (ring < 0)
        return;
    const QString name = m_rings[ring].name;
    if (kind == QLatin1String("ring")) {
        setRingState(ring, QStringLiteral("publishing"));
        m_activity = tr("Ring %1 of %2: %3").arg(ring + 1).arg(m_rings.size()).arg(name);
    } else if (kind == QLatin1String("published")) {
        m_rings[ring].previous = stringOf(event, "previous");
        setRingState(ring, QStringLiteral("waiting"));
        m_activity = tr("Published to %1; waiting for its hosts").arg(name);
    } else if (kind == QLatin1String("host")) {
        const QString state = stringOf(event, "state");
        if (isHostState(state))
            setHost(ring, {stringOf(event, "identity"), state, stringOf(event, "reason")});
    } else if (kind == QLatin1String("settling")) {
        setRingState(ring, QStringLiteral("settling"));
        m_activity = tr("%1: every host reported; settling for %2 s").arg(name, numberText(event, "settle_seconds"));
    } else if (kind == QLatin1String("gate")) {
        const bool passed = boolOf(event, "passed");
        setRingState(ring, passed ? QStringLiteral("passed") : QStringLiteral("failed"), stringOf(event, "summary"));
        m_activity = tr("%1: the gate %2").arg(name, passed ? tr("passed") : tr("closed"));
    } else if (kind == QLatin1String("rolling_back")) {
        setRingState(ring, QStringLiteral("rolling_back"));
        m_activity = tr("%1: putting the previous release back").arg(name);
    } else if (kind == QLatin1String("restored")) {
        setRingState(ring, stringOf(event, "state"), stringOf(event, "summary"));
        m_activity = tr("%1: %2").arg(name, stateText(m_rings[ring].state));
    }
}

int RolloutModel::ringIndex(const QString &name) const
{
    for (int i = 0; i < m_rings.size(); ++i) {
        if (m_rings[i].name == name)
            return i;
    }
    return -1;
}

int RolloutModel::ringOf(const Json &event)
{
    const QString name = stringOf(event, "ring");
    if (name.isEmpty())
        return -1;
    if (const int found = ringIndex(name); found >= 0)
        return found;
    beginInsertRows({}, int(m_rings.size()), int(m_rings.size()));
    m_rings.append(RolloutRing {name, QStringLiteral("pending"), {}, {}, {}});
    endInsertRows();
    return int(m_rings.size()) - 1;
}

void RolloutModel::setRingState(int ring, const QString &state, const QString &verdict)
{
    if (state.isEmpty())
        return;
    m_rings[ring].state = state;
    if (!verdict.isEmpty())
        m_rings[ring].verdict = verdict;
    emit dataChanged(index(ring, 0), index(ring, ColumnCount - 1));
}

void RolloutModel::setHost(int ring, const RolloutHost &host)
{
    if (host.identity.isEmpty())
        return;
    QList<RolloutHost> &hosts = m_rings[ring].hosts;
    const auto at = std::lower_bound(hosts.begin(), hosts.end(), host.identity,
        [](const RolloutHost &entry, const QString &identity) { return entry.identity < identity; });
    const int row = int(at - hosts.begin());
    const QModelIndex parentIndex = index(ring, 0);
    if (at != hosts.end() && at->identity == host.identity) {
        *at = host;
        emit dataChanged(index(row, 0, parentIndex), index(row, ColumnCount - 1, parentIndex));
    } else {
        beginInsertRows(parentIndex, row, row);
        hosts.insert(row, host);
        endInsertRows();
    }
    // The ring row counts its hosts.
    emit dataChanged(parentIndex, index(ring, ColumnCount - 1));
}

bool RolloutModel::isFinished() const
{
    return m_state == QLatin1String("passed") || m_state == QLatin1String("failed")
        || m_state == QLatin1String("rolled_back");
}

QStringList RolloutModel::ringNames() const
{
    QStringList names;
    for (const RolloutRing &ring : m_rings)
        names << ring.name;
    return names;
}

QString RolloutModel::stateText(const QString &state)
{
    static const QList<std::pair<QString, QString>> texts {
        {QStringLiteral("waiting"), tr("… waiting")},
        {QStringLiteral("applied"), tr("✓ applied")},
        {QStringLiteral("failed"), tr("✗ failed")},
        {QStringLiteral("silent"), tr("⚠ silent")},
        {QStringLiteral("pending"), tr("pending")},
        {QStringLiteral("publishing"), tr("publishing")},
        {QStringLiteral("settling"), tr("settling")},
        {QStringLiteral("passed"), tr("✓ passed")},
        {QStringLiteral("rolling_back"), tr("rolling back")},
        {QStringLiteral("restored"), tr("↺ restored")},
        {QStringLiteral("restore_failed"), tr("✗ restore failed")},
        {QStringLiteral("running"), tr("running")},
        {QStringLiteral("paused"), tr("paused")},
        {QStringLiteral("rolled_back"), tr("↺ rolled back")},
    };
    for (const auto &[name, text] : texts) {
        if (name == state)
            return text;
    }
    return state;
}

QModelIndex RolloutModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    if (!parent.isValid())
        return row < m_rings.size() ? createIndex(row, column, kRingRow) : QModelIndex();
    if (parent.internalId() != kRingRow || parent.column() != 0 || parent.row() >= m_rings.size()
        || row >= m_rings[parent.row()].hosts.size())
        return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex RolloutModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kRingRow)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kRingRow);
}

int RolloutModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_rings.size());
    if (parent.internalId() != kRingRow || parent.column() != 0)
        return 0;
    return int(m_rings[parent.row()].hosts.size());
}

int RolloutModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant RolloutModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kRingRow)
        return ringData(index.row(), index.column(), role);
    return hostData(int(index.internalId() - 1), index.row(), index.column(), role);
}

QVariant RolloutModel::ringData(int ring, int column, int role) const
{
    const RolloutRing &entry = m_rings[ring];
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return tr("%1. %2").arg(ring + 1).arg(entry.name);
        case StateColumn:
            return stateText(entry.state);
        case DetailColumn:
            if (!entry.verdict.isEmpty())
                return entry.verdict;
            if (entry.hosts.isEmpty())
                return QString();
            return tr("%1 applied, %2 failed, %3 silent, %4 waiting")
                .arg(entry.count(QStringLiteral("applied")))
                .arg(entry.count(QStringLiteral("failed")))
                .arg(entry.count(QStringLiteral("silent")))
                .arg(entry.count(QStringLiteral("waiting")));
        }
    }
    if (role == Qt::ToolTipRole && column == DetailColumn && !entry.verdict.isEmpty())
        return entry.verdict;
    if (role == Qt::UserRole)
        return entry.state;
    return {};
}

QVariant RolloutModel::hostData(int ring, int host, int column, int role) const
{
    const RolloutHost &entry = m_rings[ring].hosts[host];
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return entry.identity;
        case StateColumn:
            return stateText(entry.state);
        case DetailColumn:
            return entry.reason;
        }
    }
    if (role == Qt::ToolTipRole && !entry.reason.isEmpty())
        return entry.reason;
    if (role == Qt::ForegroundRole && column == StateColumn) {
        if (entry.state == QLatin1String("failed"))
            return QColor(0xc6, 0x28, 0x28);
        if (entry.state == QLatin1String("silent"))
            return QColor(0xb2, 0x6a, 0x00);
        if (entry.state == QLatin1String("applied"))
            return QColor(0x2e, 0x7d, 0x32);
    }
    if (role == Qt::UserRole)
        return entry.state;
    return {};
}

QVariant RolloutModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Ring / host");
    case StateColumn:
        return tr("State");
    case DetailColumn:
        return tr("Gate verdict / reason");
    }
    return {};
}

} // namespace ccm::designer
