// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/capture_dialog.h"

#include "designer/core/backend_client.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/dialogs/capture_dialog_parts.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include <memory>
#include <utility>

namespace ccm::designer {
namespace {

/// Item data of a file row.
constexpr int kKindRole = Qt::UserRole + 2;
constexpr int kLoadedRole = Qt::UserRole + 3;
/// Whether a directory's entries are there (kLoadedRole).
enum class ListingState { NotListed, Listing, Listed };
/// The placeholder row of a directory not listed yet.
constexpr int kPlaceholderRole = Qt::UserRole + 4;

QStandardItem *textItem(const QString &text, const QString &tip = {})
{
    auto *item = new QStandardItem(text);
    item->setEditable(false);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

QStandardItem *checkItem(const QString &text, const QString &key)
{
    QStandardItem *item = textItem(text);
    item->setData(key, CaptureDialog::kKeyRole);
    item->setCheckable(true);
    item->setCheckState(Qt::Unchecked);
    return item;
}

/// A row that cannot be chosen: greyed, not checkable, `why` as every cell's tooltip.
void disableRow(const QList<QStandardItem *> &row, const QString &why)
{
    for (QStandardItem *item : row) {
        item->setCheckable(false);
        item->setData(QVariant(), Qt::CheckStateRole);
        item->setEnabled(false);
        item->setToolTip(why);
    }
}

QSortFilterProxyModel *filterModel(QStandardItemModel *source, QObject *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(-1);
    return proxy;
}

QTreeView *listView(QAbstractItemModel *model, const QString &objectName, QWidget *parent)
{
    auto *view = new QTreeView(parent);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    return view;
}

/// Space checks or unchecks every selected row, so many rows are chosen at once.
void toggleSelectedOnSpace(QTreeView *view, QStandardItemModel *model, QSortFilterProxyModel *proxy)
{
    QObject::connect(view, &QTreeView::activated, view, [view, model, proxy](const QModelIndex &activated) {
        const QModelIndexList rows = view->selectionModel()->selectedRows();
        QStandardItem *first = model->itemFromIndex(proxy->mapToSource(activated.siblingAtColumn(0)));
        if (first == nullptr || !first->isCheckable())
            return;
        const Qt::CheckState state = first->checkState() == Qt::Checked ? Qt::Unchecked : Qt::Checked;
        for (const QModelIndex &row : rows) {
            QStandardItem *item = model->itemFromIndex(proxy->mapToSource(row));
            if (item != nullptr && item->isCheckable())
                item->setCheckState(state);
        }
    });
}

QStringList checkedKeys(const QStandardItemModel *model)
{
    QStringList keys;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QStandardItem *item = model->item(row);
        if (item->isCheckable() && item->checkState() == Qt::Checked)
            keys.append(item->data(CaptureDialog::kKeyRole).toString());
    }
    return keys;
}

/// The checked paths under `item`, leaving out what a checked directory above already takes.
void checkedPaths(const QStandardItem *item, QStringList &paths)
{
    for (int row = 0; row < item->rowCount(); ++row) {
        const QStandardItem *child = item->child(row);
        if (child->isCheckable() && child->checkState() == Qt::Checked)
            paths.append(child->data(CaptureDialog::kKeyRole).toString());
        else
            checkedPaths(child, paths);
    }
}

QString joinPath(const QString &directory, const QString &name)
{
    return directory.endsWith(QLatin1Char('/')) ? directory + name : directory + QLatin1Char('/') + name;
}

/// Why an entry cannot be chosen, or empty when it can.
QString entryRefusal(const InventoryEntry &entry)
{
    if (entry.kind == QLatin1String("symlink"))
        return CaptureDialog::tr("A symbolic link (to %1): it cannot be a file resource").arg(entry.linkTarget);
    if (entry.kind == QLatin1String("socket"))
        return CaptureDialog::tr("A socket: it cannot be a file resource");
    if (entry.kind == QLatin1String("device"))
        return CaptureDialog::tr("A device: it cannot be a file resource");
    if (entry.kind == QLatin1String("fifo"))
        return CaptureDialog::tr("A named pipe: it cannot be a file resource");
    if (!entry.capturable())
        return CaptureDialog::tr("Not a file or directory: it cannot be a file resource");
    if (!entry.readable)
        return entry.isDirectory() ? CaptureDialog::tr("Unreadable: the backend may not list it for you")
                                   : CaptureDialog::tr("Unreadable: the backend may not read it for you");
    return {};
}

QString entryNote(const InventoryEntry &entry)
{
    if (entry.kind == QLatin1String("symlink"))
        return CaptureDialog::tr("link → %1").arg(entry.linkTarget);
    if (!entry.capturable())
        return CaptureDialog::tr("not capturable");
    if (!entry.readable)
        return CaptureDialog::tr("unreadable");
    if (entry.privateToOwner)
        return CaptureDialog::tr("private");
    return {};
}

QList<QStandardItem *> entryRow(const QString &path, const InventoryEntry &entry)
{
    QStandardItem *name = checkItem(entry.name, path);
    name->setData(entry.kind, kKindRole);
    const QString note = entryNote(entry);
    QList<QStandardItem *> row {name, textItem(entry.owner), textItem(entry.group), textItem(entry.mode),
        textItem(entry.isDirectory() ? QString() : QLocale().formattedDataSize(entry.size)), textItem(note)};
    row[4]->setData(Qt::AlignRight, Qt::TextAlignmentRole);
    const QString refusal = entryRefusal(entry);
    if (!refusal.isEmpty()) {
        disableRow(row, refusal);
        return row;
    }
    if (entry.privateToOwner) {
        const QString tip = CaptureDialog::tr("Only its owner may read it: captured only with \"Include private "
                                              "files\", as a source file with mode 0600");
        for (QStandardItem *item : row)
            item->setToolTip(tip);
    }
    if (entry.isDirectory()) {
        QStandardItem *placeholder = textItem(CaptureDialog::tr("Loading…"));
        placeholder->setData(true, kPlaceholderRole);
        placeholder->setEnabled(false);
        name->appendRow(placeholder);
    }
    return row;
}

} // namespace

CaptureDialog::CaptureDialog(BackendClient *client, ManifestDocument *document, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_document(document)
{
    setWindowTitle(tr("Add From This Machine"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Choose what this host has: each becomes a resource that describes it as it is now. "
                                "A preview right after finds nothing to change."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *splitter = new QSplitter(this);
    m_tabs = new QTabWidget(splitter);
    m_tabs->setObjectName(QStringLiteral("captureTabs"));
    m_tabs->addTab(createPackagesTab(), tr("&Packages"));
    m_tabs->addTab(createServicesTab(), tr("&Services"));
    m_tabs->addTab(createFilesTab(), tr("&Files"));
    splitter->addWidget(m_tabs);
    splitter->addWidget(createSideColumn());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("captureMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    m_report = captureui::reportEdit(this);
    layout->addWidget(m_report);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_close = buttons->button(QDialogButtonBox::Cancel);
    // Enter belongs to the lists (it checks the selected rows) and to the path field: no button
    // of this dialog is the default.
    m_add = buttons->addButton(tr("&Add to Manifest"), QDialogButtonBox::ActionRole);
    m_add->setObjectName(QStringLiteral("captureAdd"));
    for (QPushButton *button : {m_add, m_close})
        button->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_add, &QPushButton::clicked, this, &CaptureDialog::capture);
    layout->addWidget(buttons);
    resize(960, 620);
    updateWillAdd();
}

QWidget *CaptureDialog::createPackagesTab()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    m_packageFilter = new QLineEdit(page);
    m_packageFilter->setObjectName(QStringLiteral("packageFilter"));
    m_packageFilter->setPlaceholderText(tr("Search packages"));
    m_packageFilter->setClearButtonEnabled(true);
    layout->addWidget(m_packageFilter);
    m_packages = new QStandardItemModel(0, 4, this);
    m_packages->setHorizontalHeaderLabels({tr("Name"), tr("Version"), tr("Architecture"), tr("Summary")});
    m_packageProxy = filterModel(m_packages, this);
    m_packageView = listView(m_packageProxy, QStringLiteral("packageList"), page);
    layout->addWidget(m_packageView, 1);
    m_packageStatus = new QLabel(page);
    layout->addWidget(m_packageStatus);
    connect(m_packageFilter, &QLineEdit::textChanged, m_packageProxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_packages, &QStandardItemModel::itemChanged, this, &CaptureDialog::updateWillAdd);
    toggleSelectedOnSpace(m_packageView, m_packages, m_packageProxy);
    return page;
}

QWidget *CaptureDialog::createServicesTab()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    m_serviceFilter = new QLineEdit(page);
    m_serviceFilter->setObjectName(QStringLiteral("serviceFilter"));
    m_serviceFilter->setPlaceholderText(tr("Search services"));
    m_serviceFilter->setClearButtonEnabled(true);
    layout->addWidget(m_serviceFilter);
    m_services = new QStandardItemModel(0, 4, this);
    m_services->setHorizontalHeaderLabels({tr("Name"), tr("State"), tr("Enabled"), tr("Description")});
    m_serviceProxy = filterModel(m_services, this);
    m_serviceView = listView(m_serviceProxy, QStringLiteral("serviceList"), page);
    layout->addWidget(m_serviceView, 1);
    m_serviceStatus = new QLabel(page);
    m_serviceStatus->setWordWrap(true);
    layout->addWidget(m_serviceStatus);
    connect(m_serviceFilter, &QLineEdit::textChanged, m_serviceProxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_services, &QStandardItemModel::itemChanged, this, &CaptureDialog::updateWillAdd);
    toggleSelectedOnSpace(m_serviceView, m_services, m_serviceProxy);
    return page;
}

QWidget *CaptureDialog::createFilesTab()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    m_pathEdit = new QLineEdit(page);
    m_pathEdit->setObjectName(QStringLiteral("capturePath"));
    m_pathEdit->setPlaceholderText(tr("Go to a path, for example /etc/nginx"));
    m_pathEdit->setClearButtonEnabled(true);
    layout->addWidget(m_pathEdit);
    m_files = new QStandardItemModel(0, 6, this);
    m_files->setHorizontalHeaderLabels({tr("Name"), tr("Owner"), tr("Group"), tr("Mode"), tr("Size"), tr("Note")});
    m_fileView = new QTreeView(page);
    m_fileView->setObjectName(QStringLiteral("fileTree"));
    m_fileView->setModel(m_files);
    m_fileView->setUniformRowHeights(true);
    m_fileView->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_fileView->header()->setStretchLastSection(false);
    layout->addWidget(m_fileView, 1);
    m_fileStatus = new QLabel(page);
    m_fileStatus->setWordWrap(true);
    layout->addWidget(m_fileStatus);
    if (m_document->filePath().isEmpty() || !m_document->bundleDirectory().isEmpty()) {
        auto *unsaved = new QLabel(tr("The manifest is not saved as a file yet. Files that cannot be written inline "
                                      "(binary, large or secret-looking) become source files beside it: save the "
                                      "manifest first to add those."),
            page);
        unsaved->setObjectName(QStringLiteral("captureUnsavedNote"));
        unsaved->setWordWrap(true);
        layout->addWidget(unsaved);
    }
    // The whole file system is no capture: the root is only browsed.
    QStandardItem *root = textItem(QStringLiteral("/"));
    root->setData(QStringLiteral("/"), kKeyRole);
    root->setData(QStringLiteral("directory"), kKindRole);
    QStandardItem *placeholder = textItem(tr("Loading…"));
    placeholder->setData(true, kPlaceholderRole);
    root->appendRow(placeholder);
    m_files->appendRow({root, textItem({}), textItem({}), textItem({}), textItem({}), textItem({})});
    connect(m_fileView, &QTreeView::expanded, this, [this](const QModelIndex &index) {
        if (QStandardItem *item = m_files->itemFromIndex(index.siblingAtColumn(0));
            item != nullptr && item->data(kLoadedRole).toInt() == int(ListingState::NotListed))
            loadDirectory(item);
    });
    connect(m_files, &QStandardItemModel::itemChanged, this, &CaptureDialog::updateWillAdd);
    connect(m_pathEdit, &QLineEdit::returnPressed, this, [this] { revealPath(m_pathEdit->text().trimmed()); });
    return page;
}

QWidget *CaptureDialog::createSideColumn()
{
    auto *column = new QWidget(this);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Will add:"), column));
    m_willAdd = new QListWidget(column);
    m_willAdd->setObjectName(QStringLiteral("captureWillAdd"));
    m_willAdd->setWordWrap(true);
    layout->addWidget(m_willAdd, 1);
    m_options = new CaptureOptions(column);
    layout->addWidget(m_options);
    return column;
}

QCheckBox *CaptureDialog::pinBox() const
{
    return m_options->pin;
}

QCheckBox *CaptureDialog::dataBox() const
{
    return m_options->data;
}

QCheckBox *CaptureDialog::privateBox() const
{
    return m_options->includePrivate;
}

void CaptureDialog::whenConnected(std::function<void()> then)
{
    if (m_client->isConnected()) {
        then();
        return;
    }
    setMessage(tr("Waiting for the backend…"), false);
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(m_client, &BackendClient::connected, this, [this, once, then = std::move(then)] {
        disconnect(*once);
        setMessage({}, false);
        then();
    });
}

void CaptureDialog::load()
{
    whenConnected([this] {
        loadPackages();
        loadServices();
        QStandardItem *root = m_files->item(0);
        loadDirectory(root, [this, root] { m_fileView->expand(m_files->indexFromItem(root)); });
    });
}

void CaptureDialog::loadPackages()
{
    ++m_pending;
    m_packageStatus->setText(tr("Asking the backend for the installed packages…"));
    capture::listPackages(m_client,
        [guard = QPointer<CaptureDialog>(this)](
            std::optional<std::vector<InventoryPackage>> packages, const QString &error) {
            if (guard == nullptr)
                return;
            CaptureDialog *self = guard;
            if (!packages) {
                self->m_packageStatus->setText(tr("The packages cannot be listed: %1").arg(error));
            } else {
                for (const InventoryPackage &package : *packages) {
                    QList<QStandardItem *> row {checkItem(package.name, package.name), textItem(package.version),
                        textItem(package.arch), textItem(package.summary)};
                    row[0]->setToolTip(package.summary);
                    self->m_packages->appendRow(row);
                }
                self->m_packageView->resizeColumnToContents(0);
                self->m_packageStatus->setText(
                    tr("%n package(s) installed.", nullptr, static_cast<int>(packages->size())));
            }
            self->finishRequest();
        });
}

void CaptureDialog::loadServices()
{
    ++m_pending;
    m_serviceStatus->setText(tr("Asking the backend for the services…"));
    capture::listServices(m_client,
        [guard = QPointer<CaptureDialog>(this)](
            std::optional<std::vector<InventoryService>> services, const QString &error) {
            if (guard == nullptr)
                return;
            CaptureDialog *self = guard;
            if (!services) {
                self->m_serviceStatus->setText(tr("The services cannot be listed: %1").arg(error));
            } else {
                for (const InventoryService &service : *services) {
                    const QString state = service.running ? tr("running") : tr("stopped");
                    QList<QStandardItem *> row {checkItem(service.name, service.name),
                        textItem(service.activeState.isEmpty() ? state : tr("%1 (%2)").arg(state, service.activeState)),
                        textItem(service.enabledState.isEmpty() ? (service.enabled ? tr("enabled") : tr("disabled"))
                                                                : service.enabledState),
                        textItem(service.description)};
                    if (!service.capturable)
                        disableRow(row,
                            service.reason.isEmpty() ? tr("A service resource cannot express it") : service.reason);
                    self->m_services->appendRow(row);
                }
                self->m_serviceView->resizeColumnToContents(0);
                self->m_serviceStatus->setText(tr("%n service(s).", nullptr, static_cast<int>(services->size())));
            }
            self->finishRequest();
        });
}

void CaptureDialog::loadDirectory(QStandardItem *item, std::function<void()> then)
{
    const auto state = static_cast<ListingState>(item->data(kLoadedRole).toInt());
    if (state == ListingState::Listed) {
        if (then)
            then();
        return;
    }
    if (then)
        m_waiting[item].push_back(std::move(then));
    if (state == ListingState::Listing)
        return;
    item->setData(int(ListingState::Listing), kLoadedRole);
    ++m_pending;
    const QString path = item->data(kKeyRole).toString();
    m_fileStatus->setText(tr("Listing %1…").arg(path));
    capture::listDirectory(m_client, path,
        [guard = QPointer<CaptureDialog>(this), item, path](
            std::optional<InventoryListing> listing, const QString &error) {
            if (guard == nullptr)
                return;
            CaptureDialog *self = guard;
            if (!listing) {
                // Expanding it again asks again.
                item->setData(int(ListingState::NotListed), kLoadedRole);
                item->setToolTip(error);
                self->m_fileStatus->setText(tr("%1 cannot be listed: %2").arg(path, error));
            } else {
                item->setData(int(ListingState::Listed), kLoadedRole);
                self->fillDirectory(item, *listing);
                self->m_fileStatus->setText(listing->truncated ? tr("%1: only the first %n entries are listed.",
                                                nullptr, static_cast<int>(listing->entries.size()))
                                                                     .arg(path)
                                                               : QString());
            }
            self->finishRequest();
            const std::vector<std::function<void()>> waiting = std::exchange(self->m_waiting[item], {});
            self->m_waiting.erase(item);
            if (listing) {
                for (const std::function<void()> &waiter : waiting)
                    waiter();
            }
        });
}

void CaptureDialog::fillDirectory(QStandardItem *item, const InventoryListing &listing)
{
    item->removeRows(0, item->rowCount());
    const QString directory = item->data(kKeyRole).toString();
    for (const InventoryEntry &entry : listing.entries) {
        if (entry.name.isEmpty() || entry.name.contains(QLatin1Char('/')) || entry.name == QLatin1String(".")
            || entry.name == QLatin1String(".."))
            continue;
        item->appendRow(entryRow(joinPath(directory, entry.name), entry));
    }
    if (listing.truncated) {
        QStandardItem *more = textItem(tr("… more entries, not listed: type a path above to go to one"));
        more->setEnabled(false);
        item->appendRow(more);
    }
    m_fileView->resizeColumnToContents(1);
}

QStandardItem *CaptureDialog::fileItem(const QString &path) const
{
    QStandardItem *item = m_files->item(0);
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        QStandardItem *next = nullptr;
        for (int row = 0; item != nullptr && row < item->rowCount(); ++row) {
            if (item->child(row)->text() == part && !item->child(row)->data(kPlaceholderRole).toBool())
                next = item->child(row);
        }
        item = next;
        if (item == nullptr)
            return nullptr;
    }
    return item;
}

QStandardItem *CaptureDialog::packageItem(const QString &name) const
{
    const QList<QStandardItem *> found = m_packages->findItems(name, Qt::MatchExactly, 0);
    return found.isEmpty() ? nullptr : found.front();
}

QStandardItem *CaptureDialog::serviceItem(const QString &name) const
{
    const QList<QStandardItem *> found = m_services->findItems(name, Qt::MatchExactly, 0);
    return found.isEmpty() ? nullptr : found.front();
}

void CaptureDialog::revealPath(const QString &path)
{
    if (!path.startsWith(QLatin1Char('/'))) {
        m_fileStatus->setText(tr("Type an absolute path, starting with /."));
        return;
    }
    m_tabs->setCurrentIndex(2);
    whenConnected([this, path] { revealFrom(m_files->item(0), path.split(QLatin1Char('/'), Qt::SkipEmptyParts)); });
}

void CaptureDialog::revealFrom(QStandardItem *item, QStringList remaining)
{
    const QModelIndex index = m_files->indexFromItem(item);
    if (remaining.isEmpty()) {
        m_fileView->setCurrentIndex(index);
        m_fileView->scrollTo(index);
        // A directory gone to shows what it holds.
        if (item->data(kKindRole).toString() == QLatin1String("directory"))
            loadDirectory(item, [this, item] { m_fileView->expand(m_files->indexFromItem(item)); });
        return;
    }
    loadDirectory(item, [this, item, remaining = std::move(remaining)]() mutable {
        m_fileView->expand(m_files->indexFromItem(item));
        const QString part = remaining.takeFirst();
        for (int row = 0; row < item->rowCount(); ++row) {
            if (item->child(row)->text() == part && !item->child(row)->data(kPlaceholderRole).toBool()) {
                revealFrom(item->child(row), std::move(remaining));
                return;
            }
        }
        m_fileStatus->setText(tr("%1 has no entry %2.").arg(item->data(kKeyRole).toString(), part));
    });
}

CaptureSelection CaptureDialog::selection() const
{
    CaptureSelection selection;
    selection.packages = checkedKeys(m_packages);
    selection.services = checkedKeys(m_services);
    checkedPaths(m_files->item(0), selection.files);
    m_options->apply(selection);
    return selection;
}

void CaptureDialog::updateWillAdd()
{
    const CaptureSelection chosen = selection();
    m_willAdd->clear();
    for (const QString &name : chosen.packages)
        m_willAdd->addItem(tr("package %1").arg(name));
    for (const QString &name : chosen.files) {
        const QStandardItem *item = fileItem(name);
        const bool directory = item != nullptr && item->data(kKindRole).toString() == QLatin1String("directory");
        m_willAdd->addItem(directory ? tr("file %1 and everything below it").arg(name) : tr("file %1").arg(name));
    }
    for (const QString &name : chosen.services)
        m_willAdd->addItem(tr("service %1").arg(name));
    m_add->setEnabled(!chosen.isEmpty() && !m_capturing);
}

void CaptureDialog::capture()
{
    const CaptureSelection chosen = selection();
    if (chosen.isEmpty() || m_capturing)
        return;
    setBusy(true);
    setMessage(tr("Capturing %n item(s)…", nullptr, m_willAdd->count()), false);
    ++m_pending;
    capture::captureHost(m_client, chosen,
        [guard = QPointer<CaptureDialog>(this)](std::optional<CaptureAnswer> answer, const QString &error) {
            if (guard == nullptr)
                return;
            CaptureDialog *self = guard;
            self->setBusy(false);
            if (!answer) {
                self->setMessage(tr("The capture failed: %1").arg(error), true);
            } else {
                const CaptureAddOutcome outcome
                    = addCapture(*self->m_document, answer->capture, tr("Add from This Machine"));
                if (!outcome.ok)
                    self->setMessage(outcome.error, true);
                else
                    self->showOutcome(*answer, outcome);
            }
            self->finishRequest();
        });
}

void CaptureDialog::showOutcome(const CaptureAnswer &answer, const CaptureAddOutcome &outcome)
{
    emit added(static_cast<int>(outcome.plan.added.size()));
    if (!captureui::showReport(m_report, m_message, answer, outcome)) {
        accept();
        return;
    }
    // Something to read: the dialog stays with the report, and only closes.
    m_tabs->setEnabled(false);
    m_add->setVisible(false);
    m_close->setText(tr("Close"));
}

void CaptureDialog::setBusy(bool busy)
{
    m_capturing = busy;
    m_tabs->setEnabled(!busy);
    m_options->setEnabled(!busy);
    updateWillAdd();
}

void CaptureDialog::setMessage(const QString &text, bool error)
{
    captureui::styleMessage(m_message, text, error);
}

void CaptureDialog::finishRequest()
{
    --m_pending;
}

namespace captureui {
namespace {

/// What the capture says beyond the resources: the lines of the report, or none.
QStringList reportLines(const CaptureAnswer &answer, const CaptureAddOutcome &outcome)
{
    QStringList lines;
    if (!outcome.plan.alreadyPresent.isEmpty())
        lines.append(CaptureDialog::tr("Already in the manifest, left as they are: %1")
                         .arg(outcome.plan.alreadyPresent.join(QStringLiteral(", "))));
    for (const CaptureSkip &skip : answer.capture.skipped)
        lines.append(CaptureDialog::tr("Skipped %1 (%2): %3")
                         .arg(QString::fromStdString(skip.path), QString::fromStdString(skip.kind),
                             QString::fromStdString(skip.reason)));
    for (const std::string &warning : answer.capture.warnings)
        lines.append(CaptureDialog::tr("Warning: %1").arg(QString::fromStdString(warning)));
    for (const QString &conflict : outcome.plan.dataConflicts)
        lines.append(CaptureDialog::tr("Data: %1").arg(conflict));
    return lines;
}

QString summaryLine(const CaptureAnswer &answer, const CaptureAddOutcome &outcome)
{
    const QString where = answer.capture.host.empty() ? QString() : QString::fromStdString(answer.capture.host);
    QString line = CaptureDialog::tr("Added %n resource(s) from %1 in one step (Edit ▸ Undo takes them back).", nullptr,
        static_cast<int>(outcome.plan.added.size()))
                       .arg(where);
    if (!outcome.sources.written.isEmpty())
        line += QLatin1Char(' ')
            + CaptureDialog::tr("Source files written beside the manifest: %1")
                  .arg(outcome.sources.written.join(QStringLiteral(", ")));
    return line;
}

} // namespace

QPlainTextEdit *reportEdit(QWidget *parent)
{
    auto *report = new QPlainTextEdit(parent);
    report->setObjectName(QStringLiteral("captureReport"));
    report->setReadOnly(true);
    report->setVisible(false);
    return report;
}

/// Shows the outcome in `report`; true when there was something to read there.
bool showReport(QPlainTextEdit *report, QLabel *message, const CaptureAnswer &answer, const CaptureAddOutcome &outcome)
{
    const QStringList lines = reportLines(answer, outcome);
    message->setText(summaryLine(answer, outcome));
    message->setStyleSheet(QString());
    report->setPlainText(lines.join(QLatin1Char('\n')));
    report->setVisible(!lines.isEmpty());
    return !lines.isEmpty();
}

void styleMessage(QLabel *label, const QString &text, bool error)
{
    label->setText(text);
    label->setStyleSheet(
        error ? QStringLiteral("color: palette(bright-text); background: #b3261e; padding: 3px") : QString());
}

} // namespace captureui

} // namespace ccm::designer
