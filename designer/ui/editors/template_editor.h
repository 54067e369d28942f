// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "designer/core/template_renderer.h"

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;

namespace ccm::designer {

class BackendClient;
class YamlEditor;

/// One file of the manifest's directory open for editing: its text (highlighted, with an undo
/// history of its own) beside what it renders to. Templates (`*.jet`, `*.templ`, `*.tmpl`,
/// `*.gotmpl`, and a manifest's resources_jet_file) are rendered by the backend as the user types; for a
/// resources_jet_file the rendered resources are listed too, each linked to the Jet line that
/// produced it. Other files are plain text.
class TemplateEditor : public QWidget {
    Q_OBJECT

public:
    /// What the file is to the manifest.
    enum class Kind { PlainFile, Template, ResourceList };

    /// `relativePath` names the file in messages and requests (relative to the manifest's
    /// directory); `client` and `context` render it. Call load() or setText() next.
    TemplateEditor(const QString &filePath, const QString &relativePath, Kind kind, BackendClient *client,
        TemplateRenderer::ContextProvider context, QWidget *parent = nullptr);

    /// The kind a file has by its name: templates by extension, anything else plain.
    [[nodiscard]] static Kind kindFor(const QString &path);

    /// Reads the file. False with *error naming the file and the reason; nothing changes then.
    bool load(QString *error);
    /// Writes the text atomically (a temporary file renamed over the file, which keeps its
    /// permissions). False with *error set and the file as it was on failure.
    bool save(QString *error);
    /// Replaces the text (a recovered copy): the editor is then modified.
    void restoreText(const QString &text);

    [[nodiscard]] QString filePath() const { return m_filePath; }
    [[nodiscard]] QString relativePath() const { return m_relativePath; }
    [[nodiscard]] Kind kind() const { return m_kind; }
    [[nodiscard]] QString text() const;
    [[nodiscard]] bool isModified() const;
    /// The problems of the last render, positioned in the text.
    [[nodiscard]] const ccm::Diagnostics &problems() const { return m_problems; }

    /// Renders the text again (the manifest or the What If facts changed).
    void rerender();
    /// Moves the cursor to `line`:`column` of the source and focuses it.
    void goTo(int line, int column = 1);

    [[nodiscard]] YamlEditor *sourceEditor() const { return m_source; }
    [[nodiscard]] QPlainTextEdit *outputView() const { return m_output; }
    /// The rendered resources of a resources_jet_file (null for other kinds). Each item's
    /// Qt::UserRole is the Jet line (from 1) that produced it.
    [[nodiscard]] QTreeWidget *resourceView() const { return m_resources; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    /// The rendered resources the Jet line produced, as "type#name".
    [[nodiscard]] QStringList resourcesFromLine(int line) const;

signals:
    /// isModified() changed.
    void modifiedChanged(bool modified);
    /// The text changed (typing, undo, restore).
    void textChanged();
    /// A render answered (output or problems) and the views show it.
    void renderFinished();
    /// problems() changed.
    void problemsChanged(const ccm::Diagnostics &problems);

private:
    void buildLayout();
    void showRendered(const RenderedTemplate &result);
    void showFailure(const ccm::Diagnostics &templateProblems, const ccm::Diagnostics &manifestProblems);
    void showUnavailable(const QString &message);
    void setProblems(const ccm::Diagnostics &problems);
    void listResources(const RenderedTemplate &result);
    void resourceActivated(QTreeWidgetItem *item);
    void sourceLineChanged(int line);

    QString m_filePath;
    QString m_relativePath;
    Kind m_kind;
    YamlEditor *m_source = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QTreeWidget *m_resources = nullptr;
    QLabel *m_status = nullptr;
    TemplateRenderer *m_renderer = nullptr;
    ccm::Diagnostics m_problems;
    bool m_followingSource = false;
};

} // namespace ccm::designer
