// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QAbstractItemModel;
class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace ccm::designer {

class DiffView;

/// The results of a preview or an apply: a table of resources over a model given by setModel(), a
/// "Changes only" filter, the summary, the progress of a running run with Cancel, export, a stale
/// marker and the selected file's diff below the table.
///
/// The model is a table with the columns Resource, Outcome, Message, Provider and Duration; the
/// outcome column's OutcomeNameRole is one of "stable", "changed", "failed", "skipped",
/// "unmet_requirements" and "refreshed", which the panel marks with an icon and a colour.
class ResultsPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { ResourceColumn, OutcomeColumn, MessageColumn, ProviderColumn, DurationColumn };
    /// QString on every column of a row: the row's outcome name.
    static constexpr int OutcomeNameRole = Qt::UserRole + 1;

    explicit ResultsPanel(QWidget *parent = nullptr);

    /// Shows `model` (not owned; nullptr shows nothing).
    void setModel(QAbstractItemModel *model);

    void setSummary(const QString &text);
    [[nodiscard]] QString summary() const;

    /// Shows the progress area, with Cancel, while `running`; export waits until it finishes.
    void setRunning(bool running);
    [[nodiscard]] bool isRunning() const;
    /// "Checking file#/etc/motd (3 of 10)"; before the first resource just "Checking (0 of 10)".
    void setProgress(int done, int total, const QString &current);
    [[nodiscard]] QString progressText() const;

    /// Greys the results and says the manifest changed since they were made.
    void setStale(bool stale);
    [[nodiscard]] bool isStale() const;

    [[nodiscard]] bool changesOnly() const;
    /// Hides the rows whose outcome is "stable".
    void setChangesOnly(bool changesOnly);

    /// The colour that marks `outcome` on `palette`'s base: grey for stable, skipped and unmet
    /// requirements, amber for changed, red for failed and blue for refreshed, darker on light
    /// themes and lighter on dark ones. Invalid for an unknown outcome.
    [[nodiscard]] static QColor outcomeColor(const QString &outcome, const QPalette &palette);

    [[nodiscard]] QTreeView *view() const;
    /// Makes the model's `sourceRow` current (when the filter shows it), as selecting it would;
    /// clears the selection when the row is not shown or is -1.
    void selectRow(int sourceRow);
    /// The filter between the model and view().
    [[nodiscard]] QSortFilterProxyModel *proxyModel() const;
    [[nodiscard]] DiffView *diffView() const;
    [[nodiscard]] QLabel *staleLabel() const;
    [[nodiscard]] QLabel *progressLabel() const;
    [[nodiscard]] QProgressBar *progressBar() const;
    [[nodiscard]] QPushButton *cancelButton() const;
    [[nodiscard]] QToolButton *exportButton() const;
    [[nodiscard]] QCheckBox *changesOnlyBox() const;

signals:
    void cancelRequested();
    void exportJsonRequested();
    void exportTextRequested();
    /// The user selected the row `sourceRow` of the model given to setModel().
    void resourceSelected(int sourceRow);

private:
    void setupResultView();
    void setupExportButton();
    void setupProgressArea();
    void arrangeLayout();
    void selectionChanged();
    void updateExport();

    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    DiffView *m_diff = nullptr;
    QCheckBox *m_changesOnly = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_stale = nullptr;
    QWidget *m_progressArea = nullptr;
    QProgressBar *m_progressBar = nullptr;
    QLabel *m_progressLabel = nullptr;
    QPushButton *m_cancel = nullptr;
    QToolButton *m_export = nullptr;
    bool m_running = false;
    bool m_isStale = false;
};

} // namespace ccm::designer
