// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/problems_panel.h"

#include "designer/core/problems_model.h"
#include "designer/ui/panels/empty_state.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <optional>

namespace ccm::designer {

namespace {

class SeverityFilterModel : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setFilter(ProblemsPanel::Filter filter)
    {
        m_filter = filter;
        invalidateFilter();
    }

    [[nodiscard]] ProblemsPanel::Filter filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override
    {
        if (m_filter == ProblemsPanel::Filter::All)
            return true;
        const auto severity = static_cast<Severity>(
            sourceModel()->index(sourceRow, 0, sourceParent).data(ProblemsModel::SeverityRole).toInt());
        return m_filter == ProblemsPanel::Filter::Errors ? severity == Severity::Error : severity == Severity::Warning;
    }

private:
    ProblemsPanel::Filter m_filter = ProblemsPanel::Filter::All;
};

// Enter on the current row activates it, as a double-click does; QTreeView's own activated()
// also fires on a single click under some styles, which would jump while the user only selects.
class EnterActivates : public QObject {
public:
    EnterActivates(QTreeView *view, std::function<void(const QModelIndex &)> activate)
        : QObject(view)
        , m_view(view)
        , m_activate(std::move(activate))
    {
        view->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_view && event->type() == QEvent::KeyPress) {
            const int key = static_cast<QKeyEvent *>(event)->key();
            if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_view->currentIndex().isValid()) {
                m_activate(m_view->currentIndex());
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QTreeView *m_view;
    std::function<void(const QModelIndex &)> m_activate;
};

} // namespace

ProblemsPanel::ProblemsPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ProblemsModel(this))
    , m_proxy(new SeverityFilterModel(this))
    , m_view(new QTreeView(this))
    , m_filter(new QComboBox(this))
    , m_summary(new QLabel(this))
{
    m_model->setSeverityIcons(style()->standardIcon(QStyle::SP_MessageBoxCritical),
        style()->standardIcon(QStyle::SP_MessageBoxWarning), style()->standardIcon(QStyle::SP_MessageBoxInformation));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProblemsModel::SortRole);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

    m_view->setModel(m_proxy);
    EmptyState::install(m_view, tr("No problems. Errors and warnings of the manifest appear here as you type."));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->sortByColumn(ProblemsModel::LocationColumn, Qt::AscendingOrder);
    m_view->header()->setSectionResizeMode(ProblemsModel::MessageColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ProblemsModel::SeverityColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(ProblemsModel::LocationColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(ProblemsModel::PathColumn, QHeaderView::Interactive);
    // Property paths are long; give them room for a typical resource pointer and elide the rest.
    m_view->header()->resizeSection(ProblemsModel::PathColumn, fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40);
    m_view->setTextElideMode(Qt::ElideMiddle);

    m_filter->addItem(tr("All"), static_cast<int>(Filter::All));
    m_filter->addItem(tr("Errors"), static_cast<int>(Filter::Errors));
    m_filter->addItem(tr("Warnings"), static_cast<int>(Filter::Warnings));
    m_filter->setToolTip(tr("Which problems to list"));
    auto *filterLabel = new QLabel(tr("&Show:"), this);
    filterLabel->setBuddy(m_filter);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 3, 6, 0);
    bar->addWidget(m_summary, 1);
    bar->addWidget(filterLabel);
    bar->addWidget(m_filter);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    setFocusProxy(m_view);

    connect(m_filter, &QComboBox::currentIndexChanged, this,
        [this] { setFilter(static_cast<Filter>(m_filter->currentData().toInt())); });
    connect(m_view, &QTreeView::doubleClicked, this, &ProblemsPanel::activate);
    new EnterActivates(m_view, [this](const QModelIndex &index) { activate(index); });
    updateSummary();
}

void ProblemsPanel::setDiagnostics(const ccm::Diagnostics &diagnostics, const QString &fileName)
{
    m_documentDiagnostics = diagnostics;
    m_fileName = fileName;
    showDiagnostics(merged());
}

void ProblemsPanel::setExtraDiagnostics(const ccm::Diagnostics &diagnostics)
{
    if (diagnostics == m_extraDiagnostics)
        return;
    m_extraDiagnostics = diagnostics;
    showDiagnostics(merged());
}

ccm::Diagnostics ProblemsPanel::merged() const
{
    if (m_extraDiagnostics.empty())
        return m_documentDiagnostics;
    ccm::Diagnostics out = m_documentDiagnostics;
    for (const Diagnostic &extra : m_extraDiagnostics) {
        if (std::find(out.begin(), out.end(), extra) == out.end())
            out.push_back(extra);
    }
    sortByPosition(out);
    return out;
}

void ProblemsPanel::showDiagnostics(const ccm::Diagnostics &diagnostics)
{
    const QString &fileName = m_fileName;
    // Validation runs after every edit; the selected problem stays selected while it still exists.
    std::optional<Diagnostic> selected;
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (current.isValid())
        selected = m_model->diagnostic(current.row());
    m_model->setDiagnostics(diagnostics, fileName);
    if (selected) {
        const auto found = std::find(diagnostics.begin(), diagnostics.end(), *selected);
        if (found != diagnostics.end()) {
            const QModelIndex index
                = m_proxy->mapFromSource(m_model->index(static_cast<int>(found - diagnostics.begin()), 0));
            m_view->setCurrentIndex(index);
        }
    }
    updateSummary();
}

void ProblemsPanel::setFileDiagnostics(const QString &filePath, const ccm::Diagnostics &diagnostics)
{
    m_model->setFileDiagnostics(filePath, diagnostics);
    updateSummary();
}

QString ProblemsPanel::summaryText() const
{
    return m_summaryText;
}

ProblemsPanel::Filter ProblemsPanel::filter() const
{
    return static_cast<SeverityFilterModel *>(m_proxy)->filter();
}

void ProblemsPanel::setFilter(Filter filter)
{
    static_cast<SeverityFilterModel *>(m_proxy)->setFilter(filter);
    const int index = m_filter->findData(static_cast<int>(filter));
    if (index != m_filter->currentIndex())
        m_filter->setCurrentIndex(index);
}

QTreeView *ProblemsPanel::view() const
{
    return m_view;
}

ProblemsModel *ProblemsPanel::problemsModel() const
{
    return m_model;
}

void ProblemsPanel::activate(const QModelIndex &index)
{
    const QModelIndex source = m_proxy->mapToSource(index);
    if (!source.isValid())
        return;
    const QString file = m_model->filePathOf(source.row());
    if (file.isEmpty())
        emit problemActivated(m_model->diagnostic(source.row()));
    else
        emit fileProblemActivated(file, m_model->diagnostic(source.row()));
}

void ProblemsPanel::updateSummary()
{
    int errors = 0;
    int warnings = 0;
    int notes = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const Severity severity = m_model->diagnostic(row).severity;
        errors += severity == Severity::Error ? 1 : 0;
        warnings += severity == Severity::Warning ? 1 : 0;
        notes += severity == Severity::Info ? 1 : 0;
    }
    QStringList parts;
    // Two messages per count rather than "%n error(s)": without an English plural translation
    // Qt would print the "(s)" literally.
    if (errors > 0)
        parts.append(errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors));
    if (warnings > 0)
        parts.append(warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings));
    if (notes > 0)
        parts.append(notes == 1 ? tr("1 note") : tr("%1 notes").arg(notes));
    const QString text = parts.isEmpty() ? tr("No problems") : parts.join(tr(", "));
    m_summary->setText(text);
    if (text != m_summaryText) {
        m_summaryText = text;
        emit summaryChanged(text);
    }
}

} // namespace ccm::designer
