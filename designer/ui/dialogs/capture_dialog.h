// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/capture_client.h"
#include "designer/core/capture_insertion.h"

#include <QDialog>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QModelIndex;
class QPlainTextEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItem;
class QStandardItemModel;
class QTabWidget;
class QTreeView;

namespace ccm::designer {

class BackendClient;
class DocumentHost;
class ManifestDocument;

class CaptureOptions;

/// Edit ▸ Add ▸ From This Machine…: what the backend's host has, in three tabs. Packages and
/// Services list host.inventory's answer with a search field (a filter that keeps the checks);
/// Files browses the host's tree a directory at a time as it is expanded, with owner, group, mode
/// and size, marking what cannot be read, what only its owner may read and what cannot be a file
/// resource. "Will add" lists the checked items; Add calls host.capture and adds the resources to
/// the manifest in one undoable step (addCapture()), then reports what was skipped and why.
class CaptureDialog : public QDialog {
    Q_OBJECT

public:
    /// Item data: a package's or service's name, a file's absolute path.
    static constexpr int kKeyRole = Qt::UserRole + 1;

    CaptureDialog(BackendClient *client, ManifestDocument *document, QWidget *parent = nullptr);

    /// Asks for the packages, the services and the root directory; when the client is not
    /// connected yet, as soon as it is.
    void load();
    /// Whether an inventory request or the capture is still unanswered.
    [[nodiscard]] bool isBusy() const { return m_pending > 0; }

    /// Loads and expands each directory on the way to `path` and makes its row current.
    void revealPath(const QString &path);
    /// The row of `path` in the Files tab, once listed; null otherwise.
    [[nodiscard]] QStandardItem *fileItem(const QString &path) const;
    /// The row of a package or service by name; null when not listed.
    [[nodiscard]] QStandardItem *packageItem(const QString &name) const;
    [[nodiscard]] QStandardItem *serviceItem(const QString &name) const;

    /// What the checks and options say to capture.
    [[nodiscard]] CaptureSelection selection() const;
    /// Calls host.capture with selection() and adds the answer to the manifest.
    void capture();

    QTabWidget *tabs() const { return m_tabs; }
    QLineEdit *packageFilter() const { return m_packageFilter; }
    QTreeView *packageView() const { return m_packageView; }
    QLineEdit *serviceFilter() const { return m_serviceFilter; }
    QTreeView *serviceView() const { return m_serviceView; }
    QTreeView *fileView() const { return m_fileView; }
    QLineEdit *pathEdit() const { return m_pathEdit; }
    QCheckBox *pinBox() const;
    QCheckBox *dataBox() const;
    QCheckBox *privateBox() const;
    QListWidget *willAddList() const { return m_willAdd; }
    QPushButton *addButton() const { return m_add; }
    QLabel *messageLabel() const { return m_message; }
    QPlainTextEdit *reportView() const { return m_report; }

signals:
    /// The capture was added to the manifest (`added` resources).
    void added(int added);

private:
    /// Runs `then` now when the client is connected, else once it is.
    void whenConnected(std::function<void()> then);
    QWidget *createPackagesTab();
    QWidget *createServicesTab();
    QWidget *createFilesTab();
    QWidget *createSideColumn();
    void loadPackages();
    void loadServices();
    void loadDirectory(QStandardItem *item, std::function<void()> then = {});
    void fillDirectory(QStandardItem *item, const InventoryListing &listing);
    void directoryExpanded(const QModelIndex &proxyIndex);
    void revealFrom(QStandardItem *item, QStringList remaining);
    void updateWillAdd();
    void showOutcome(const CaptureAnswer &answer, const CaptureAddOutcome &outcome);
    void setBusy(bool busy);
    void setMessage(const QString &text, bool error);
    void finishRequest();

    BackendClient *m_client;
    ManifestDocument *m_document;
    QTabWidget *m_tabs = nullptr;
    QStandardItemModel *m_packages = nullptr;
    QSortFilterProxyModel *m_packageProxy = nullptr;
    QLineEdit *m_packageFilter = nullptr;
    QTreeView *m_packageView = nullptr;
    QLabel *m_packageStatus = nullptr;
    QStandardItemModel *m_services = nullptr;
    QSortFilterProxyModel *m_serviceProxy = nullptr;
    QLineEdit *m_serviceFilter = nullptr;
    QTreeView *m_serviceView = nullptr;
    QLabel *m_serviceStatus = nullptr;
    QStandardItemModel *m_files = nullptr;
    QTreeView *m_fileView = nullptr;
    QLineEdit *m_pathEdit = nullptr;
    QLabel *m_fileStatus = nullptr;
    CaptureOptions *m_options = nullptr;
    QListWidget *m_willAdd = nullptr;
    QLabel *m_message = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_close = nullptr;
    /// What waits for a directory's listing.
    std::map<QStandardItem *, std::vector<std::function<void()>>> m_waiting;
    int m_pending = 0;
    bool m_capturing = false;
};

} // namespace ccm::designer
