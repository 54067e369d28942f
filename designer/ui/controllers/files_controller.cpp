// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/files_controller.h"

#include "designer/ui/editors/template_editor.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QSaveFile>
#include <QTabBar>
#include <QTabWidget>
#include <QUndoCommand>
#include <QUndoStack>

#include <utility>

namespace ccm::designer {
namespace {

bool writeTextFile(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !file.open(QIODevice::WriteOnly)
        || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QCoreApplication::translate("ccm::designer::FilesController", "Cannot write %1: %2")
                         .arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

/// A template file made from a resource's content. It is written before the command is pushed
/// (so that a failure is reported and nothing changes); undo removes it, keeping what it held by
/// then for redo.
class CreateFileCommand : public QUndoCommand {
public:
    CreateFileCommand(QString path, QString text)
        : m_path(std::move(path))
        , m_text(std::move(text))
    {
    }

    void redo() override
    {
        if (m_written) {
            m_written = false;
            return;
        }
        writeTextFile(m_path, m_text, nullptr);
    }

    void undo() override
    {
        QFile file(m_path);
        if (file.open(QIODevice::ReadOnly))
            m_text = QString::fromUtf8(file.readAll());
        file.close();
        QFile::remove(m_path);
    }

private:
    QString m_path;
    QString m_text;
    bool m_written = true;
};

} // namespace

FilesController::FilesController(
    ManifestDocument *document, const Views &views, const RecoveryStore *recovery, QWidget *window)
    : QObject(window)
    , m_document(document)
    , m_views(views)
    , m_recovery(recovery)
    , m_window(window)
    , m_dock(new FilesDock(window))
    , m_moveContentAction(new QAction(tr("Move Content to &Template File…"), this))
    , m_openSourceAction(new QAction(tr("Open &Source File"), this))
{
    m_moveContentAction->setStatusTip(tr("Put the selected file resource's content into a template file beside the "
                                         "manifest and render it from there"));
    m_openSourceAction->setStatusTip(tr("Open the file the selected file resource copies"));
    connect(m_moveContentAction, &QAction::triggered, this, &FilesController::moveContentWithDialog);
    connect(m_openSourceAction, &QAction::triggered, this, &FilesController::openSourceWithDialog);

    // The manifest's own views stay; only file tabs can be closed.
    m_views.tabs->setTabsClosable(true);
    for (int index = 0; index < m_views.tabs->count(); ++index) {
        for (const auto side : {QTabBar::LeftSide, QTabBar::RightSide})
            m_views.tabs->tabBar()->setTabButton(index, side, nullptr);
    }
    connect(m_views.tabs, &QTabWidget::tabCloseRequested, this, &FilesController::closeRequested);

    m_autosaveTimer.setSingleShot(true);
    m_autosaveTimer.setInterval(kDefaultAutosaveDelayMs);
    connect(&m_autosaveTimer, &QTimer::timeout, this, &FilesController::writeRecoveryCopies);

    connect(m_dock, &FilesDock::fileActivated, this, [this](const QString &path) {
        QString error;
        if (!openFile(path, &error))
            QMessageBox::warning(m_window, tr("Open File"), error);
    });
    connect(m_document, &ManifestDocument::changed, this, &FilesController::documentChanged);
    connect(m_document, &ManifestDocument::filePathChanged, this, &FilesController::documentPathChanged);
    connect(m_views.whatIf, &WhatIfPanel::changed, this, [this] {
        for (TemplateEditor *editor : editors())
            editor->rerender();
    });
    connect(m_views.resources, &ResourceListPanel::currentEntryChanged, this, &FilesController::updateActions);
    connect(m_views.problems, &ProblemsPanel::fileProblemActivated, this,
        [this](const QString &path, const Diagnostic &diagnostic) {
            QString error;
            if (TemplateEditor *editor = openFile(path, &error))
                editor->goTo(diagnostic.position.line, diagnostic.position.column);
        });
    documentPathChanged();
}

TemplateEditor *FilesController::openFile(const QString &path, QString *error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (TemplateEditor *open = editorFor(absolute)) {
        m_views.tabs->setCurrentWidget(open);
        return open;
    }
    const auto kind
        = absolute == resourcesJetPath() ? TemplateEditor::Kind::ResourceList : TemplateEditor::kindFor(absolute);
    auto *editor = new TemplateEditor(
        absolute, relativePath(absolute), kind, m_views.client, [this] { return renderContext(); }, m_views.tabs);
    if (!editor->load(error)) {
        delete editor;
        return nullptr;
    }
    addTab(editor);
    return editor;
}

void FilesController::addTab(TemplateEditor *editor)
{
    const int index = m_views.tabs->addTab(editor, QString());
    m_views.tabs->setTabToolTip(index, QDir::toNativeSeparators(editor->filePath()));
    updateTabTitle(editor);
    m_views.tabs->setCurrentIndex(index);
    connect(editor, &TemplateEditor::modifiedChanged, this, [this, editor] {
        updateTabTitle(editor);
        m_autosaveTimer.start();
        emit modifiedChanged();
    });
    connect(editor, &TemplateEditor::textChanged, this, [this] { m_autosaveTimer.start(); });
    connect(editor, &TemplateEditor::problemsChanged, this, [this, editor](const Diagnostics &problems) {
        m_views.problems->setFileDiagnostics(editor->filePath(), problems);
    });
}

TemplateEditor *FilesController::editorFor(const QString &path) const
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (TemplateEditor *editor : editors()) {
        if (editor->filePath() == absolute)
            return editor;
    }
    return nullptr;
}

QList<TemplateEditor *> FilesController::editors() const
{
    QList<TemplateEditor *> out;
    for (int index = 0; index < m_views.tabs->count(); ++index) {
        if (auto *editor = qobject_cast<TemplateEditor *>(m_views.tabs->widget(index)))
            out.append(editor);
    }
    return out;
}

TemplateEditor *FilesController::currentEditor() const
{
    return qobject_cast<TemplateEditor *>(m_views.tabs->currentWidget());
}

bool FilesController::closeEditor(TemplateEditor *editor)
{
    const int index = m_views.tabs->indexOf(editor);
    if (!editor || index < 0)
        return false;
    m_views.tabs->removeTab(index);
    m_views.problems->setFileDiagnostics(editor->filePath(), {});
    m_recovery->remove(m_recovery->recoveryPathFor(editor->filePath()));
    editor->deleteLater();
    emit modifiedChanged();
    return true;
}

void FilesController::closeRequested(int index)
{
    auto *editor = qobject_cast<TemplateEditor *>(m_views.tabs->widget(index));
    if (!editor)
        return;
    if (editor->isModified()) {
        const auto answer = QMessageBox::warning(m_window, tr("Unsaved Changes"),
            tr("%1 has unsaved changes. Save them?").arg(editor->relativePath()),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save(editor)))
            return;
    }
    closeEditor(editor);
}

void FilesController::updateTabTitle(TemplateEditor *editor)
{
    const int index = m_views.tabs->indexOf(editor);
    if (index >= 0)
        m_views.tabs->setTabText(
            index, QFileInfo(editor->filePath()).fileName() + (editor->isModified() ? QStringLiteral("*") : QString()));
}

bool FilesController::save(TemplateEditor *editor, bool quiet)
{
    QString error;
    if (!editor->save(&error)) {
        if (!quiet)
            QMessageBox::warning(m_window, tr("Save File"), error);
        emit statusMessage(error);
        return false;
    }
    m_recovery->remove(m_recovery->recoveryPathFor(editor->filePath()));
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(editor->filePath())));
    return true;
}

bool FilesController::saveAll(bool quiet)
{
    bool saved = true;
    for (TemplateEditor *editor : editors()) {
        if (editor->isModified())
            saved = save(editor, quiet) && saved;
    }
    return saved;
}

bool FilesController::hasModifiedFiles() const
{
    const QList<TemplateEditor *> open = editors();
    return std::any_of(open.begin(), open.end(), [](const TemplateEditor *editor) { return editor->isModified(); });
}

bool FilesController::maybeSaveFiles()
{
    QStringList names;
    for (const TemplateEditor *editor : editors()) {
        if (editor->isModified())
            names.append(editor->relativePath());
    }
    if (names.isEmpty())
        return true;
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved Changes"),
        tr("These files have unsaved changes: %1. Save them?").arg(names.join(QLatin1String(", "))),
        QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::SaveAll);
    if (answer == QMessageBox::SaveAll)
        return saveAll();
    return answer == QMessageBox::Discard;
}

QString FilesController::stringProperty(EntryRef entry, const char *name) const
{
    if (!m_document->hasEntry(entry))
        return {};
    const Json &properties = m_document->blocks()[entry.block].entries[entry.entry].properties;
    const auto found = properties.find(name);
    return found != properties.end() && found->is_string() ? QString::fromStdString(found->get<std::string>())
                                                           : QString();
}

bool FilesController::moveContentToTemplate(EntryRef entry, const QString &relativeName, QString *error)
{
    const bool isFile = m_document->hasEntry(entry) && m_document->blocks()[entry.block].type == "file";
    const QString content = stringProperty(entry, "content");
    if (!isFile || content.isEmpty()) {
        *error = tr("Only the content of a file resource can be moved to a template file, and this one has none.");
        return false;
    }
    if (m_document->filePath().isEmpty()) {
        *error = tr("Save the manifest first: the template file goes into the manifest's directory.");
        return false;
    }
    QString name = QDir::cleanPath(relativeName.trimmed());
    static const QString kForbidden = QStringLiteral("\"'\\{}`");
    if (name.isEmpty() || name == QLatin1String(".") || QDir::isAbsolutePath(name)
        || name.startsWith(QLatin1String(".."))
        || std::any_of(name.begin(), name.end(), [](QChar c) { return kForbidden.contains(c); })) {
        *error = tr("\"%1\" is not a file name inside the manifest's directory; use a name such as "
                    "templates/motd.templ.")
                     .arg(relativeName);
        return false;
    }
    if (!name.contains(u'/'))
        name = QLatin1String("templates/") + name;
    if (QFileInfo(name).suffix().isEmpty())
        name += QLatin1String(".templ");
    const QString path = QDir(m_document->baseDirectory()).filePath(name);
    if (QFileInfo::exists(path)) {
        *error = tr("%1 exists already; choose another name.").arg(name);
        return false;
    }
    if (!writeTextFile(path, content, error))
        return false;
    QUndoStack *stack = m_document->undoStack();
    stack->beginMacro(tr("Move Content to %1").arg(name));
    stack->push(new CreateFileCommand(path, content));
    m_document->setProperty(entry, "content", Json(QStringLiteral("{{ template('%1') }}").arg(name).toStdString()));
    stack->endMacro();
    emit statusMessage(tr("Moved the content to %1").arg(name));
    return true;
}

TemplateEditor *FilesController::openSourceOf(EntryRef entry, QString *error)
{
    const QString source = stringProperty(entry, "source");
    if (source.isEmpty()) {
        *error = tr("The selected resource has no source file.");
        return nullptr;
    }
    // A source may be a URL or use a template; only a plain path next to the manifest opens.
    if (source.contains(QLatin1String("://")) || source.contains(QLatin1String("{{"))
        || source.contains(QLatin1String("${"))) {
        *error = tr("The source %1 is not a file beside the manifest.").arg(source);
        return nullptr;
    }
    return openFile(QDir(m_document->baseDirectory()).filePath(source), error);
}

void FilesController::moveContentWithDialog()
{
    const EntryRef entry = m_views.resources->currentEntry();
    const QString resource = m_document->hasEntry(entry)
        ? QFileInfo(QString::fromStdString(m_document->blocks()[entry.block].entries[entry.entry].name)).fileName()
        : QString();
    bool ok = false;
    const QString name = QInputDialog::getText(m_window, tr("Move Content to Template File"),
        tr("Template file, relative to the manifest's directory:"), QLineEdit::Normal,
        QStringLiteral("templates/%1.templ").arg(resource.isEmpty() ? QStringLiteral("content") : resource), &ok);
    if (!ok)
        return;
    QString error;
    if (!moveContentToTemplate(entry, name, &error))
        QMessageBox::warning(m_window, tr("Move Content to Template File"), error);
}

void FilesController::openSourceWithDialog()
{
    QString error;
    if (!openSourceOf(m_views.resources->currentEntry(), &error))
        QMessageBox::warning(m_window, tr("Open Source File"), error);
}

void FilesController::updateActions()
{
    const EntryRef entry = m_views.resources->currentEntry();
    const bool isFile = m_document->hasEntry(entry) && m_document->blocks()[entry.block].type == "file";
    m_moveContentAction->setEnabled(
        isFile && !m_document->filePath().isEmpty() && !stringProperty(entry, "content").isEmpty());
    m_openSourceAction->setEnabled(isFile && !stringProperty(entry, "source").isEmpty());
}

void FilesController::documentChanged()
{
    for (TemplateEditor *editor : editors()) {
        if (editor->kind() != TemplateEditor::Kind::PlainFile)
            editor->rerender();
    }
    openResourcesJetFile();
    updateActions();
}

void FilesController::documentPathChanged()
{
    const QString base = m_document->filePath().isEmpty() ? QString() : m_document->baseDirectory();
    m_dock->setRootDirectory(base);
    if (base == m_lastBaseDirectory) {
        openResourcesJetFile();
        return;
    }
    m_lastBaseDirectory = base;
    m_openedJetFile.clear();
    // Another manifest: its files replace the old one's. Modified tabs stay, so nothing is lost
    // (the window asked about them before loading, unless the manifest was saved elsewhere).
    const QString prefix = QDir(base).absolutePath() + QLatin1Char('/');
    for (TemplateEditor *editor : editors()) {
        if (!editor->isModified() && (base.isEmpty() || !editor->filePath().startsWith(prefix)))
            closeEditor(editor);
    }
    // The document's text changed before its path did, so the Jet file is known only now.
    openResourcesJetFile();
}

QString FilesController::resourcesJetPath() const
{
    const LoadedManifest &loaded = m_document->loaded();
    if (m_document->filePath().isEmpty() || !loaded.manifest.ccm || !loaded.manifest.ccm->resourcesJetFile)
        return {};
    const QString file = QString::fromStdString(*loaded.manifest.ccm->resourcesJetFile);
    return file.isEmpty() ? QString() : QFileInfo(QDir(m_document->baseDirectory()), file).absoluteFilePath();
}

void FilesController::openResourcesJetFile()
{
    const QString path = resourcesJetPath();
    if (path.isEmpty() || path == m_openedJetFile || !QFileInfo(path).isFile())
        return;
    m_openedJetFile = path;
    QString error;
    if (!openFile(path, &error))
        emit statusMessage(error);
}

ccm::Json FilesController::renderContext() const
{
    Json params = Json::object();
    params["manifest"] = m_document->text().toStdString();
    params["base_dir"] = QDir(m_document->baseDirectory()).absolutePath().toStdString();
    const Json facts = m_views.whatIf->facts();
    if (facts.is_object() && !facts.empty())
        params["facts"] = facts;
    return params;
}

QString FilesController::relativePath(const QString &path) const
{
    return QDir(m_document->baseDirectory()).relativeFilePath(path);
}

void FilesController::writeRecoveryCopies()
{
    // A file copy names the manifest it belongs to, so recovery opens the two together.
    const QString manifest = m_document->filePath();
    for (TemplateEditor *editor : editors()) {
        const QString copy = m_recovery->recoveryPathFor(editor->filePath());
        if (!editor->isModified()) {
            m_recovery->remove(copy);
            continue;
        }
        QString error;
        if (!m_recovery->write(
                copy, editor->filePath(), editor->text(), &error, manifest.isEmpty() ? editor->filePath() : manifest))
            emit statusMessage(tr("Could not write the recovery copy: %1").arg(error));
    }
}

void FilesController::dropRecoveryCopies()
{
    m_autosaveTimer.stop();
    for (TemplateEditor *editor : editors())
        m_recovery->remove(m_recovery->recoveryPathFor(editor->filePath()));
}

QList<RecoveryCopy> FilesController::fileRecoveryCopies() const
{
    QList<RecoveryCopy> out;
    for (const RecoveryCopy &copy : m_recovery->list()) {
        if (!copy.manifestPath.isEmpty())
            out.append(copy);
    }
    return out;
}

bool FilesController::restoreCopy(const RecoveryCopy &copy, QString *error)
{
    const std::optional<RecoveryCopy> full = m_recovery->read(copy.recoveryPath, error);
    if (!full)
        return false;
    TemplateEditor *editor = openFile(full->originalPath, error);
    if (!editor)
        return false;
    editor->restoreText(full->text);
    m_recovery->remove(copy.recoveryPath);
    writeRecoveryCopies();
    return true;
}

void FilesController::offerRecovery(const std::function<bool(const QString &)> &openManifest)
{
    for (const RecoveryCopy &copy : fileRecoveryCopies()) {
        const auto answer = QMessageBox::question(m_window, tr("Recover Unsaved Changes"),
            tr("CCM Designer did not close properly. Unsaved changes to %1 (used by %2) from %3 were kept. "
               "Restore them?")
                .arg(QDir::toNativeSeparators(copy.originalPath), QDir::toNativeSeparators(copy.manifestPath),
                    QLocale().toString(copy.savedAt, QLocale::ShortFormat)),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard, QMessageBox::Yes);
        if (answer == QMessageBox::Discard)
            m_recovery->remove(copy.recoveryPath);
        if (answer != QMessageBox::Yes)
            continue;
        const QString manifest = QFileInfo(copy.manifestPath).absoluteFilePath();
        if (manifest != QFileInfo(m_document->filePath()).absoluteFilePath() && QFileInfo(manifest).isFile()
            && manifest != copy.originalPath)
            openManifest(manifest);
        QString error;
        if (!restoreCopy(copy, &error))
            QMessageBox::warning(m_window, tr("Recover Unsaved Changes"), error);
    }
}

void FilesController::setAutosaveDelay(int milliseconds)
{
    m_autosaveTimer.setInterval(milliseconds);
}

} // namespace ccm::designer
