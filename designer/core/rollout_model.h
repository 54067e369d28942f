// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QAbstractItemModel>
#include <QList>
#include <QString>
#include <QStringList>

namespace ccm::designer {

/// One host of a ring as the rollout sees it: waiting, applied, failed or silent, and why.
struct RolloutHost {
    QString identity;
    QString state;
    QString reason;
};

/// One ring of a rollout: the object its agents watch, where it stands (pending, publishing,
/// waiting, settling, passed, failed, rolling_back, restored, restore_failed), its gate's verdict
/// and its hosts sorted by identity.
struct RolloutRing {
    QString name;
    QString state = QStringLiteral("pending");
    QString verdict;
    QString previous;
    QList<RolloutHost> hosts;

    [[nodiscard]] int count(const QString &hostState) const;
};

/// A rollout (fleet.rollout, fleet.rollouts) as a tree: a row per ring, in order, with a child row
/// per host. It is filled from the CCM_ROLLOUTS record (setRecord) and kept current by the
/// fleet.rollout.progress events (applyEvent), so a view follows the rollout live and one reopened
/// later shows where it stands. Anything missing or of another kind in either reads as nothing.
class RolloutModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { NameColumn, StateColumn, DetailColumn, ColumnCount };

    explicit RolloutModel(QObject *parent = nullptr);

    /// Shows the record `rollout` (the ROLLOUT of fleet.rollouts or a fleet.rollout answer).
    void setRecord(const ccm::Json &rollout);
    /// Applies one fleet.rollout.progress event. Once the model has an id, events of other
    /// rollouts are ignored; returns whether the event was this rollout's.
    bool applyEvent(const ccm::Json &event);
    /// Empties the model.
    void clear();

    [[nodiscard]] QString id() const { return m_id; }
    [[nodiscard]] QString bucket() const { return m_bucket; }
    [[nodiscard]] QString digest() const { return m_digest; }
    [[nodiscard]] QString signer() const { return m_signer; }
    [[nodiscard]] QString message() const { return m_message; }
    [[nodiscard]] QString owner() const { return m_owner; }
    /// running, paused, passed, failed or rolled_back; empty before anything is known.
    [[nodiscard]] QString state() const { return m_state; }
    /// "pause" or "abort" while the process running it has been asked to; else empty.
    [[nodiscard]] QString request() const { return m_request; }
    /// Why it failed, rolled back or paused, in one paragraph.
    [[nodiscard]] QString report() const { return m_report; }
    /// The gate: max failed ("2" or "10%"), ring timeout and settle time in seconds, rollback.
    [[nodiscard]] QString maxFailed() const { return m_maxFailed; }
    [[nodiscard]] qint64 ringTimeoutSeconds() const { return m_ringTimeout; }
    [[nodiscard]] qint64 settleSeconds() const { return m_settle; }
    [[nodiscard]] bool rollback() const { return m_rollback; }
    /// True once it passed, failed or rolled back: nothing more will happen to it.
    [[nodiscard]] bool isFinished() const;
    [[nodiscard]] QList<RolloutRing> rings() const { return m_rings; }
    [[nodiscard]] QStringList ringNames() const;
    /// The last thing that happened, in words for a status line.
    [[nodiscard]] QString activity() const { return m_activity; }

    /// The words for a host's or a ring's state, with a symbol for hosts.
    [[nodiscard]] static QString stateText(const QString &state);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// Something other than the rows changed: the state, the request, the report or the activity.
    void summaryChanged();

private:
    int ringIndex(const QString &name) const;
    /// The ring named by the event's "ring", added at the end when it is new; -1 without a name.
    int ringOf(const ccm::Json &event);
    void setRingState(int ring, const QString &state, const QString &verdict = {});
    void setHost(int ring, const RolloutHost &host);
    void applyStart(const ccm::Json &event);
    void applyRingEvent(const QString &kind, const ccm::Json &event);
    QVariant ringData(int ring, int column, int role) const;
    QVariant hostData(int ring, int host, int column, int role) const;

    QString m_id;
    QString m_bucket;
    QString m_digest;
    QString m_signer;
    QString m_message;
    QString m_owner;
    QString m_state;
    QString m_request;
    QString m_report;
    QString m_maxFailed;
    qint64 m_ringTimeout = 0;
    qint64 m_settle = 0;
    bool m_rollback = true;
    QString m_activity;
    QList<RolloutRing> m_rings;
};

} // namespace ccm::designer
