// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/files_dock.h"

#include "designer/ui/panels/empty_state.h"

#include <QFileInfo>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

/// Leaves out what nobody edits as part of a manifest: editor backups, swap and lock files and
/// recovery copies.
class EditableFilesFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        const QString name = sourceModel()->index(row, 0, parent).data().toString();
        return !(name.endsWith(u'~') || name.endsWith(QLatin1String(".swp")) || name.endsWith(QLatin1String(".swo"))
            || name.startsWith(QLatin1String(".#")) || name.endsWith(QLatin1String(".ccm-recovery")));
    }
};

} // namespace

FilesDock::FilesDock(QWidget *parent)
    : QWidget(parent)
    , m_model(new QFileSystemModel(this))
    , m_proxy(new EditableFilesFilter(this))
    , m_view(new QTreeView(this))
    , m_placeholder(createEmptyStateLabel(
          tr("The files beside the manifest (templates, data) appear here once it is saved."), this))
{
    m_model->setFilter(QDir::AllDirs | QDir::Files | QDir::NoDotAndDotDot);
    m_model->setReadOnly(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setRecursiveFilteringEnabled(false);
    m_view->setObjectName(QStringLiteral("filesView"));
    m_view->setModel(m_proxy);
    m_view->setHeaderHidden(true);
    // Name only: size, type and date would crowd a narrow dock.
    for (int column = 1; column < m_model->columnCount(); ++column)
        m_view->hideColumn(column);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    layout->addWidget(m_placeholder);
    connect(m_view, &QTreeView::activated, this, &FilesDock::activate);
    setRootDirectory({});
}

void FilesDock::setRootDirectory(const QString &directory)
{
    const QString root = directory.isEmpty() ? QString() : QFileInfo(directory).absoluteFilePath();
    m_view->setVisible(!root.isEmpty());
    m_placeholder->setVisible(root.isEmpty());
    if (root == m_root)
        return;
    m_root = root;
    if (root.isEmpty())
        return;
    const QModelIndex sourceRoot = m_model->setRootPath(root);
    m_view->setRootIndex(m_proxy->mapFromSource(sourceRoot));
}

QModelIndex FilesDock::indexOf(const QString &path) const
{
    const QModelIndex source = m_model->index(QFileInfo(path).absoluteFilePath());
    return source.isValid() ? m_proxy->mapFromSource(source) : QModelIndex();
}

void FilesDock::activate(const QModelIndex &index)
{
    const QModelIndex source = m_proxy->mapToSource(index);
    if (!source.isValid() || m_model->isDir(source))
        return;
    emit fileActivated(m_model->filePath(source));
}

} // namespace ccm::designer
