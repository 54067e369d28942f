// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "designer/core/run_results.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QElapsedTimer>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QString>

#include <array>
#include <unordered_map>
#include <vector>

namespace ccm::designer {

/// Where a host is in a fleet preview (Silent last: it sizes the per-state counters).
enum class FleetHostState { Accepted, Running, Done, Failed, Declined, Silent };

/// What a resource's change on a host is, as the host classed it comparing the proposal with its
/// current bundle (docs/fleet.md, "Drift versus intent"): intended (only the proposal changes
/// it), drift (the current bundle would change it too), added (the current bundle lacks it),
/// failed, uncompared (the current bundle's run of it failed or did not happen).
enum class FleetChange { Unchanged, Intended, Drift, Added, Failed, Uncompared };

/// Whether a host compared the proposal with a current bundle: not known (not finished, or an
/// agent that does not compare), compared, or none (it has no current bundle; the host says why).
enum class FleetComparison { Unknown, Compared, None };

/// A fleet preview as a matrix: a row per host, a column per resource, each cell the outcome of
/// that resource on that host. Row 0 holds the totals of every resource column; columns before
/// FirstResourceColumn hold the host, its state and its totals. Resources take columns in the
/// order they first arrive; hosts take rows in the order they first report.
///
/// Notifications are taken in at once but announced to views in batches: the first one after a
/// flush schedules flush() for the next turn of the event loop, or, when the last flush was less
/// than a frame (16 ms) ago, for a frame after it; flush() inserts the new rows and columns in one
/// go and emits dataChanged for what changed. Callers that do not run an event loop (benchmarks),
/// or that want the views up to date at once (the end of a preview), call flush() themselves.
/// Only clear() resets the model.
class FleetPreviewModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { HostColumn, StateColumn, ChangedColumn, FailedColumn, FirstResourceColumn };
    enum Role {
        OutcomeRole = Qt::UserRole + 1, ///< int: the cell's Outcome, or -1 when the host sent none
        ChangedCountRole, ///< int: changed resources of a host row, or hosts changing a resource (row 0)
        FailedCountRole, ///< int: the same for failures
        HostStateRole, ///< int: FleetHostState of a host row
        TotalsRole, ///< bool: the index is in the totals row
        ChangeRole, ///< int: a cell's FleetChange once its host compared, else -1
        IntendedCountRole, ///< int: intended changes of a host row, or hosts where a resource's is (row 0)
        DriftCountRole, ///< int: the same for drift
        TileColourRole, ///< QColor: the colour a cell is painted in (tileColour())
    };
    static constexpr int kTotalsRow = 0;

    explicit FleetPreviewModel(QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /// Resource columns are headed by a short name (index.html for file#/srv/www/index.html),
    /// with the whole "type#name" as tooltip.
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Empties the model for a new preview.
    void clear();
    /// The params of a fleet.host notification. A done one may name the host's stable resources
    /// in "stable" (preview answer format 2, which sends no fleet.event for them): their cells are
    /// filled as a stable event would fill them. A name the host also sent an event for keeps the
    /// event's outcome; names that are not strings, and a "stable" that is not an array, are skipped.
    void addHostReport(const ccm::Json &params);
    /// The params of a fleet.event notification. An event may come before its host's first report.
    void addEventReport(const ccm::Json &params);
    /// The result of fleet.preview: the final state of every host, silent ones included.
    void setResult(const ccm::Json &result);
    /// Announces what came since the last flush to the views.
    void flush();

    /// The colour of a cell of `outcome` (Outcome) whose change is `change` (FleetChange, -1 when
    /// not classed): drift apart from every other change.
    [[nodiscard]] static QColor tileColour(int outcome, int change);
    /// "intended", "drift", ... as the legend and tooltips say it.
    [[nodiscard]] static QString changeName(FleetChange change);

    [[nodiscard]] bool isFinished() const { return m_finished; }
    /// The result's notice when no host answered at all: the likely reason (no agent trusts the
    /// signing key) and how to check. Also the tooltip of the totals row. Empty otherwise.
    [[nodiscard]] const QString &notice() const { return m_notice; }
    [[nodiscard]] int hostCount() const { return int(m_hosts.size()); }
    [[nodiscard]] int resourceCount() const { return int(m_resources.size()); }
    /// Hosts that finished: done, failed or declined.
    [[nodiscard]] int answeredCount() const;
    [[nodiscard]] int countIn(FleetHostState state) const;
    /// Whether a host failed or a resource failed (or had unmet requirements) anywhere.
    [[nodiscard]] bool hasFailures() const;

    /// The row of a host, or -1.
    [[nodiscard]] int rowOf(const QString &identity) const;
    /// The column of "type#name", or -1.
    [[nodiscard]] int columnOf(const QString &resource) const;
    [[nodiscard]] QString identityAt(int row) const;
    [[nodiscard]] QString resourceAt(int column) const;
    [[nodiscard]] FleetHostState stateAt(int row) const;
    /// The event of a cell that did not stay as it was; null for unchanged cells, cells without an
    /// event and cells outside the matrix. Unchanged events are not kept, so 10,000 hosts of 100
    /// resources cost little more than their changes; a cell filled from a done's "stable" list
    /// has none either, as it would have from a stable event.
    [[nodiscard]] ccm::Json eventAt(int row, int column) const;
    /// The outcome of a cell, or -1.
    [[nodiscard]] int outcomeAt(int row, int column) const;
    /// The FleetChange of a cell with an outcome whose host compared, or -1.
    [[nodiscard]] int changeAt(int row, int column) const;
    [[nodiscard]] FleetComparison comparisonAt(int row) const;
    /// Why a host has no current bundle to compare with; empty otherwise.
    [[nodiscard]] QString comparisonNoteAt(int row) const;
    /// Intended and drift changes over every host.
    [[nodiscard]] int intendedTotal() const { return m_intendedTotal; }
    [[nodiscard]] int driftTotal() const { return m_driftTotal; }
    /// What a cell's event says for people (eventMessage()): its errors, its noop message, or what
    /// made it refresh ("would refresh: subscribed to file#/etc/app.conf, which would change");
    /// empty for unchanged cells and cells without an event.
    [[nodiscard]] QString messageAt(int row, int column) const;

signals:
    /// A flush announced new data.
    void updated();

private:
    struct Host {
        QString identity;
        FleetHostState state = FleetHostState::Accepted;
        int done = 0;
        int total = 0;
        QString current;
        QString message;
        std::vector<qint8> cells;
        std::vector<qint8> changes; ///< FleetChange of the cells the host classed, -1 elsewhere
        int changed = 0;
        int failed = 0;
        int intended = 0;
        int drift = 0;
        FleetComparison comparison = FleetComparison::Unknown;
        QString comparisonNote;
    };
    struct Resource {
        QString name;
        int changed = 0;
        int failed = 0;
        int intended = 0;
        int drift = 0;
    };

    int hostIndex(const QString &identity);
    int resourceIndex(const QString &resource);
    void setCell(int host, int resource, int outcome);
    void setChange(int host, int resource, int change);
    void takeComparison(int host, const ccm::Json &params);
    void takeStable(int host, const ccm::Json &params);
    [[nodiscard]] int changeOf(const Host &host, int resource) const;
    void setHostState(int host, FleetHostState state, const QString &message);
    void markDirty(int host);
    void scheduleFlush();
    [[nodiscard]] QVariant hostData(const Host &host, int column, int role) const;
    [[nodiscard]] QVariant totalsData(int column, int role) const;
    [[nodiscard]] QVariant cellData(const Host &host, int column, int role) const;
    [[nodiscard]] QString stateText(const Host &host) const;

    std::vector<Host> m_hosts;
    std::vector<Resource> m_resources;
    QHash<QString, int> m_hostIndex;
    QHash<QString, int> m_resourceIndex;
    std::unordered_map<quint64, ccm::Json> m_events;
    int m_shownHosts = 0;
    int m_shownResources = 0;
    int m_dirtyFirst = -1;
    int m_dirtyLast = -1;
    bool m_flushScheduled = false;
    QElapsedTimer m_lastFlush;
    bool m_finished = false;
    QString m_notice;
    /// Hosts in each FleetHostState, kept as states change: views ask on every paint.
    std::array<int, size_t(FleetHostState::Silent) + 1> m_stateCounts {};
    int m_changedTotal = 0;
    int m_failedTotal = 0;
    int m_intendedTotal = 0;
    int m_driftTotal = 0;
};

/// The matrix with filters: every host and resource, the ones that change (or fail), only the
/// failures, only the drift or only the intended changes; and one host or all. The totals row and
/// the host columns always stay.
class FleetPreviewFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    enum class Mode { All, ChangesOnly, FailuresOnly, DriftOnly, IntendedOnly };

    explicit FleetPreviewFilter(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    void setMode(Mode mode);
    [[nodiscard]] Mode mode() const { return m_mode; }
    /// Only this host's row, or, when no host has this name, the hosts whose name contains it;
    /// empty shows every host.
    void setHost(const QString &identity);
    [[nodiscard]] QString host() const { return m_host; }

protected:
    [[nodiscard]] bool filterAcceptsRow(int row, const QModelIndex &parent) const override;
    [[nodiscard]] bool filterAcceptsColumn(int column, const QModelIndex &parent) const override;

private:
    [[nodiscard]] bool accepts(const QModelIndex &counts) const;

    Mode m_mode = Mode::All;
    QString m_host;
};

} // namespace ccm::designer
