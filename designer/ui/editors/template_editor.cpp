// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/template_editor.h"

#include "core/yaml/source_map.h"
#include "core/yaml/yaml_reader.h"
#include "designer/ui/editors/template_highlighter.h"
#include "designer/ui/editors/yaml_editor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QSplitter>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

/// Larger files are not templates a person edits; reading them would only stall the window.
constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

QString lineText(const Diagnostic &diagnostic)
{
    if (!diagnostic.position.known())
        return QString::fromStdString(diagnostic.message);
    return QStringLiteral("%1:%2: %3")
        .arg(diagnostic.position.line)
        .arg(diagnostic.position.column)
        .arg(QString::fromStdString(diagnostic.message));
}

} // namespace

TemplateEditor::TemplateEditor(const QString &filePath, const QString &relativePath, Kind kind, BackendClient *client,
    TemplateRenderer::ContextProvider context, QWidget *parent)
    : QWidget(parent)
    , m_filePath(QFileInfo(filePath).absoluteFilePath())
    , m_relativePath(relativePath)
    , m_kind(kind)
    , m_source(new YamlEditor(this))
    , m_status(new QLabel(this))
{
    m_source->setObjectName(QStringLiteral("templateSource"));
    m_source->setOwnUndoHistory(true);
    const auto base
        = kind == Kind::ResourceList ? TemplateHighlighter::Base::Yaml : TemplateHighlighter::baseFor(filePath);
    if (kind == Kind::PlainFile && base == TemplateHighlighter::Base::Plain)
        m_source->setHighlighter(nullptr);
    else
        m_source->setHighlighter(new TemplateHighlighter(m_source->document(), base, m_source->palette()));
    if (kind != Kind::PlainFile) {
        m_renderer = new TemplateRenderer(client, std::move(context), this);
        connect(m_renderer, &TemplateRenderer::rendered, this, &TemplateEditor::showRendered);
        connect(m_renderer, &TemplateRenderer::failed, this, &TemplateEditor::showFailure);
        connect(m_renderer, &TemplateRenderer::unavailable, this, &TemplateEditor::showUnavailable);
        connect(m_source, &YamlEditor::textEdited, this, &TemplateEditor::rerender);
    }
    connect(m_source->document(), &QTextDocument::modificationChanged, this, &TemplateEditor::modifiedChanged);
    connect(m_source->document(), &QTextDocument::contentsChanged, this, &TemplateEditor::textChanged);
    buildLayout();
}

TemplateEditor::Kind TemplateEditor::kindFor(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("jet") || suffix == QLatin1String("templ") || suffix == QLatin1String("tmpl")
        || suffix == QLatin1String("gotmpl"))
        return Kind::Template;
    return Kind::PlainFile;
}

void TemplateEditor::buildLayout()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_source);
    if (m_kind != Kind::PlainFile) {
        auto *rendered = new QSplitter(Qt::Vertical, splitter);
        if (m_kind == Kind::ResourceList) {
            m_resources = new QTreeWidget(rendered);
            m_resources->setObjectName(QStringLiteral("renderedResources"));
            m_resources->setHeaderLabels({tr("Rendered resource"), tr("Jet line")});
            m_resources->setRootIsDecorated(false);
            m_resources->setSelectionMode(QAbstractItemView::ExtendedSelection);
            m_resources->header()->setSectionResizeMode(0, QHeaderView::Stretch);
            connect(m_resources, &QTreeWidget::itemActivated, this, &TemplateEditor::resourceActivated);
            connect(m_resources, &QTreeWidget::itemClicked, this, &TemplateEditor::resourceActivated);
            connect(m_source, &YamlEditor::cursorLineChanged, this, &TemplateEditor::sourceLineChanged);
        }
        m_output = new QPlainTextEdit(rendered);
        m_output->setObjectName(QStringLiteral("renderedOutput"));
        m_output->setReadOnly(true);
        m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
        m_output->setFont(m_source->font());
        m_output->setPlaceholderText(tr("The rendered output shows here."));
        splitter->addWidget(rendered);
    }
    layout->addWidget(splitter, 1);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setVisible(m_kind != Kind::PlainFile);
    layout->addWidget(m_status);
}

bool TemplateEditor::load(QString *error)
{
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString());
        return false;
    }
    if (file.size() > kMaxFileBytes) {
        *error = tr("Cannot open %1: it is larger than 16 MiB.").arg(QDir::toNativeSeparators(m_filePath));
        return false;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.contains('\0')) {
        *error = tr("Cannot open %1: it is a binary file.").arg(QDir::toNativeSeparators(m_filePath));
        return false;
    }
    m_source->setManifestText(QString::fromUtf8(bytes));
    m_source->document()->clearUndoRedoStacks();
    m_source->document()->setModified(false);
    rerender();
    return true;
}

bool TemplateEditor::save(QString *error)
{
    QSaveFile file(m_filePath);
    const QByteArray bytes = text().toUtf8();
    if (!QDir().mkpath(QFileInfo(m_filePath).absolutePath()) || !file.open(QIODevice::WriteOnly)
        || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(m_filePath), file.errorString());
        return false;
    }
    m_source->document()->setModified(false);
    return true;
}

void TemplateEditor::restoreText(const QString &text)
{
    QTextCursor cursor(m_source->document());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    m_source->document()->setModified(true);
    rerender();
}

QString TemplateEditor::text() const
{
    return m_source->toPlainText();
}

bool TemplateEditor::isModified() const
{
    return m_source->document()->isModified();
}

void TemplateEditor::rerender()
{
    if (!m_renderer)
        return;
    m_status->setText(tr("Rendering…"));
    m_renderer->render(text(),
        m_kind == Kind::ResourceList ? QStringLiteral("jet") : TemplateRenderer::engineFor(m_filePath), m_relativePath);
}

void TemplateEditor::goTo(int line, int column)
{
    m_source->goToLine(line, std::max(column, 1));
}

void TemplateEditor::showRendered(const RenderedTemplate &result)
{
    m_output->setPlainText(result.output);
    QStringList lines {tr("Rendered.")};
    for (const Diagnostic &problem : result.templateProblems)
        lines.append(lineText(problem));
    for (const Diagnostic &problem : result.manifestProblems)
        lines.append(tr("The manifest's data: %1").arg(lineText(problem)));
    m_status->setText(lines.join(QLatin1Char('\n')));
    setProblems(result.templateProblems);
    if (m_resources)
        listResources(result);
    emit renderFinished();
}

void TemplateEditor::showFailure(const ccm::Diagnostics &templateProblems, const ccm::Diagnostics &manifestProblems)
{
    QStringList lines;
    for (const Diagnostic &problem : templateProblems)
        lines.append(lineText(problem));
    for (const Diagnostic &problem : manifestProblems)
        lines.append(tr("The manifest's data: %1").arg(lineText(problem)));
    m_status->setText(lines.join(QLatin1Char('\n')));
    m_output->clear();
    setProblems(templateProblems);
    emit renderFinished();
}

void TemplateEditor::showUnavailable(const QString &message)
{
    m_status->setText(message);
    emit renderFinished();
}

void TemplateEditor::setProblems(const ccm::Diagnostics &problems)
{
    if (problems == m_problems)
        return;
    m_problems = problems;
    m_source->setDiagnostics(problems);
    emit problemsChanged(problems);
}

void TemplateEditor::listResources(const RenderedTemplate &result)
{
    m_resources->clear();
    const YamlReadResult read = readYaml(result.output.toStdString());
    if (!read.document || !read.document->root.is_array()) {
        if (!result.output.trimmed().isEmpty())
            m_status->setText(tr("The rendered text is not a list of resource blocks."));
        return;
    }
    const Json &blocks = read.document->root;
    for (std::size_t block = 0; block < blocks.size(); ++block) {
        if (!blocks[block].is_object() || blocks[block].size() != 1)
            continue;
        const std::string type = blocks[block].begin().key();
        const Json &entries = blocks[block].begin().value();
        for (std::size_t entry = 0; entry < (entries.is_array() ? entries.size() : 0); ++entry) {
            if (!entries[entry].is_object() || entries[entry].size() != 1)
                continue;
            const std::string name = entries[entry].begin().key();
            const std::string pointer
                = appendPointer(appendPointer(appendPointer(appendPointer("", block), type), entry), name);
            const int outputLine = read.document->sourceMap.keyAt(pointer).line;
            const int jetLine
                = outputLine > 0 && outputLine <= result.lineMap.size() ? result.lineMap.at(outputLine - 1) : 0;
            auto *item = new QTreeWidgetItem(m_resources,
                {QString::fromStdString(type + "#" + name), jetLine > 0 ? QString::number(jetLine) : QString()});
            item->setData(0, Qt::UserRole, jetLine);
        }
    }
    sourceLineChanged(m_source->currentLine());
}

QStringList TemplateEditor::resourcesFromLine(int line) const
{
    QStringList out;
    for (int row = 0; m_resources && row < m_resources->topLevelItemCount(); ++row) {
        const QTreeWidgetItem *item = m_resources->topLevelItem(row);
        if (item->data(0, Qt::UserRole).toInt() == line)
            out.append(item->text(0));
    }
    return out;
}

void TemplateEditor::resourceActivated(QTreeWidgetItem *item)
{
    const int line = item ? item->data(0, Qt::UserRole).toInt() : 0;
    if (line <= 0 || m_followingSource)
        return;
    m_followingSource = true;
    m_source->goToLine(line);
    m_followingSource = false;
    sourceLineChanged(line);
}

void TemplateEditor::sourceLineChanged(int line)
{
    if (m_followingSource || !m_resources)
        return;
    // The resources the current Jet line produced stand out (bold) and are selected.
    m_followingSource = true;
    m_resources->clearSelection();
    for (int row = 0; row < m_resources->topLevelItemCount(); ++row) {
        QTreeWidgetItem *item = m_resources->topLevelItem(row);
        const bool fromLine = item->data(0, Qt::UserRole).toInt() == line;
        QFont font = item->font(0);
        font.setBold(fromLine);
        item->setFont(0, font);
        item->setSelected(fromLine);
        if (fromLine)
            m_resources->scrollToItem(item);
    }
    m_followingSource = false;
}

} // namespace ccm::designer
