// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/manifest_document.h"
#include "designer/core/recovery_store.h"
#include "designer/ui/document_host.h"

#include <QMainWindow>
#include <QString>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QTimer;
class QToolBar;

namespace ccm::designer {

class CaptureController;
class FleetController;
class FilesController;
class FleetDock;
class HostStateController;
class LiveValuesController;
class ManifestSettingsEditor;
class PreviewController;
class ProblemsPanel;
class PropertyEditor;
class ResourceListPanel;
class ResourcePalette;
class ResultsPanel;
class WhatIfPanel;
class YamlEditor;

/// The designer's main window: the resource type palette and the resource list docked on the
/// left, the selected resource's properties (or the manifest's settings) beside the YAML view in
/// the middle, and the problems panel below. All views show one ManifestDocument and edit it
/// through its undoable commands. Layout, recent files and preferences persist in the
/// application's QSettings (the caller sets the organisation and application names).
class MainWindow : public QMainWindow, private DocumentHost {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Opens the manifest (or bundle) at @p path in place of the current document, without asking
    /// about unsaved changes. Returns false when it cannot be read: the document stays as it was
    /// and the reason, naming the path, is shown in the status bar and returned by errorString().
    /// Never opens a dialog.
    bool openFile(const QString &path);

    /// Why the last failed openFile() or saveFile() failed; empty after a successful one.
    QString errorString() const;

    /// Writes the document to @p path (and makes it the document's file). Never opens a dialog.
    bool saveFile(const QString &path);

    /// Offers to restore the recovery copies a previous run left behind (after a crash). Called by
    /// main() once the window is shown.
    void offerRecovery();

    /// Connects to the backend that previews and applies (the system one, or the user's own,
    /// started on demand). Called by main() once the window is shown; a preview connects too.
    void connectToBackend();

    ManifestDocument *document() const;
    PreviewController *previewController() const;
    FleetController *fleetController() const;
    CaptureController *captureController() const;
    FleetDock *fleetDock() const;
    FilesController *filesController() const;
    ResultsPanel *resultsPanel() const;
    WhatIfPanel *whatIfPanel() const;
    ResourcePalette *resourcePalette() const;
    ResourceListPanel *resourceList() const;
    PropertyEditor *propertyEditor() const;
    ManifestSettingsEditor *settingsEditor() const;
    YamlEditor *yamlEditor() const;
    ProblemsPanel *problemsPanel() const;
    LiveValuesController *liveValues() const;
    HostStateController *hostStateController() const;

    /// The entry selected in the resource list; invalid when none is.
    EntryRef selectedEntry() const;
    /// Selects an entry in the resource list (and so in the property editor and the YAML view).
    void selectEntry(EntryRef entry);

    /// The About box's text: the designer's version and the backend in use, as it answered.
    [[nodiscard]] QString aboutText() const;

    /// How long after the last change a recovery copy is written.
    void setAutosaveDelay(int milliseconds);

protected:
    void closeEvent(QCloseEvent *event) override;
    /// Leaves Ctrl+Z and the redo keys of the form fields to the window's Undo and Redo.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // DocumentHost: what the fleet controller may ask of the window.
    bool settleUnsavedChanges() override;
    bool openManifestFile(const QString &path, QString *error) override;

    /// openFile(); `remember` puts the file among the recent ones.
    bool loadFile(const QString &path, bool remember);
    void createDocks();
    /// Makes every dock come to the front of its tab group when shown, without growing its area
    /// or the window.
    void keepDockSizes();
    /// Shows a dock in front of its tab group.
    void showDock(QDockWidget *dock);
    void createActions();
    void createFileMenu(QToolBar *toolBar);
    void createEditMenu(QToolBar *toolBar);
    /// Duplicate, delete, move and add defaults: in the Edit menu, the toolbar and the resource
    /// list's context menu.
    void createResourceActions(QMenu *editMenu, QToolBar *toolBar);
    void createRunMenu(QToolBar *toolBar);
    void createFleetMenu();
    void createViewMenu(QToolBar *toolBar);
    void createHelpMenu();
    void connectViews();
    void restoreSettings();

    void newDocument();
    void openWithDialog();
    bool save();
    bool saveAs();
    /// Saves the file of the current tab, or the manifest when one of its views is current.
    bool saveCurrentTab();
    /// Saves the manifest (when modified) and every modified file.
    bool saveAll();
    void revert();
    /// Asks what to do with unsaved changes; false when the user cancels.
    bool maybeSave();

    void documentChanged();
    void showSelectedEntry();
    /// Has the form show what this host has of `entry` (nothing for an invalid entry or defaults).
    void followOnHost(EntryRef entry);
    void addResource(const QString &type);
    void duplicateSelected();
    void deleteSelected();
    void moveSelected(int delta);
    void addDefaultsToSelectedBlock();
    void activateProblem(const Diagnostic &diagnostic);
    void goToNextProblem();
    void yamlCursorMoved(int line);
    void writeRecoveryCopy();
    /// Where the current document's recovery copy goes.
    QString recoveryPath() const;
    /// Deletes the current document's recovery copy: it was saved or its changes were dropped.
    void dropRecoveryCopy();

    void addRecentFile(const QString &path);
    void updateRecentFilesMenu();
    void updateTitle();
    void updateActions();
    void showAbout();
    void showUserGuide();

    ManifestDocument *m_document = nullptr;
    RecoveryStore m_recovery;
    /// Names the recovery copy of an untitled document.
    QString m_untitledKey;
    ResourcePalette *m_palette = nullptr;
    ResourceListPanel *m_resourceList = nullptr;
    PropertyEditor *m_propertyEditor = nullptr;
    ManifestSettingsEditor *m_settingsEditor = nullptr;
    YamlEditor *m_yamlEditor = nullptr;
    ProblemsPanel *m_problems = nullptr;
    ResultsPanel *m_results = nullptr;
    WhatIfPanel *m_whatIf = nullptr;
    FilesController *m_files = nullptr;
    PreviewController *m_preview = nullptr;
    FleetController *m_fleet = nullptr;
    CaptureController *m_capture = nullptr;
    FleetDock *m_fleetDock = nullptr;
    LiveValuesController *m_liveValues = nullptr;
    HostStateController *m_hostState = nullptr;
    QTabWidget *m_editorTabs = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_problemSummary = nullptr;
    QTimer *m_autosaveTimer = nullptr;
    QMenu *m_recentMenu = nullptr;

    QAction *m_saveAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_revertAction = nullptr;
    QAction *m_duplicateAction = nullptr;
    QAction *m_deleteAction = nullptr;
    QAction *m_moveUpAction = nullptr;
    QAction *m_moveDownAction = nullptr;
    QAction *m_addDefaultsAction = nullptr;

    QString m_errorString;
    /// The entry the property editor shows, to tell a new selection from a refresh.
    EntryRef m_shownEntry;
    /// Set while the window itself moves the selection, so the views do not echo it back.
    bool m_syncingSelection = false;
};

} // namespace ccm::designer
