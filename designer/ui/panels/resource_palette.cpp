// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/resource_palette.h"

#include <QIcon>
#include <QKeyEvent>
#include <QListWidgetItem>
#include <QMimeData>

namespace ccm::designer {

ResourcePalette::ResourcePalette(QWidget *parent)
    : QListWidget(parent)
{
    struct ResourceType {
        QString name;
        QString description;
    };
    // The keywords are manifest syntax and stay untranslated; the descriptions are for people.
    const ResourceType types[] = {
        {QStringLiteral("package"), tr("Install, upgrade or remove a system package")},
        {QStringLiteral("service"), tr("Keep a system service running or stopped, enabled or disabled")},
        {QStringLiteral("file"), tr("Manage a file or directory: its contents, owner and mode")},
        {QStringLiteral("exec"), tr("Run a command, optionally guarded by conditions")},
        {QStringLiteral("archive"), tr("Download an archive over HTTP and extract it")},
        {QStringLiteral("scaffold"), tr("Render a directory of templates into a target directory")},
        {QStringLiteral("apply"), tr("Apply a child manifest")},
    };

    setIconSize(QSize(24, 24));
    setWordWrap(true);
    setSpacing(2);
    setSelectionMode(QAbstractItemView::SingleSelection);
    // Mouse tracking lets the view show each item's status tip while hovering over it.
    setMouseTracking(true);
    // Items are dragged out onto the resource list; nothing is dropped here.
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setDefaultDropAction(Qt::CopyAction);
    // Double-click rather than itemActivated: styles that activate on a single click would add a
    // resource at the start of every drag.
    connect(this, &QListWidget::itemDoubleClicked, this,
        [this](QListWidgetItem *item) { emit typeActivated(item->data(TypeNameRole).toString()); });

    for (const ResourceType &type : types) {
        auto *item = new QListWidgetItem(this);
        item->setIcon(QIcon(QStringLiteral(":/icons/%1.svg").arg(type.name)));
        item->setText(type.name + u'\n' + type.description);
        item->setToolTip(type.description);
        item->setStatusTip(type.description);
        item->setData(TypeNameRole, type.name);
    }
}

QString ResourcePalette::mimeType()
{
    return QStringLiteral("application/x-ccm-resource-type");
}

void ResourcePalette::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && currentItem()) {
        emit typeActivated(currentItem()->data(TypeNameRole).toString());
        return;
    }
    QListWidget::keyPressEvent(event);
}

QStringList ResourcePalette::mimeTypes() const
{
    return {mimeType()};
}

QMimeData *ResourcePalette::mimeData(const QList<QListWidgetItem *> &items) const
{
    if (items.isEmpty())
        return nullptr;
    auto *payload = new QMimeData;
    payload->setData(mimeType(), items.constFirst()->data(TypeNameRole).toString().toUtf8());
    return payload;
}

} // namespace ccm::designer
