// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/empty_state.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QEvent>

namespace ccm::designer {

namespace {
constexpr int kEmptyStateMargin = 24;

void applyEmptyStateLook(QLabel *label)
{
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignCenter);
    label->setMargin(kEmptyStateMargin);
    // The colour the style gives hints in empty fields: muted in light and dark palettes alike,
    // and read at paint time so it follows palette changes.
    label->setForegroundRole(QPalette::PlaceholderText);
}
} // namespace

QLabel *createEmptyStateLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    applyEmptyStateLook(label);
    return label;
}

QLabel *createStaleBanner(QWidget *parent)
{
    auto *banner = new QLabel(parent);
    banner->setObjectName(QStringLiteral("staleBanner"));
    banner->setWordWrap(true);
    banner->setTextFormat(Qt::PlainText);
    banner->setMargin(4);
    banner->setAutoFillBackground(true);
    banner->setBackgroundRole(QPalette::ToolTipBase);
    banner->setForegroundRole(QPalette::ToolTipText);
    banner->hide();
    return banner;
}

EmptyState *EmptyState::install(QAbstractItemView *view, const QString &text)
{
    return new EmptyState(view, text);
}

EmptyState::EmptyState(QAbstractItemView *view, const QString &text)
    : QLabel(text, view->viewport())
    , m_view(view)
{
    setObjectName(QStringLiteral("emptyState"));
    applyEmptyStateLook(this);
    // Clicks and drops go to the view underneath (the palette drops resources on the list).
    setAttribute(Qt::WA_TransparentForMouseEvents);
    view->viewport()->installEventFilter(this);
    if (QAbstractItemModel *model = view->model()) {
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
            connect(model, signal, this, &EmptyState::refresh);
        connect(model, &QAbstractItemModel::modelReset, this, &EmptyState::refresh);
        connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyState::refresh);
    }
    setGeometry(view->viewport()->rect());
    refresh();
}

bool EmptyState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        setGeometry(m_view->viewport()->rect());
    return QLabel::eventFilter(watched, event);
}

void EmptyState::refresh()
{
    const QAbstractItemModel *model = m_view->model();
    setVisible(model == nullptr || model->rowCount(m_view->rootIndex()) == 0);
}

} // namespace ccm::designer
