// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/expression_completer.h"

#include "designer/core/live_data.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/yaml_editor.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QTextBlock>
#include <QToolTip>

namespace ccm::designer {

namespace {

constexpr int kInsertRole = Qt::UserRole + 1;
const char *const kProperty = "ccmExpressionCompleter";

} // namespace

QString hoverText(const QString &expression, const LiveValue &value)
{
    const auto line = [](const QString &label, const QString &shown, bool failed) {
        return failed ? ExpressionCompleter::tr("%1: error: %2").arg(label, shown)
                      : ExpressionCompleter::tr("%1: %2").arg(label, shown);
    };
    QString out
        = expression + QLatin1Char('\n') + line(ExpressionCompleter::tr("This host"), value.host, value.hostFailed);
    if (value.whatIf)
        out += QLatin1Char('\n') + line(ExpressionCompleter::tr("What If"), *value.whatIf, value.whatIfFailed);
    return out;
}

ExpressionCompleter::ExpressionCompleter(QWidget *widget, LiveData *data, SourcesProvider sources)
    : QObject(widget)
    , m_widget(widget)
    , m_data(data)
    , m_sources(std::move(sources))
    , m_completer(new QCompleter(this))
    , m_model(new QStandardItemModel(this))
{
}

ExpressionCompleter::ExpressionCompleter(QLineEdit *edit, ExpressionMode mode, LiveData *data, SourcesProvider sources)
    : ExpressionCompleter(static_cast<QWidget *>(edit), data, std::move(sources))
{
    m_line = edit;
    m_mode = mode;
    connect(edit, &QLineEdit::textEdited, this, [this] { complete(); });
    // A popup left open follows the text and the cursor: it closes once they leave the expression.
    connect(edit, &QLineEdit::cursorPositionChanged, this, &ExpressionCompleter::refreshOpenPopup);
    setUp();
}

ExpressionCompleter::ExpressionCompleter(QPlainTextEdit *edit, LiveData *data, SourcesProvider sources)
    : ExpressionCompleter(static_cast<QWidget *>(edit), data, std::move(sources))
{
    m_plain = edit;
    setUp();
}

ExpressionCompleter::ExpressionCompleter(YamlEditor *edit, LiveData *data, SourcesProvider sources)
    : ExpressionCompleter(static_cast<QPlainTextEdit *>(edit), data, std::move(sources))
{
    m_yaml = edit;
    edit->setCompletionPopup(m_completer->popup());
}

void ExpressionCompleter::setUp()
{
    m_widget->setProperty(kProperty, QVariant::fromValue(static_cast<QObject *>(this)));
    m_completer->setModel(m_model);
    m_completer->setWidget(m_widget);
    m_completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_completer->setMaxVisibleItems(12);
    connect(m_completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
        [this](const QModelIndex &index) { choose(index.row()); });
    m_widget->installEventFilter(this);
    if (m_plain != nullptr) {
        m_plain->viewport()->installEventFilter(this);
        // While the popup is open, the keys go to it and reach the text through QCompleter, past
        // this filter: any change of the text or the cursor then refreshes the open popup.
        connect(m_plain, &QPlainTextEdit::textChanged, this, [this] {
            if (std::exchange(m_keyTyped, false))
                complete();
            else
                refreshOpenPopup();
        });
        connect(m_plain, &QPlainTextEdit::cursorPositionChanged, this, &ExpressionCompleter::refreshOpenPopup);
    }
}

ExpressionCompleter *ExpressionCompleter::of(QWidget *widget)
{
    return widget == nullptr ? nullptr
                             : qobject_cast<ExpressionCompleter *>(widget->property(kProperty).value<QObject *>());
}

void ExpressionCompleter::attachToField(FieldEditor *editor, LiveData *data, const SourcesProvider &sources)
{
    QList<FieldEditor *> editors = editor->findChildren<FieldEditor *>();
    editors.prepend(editor);
    for (FieldEditor *field : editors) {
        const FieldDescription &description = field->field();
        const bool expression = description.kind == FieldKind::Expression && description.itemFields.empty();
        // References complete from the resources with a completer of their own.
        if (!expression
            && (!description.templatesAllowed || description.kind == FieldKind::Expression
                || description.kind == FieldKind::References))
            continue;
        const ExpressionMode mode = expression ? ExpressionMode::Expression : ExpressionMode::Template;
        for (QLineEdit *line : field->findChildren<QLineEdit *>(Qt::FindDirectChildrenOnly)) {
            if (of(line) == nullptr && line->echoMode() == QLineEdit::Normal)
                new ExpressionCompleter(line, mode, data, sources);
        }
        for (QPlainTextEdit *plain : field->findChildren<QPlainTextEdit *>(Qt::FindDirectChildrenOnly)) {
            if (of(plain) == nullptr)
                new ExpressionCompleter(plain, data, sources);
        }
    }
}

QString ExpressionCompleter::text() const
{
    return m_line != nullptr ? m_line->text() : m_plain->toPlainText();
}

int ExpressionCompleter::cursorPosition() const
{
    return m_line != nullptr ? m_line->cursorPosition() : m_plain->textCursor().position();
}

void ExpressionCompleter::complete(bool explicitRequest)
{
    const QString current = text();
    const CompletionSources &sources = m_sources();
    const Completions completions = m_yaml != nullptr
        ? completeYaml(current, cursorPosition(), sources, explicitRequest)
        : completeField(current, cursorPosition(), m_mode, sources, explicitRequest);
    showPopup(completions);
}

void ExpressionCompleter::showPopup(const Completions &completions)
{
    m_model->clear();
    m_start = completions.start;
    if (completions.items.isEmpty()) {
        m_completer->popup()->hide();
        return;
    }
    for (const CompletionItem &item : completions.items) {
        auto *row = new QStandardItem(item.display);
        row->setData(item.insert, kInsertRole);
        row->setToolTip(item.detail);
        m_model->appendRow(row);
    }
    QRect rect;
    if (m_plain != nullptr) {
        rect = m_plain->cursorRect();
        rect.translate(m_plain->viewport()->pos());
    } else {
        rect = m_widget->rect();
    }
    QAbstractItemView *popup = m_completer->popup();
    rect.setWidth(std::max(rect.width(), popup->sizeHintForColumn(0) + popup->verticalScrollBar()->sizeHint().width()));
    m_completer->complete(rect);
    popup->setCurrentIndex(m_model->index(0, 0));
    emit popupShown();
}

void ExpressionCompleter::refreshOpenPopup()
{
    if (m_completer->popup()->isVisible() && !m_refreshing) {
        m_refreshing = true;
        complete();
        m_refreshing = false;
    }
}

QStringList ExpressionCompleter::offered() const
{
    QStringList out;
    if (!m_completer->popup()->isVisible())
        return out;
    for (int row = 0; row < m_model->rowCount(); ++row)
        out.append(m_model->item(row)->data(kInsertRole).toString());
    return out;
}

void ExpressionCompleter::choose(int row)
{
    if (row < 0 || row >= m_model->rowCount() || m_start < 0)
        return;
    const QString insert = m_model->item(row)->data(kInsertRole).toString();
    m_completer->popup()->hide();
    replace(m_start, cursorPosition(), insert);
}

void ExpressionCompleter::replace(int start, int end, const QString &insert)
{
    if (m_line != nullptr) {
        m_line->setSelection(start, end - start);
        m_line->insert(insert);
        return;
    }
    QTextCursor cursor = m_plain->textCursor();
    cursor.setPosition(start);
    cursor.setPosition(end, QTextCursor::KeepAnchor);
    cursor.insertText(insert);
    m_plain->setTextCursor(cursor);
}

bool ExpressionCompleter::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress && watched == m_widget) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Space && (key->modifiers() & Qt::ControlModifier)) {
            complete(true);
            return true;
        }
        m_keyTyped = !key->text().isEmpty() && key->text().at(0).isPrint();
        if (!m_keyTyped && m_plain != nullptr && key->key() == Qt::Key_Backspace)
            m_keyTyped = m_completer->popup()->isVisible();
    }
    if (event->type() == QEvent::ToolTip)
        return handleToolTip(event);
    return QObject::eventFilter(watched, event);
}

bool ExpressionCompleter::handleToolTip(QEvent *event)
{
    auto *help = static_cast<QHelpEvent *>(event);
    int position = 0;
    if (m_line != nullptr)
        position = m_line->cursorPositionAt(help->pos());
    else
        position = m_plain->cursorForPosition(help->pos()).position();
    return showValueAt(position, help->globalPos());
}

QString ExpressionCompleter::hoverPrefix(int position) const
{
    if (m_yaml == nullptr)
        return {};
    const QTextBlock block = m_yaml->document()->findBlock(position);
    const QStringList messages = m_yaml->diagnosticMessagesAt(block.blockNumber() + 1, position - block.position() + 1);
    return messages.isEmpty() ? QString() : messages.join(QLatin1Char('\n')) + QStringLiteral("\n\n");
}

bool ExpressionCompleter::showValueAt(int position, const QPoint &globalPos)
{
    const QString current = text();
    const auto span = m_yaml != nullptr ? yamlExpressionAt(current, position) : expressionAt(current, position, m_mode);
    if (!span || m_data == nullptr)
        return false;
    const int request = ++m_hoverRequest;
    const QString prefix = hoverPrefix(position);
    QPointer<ExpressionCompleter> guard(this);
    m_data->evaluate(span->kind, span->text, [guard, request, prefix, globalPos, span](const LiveValue &value) {
        if (guard == nullptr || request != guard->m_hoverRequest)
            return;
        guard->m_lastHover = prefix + hoverText(span->text, value);
        QToolTip::showText(globalPos, guard->m_lastHover, guard->m_widget);
        emit guard->hoverShown(guard->m_lastHover);
    });
    return true;
}

} // namespace ccm::designer
