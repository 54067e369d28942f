// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QTreeView;

namespace ccm::designer {

class ProblemsModel;

/// The problems of the open manifest: a sortable table with a severity filter and a count.
/// Double-clicking a row, or pressing Enter on it, activates it.
class ProblemsPanel : public QWidget {
    Q_OBJECT

public:
    /// What the filter lets through.
    enum class Filter { All, Errors, Warnings };

    explicit ProblemsPanel(QWidget *parent = nullptr);

    /// Shows `diagnostics`; locations read "fileName:line:col". The selected problem stays selected
    /// when it is among the new ones.
    void setDiagnostics(const ccm::Diagnostics &diagnostics, const QString &fileName);

    /// Problems found elsewhere (the data's annotations as the backend resolved them), shown with
    /// those of setDiagnostics() until replaced.
    void setExtraDiagnostics(const ccm::Diagnostics &diagnostics);

    /// "2 errors, 1 warning", with notes counted when there are any, or "No problems".
    [[nodiscard]] QString summaryText() const;

    [[nodiscard]] Filter filter() const;
    void setFilter(Filter filter);

    /// The table, whose model is the filtered and sorted view of problemsModel().
    [[nodiscard]] QTreeView *view() const;
    [[nodiscard]] ProblemsModel *problemsModel() const;

    /// Shows the problems of a file the manifest uses (a template) after the manifest's own;
    /// empty `diagnostics` removes them.
    void setFileDiagnostics(const QString &filePath, const ccm::Diagnostics &diagnostics);

signals:
    /// The user chose a problem to go to.
    void problemActivated(const ccm::Diagnostic &diagnostic);
    /// The user chose a problem of a file set with setFileDiagnostics().
    void fileProblemActivated(const QString &filePath, const ccm::Diagnostic &diagnostic);
    /// summaryText() changed.
    void summaryChanged(const QString &summary);

private:
    void activate(const QModelIndex &index);
    [[nodiscard]] ccm::Diagnostics merged() const;
    void showDiagnostics(const ccm::Diagnostics &diagnostics);
    void updateSummary();

    ProblemsModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QComboBox *m_filter = nullptr;
    QLabel *m_summary = nullptr;
    QString m_summaryText;
    ccm::Diagnostics m_documentDiagnostics;
    ccm::Diagnostics m_extraDiagnostics;
    QString m_fileName;
};

} // namespace ccm::designer
