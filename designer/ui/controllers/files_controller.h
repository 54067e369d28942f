// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/manifest_document.h"
#include "designer/core/recovery_store.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>

class QAction;
class QTabWidget;
class QWidget;

namespace ccm::designer {

class BackendClient;
class FilesDock;
class ProblemsPanel;
class ResourceListPanel;
class TemplateEditor;
class WhatIfPanel;

/// The files beside the manifest: the Files dock, a tab per open file in the window's editing
/// area (after the manifest's own views), live rendering of templates, their problems in the
/// Problems panel, saving them, their recovery copies, and the file resource actions "Move
/// Content to Template File" and "Open Source File". A manifest with resources_jet_file opens its
/// Jet file with the rendered resource list.
class FilesController : public QObject {
    Q_OBJECT

public:
    struct Views {
        QTabWidget *tabs = nullptr; ///< the editing area; file tabs go after the ones it has
        ResourceListPanel *resources = nullptr;
        WhatIfPanel *whatIf = nullptr;
        ProblemsPanel *problems = nullptr;
        BackendClient *client = nullptr;
    };

    FilesController(ManifestDocument *document, const Views &views, const RecoveryStore *recovery, QWidget *window);

    [[nodiscard]] FilesDock *dock() const { return m_dock; }
    QAction *moveContentAction() const { return m_moveContentAction; }
    QAction *openSourceAction() const { return m_openSourceAction; }

    /// Opens `path` in a tab (or shows the tab it has) and makes it current. Null with *error set
    /// when it cannot be read.
    TemplateEditor *openFile(const QString &path, QString *error);
    /// The tab of `path`, or null.
    [[nodiscard]] TemplateEditor *editorFor(const QString &path) const;
    [[nodiscard]] QList<TemplateEditor *> editors() const;
    /// The file tab that is current, or null when a manifest view is.
    [[nodiscard]] TemplateEditor *currentEditor() const;
    /// Closes a tab without asking; false when `editor` is not one of these tabs.
    bool closeEditor(TemplateEditor *editor);

    /// Saves one file; on failure says why in a message box (unless `quiet`) and returns false.
    bool save(TemplateEditor *editor, bool quiet = false);
    /// Saves every modified file; false when one could not be saved.
    bool saveAll(bool quiet = false);
    [[nodiscard]] bool hasModifiedFiles() const;
    /// Asks what to do with modified files (Save All, Discard, Cancel); false on Cancel or when a
    /// save failed. True at once when none is modified.
    bool maybeSaveFiles();

    /// Moves the `content` of the file resource `entry` into `relativeName` (under templates/
    /// when it has no directory; `.templ` added when it has no extension) and makes the content
    /// `{{ template('…') }}`. Writing the file and changing the manifest are one undo step; undo
    /// removes the file again. False with *error set when the entry has no string content, the
    /// name is outside the manifest's directory, the file exists or cannot be written.
    bool moveContentToTemplate(EntryRef entry, const QString &relativeName, QString *error);
    /// Opens the file a file resource's `source` names (relative to the manifest's directory).
    TemplateEditor *openSourceOf(EntryRef entry, QString *error);

    /// Writes a recovery copy of each modified file and removes those of the others.
    void writeRecoveryCopies();
    /// Removes the recovery copies of the open files (they were saved or dropped on purpose).
    void dropRecoveryCopies();
    /// The recovery copies of files (not manifests) that are present, newest first.
    [[nodiscard]] QList<RecoveryCopy> fileRecoveryCopies() const;
    /// Opens the copy's file with the recovered text (modified) and removes the copy. False with
    /// *error set when its text cannot be read.
    bool restoreCopy(const RecoveryCopy &copy, QString *error);
    /// Asks about each file copy left behind by a crash; `openManifest` opens the manifest it
    /// belongs to first when that is not the current one.
    void offerRecovery(const std::function<bool(const QString &)> &openManifest);
    void setAutosaveDelay(int milliseconds);

signals:
    void statusMessage(const QString &text);
    /// A file was modified or saved: the window's title marker and actions follow.
    void modifiedChanged();

private:
    void documentChanged();
    void documentPathChanged();
    void openResourcesJetFile();
    void addTab(TemplateEditor *editor);
    void closeRequested(int index);
    void updateTabTitle(TemplateEditor *editor);
    void updateActions();
    void moveContentWithDialog();
    void openSourceWithDialog();
    [[nodiscard]] ccm::Json renderContext() const;
    [[nodiscard]] QString relativePath(const QString &path) const;
    [[nodiscard]] QString resourcesJetPath() const;
    [[nodiscard]] QString stringProperty(EntryRef entry, const char *name) const;

    ManifestDocument *m_document;
    Views m_views;
    const RecoveryStore *m_recovery;
    QWidget *m_window;
    FilesDock *m_dock;
    QAction *m_moveContentAction;
    QAction *m_openSourceAction;
    QTimer m_autosaveTimer;
    /// The manifest and Jet file last opened for resources_jet_file, so it opens once per load.
    QString m_openedJetFile;
    QString m_lastBaseDirectory;
};

} // namespace ccm::designer
