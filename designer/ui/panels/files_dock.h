// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QWidget>

class QFileSystemModel;
class QLabel;
class QModelIndex;
class QSortFilterProxyModel;
class QTreeView;

namespace ccm::designer {

/// The files of the manifest's directory (templates, files resources copy, child manifests),
/// kept current as files appear and go. Hidden files, editor backups and swap files are left
/// out. Activating a file (double-click, Enter) asks for it to be opened.
class FilesDock : public QWidget {
    Q_OBJECT

public:
    explicit FilesDock(QWidget *parent = nullptr);

    /// Lists `directory`; an empty one lists nothing (a new manifest has no directory yet).
    void setRootDirectory(const QString &directory);
    [[nodiscard]] QString rootDirectory() const { return m_root; }

    [[nodiscard]] QTreeView *view() const { return m_view; }
    /// The index of `path` in view()'s model; invalid when it is not listed (yet).
    [[nodiscard]] QModelIndex indexOf(const QString &path) const;

signals:
    /// The user chose a file (not a directory) to open.
    void fileActivated(const QString &path);

private:
    void activate(const QModelIndex &index);

    QFileSystemModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_placeholder = nullptr;
    QString m_root;
};

} // namespace ccm::designer
