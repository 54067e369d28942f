// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/main_window.h"

#include "core/yaml/source_map.h"
#include "designer/core/backend_client.h"
#include "designer/core/recovery_store.h"
#include "designer/core/resource_list_model.h"
#include "designer/ui/controllers/capture_controller.h"
#include "designer/ui/controllers/files_controller.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/controllers/host_state_controller.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/template_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/first_start_layout.h"
#include "designer/ui/help_menu.h"
#include "designer/ui/icons.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/fleet_dock.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/resource_palette.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>

namespace ccm::designer {

namespace {
// Bump when the dock layout changes so an old saved state is ignored rather than misapplied.
constexpr int kWindowStateVersion = 4;
constexpr int kStatusMessageTimeoutMs = 5000;
constexpr int kMaxRecentFiles = 10;
/// The least room a dock's content and the editors get before they are squeezed.
constexpr QSize kDockContentMinimum(160, 80);
constexpr QSize kEditorMinimum(240, 160);
const QString kRecentFilesKey = QStringLiteral("recentFiles");

QString displayPath(const QString &path)
{
    return QDir::toNativeSeparators(path);
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_document(new ManifestDocument(this))
    , m_untitledKey(RecoveryStore::newUntitledKey())
    , m_palette(new ResourcePalette(this))
    , m_propertyEditor(new PropertyEditor(this))
    , m_settingsEditor(new ManifestSettingsEditor(this))
    , m_yamlEditor(new YamlEditor(this))
    , m_problems(new ProblemsPanel(this))
    , m_results(new ResultsPanel(this))
    , m_whatIf(new WhatIfPanel(this))
    , m_autosaveTimer(new QTimer(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/ccm-designer.svg")));
    m_resourceList = new ResourceListPanel(m_document, this);
    m_preview = new PreviewController(m_document, m_resourceList, m_results, m_whatIf, this);
    m_fleet = new FleetController(m_document, m_preview->client(), this, this);
    m_capture = new CaptureController(m_document, m_preview->client(), m_fleet, this, this);
    m_hostState = new HostStateController(m_preview, m_propertyEditor, this);

    m_editorTabs = new QTabWidget(this);
    m_editorTabs->setObjectName(QStringLiteral("editorTabs"));
    m_editorTabs->addTab(m_propertyEditor, tr("Resource"));
    m_editorTabs->addTab(m_settingsEditor, tr("Manifest"));
    m_editorTabs->setDocumentMode(true);
    m_files = new FilesController(
        m_document, {m_editorTabs, m_resourceList, m_whatIf, m_problems, m_preview->client()}, &m_recovery, this);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("editorSplitter"));
    m_splitter->addWidget(m_editorTabs);
    m_splitter->addWidget(m_yamlEditor);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    setCentralWidget(m_splitter);

    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(kDefaultAutosaveDelayMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::writeRecoveryCopy);

    createDocks();
    createActions();
    connectViews();
    m_liveValues = new LiveValuesController(
        {m_document, m_preview->client(), m_whatIf, m_settingsEditor, m_propertyEditor, m_yamlEditor, m_problems},
        this);
    m_problemSummary = new QLabel(this);
    statusBar()->addPermanentWidget(m_preview->statusLabel());
    statusBar()->addPermanentWidget(m_problemSummary);
    connect(m_preview, &PreviewController::statusMessage, this,
        [this](const QString &text) { statusBar()->showMessage(text, kStatusMessageTimeoutMs); });
    connect(m_capture, &CaptureController::statusMessage, this,
        [this](const QString &text) { statusBar()->showMessage(text, kStatusMessageTimeoutMs); });
    connect(m_fleet, &FleetController::statusMessage, this,
        [this](const QString &text) { statusBar()->showMessage(text, kStatusMessageTimeoutMs); });
    connect(m_files, &FilesController::statusMessage, this,
        [this](const QString &text) { statusBar()->showMessage(text, kStatusMessageTimeoutMs); });
    connect(m_files, &FilesController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_problems, &ProblemsPanel::summaryChanged, m_problemSummary, &QLabel::setText);

    m_document->newDocument();
    restoreSettings();
    // The form fields' key presses pass here first (see eventFilter()).
    qApp->installEventFilter(this);
}

MainWindow::~MainWindow()
{
    // Closing the window takes the focus from the YAML view, which may then hand the document a
    // last edit: its views are going, so they must not hear of it.
    disconnect(m_document, nullptr, this, nullptr);
    qApp->removeEventFilter(this);
}

void MainWindow::createDocks()
{
    auto *typesDock = new QDockWidget(tr("Resource Types"), this);
    typesDock->setObjectName(QStringLiteral("resourceTypesDock"));
    typesDock->setWidget(m_palette);
    addDockWidget(Qt::LeftDockWidgetArea, typesDock);

    auto *resourcesDock = new QDockWidget(tr("Resources"), this);
    resourcesDock->setObjectName(QStringLiteral("resourcesDock"));
    resourcesDock->setWidget(m_resourceList);
    addDockWidget(Qt::LeftDockWidgetArea, resourcesDock);

    auto *filesDock = new QDockWidget(tr("Files"), this);
    filesDock->setObjectName(QStringLiteral("filesDock"));
    filesDock->setWidget(m_files->dock());
    addDockWidget(Qt::LeftDockWidgetArea, filesDock);
    tabifyDockWidget(resourcesDock, filesDock);
    resourcesDock->raise();

    auto *problemsDock = new QDockWidget(tr("Problems"), this);
    problemsDock->setObjectName(QStringLiteral("problemsDock"));
    problemsDock->setWidget(m_problems);
    addDockWidget(Qt::BottomDockWidgetArea, problemsDock);

    auto *resultsDock = new QDockWidget(tr("Preview Results"), this);
    resultsDock->setObjectName(QStringLiteral("resultsDock"));
    resultsDock->setWidget(m_results);
    addDockWidget(Qt::BottomDockWidgetArea, resultsDock);
    tabifyDockWidget(problemsDock, resultsDock);

    auto *whatIfDock = new QDockWidget(tr("What If"), this);
    whatIfDock->setObjectName(QStringLiteral("whatIfDock"));
    whatIfDock->setWidget(m_whatIf);
    addDockWidget(Qt::BottomDockWidgetArea, whatIfDock);
    tabifyDockWidget(resultsDock, whatIfDock);

    m_fleetDock = new FleetDock(m_fleet, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_fleetDock);
    tabifyDockWidget(resultsDock, m_fleetDock);
    // Hidden until asked for (Fleet menu), so that the editors keep their height at first start.
    m_fleetDock->hide();
    problemsDock->raise();
    keepDockSizes();
    // A run shows its results where they come in.
    connect(m_preview->previewAction(), &QAction::triggered, resultsDock, &QDockWidget::raise);
    connect(m_preview->applyAction(), &QAction::triggered, resultsDock, &QDockWidget::raise);
}

void MainWindow::keepDockSizes()
{
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        // Content that wants more room than its tab group has is squeezed (or scrolls) rather than
        // growing the group, and with it the window.
        if (QWidget *content = dock->widget())
            content->setMinimumSize(kDockContentMinimum);
        connect(dock->toggleViewAction(), &QAction::triggered, this, [this, dock](bool shown) {
            if (shown)
                showDock(dock);
        });
    }
    // The editors' pages want different heights; switching between them keeps the window's size.
    m_editorTabs->setMinimumSize(kEditorMinimum);
}

void MainWindow::showDock(QDockWidget *dock)
{
    // Its tab group keeps its size: the contents' minimum sizes above cannot grow it.
    dock->show();
    dock->raise();
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::ShortcutOverride || !watched->isWidgetType())
        return QMainWindow::eventFilter(watched, event);
    auto *widget = static_cast<QWidget *>(watched);
    if (!m_propertyEditor->isAncestorOf(widget) && !m_settingsEditor->isAncestorOf(widget))
        return QMainWindow::eventFilter(watched, event);
    const QKeySequence pressed(static_cast<QKeyEvent *>(event)->keyCombination());
    for (const QAction *action : {m_undoAction, m_redoAction}) {
        if (action->shortcuts().contains(pressed)) {
            // A field's own undo knows only its text; every edit of the form is on the document's
            // undo stack, which the window's actions undo and redo.
            event->ignore();
            return true;
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::connectViews()
{
    connect(m_document, &ManifestDocument::changed, this, &MainWindow::documentChanged);
    connect(m_document, &ManifestDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ManifestDocument::filePathChanged, this, &MainWindow::updateTitle);

    connect(m_palette, &ResourcePalette::typeActivated, this, &MainWindow::addResource);
    connect(m_resourceList, &ResourceListPanel::currentEntryChanged, this, [this] {
        showSelectedEntry();
        updateActions();
    });

    connect(
        m_propertyEditor, &PropertyEditor::propertyEdited, this, [this](const QString &property, const Json &value) {
            if (m_shownEntry.valid())
                m_document->setProperty(m_shownEntry, property.toStdString(), value);
        });
    connect(m_propertyEditor, &PropertyEditor::propertyCleared, this, [this](const QString &property) {
        if (m_shownEntry.valid())
            m_document->removeProperty(m_shownEntry, property.toStdString());
    });
    connect(m_propertyEditor, &PropertyEditor::nameEdited, this, [this](const QString &name) {
        if (m_shownEntry.valid() && !name.trimmed().isEmpty())
            m_document->renameEntry(m_shownEntry, name.toStdString());
    });

    connect(m_settingsEditor, &ManifestSettingsEditor::dataEdited, m_document, &ManifestDocument::setData);
    connect(m_settingsEditor, &ManifestSettingsEditor::overridesEdited, m_document, &ManifestDocument::setOverrides);
    connect(m_settingsEditor, &ManifestSettingsEditor::hierarchyEdited, m_document, &ManifestDocument::setHierarchy);
    connect(m_settingsEditor, &ManifestSettingsEditor::messagesEdited, m_document, &ManifestDocument::setMessages);
    connect(
        m_settingsEditor, &ManifestSettingsEditor::failOnErrorEdited, m_document, &ManifestDocument::setFailOnError);

    // A loaded text goes into the YAML view while the document works out the rest.
    connect(m_document, &ManifestDocument::textLoading, m_yamlEditor, &YamlEditor::loadManifestText);
    connect(m_yamlEditor, &YamlEditor::textEdited, m_document, &ManifestDocument::setText);
    connect(m_yamlEditor, &YamlEditor::editingFinished, m_document, &ManifestDocument::closeTextEdit);
    connect(m_yamlEditor, &YamlEditor::cursorLineChanged, this, &MainWindow::yamlCursorMoved);

    connect(m_problems, &ProblemsPanel::problemActivated, this, &MainWindow::activateProblem);
}

void MainWindow::restoreSettings()
{
    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        setGeometry(firstStartGeometry(screen()->availableGeometry()));
    if (!restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray(), kWindowStateVersion))
        applyFirstStartDockSizes(this);
    if (!m_splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray()))
        m_splitter->setSizes({(width() - 280) / 2, (width() - 280) / 2});
}

bool MainWindow::openFile(const QString &path)
{
    return loadFile(path, true);
}

bool MainWindow::loadFile(const QString &path, bool remember)
{
    QString error;
    if (!m_document->load(path, &error)) {
        m_errorString = error;
        statusBar()->showMessage(m_errorString);
        return false;
    }
    m_errorString.clear();
    if (remember)
        addRecentFile(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Opened %1").arg(displayPath(path)), kStatusMessageTimeoutMs);
    if (m_document->hasEntry({0, 0}))
        selectEntry({0, 0});
    return true;
}

bool MainWindow::saveFile(const QString &path)
{
    const QString previousRecoveryPath = recoveryPath();
    // A manifest saved out of the bundle's directory is a plain file from now on.
    const QString bundleDirectory = m_document->bundleDirectory();
    const bool leavesBundle = !bundleDirectory.isEmpty()
        && !QFileInfo(path).absoluteFilePath().startsWith(QDir(bundleDirectory).absolutePath() + QLatin1Char('/'));
    QString error;
    if (!m_document->save(path, &error)) {
        m_errorString = error;
        statusBar()->showMessage(m_errorString);
        return false;
    }
    m_errorString.clear();
    m_recovery.remove(previousRecoveryPath);
    if (leavesBundle)
        m_document->forgetBundleLocation();
    if (m_document->bundleDirectory().isEmpty())
        addRecentFile(m_document->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(displayPath(path)), kStatusMessageTimeoutMs);
    return true;
}

QString MainWindow::errorString() const
{
    return m_errorString;
}

void MainWindow::connectToBackend()
{
    m_preview->connectToBackend();
}

ManifestDocument *MainWindow::document() const
{
    return m_document;
}

PreviewController *MainWindow::previewController() const
{
    return m_preview;
}

CaptureController *MainWindow::captureController() const
{
    return m_capture;
}

FleetController *MainWindow::fleetController() const
{
    return m_fleet;
}

FleetDock *MainWindow::fleetDock() const
{
    return m_fleetDock;
}

FilesController *MainWindow::filesController() const
{
    return m_files;
}

ResultsPanel *MainWindow::resultsPanel() const
{
    return m_results;
}

WhatIfPanel *MainWindow::whatIfPanel() const
{
    return m_whatIf;
}

ResourcePalette *MainWindow::resourcePalette() const
{
    return m_palette;
}

ResourceListPanel *MainWindow::resourceList() const
{
    return m_resourceList;
}

PropertyEditor *MainWindow::propertyEditor() const
{
    return m_propertyEditor;
}

ManifestSettingsEditor *MainWindow::settingsEditor() const
{
    return m_settingsEditor;
}

YamlEditor *MainWindow::yamlEditor() const
{
    return m_yamlEditor;
}

ProblemsPanel *MainWindow::problemsPanel() const
{
    return m_problems;
}

HostStateController *MainWindow::hostStateController() const
{
    return m_hostState;
}

LiveValuesController *MainWindow::liveValues() const
{
    return m_liveValues;
}

EntryRef MainWindow::selectedEntry() const
{
    return m_resourceList->currentEntry();
}

void MainWindow::selectEntry(EntryRef entry)
{
    m_resourceList->setCurrentEntry(entry);
}

void MainWindow::setAutosaveDelay(int milliseconds)
{
    m_autosaveTimer->setInterval(milliseconds);
    m_files->setAutosaveDelay(milliseconds);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_autosaveTimer->stop();
    // Closing on purpose, saved or not: nothing is left to recover.
    dropRecoveryCopy();
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState(kWindowStateVersion));
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::newDocument()
{
    if (!maybeSave())
        return;
    dropRecoveryCopy();
    m_untitledKey = RecoveryStore::newUntitledKey();
    m_document->newDocument();
}

void MainWindow::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString current = m_document->filePath();
    const QString startDirectory = current.isEmpty() ? QString() : QFileInfo(current).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Manifest"), startDirectory,
        tr("CCM manifests (*.yaml *.yml);;Manifest bundles (*.tar.gz *.tgz);;All files (*)"));
    if (path.isEmpty())
        return;
    dropRecoveryCopy();
    if (!openFile(path))
        QMessageBox::warning(this, tr("Open Manifest"), m_errorString);
}

bool MainWindow::save()
{
    // A bundle opened from a location is saved back into it (or, when remote, where the user says).
    if (!m_document->bundleLocation().isEmpty())
        return m_fleet->saveToBundle();
    // A bundle has no file path: its manifest is saved as a plain file, never over the archive.
    const QString path = m_document->filePath();
    if (path.isEmpty())
        return saveAs();
    if (saveFile(path))
        return true;
    QMessageBox::warning(this, tr("Save Manifest"), m_errorString);
    return false;
}

bool MainWindow::saveAs()
{
    // A document from a bundle has no file of its own: suggest a manifest beside the bundle.
    QString suggestion = m_document->filePath();
    if (suggestion.isEmpty()) {
        const QString origin = m_document->loadedFrom();
        const QDir directory = origin.isEmpty() ? QDir::current() : QFileInfo(origin).absoluteDir();
        suggestion = directory.filePath(QStringLiteral("manifest.yaml"));
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Manifest"), suggestion, tr("CCM manifests (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty())
        return false;
    if (!saveFile(path)) {
        QMessageBox::warning(this, tr("Save Manifest"), m_errorString);
        return false;
    }
    return true;
}

bool MainWindow::saveCurrentTab()
{
    if (TemplateEditor *editor = m_files->currentEditor())
        return m_files->save(editor);
    return save();
}

bool MainWindow::saveAll()
{
    if (m_document->isModified() && !save())
        return false;
    return m_files->saveAll();
}

void MainWindow::revert()
{
    if (m_document->filePath().isEmpty() || !m_document->isModified())
        return;
    const auto answer = QMessageBox::question(this, tr("Revert"),
        tr("Discard the changes made since %1 was saved?").arg(displayPath(m_document->filePath())),
        QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Discard)
        return;
    QString error;
    if (!m_document->revert(&error))
        QMessageBox::warning(this, tr("Revert"), error);
}

bool MainWindow::settleUnsavedChanges()
{
    return maybeSave();
}

bool MainWindow::openManifestFile(const QString &path, QString *error)
{
    const bool opened = loadFile(path, false);
    if (!opened && error)
        *error = errorString();
    return opened;
}

bool MainWindow::maybeSave()
{
    if (!m_files->maybeSaveFiles())
        return false;
    if (!m_document->isModified())
        return true;
    const QString name
        = m_document->filePath().isEmpty() ? tr("The new manifest") : QFileInfo(m_document->filePath()).fileName();
    const auto answer
        = QMessageBox::warning(this, tr("Unsaved Changes"), tr("%1 has unsaved changes. Save them?").arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::documentChanged()
{
    const QString fileName
        = m_document->filePath().isEmpty() ? tr("untitled") : QFileInfo(m_document->filePath()).fileName();
    m_problems->setDiagnostics(m_document->diagnostics(), fileName);
    m_problemSummary->setText(m_problems->summaryText());
    if (m_document->isLoadedText())
        m_yamlEditor->loadManifestText(m_document->text());
    else
        m_yamlEditor->setManifestText(m_document->text());
    m_yamlEditor->setDiagnostics(m_document->diagnostics());
    m_settingsEditor->setManifest(m_document->loaded().manifest);
    m_propertyEditor->setReferenceTargets(m_document->referenceTargets());
    showSelectedEntry();
    updateActions();
    updateTitle();
    // Whether the change leaves the document modified is only known once the undo stack has taken
    // the command, after this signal: the timer decides when it fires.
    m_autosaveTimer->start();
}

void MainWindow::showSelectedEntry()
{
    const EntryRef entry = selectedEntry();
    if (m_resourceList->model()->isStale() && m_shownEntry.valid()) {
        // The text does not read as YAML: the form keeps the resource as it last read, read-only.
        m_propertyEditor->setStale(m_resourceList->model()->staleReason() + QLatin1Char(' ')
            + tr("This form is read-only until the YAML is fixed."));
        return;
    }
    if (m_propertyEditor->isStale())
        m_propertyEditor->setStale({});
    if (!m_document->hasEntry(entry)) {
        m_shownEntry = {};
        const auto &diagnostics = m_document->diagnostics();
        const bool clean = std::none_of(diagnostics.begin(), diagnostics.end(),
            [](const Diagnostic &diagnostic) { return diagnostic.severity == Severity::Error; });
        if (m_document->blocks().empty() && clean)
            m_propertyEditor->showEmptyManifest();
        else
            m_propertyEditor->clear();
        m_yamlEditor->highlightLines(0, -1);
        followOnHost({});
        return;
    }
    const ResourceBlock &block = m_document->blocks()[entry.block];
    const ResourceEntry &resource = block.entries[entry.entry];
    const bool newSelection = !(entry == m_shownEntry);
    m_shownEntry = entry;
    m_propertyEditor->setResource(QString::fromStdString(block.type), QString::fromStdString(resource.name),
        resource.properties, m_document->inheritedProperties(entry), resource.isDefaults);
    m_propertyEditor->setDiagnostics(m_document->diagnosticsFor(entry), m_document->entryPointer(entry));
    followOnHost(entry);

    const auto [first, last] = m_document->lineRange(entry);
    m_yamlEditor->highlightLines(first, last);
    if (newSelection && !m_syncingSelection && first > 0) {
        // Scroll the YAML to the resource without taking the focus from where the user is.
        QWidget *focused = QApplication::focusWidget();
        m_syncingSelection = true;
        m_yamlEditor->goToLine(first);
        m_syncingSelection = false;
        if (focused)
            focused->setFocus(Qt::OtherFocusReason);
    }
}

void MainWindow::followOnHost(EntryRef entry)
{
    if (!m_document->hasEntry(entry) || m_document->blocks()[entry.block].entries[entry.entry].isDefaults) {
        m_hostState->follow({}, {}, {});
        return;
    }
    const ResourceBlock &block = m_document->blocks()[entry.block];
    const ResourceEntry &resource = block.entries[entry.entry];
    // The effective properties: the block's defaults, then the resource's own over them.
    Json properties = m_document->inheritedProperties(entry);
    if (!properties.is_object())
        properties = Json::object();
    if (resource.properties.is_object()) {
        for (const auto &[key, value] : resource.properties.items())
            properties[key] = value;
    }
    m_hostState->follow(QString::fromStdString(block.type), QString::fromStdString(resource.name), properties,
        m_document->baseDirectory());
}

void MainWindow::addResource(const QString &type)
{
    const EntryRef added = m_document->addResource(type.toStdString(), selectedEntry());
    if (!added.valid()) {
        statusBar()->showMessage(tr("Cannot add a resource while the YAML has syntax errors"), kStatusMessageTimeoutMs);
        return;
    }
    selectEntry(added);
    m_editorTabs->setCurrentWidget(m_propertyEditor);
}

void MainWindow::duplicateSelected()
{
    const EntryRef entry = selectedEntry();
    if (!entry.valid())
        return;
    const EntryRef copy = m_document->duplicateEntry(entry);
    if (copy.valid())
        selectEntry(copy);
}

void MainWindow::deleteSelected()
{
    const EntryRef entry = selectedEntry();
    if (!entry.valid())
        return;
    m_document->removeEntry(entry);
    // Select the entry that took its place, else the one before, else nothing.
    const int count = m_document->entryCount(entry.block);
    m_resourceList->setCurrentEntry(
        count == 0 ? EntryRef {} : EntryRef {entry.block, std::min(entry.entry, count - 1)});
}

void MainWindow::moveSelected(int delta)
{
    const EntryRef entry = selectedEntry();
    if (!entry.valid())
        return;
    const int target = entry.entry + delta;
    if (target < 0 || target >= m_document->entryCount(entry.block))
        return;
    // Positions count before the move: moving down means landing before the entry after next.
    if (m_document->moveEntry(entry, entry.block, delta > 0 ? target + 1 : target))
        selectEntry({entry.block, target});
}

void MainWindow::addDefaultsToSelectedBlock()
{
    const int block = m_resourceList->currentBlock();
    if (block < 0)
        return;
    const EntryRef defaults = m_document->addDefaults(block);
    if (defaults.valid())
        selectEntry(defaults);
}

void MainWindow::activateProblem(const Diagnostic &diagnostic)
{
    const EntryRef found = m_document->entryContaining(diagnostic.path);
    if (found.valid()) {
        selectEntry(found);
        const std::size_t prefixLength = m_document->entryPointer(found).size();
        const std::vector<std::string> rest = splitPointer(diagnostic.path.substr(prefixLength));
        if (!rest.empty()) {
            m_editorTabs->setCurrentWidget(m_propertyEditor);
            if (m_propertyEditor->focusProperty(QString::fromStdString(rest.front())))
                return;
        }
    }
    if (diagnostic.position.known())
        m_yamlEditor->goToLine(diagnostic.position.line, diagnostic.position.column);
}

void MainWindow::goToNextProblem()
{
    const Diagnostics &diagnostics = m_document->diagnostics();
    if (diagnostics.empty())
        return;
    const int line = m_yamlEditor->currentLine();
    const auto next = std::find_if(diagnostics.begin(), diagnostics.end(),
        [line](const Diagnostic &diagnostic) { return diagnostic.position.line > line; });
    const Diagnostic &target = next == diagnostics.end() ? diagnostics.front() : *next;
    if (target.position.known())
        m_yamlEditor->goToLine(target.position.line, target.position.column);
    statusBar()->showMessage(QString::fromStdString(target.message), kStatusMessageTimeoutMs);
}

void MainWindow::yamlCursorMoved(int line)
{
    if (m_syncingSelection)
        return;
    const std::optional<EntryRef> entry = m_document->entryAtLine(line);
    if (!entry || *entry == selectedEntry())
        return;
    m_syncingSelection = true;
    m_resourceList->setCurrentEntry(*entry);
    m_syncingSelection = false;
}

void MainWindow::writeRecoveryCopy()
{
    // Undone back to the saved text: nothing is left to recover.
    if (!m_document->isModified()) {
        m_recovery.remove(recoveryPath());
        return;
    }
    QString error;
    if (!m_recovery.write(recoveryPath(), m_document->filePath(), m_document->text(), &error))
        statusBar()->showMessage(tr("Could not write the recovery copy: %1").arg(error), kStatusMessageTimeoutMs);
}

QString MainWindow::recoveryPath() const
{
    return m_recovery.recoveryPathFor(m_document->filePath(), m_untitledKey);
}

void MainWindow::dropRecoveryCopy()
{
    m_autosaveTimer->stop();
    m_recovery.remove(recoveryPath());
    m_files->dropRecoveryCopies();
}

void MainWindow::offerRecovery()
{
    for (const RecoveryCopy &copy : m_recovery.list()) {
        // Copies of the files a manifest uses are offered below, with their manifest.
        if (!copy.manifestPath.isEmpty())
            continue;
        const QString name = copy.originalPath.isEmpty() ? tr("an untitled manifest") : displayPath(copy.originalPath);
        const auto answer = QMessageBox::question(this, tr("Recover Unsaved Changes"),
            tr("CCM Designer did not close properly. Unsaved changes to %1 from %2 were kept. Restore them?")
                .arg(name, QLocale().toString(copy.savedAt, QLocale::ShortFormat)),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard, QMessageBox::Yes);
        if (answer == QMessageBox::No)
            continue;
        if (answer == QMessageBox::Discard) {
            m_recovery.remove(copy.recoveryPath);
            continue;
        }
        QString error;
        const std::optional<RecoveryCopy> full = m_recovery.read(copy.recoveryPath, &error);
        if (!full) {
            QMessageBox::warning(this, tr("Recover Unsaved Changes"), error);
            continue;
        }
        if (copy.originalPath.isEmpty() || !QFileInfo::exists(copy.originalPath) || !openFile(copy.originalPath)) {
            m_untitledKey = RecoveryStore::newUntitledKey();
            m_document->newDocument();
        }
        m_document->restore(full->text);
        m_recovery.remove(copy.recoveryPath);
        writeRecoveryCopy();
        // One document at a time: the rest stay for the next start.
        break;
    }
    m_files->offerRecovery([this](const QString &manifest) { return maybeSave() && openFile(manifest); });
}

void MainWindow::addRecentFile(const QString &path)
{
    if (path.isEmpty())
        return;
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentFilesKey, files);
    updateRecentFilesMenu();
}

void MainWindow::updateRecentFilesMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    int number = 1;
    for (const QString &path : files) {
        //: Entry of the Open Recent menu; %1 is its number (the keyboard accelerator), %2 the path.
        QAction *action = m_recentMenu->addAction(tr("&%1 %2").arg(number++).arg(displayPath(path)));
        connect(action, &QAction::triggered, this, [this, path] {
            if (!maybeSave())
                return;
            if (!openFile(path))
                QMessageBox::warning(this, tr("Open Manifest"), m_errorString);
        });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), this, [this] {
            QSettings().remove(kRecentFilesKey);
            updateRecentFilesMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateTitle()
{
    const QString path = m_document->filePath();
    // A manifest read from a bundle is named after the bundle until it is saved somewhere.
    const QString location = m_document->bundleLocation();
    const QString shown = !location.isEmpty() ? location : path.isEmpty() ? m_document->loadedFrom() : path;
    setWindowFilePath(shown);
    //: Window title; %1 is the manifest's file name, [*] the place of the unsaved-changes marker.
    setWindowTitle(tr("%1[*] — CCM Designer").arg(shown.isEmpty() ? tr("untitled") : QFileInfo(shown).fileName()));
    setWindowModified(m_document->isModified() || m_files->hasModifiedFiles());
    m_revertAction->setEnabled(!path.isEmpty() && m_document->isModified());
}

void MainWindow::updateActions()
{
    const EntryRef entry = selectedEntry();
    const bool valid = m_document->hasEntry(entry);
    const bool isDefaults = valid && m_document->blocks()[entry.block].entries[entry.entry].isDefaults;
    const int count = valid ? m_document->entryCount(entry.block) : 0;
    m_duplicateAction->setEnabled(valid && !isDefaults);
    m_deleteAction->setEnabled(valid);
    m_moveUpAction->setEnabled(valid && entry.entry > 0);
    m_moveDownAction->setEnabled(valid && entry.entry + 1 < count);
    const int block = m_resourceList->currentBlock();
    m_addDefaultsAction->setEnabled(block >= 0 && !m_document->defaultsOf(block).valid());
}

QString MainWindow::aboutText() const
{
    const BackendClient *client = m_preview->client();
    return tr("<h3>CCM Designer %1</h3><p>Authoring and preview tool for CCM manifests.</p><p>%2</p>")
        .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
            backendDescription(client->info(), client->isConnected()).toHtmlEscaped());
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About CCM Designer"), aboutText());
}

void MainWindow::showUserGuide()
{
    const QString path = userGuidePath(QCoreApplication::applicationDirPath());
    if (path.isEmpty()) {
        QMessageBox::warning(this, tr("User Guide"),
            tr("The user guide (designer.md) is not installed beside %1; it is in the docs of the package "
               "ccm-designer.")
                .arg(QDir::toNativeSeparators(QCoreApplication::applicationFilePath())));
        return;
    }
    if (auto *open = findChild<QDialog *>(QStringLiteral("userGuide"))) {
        open->raise();
        open->activateWindow();
        return;
    }
    ccm::designer::showUserGuide(path, this);
}

} // namespace ccm::designer
