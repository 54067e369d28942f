// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>

#include <vector>

namespace ccm::designer {

/// What happened to one resource in a run, by the first match of failed, unmet requirements,
/// skipped, refreshed, changed, stable (ENGINE-SPEC §6).
enum class Outcome { Stable, Changed, Failed, Skipped, Unmet, Refreshed };

/// The outcome of a TransactionEvent; fields that are missing or not booleans count as false.
Outcome outcomeOf(const ccm::Json &event);
/// The outcome for people: "would change" in a noop run, "changed" in a real one, and so on.
QString outcomeName(Outcome outcome, bool noop);
/// The outcome for views to mark, never translated: "stable", "changed", "failed", "skipped",
/// "unmet_requirements" or "refreshed".
QString outcomeKey(Outcome outcome);

/// What an event says of itself for people, errors aside: its noop message, or for a real refresh
/// what caused it ("refreshed: subscribed to file#/etc/app.conf, which changed", from
/// `refreshed_by`); empty when it says nothing.
QString eventNote(const ccm::Json &event);
/// The errors of an event joined by "; ", or, without errors, eventNote().
QString eventMessage(const ccm::Json &event);

/// One owner, group or mode difference of a file resource.
struct AttributeChange {
    QString attribute;
    QString from; ///< empty when the file does not exist
    QString to;
    friend bool operator==(const AttributeChange &, const AttributeChange &) = default;
};

/// What a file resource changes (or would): its content diff and its metadata changes.
struct FileChanges {
    QString diff; ///< unified diff; empty when the content stays or the backend did not send it
    QList<AttributeChange> attributes;
};

/// The changes of the file resource an event reports; empty for other types and for non-objects.
FileChanges fileChangesOf(const ccm::Json &event);

/// The events of one run as a table, a row per resource in the order they arrived (a resource
/// reported twice keeps its row and shows its latest event), plus the run's final answer.
class RunResults : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { ResourceColumn, OutcomeColumn, MessageColumn, ProviderColumn, DurationColumn, ColumnCount };
    enum Role {
        OutcomeNameRole = Qt::UserRole + 1, ///< QString: outcomeKey() of the row's outcome
        EventRole, ///< QByteArray: the row's event as compact JSON
        OutcomeRole, ///< int: the row's Outcome
        ResourceRole, ///< QString: "type#name"
    };

    explicit RunResults(QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Empties the model for a new run of `manifest` (a path or a title for the report header).
    void startRun(const QString &manifest, bool noop, const QDateTime &started = QDateTime::currentDateTime());
    /// Removes every row and the result; the header of the last startRun() stays.
    void clear();
    /// Adds one TransactionEvent. Events that are not objects are ignored.
    void addEvent(const ccm::Json &event);
    /// The run's answer to apply.start: run, summary, cancelled, aborted, noop.
    void setFinished(const ccm::Json &result);

    [[nodiscard]] bool isNoop() const { return m_noop; }
    [[nodiscard]] bool isFinished() const { return !m_result.is_null(); }
    [[nodiscard]] const ccm::Json &result() const { return m_result; }
    /// The event shown in `row`.
    [[nodiscard]] const ccm::Json &eventAt(int row) const;
    [[nodiscard]] Outcome outcomeAt(int row) const;
    /// The row of "type#name", or -1.
    [[nodiscard]] int rowOf(const QString &resource) const;

    /// Stale results belong to an older state of the document; every cell is then greyed.
    void setStale(bool stale);
    [[nodiscard]] bool isStale() const { return m_stale; }

    /// The summary of the answer, or, before it came, the counts of the events received.
    [[nodiscard]] ccm::Json summary() const;
    /// The event stream as the backend sent it: one event per line, then the answer's line.
    [[nodiscard]] QByteArray toJson() const;
    /// A report for people: a header, a line per resource with its errors indented below it, and
    /// the summary as `ccm-backend apply` prints it.
    [[nodiscard]] QString toText() const;
    /// The changes of a file resource in `row`; empty for other types.
    [[nodiscard]] FileChanges fileChanges(int row) const;

private:
    struct Row {
        ccm::Json event;
        Outcome outcome = Outcome::Stable;
        QString resource;
    };

    std::vector<Row> m_rows;
    std::vector<ccm::Json> m_stream;
    QHash<QString, int> m_rowOf;
    ccm::Json m_result;
    QString m_manifest;
    QDateTime m_started;
    bool m_noop = true;
    bool m_stale = false;
};

} // namespace ccm::designer
