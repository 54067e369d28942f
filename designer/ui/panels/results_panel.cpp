// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/results_panel.h"

#include "designer/ui/palette_tone.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/empty_state.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace ccm::designer {

namespace {

const QString kStable = QStringLiteral("stable");
const QString kChanged = QStringLiteral("changed");
const QString kFailed = QStringLiteral("failed");
const QString kSkipped = QStringLiteral("skipped");
const QString kUnmet = QStringLiteral("unmet_requirements");
const QString kRefreshed = QStringLiteral("refreshed");

QIcon outcomeIcon(const QString &outcome, const QColor &color)
{
    constexpr int size = 16;
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(color, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    if (outcome == kStable) {
        painter.drawPolyline(QPolygonF({QPointF(3, 8.5), QPointF(6.5, 12), QPointF(13, 4)}));
    } else if (outcome == kChanged) {
        painter.setBrush(color);
        painter.drawEllipse(QRectF(3.5, 3.5, 9, 9));
    } else if (outcome == kFailed) {
        painter.drawLine(QPointF(4, 4), QPointF(12, 12));
        painter.drawLine(QPointF(12, 4), QPointF(4, 12));
    } else if (outcome == kRefreshed) {
        painter.drawArc(QRectF(3, 3, 10, 10), 60 * 16, 300 * 16);
        painter.drawLine(QPointF(10.5, 3.5), QPointF(13, 3.5));
        painter.drawLine(QPointF(13, 3.5), QPointF(13, 6));
    } else {
        painter.drawLine(QPointF(4, 8), QPointF(12, 8));
    }
    return QIcon(pixmap);
}

// Filters out stable rows on request and marks the outcome column with the outcome's icon and
// colour, taken from the view's palette so they follow the theme.
class ResultsFilterModel : public QSortFilterProxyModel {
public:
    explicit ResultsFilterModel(QWidget *paletteSource)
        : QSortFilterProxyModel(paletteSource)
        , m_paletteSource(paletteSource)
    {
    }

    void setChangesOnly(bool changesOnly)
    {
        m_changesOnly = changesOnly;
        invalidateFilter();
    }

    [[nodiscard]] bool changesOnly() const { return m_changesOnly; }

    /// Greys every row: the text and the outcome marks take the palette's placeholder colour.
    void setStale(bool stale)
    {
        if (m_stale == stale)
            return;
        m_stale = stale;
        if (rowCount() > 0)
            emit dataChanged(
                index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::ForegroundRole, Qt::DecorationRole});
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::DecorationRole && role != Qt::ForegroundRole)
            return QSortFilterProxyModel::data(index, role);
        const QColor muted = m_paletteSource->palette().color(QPalette::PlaceholderText);
        if (index.column() == ResultsPanel::OutcomeColumn) {
            const QString outcome = outcomeOf(mapToSource(index).row());
            const QColor color = ResultsPanel::outcomeColor(outcome, m_paletteSource->palette());
            if (color.isValid()) {
                const QColor shown = m_stale ? muted : color;
                return role == Qt::DecorationRole ? QVariant(outcomeIcon(outcome, shown)) : QVariant(shown);
            }
        }
        if (m_stale && role == Qt::ForegroundRole)
            return muted;
        return QSortFilterProxyModel::data(index, role);
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override
    {
        return sourceParent.isValid() || !m_changesOnly || outcomeOf(sourceRow) != kStable;
    }

private:
    [[nodiscard]] QString outcomeOf(int sourceRow) const
    {
        const QVariant outcome
            = sourceModel()->index(sourceRow, ResultsPanel::OutcomeColumn).data(ResultsPanel::OutcomeNameRole);
        if (outcome.isValid())
            return outcome.toString();
        return sourceModel()
            ->index(sourceRow, ResultsPanel::ResourceColumn)
            .data(ResultsPanel::OutcomeNameRole)
            .toString();
    }

    QWidget *m_paletteSource;
    bool m_changesOnly = false;
    bool m_stale = false;
};

} // namespace

ResultsPanel::ResultsPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new QTreeView(this))
    , m_diff(new DiffView(this))
    , m_changesOnly(new QCheckBox(tr("Changes only"), this))
    , m_summary(new QLabel(this))
    , m_stale(new QLabel(tr("Results are out of date: the manifest changed since this preview"), this))
    , m_progressArea(new QWidget(this))
    , m_progressBar(new QProgressBar(this))
    , m_progressLabel(new QLabel(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_export(new QToolButton(this))
{
    setupResultView();

    m_changesOnly->setToolTip(tr("Hide the resources that are already as the manifest describes them"));
    connect(m_changesOnly, &QCheckBox::toggled, this, &ResultsPanel::setChangesOnly);

    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    setupExportButton();

    m_stale->setTextFormat(Qt::PlainText);
    m_stale->setWordWrap(true);
    m_stale->setForegroundRole(QPalette::PlaceholderText);
    m_stale->hide();

    setupProgressArea();
    arrangeLayout();
    updateExport();
}

void ResultsPanel::setupResultView()
{
    m_proxy = new ResultsFilterModel(m_view);
    m_view->setModel(m_proxy);
    EmptyState::install(
        m_view, tr("Run Preview (F5 or the toolbar) to see here what a noop apply would change on this host."));
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setStretchLastSection(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ResultsPanel::selectionChanged);
}

void ResultsPanel::setupExportButton()
{
    m_export->setText(tr("Export"));
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *exportMenu = new QMenu(m_export);
    connect(exportMenu->addAction(tr("As JSON (the event stream)…")), &QAction::triggered, this,
        &ResultsPanel::exportJsonRequested);
    connect(
        exportMenu->addAction(tr("As a text report…")), &QAction::triggered, this, &ResultsPanel::exportTextRequested);
    m_export->setMenu(exportMenu);
}

void ResultsPanel::setupProgressArea()
{
    m_progressLabel->setTextFormat(Qt::PlainText);
    m_progressBar->setTextVisible(false);
    connect(m_cancel, &QPushButton::clicked, this, &ResultsPanel::cancelRequested);
    auto *progressLayout = new QHBoxLayout(m_progressArea);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(m_progressBar, 1);
    progressLayout->addWidget(m_progressLabel, 2);
    progressLayout->addWidget(m_cancel);
    m_progressArea->hide();
}

void ResultsPanel::arrangeLayout()
{
    auto *top = new QHBoxLayout;
    top->addWidget(m_changesOnly);
    top->addWidget(m_summary, 1);
    top->addWidget(m_export);

    // Docked below the editors the panel is wide and low: the diff goes beside the table.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(m_diff);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({600, 400});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_stale);
    layout->addWidget(m_progressArea);
    layout->addWidget(splitter, 1);
}

void ResultsPanel::setModel(QAbstractItemModel *model)
{
    if (QAbstractItemModel *old = m_proxy->sourceModel())
        disconnect(old, nullptr, this, nullptr);
    m_proxy->setSourceModel(model);
    m_diff->clear();
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ResultsPanel::updateExport);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &ResultsPanel::updateExport);
        connect(model, &QAbstractItemModel::modelReset, this, &ResultsPanel::updateExport);
    }
    updateExport();
    // The resource names and messages get the room; the short columns fit their contents.
    QHeaderView *header = m_view->header();
    if (header->count() > DurationColumn) {
        header->setSectionResizeMode(ResourceColumn, QHeaderView::Interactive);
        header->resizeSection(ResourceColumn, header->fontMetrics().averageCharWidth() * 36);
        header->setSectionResizeMode(OutcomeColumn, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(MessageColumn, QHeaderView::Stretch);
        header->setSectionResizeMode(ProviderColumn, QHeaderView::ResizeToContents);
        header->setSectionResizeMode(DurationColumn, QHeaderView::ResizeToContents);
    }
}

void ResultsPanel::setSummary(const QString &text)
{
    m_summary->setText(text);
}

QString ResultsPanel::summary() const
{
    return m_summary->text();
}

void ResultsPanel::setRunning(bool running)
{
    m_running = running;
    m_progressArea->setVisible(running);
    m_cancel->setEnabled(running);
    if (running) {
        m_progressBar->setRange(0, 0);
        m_progressLabel->setText(tr("Starting…"));
    }
    updateExport();
}

bool ResultsPanel::isRunning() const
{
    return m_running;
}

void ResultsPanel::setProgress(int done, int total, const QString &current)
{
    // A range of 0..0 is Qt's busy indicator, right while the total is not known yet.
    m_progressBar->setRange(0, std::max(total, 0));
    m_progressBar->setValue(std::clamp(done, 0, std::max(total, 0)));
    m_progressLabel->setText(current.isEmpty() ? tr("Checking (%1 of %2)").arg(done).arg(total)
                                               : tr("Checking %1 (%2 of %3)").arg(current).arg(done).arg(total));
}

QString ResultsPanel::progressText() const
{
    return m_progressLabel->text();
}

void ResultsPanel::setStale(bool stale)
{
    // The rows are greyed through the model's colours. An opacity effect on the view would paint
    // from a cached copy of the whole scroll area, which the viewport's own scrolling and the
    // relayout this banner causes invalidate only in part: rows then showed twice, offset.
    m_isStale = stale;
    m_stale->setVisible(stale);
    static_cast<ResultsFilterModel *>(m_proxy)->setStale(stale);
}

bool ResultsPanel::isStale() const
{
    return m_isStale;
}

bool ResultsPanel::changesOnly() const
{
    return static_cast<const ResultsFilterModel *>(m_proxy)->changesOnly();
}

void ResultsPanel::setChangesOnly(bool changesOnly)
{
    m_changesOnly->setChecked(changesOnly);
    static_cast<ResultsFilterModel *>(m_proxy)->setChangesOnly(changesOnly);
}

QColor ResultsPanel::outcomeColor(const QString &outcome, const QPalette &palette)
{
    const bool dark = isDarkPalette(palette);
    if (outcome == kStable || outcome == kSkipped || outcome == kUnmet)
        return dark ? QColor(0x9a, 0xa0, 0xa6) : QColor(0x6a, 0x70, 0x76);
    if (outcome == kChanged)
        return dark ? QColor(0xf0, 0xb4, 0x29) : QColor(0xa8, 0x64, 0x00);
    if (outcome == kFailed)
        return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28);
    if (outcome == kRefreshed)
        return dark ? QColor(0x79, 0xc0, 0xff) : QColor(0x1a, 0x5f, 0xb4);
    return {};
}

QTreeView *ResultsPanel::view() const
{
    return m_view;
}

QSortFilterProxyModel *ResultsPanel::proxyModel() const
{
    return m_proxy;
}

DiffView *ResultsPanel::diffView() const
{
    return m_diff;
}

QLabel *ResultsPanel::staleLabel() const
{
    return m_stale;
}

QLabel *ResultsPanel::progressLabel() const
{
    return m_progressLabel;
}

QProgressBar *ResultsPanel::progressBar() const
{
    return m_progressBar;
}

QPushButton *ResultsPanel::cancelButton() const
{
    return m_cancel;
}

QToolButton *ResultsPanel::exportButton() const
{
    return m_export;
}

QCheckBox *ResultsPanel::changesOnlyBox() const
{
    return m_changesOnly;
}

void ResultsPanel::selectionChanged()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    emit resourceSelected(m_proxy->mapToSource(current).row());
}

void ResultsPanel::updateExport()
{
    const QAbstractItemModel *model = m_proxy->sourceModel();
    m_export->setEnabled(!m_running && model && model->rowCount() > 0);
}

void ResultsPanel::selectRow(int sourceRow)
{
    const QModelIndex index = m_proxy->sourceModel() && sourceRow >= 0
        ? m_proxy->mapFromSource(m_proxy->sourceModel()->index(sourceRow, 0))
        : QModelIndex();
    if (index.isValid()) {
        m_view->setCurrentIndex(index);
        m_view->scrollTo(index);
        return;
    }
    // A resource without a result (or one the filter hides): no row stays selected for another.
    m_view->selectionModel()->clear();
}

} // namespace ccm::designer
