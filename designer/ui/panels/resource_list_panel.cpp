// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/resource_list_panel.h"

#include "designer/core/resource_list_model.h"
#include "designer/ui/panels/empty_state.h"

#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>

#include <utility>

namespace ccm::designer {

namespace {

/// Paints an entry's diagnostics marker (and later its preview outcome) at the right edge of
/// its row, so the label and the type icon stay where they are.
class StatusDelegate : public QStyledItemDelegate {
public:
    explicit StatusDelegate(ResourceListPanel *panel)
        : QStyledItemDelegate(panel)
        , m_panel(panel)
    {
    }

protected:
    /// Block rows read as headings with their count; defaults entries are set apart in italics.
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(ResourceListModel::IsBlockRole).toBool()) {
            option->font.setBold(true);
            option->text = ResourceListPanel::tr("%1 (%2)")
                               .arg(option->text)
                               .arg(index.data(ResourceListModel::CountRole).toInt());
        } else if (index.data(ResourceListModel::IsDefaultsRole).toBool()) {
            option->font.setItalic(true);
            option->palette.setColor(QPalette::Text, option->palette.color(QPalette::PlaceholderText));
        }
    }

public:
    /// Paints, at the right edge so the label and icon stay put, the preview's outcome of the
    /// entry (a symbol in the outcome's colour) and a dot for its diagnostics.
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        // The markers get their own room at the right, so a long label is elided before them.
        const QString outcome = index.data(ResourceListModel::OutcomeRole).toString();
        const QVariant status = index.data(ResourceListModel::StatusRole);
        const bool hasStatus = status.isValid() && status.toInt() != ResourceListModel::Valid;
        const int size = option.rect.height() / 3;
        QStyleOptionViewItem label = option;
        label.rect.setRight(option.rect.right() - (outcome.isEmpty() ? 0 : option.fontMetrics.height() + 4)
            - (hasStatus ? size + 8 : 0));
        QStyledItemDelegate::paint(painter, label, index);
        int right = option.rect.right() - 6;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);

        if (!outcome.isEmpty()) {
            const auto [symbol, colour] = outcomeMarker(outcome);
            const QColor shown = m_panel->outcomesStale() ? option.palette.color(QPalette::PlaceholderText) : colour;
            QFont font = option.font;
            font.setBold(true);
            painter->setFont(font);
            painter->setPen(shown);
            const int width = option.fontMetrics.height();
            const QRect box(right - width, option.rect.top(), width, option.rect.height());
            painter->drawText(box, Qt::AlignCenter, symbol);
            right -= width + 4;
        }

        if (hasStatus) {
            const QColor colour
                = status.toInt() == ResourceListModel::Error ? QColor(0xd3, 0x2f, 0x2f) : QColor(0xf5, 0x9e, 0x0b);
            painter->setPen(Qt::NoPen);
            painter->setBrush(colour);
            painter->drawEllipse(QRect(right - size, option.rect.center().y() - size / 2, size, size));
        }
        painter->restore();
    }

private:
    static std::pair<QString, QColor> outcomeMarker(const QString &outcome)
    {
        if (outcome == QStringLiteral("changed"))
            return {QStringLiteral("●"), QColor(0xe0, 0x8a, 0x00)};
        if (outcome == QStringLiteral("failed"))
            return {QStringLiteral("✗"), QColor(0xd3, 0x2f, 0x2f)};
        if (outcome == QStringLiteral("refreshed"))
            return {QStringLiteral("↻"), QColor(0x1e, 0x88, 0xe5)};
        if (outcome == QStringLiteral("unmet_requirements"))
            return {QStringLiteral("!"), QColor(0xe6, 0x51, 0x00)};
        if (outcome == QStringLiteral("skipped"))
            return {QStringLiteral("–"), QColor(0x9e, 0x9e, 0x9e)};
        return {QStringLiteral("✓"), QColor(0x43, 0xa0, 0x47)};
    }

public:
    /// A resource's tooltip starts with its full type#name, which a narrow list elides.
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override
    {
        if (event->type() != QEvent::ToolTip || !index.isValid() || index.data(ResourceListModel::IsBlockRole).toBool()
            || index.data(ResourceListModel::IsDefaultsRole).toBool())
            return QStyledItemDelegate::helpEvent(event, view, option, index);
        QString text = index.data(Qt::DisplayRole).toString();
        const QString problems = index.data(Qt::ToolTipRole).toString();
        if (!problems.isEmpty())
            text += QLatin1Char('\n') + problems;
        QToolTip::showText(event->globalPos(), text, view, view->visualRect(index));
        return true;
    }

private:
    const ResourceListPanel *m_panel;
};

} // namespace

ResourceListPanel::ResourceListPanel(ManifestDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_model(new ResourceListModel(document, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTreeView(this))
    , m_staleBanner(createStaleBanner(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    // Sorting would fight the manifest's order, which is the order resources run in.
    m_proxy->setDynamicSortFilter(false);

    m_filter->setObjectName(QStringLiteral("resourceFilter"));
    m_filter->setPlaceholderText(tr("Filter resources"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows the resources whose type#name contains the text"));
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text);
        m_view->expandAll();
    });

    m_view->setObjectName(QStringLiteral("resourceTree"));
    m_view->setModel(m_proxy);
    EmptyState::install(
        m_view, tr("No resources yet. Double-click a type under Resource Types, or drag it here, to add one."));
    m_view->setHeaderHidden(true);
    m_view->setUniformRowHeights(true);
    // Paths differ at their end: keep both ends of a long name in view.
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setItemDelegate(new StatusDelegate(this));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDefaultDropAction(Qt::MoveAction);

    connect(m_model, &ResourceListModel::staleChanged, this, &ResourceListPanel::showStale);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_staleBanner);
    layout->addWidget(m_view);

    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        if (!m_restoring)
            emit currentEntryChanged(currentEntry());
    });
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, &ResourceListPanel::rememberCurrent);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ResourceListPanel::restoreCurrent);
    m_view->expandAll();
}

void ResourceListPanel::showStale()
{
    // The rows are the last valid ones and name entries the text no longer has: they are shown,
    // greyed, but cannot be selected, moved or dropped on until the YAML reads again.
    const bool stale = m_model->isStale();
    m_staleBanner->setText(m_model->staleReason());
    m_staleBanner->setVisible(stale);
    m_view->setEnabled(!stale);
    m_filter->setEnabled(!stale);
}

void ResourceListPanel::setOutcomesStale(bool stale)
{
    if (m_outcomesStale == stale)
        return;
    m_outcomesStale = stale;
    m_view->viewport()->update();
}

EntryRef ResourceListPanel::currentEntry() const
{
    return m_model->entryAt(m_proxy->mapToSource(m_view->currentIndex()));
}

int ResourceListPanel::currentBlock() const
{
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.data(ResourceListModel::BlockRole).toInt() : -1;
}

void ResourceListPanel::setCurrentEntry(EntryRef entry)
{
    const QModelIndex source = m_model->indexFor(entry);
    if (!source.isValid()) {
        m_view->selectionModel()->clearCurrentIndex();
        m_view->clearSelection();
        return;
    }
    QModelIndex index = m_proxy->mapFromSource(source);
    if (!index.isValid()) {
        m_filter->clear();
        index = m_proxy->mapFromSource(source);
    }
    m_view->expand(index.parent());
    m_view->setCurrentIndex(index);
    // The block's heading first, so the entry is seen with the type it belongs to.
    m_view->scrollTo(index.parent());
    m_view->scrollTo(index);
}

void ResourceListPanel::rememberCurrent()
{
    // While the text is not YAML the list is empty; the entry shown before stays the one to come
    // back to once the text reads again.
    if (!m_waitingForText) {
        m_remembered = currentEntry();
        m_rememberedBlock = currentBlock();
    }
    m_restoring = true;
}

void ResourceListPanel::restoreCurrent()
{
    m_view->expandAll();
    const QModelIndex entry = m_model->indexFor(m_remembered);
    QModelIndex source = entry;
    if (!source.isValid() && m_rememberedBlock >= 0)
        source = m_model->index(m_rememberedBlock, 0);
    const QModelIndex index = m_proxy->mapFromSource(source);
    if (index.isValid())
        m_view->setCurrentIndex(index);
    m_restoring = false;
    m_waitingForText = !m_document->loaded().parsed;
    // The entry at the remembered place may be another one now: let the window look again.
    emit currentEntryChanged(currentEntry());
}

} // namespace ccm::designer
