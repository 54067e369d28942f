// SPDX-License-Identifier: Apache-2.0
#include "resource_palette.h"

#include <QIcon>
#include <QListWidgetItem>

namespace ccm::designer {

ResourcePalette::ResourcePalette(QWidget *parent)
    : QListWidget(parent)
{
    struct ResourceType
    {
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

    for (const ResourceType &type : types) {
        auto *item = new QListWidgetItem(this);
        item->setIcon(QIcon(QStringLiteral(":/icons/%1.svg").arg(type.name)));
        item->setText(type.name + u'\n' + type.description);
        item->setToolTip(type.description);
        item->setStatusTip(type.description);
        item->setData(TypeNameRole, type.name);
    }
}

} // namespace ccm::designer
