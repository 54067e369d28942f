// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/yaml_editor.h"

#include "designer/core/problems_model.h"
#include "designer/ui/editors/incremental_highlighter.h"
#include "designer/ui/editors/yaml_highlighter.h"
#include "designer/ui/palette_tone.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace ccm::designer {

/// The line-number margin left of the text; the editor paints it.
class YamlEditorGutter : public QWidget {
public:
    explicit YamlEditorGutter(YamlEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {
    }

    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            const QTextBlock block = m_editor->cursorForPosition(QPoint(0, help->pos().y())).block();
            const QString text = m_editor->gutterToolTip(block.blockNumber() + 1);
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    YamlEditor *m_editor;
};

namespace {

} // namespace

YamlEditor::YamlEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new YamlEditorGutter(this))
{
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabChangesFocus(false);
    m_colours.setPalette(palette());
    m_colouring = new IncrementalHighlighter(
        document(),
        [this](const QString &line, int previousState, IncrementalHighlighter::Formats &formats) {
            return m_colours.colourLine(line, previousState, formats);
        },
        this);

    m_editTimer.setSingleShot(true);
    m_editTimer.setInterval(300);
    connect(&m_editTimer, &QTimer::timeout, this, [this] { emit textEdited(toPlainText()); });
    connect(document(), &QTextDocument::contentsChange, this, [this] { onContentsChange(); });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] { onCursorPositionChanged(); });
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateGutterGeometry(); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterGeometry();
}

void YamlEditor::setManifestText(const QString &text)
{
    const QString current = toPlainText();
    if (current == text)
        return;
    m_editTimer.stop();
    if (current.isEmpty()) {
        loadManifestText(text);
        return;
    }
    // Replacing only the differing middle keeps the document, so the view's cursor, selection and
    // scroll position move with the text instead of being reset.
    const qsizetype limit = std::min(current.size(), text.size());
    qsizetype prefix = 0;
    while (prefix < limit && current.at(prefix) == text.at(prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < limit - prefix && current.at(current.size() - 1 - suffix) == text.at(text.size() - 1 - suffix))
        ++suffix;
    const int scroll = verticalScrollBar()->value();
    m_settingText = true;
    QTextCursor cursor(document());
    cursor.setPosition(static_cast<int>(prefix));
    cursor.setPosition(static_cast<int>(current.size() - suffix), QTextCursor::KeepAnchor);
    cursor.insertText(text.mid(prefix, text.size() - prefix - suffix));
    verticalScrollBar()->setValue(scroll);
    m_lastCursorLine = currentLine();
    m_settingText = false;
}

void YamlEditor::loadManifestText(const QString &text)
{
    // A loaded text replaces the whole document at once and starts at the top: inserting it through a
    // cursor would split it block by block, each split announced to the layout and the highlighter.
    // The same text again (the document's change after its loading signal) costs a comparison,
    // not a copy of the whole document.
    const bool unchanged = m_loadedText ? text == *m_loadedText : text == toPlainText();
    if (unchanged)
        return;
    m_editTimer.stop();
    m_settingText = true;
    // The gutter takes its final width, and the vertical scroll bar shows, while the document is
    // still small: either, after the text arrived, would narrow the view and lay every line of it
    // out again.
    m_loadingLines = static_cast<int>(text.count(QLatin1Char('\n'))) + 1;
    const bool showScrollBarFirst
        = m_loadingLines > visibleLineCount() && verticalScrollBarPolicy() == Qt::ScrollBarAsNeeded;
    if (showScrollBarFirst)
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    updateGutterGeometry();
    // The document directly rather than QPlainTextEdit::setPlainText, which then gives every
    // character the cursor's format again, a pass over the whole text that changes nothing here.
    document()->setPlainText(text);
    m_loadingLines = -1;
    if (showScrollBarFirst)
        setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setTextCursor(QTextCursor(document()));
    m_lastCursorLine = currentLine();
    m_loadedText = text;
    m_settingText = false;
}

void YamlEditor::setDiagnostics(const ccm::Diagnostics &diagnostics)
{
    m_underlines.clear();
    QTextDocument *text = document();
    for (const Diagnostic &diagnostic : diagnostics) {
        if (!diagnostic.position.known())
            continue;
        const QTextBlock block = text->findBlockByNumber(std::min(diagnostic.position.line, text->blockCount()) - 1);
        if (!block.isValid())
            continue;
        const QString line = block.text();
        int start = std::clamp(diagnostic.position.column - 1, 0, static_cast<int>(line.size()));
        int end = start;
        while (end < line.size() && !line.at(end).isSpace())
            ++end;
        if (end == start || diagnostic.position.column <= 0) {
            // Nothing to underline at the column: underline the line's text instead.
            start = 0;
            while (start < line.size() && line.at(start).isSpace())
                ++start;
            end = static_cast<int>(line.size());
        }
        QTextCursor range(block);
        range.setPosition(block.position() + start);
        range.setPosition(block.position() + end, QTextCursor::KeepAnchor);
        m_underlines.push_back({range, diagnostic});
    }
    rebuildExtraSelections();
    m_gutter->update();
}

void YamlEditor::goToLine(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::clamp(line, 1, document()->blockCount()) - 1);
    QTextCursor cursor(block);
    cursor.setPosition(block.position() + std::clamp(column - 1, 0, static_cast<int>(block.text().size())));
    setTextCursor(cursor);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
}

void YamlEditor::highlightLines(int first, int last)
{
    m_highlightFirst = first;
    m_highlightLast = std::max(first, last);
    rebuildExtraSelections();
}

int YamlEditor::currentLine() const
{
    return textCursor().blockNumber() + 1;
}

int YamlEditor::editDelay() const
{
    return m_editTimer.interval();
}

void YamlEditor::setEditDelay(int milliseconds)
{
    m_editTimer.setInterval(std::max(0, milliseconds));
}

void YamlEditor::setOwnUndoHistory(bool own)
{
    m_ownUndo = own;
    setUndoRedoEnabled(own);
}

void YamlEditor::setHighlighter(QSyntaxHighlighter *highlighter)
{
    delete m_colouring;
    m_colouring = nullptr;
    delete m_highlighter;
    m_highlighter = highlighter;
}

IncrementalHighlighter *YamlEditor::yamlColouring() const
{
    return m_colouring;
}

int YamlEditor::visibleLineCount() const
{
    // Without wrapping every line is one line high.
    return viewport()->height() / std::max(1, fontMetrics().lineSpacing());
}

int YamlEditor::lastVisibleBlockNumber() const
{
    return firstVisibleBlock().blockNumber() + visibleLineCount() + 1;
}

QStringList YamlEditor::diagnosticMessagesAt(int line, int column) const
{
    QStringList messages;
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return messages;
    const int position = block.position() + column - 1;
    for (const Underline &underline : m_underlines) {
        if (position >= underline.range.selectionStart() && position < underline.range.selectionEnd())
            messages.append(QString::fromStdString(underline.diagnostic.message));
    }
    return messages;
}

bool YamlEditor::event(QEvent *event)
{
    if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        const bool undo = key->matches(QKeySequence::Undo);
        const bool undoOrRedo = undo || key->matches(QKeySequence::Redo);
        if (undoOrRedo && !m_ownUndo && event->type() == QEvent::ShortcutOverride) {
            // Leaving undo and redo unaccepted lets the window's shortcuts have them.
            event->ignore();
            return true;
        }
        if (undoOrRedo && m_ownUndo) {
            // A history of its own (a file's tab): taken here, as keyPressEvent() leaves them to
            // the window.
            event->accept();
            if (event->type() == QEvent::KeyPress)
                undo ? QPlainTextEdit::undo() : QPlainTextEdit::redo();
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

bool YamlEditor::viewportEvent(QEvent *event)
{
    // The lines about to be shown are coloured first; the rest of a long text follows while idle.
    if (event->type() == QEvent::Paint && m_colouring != nullptr)
        m_colouring->highlightThrough(lastVisibleBlockNumber());
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QTextCursor cursor = cursorForPosition(help->pos());
        const QStringList messages = diagnosticMessagesAt(cursor.blockNumber() + 1, cursor.positionInBlock() + 1);
        if (messages.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), messages.join(QLatin1Char('\n')), this);
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void YamlEditor::setCompletionPopup(QWidget *popup)
{
    m_completionPopup = popup;
}

void YamlEditor::keyPressEvent(QKeyEvent *event)
{
    static const int completionKeys[] = {Qt::Key_Return, Qt::Key_Enter, Qt::Key_Tab, Qt::Key_Backtab, Qt::Key_Escape};
    if (m_completionPopup != nullptr && m_completionPopup->isVisible()
        && std::find(std::begin(completionKeys), std::end(completionKeys), event->key()) != std::end(completionKeys)) {
        event->ignore();
        return;
    }
    if (event->matches(QKeySequence::Undo) || event->matches(QKeySequence::Redo)) {
        event->ignore();
        return;
    }
    if (isReadOnly()) {
        QPlainTextEdit::keyPressEvent(event);
        return;
    }
    const Qt::KeyboardModifiers modifiers = event->modifiers() & ~Qt::KeypadModifier;
    if (event->key() == Qt::Key_Tab && modifiers == Qt::NoModifier) {
        insertPlainText(QStringLiteral("  "));
        return;
    }
    if (event->key() == Qt::Key_Backtab) {
        QTextCursor cursor = textCursor();
        const QString line = cursor.block().text();
        int spaces = 0;
        while (spaces < 2 && spaces < line.size() && line.at(spaces) == QLatin1Char(' '))
            ++spaces;
        if (spaces > 0) {
            cursor.setPosition(cursor.block().position());
            cursor.setPosition(cursor.block().position() + spaces, QTextCursor::KeepAnchor);
            cursor.removeSelectedText();
        }
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
        && (modifiers == Qt::NoModifier || modifiers == Qt::ShiftModifier)) {
        indentNewLine();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void YamlEditor::indentNewLine()
{
    QTextCursor cursor = textCursor();
    const QString before = cursor.block().text().left(cursor.positionInBlock());
    int indent = 0;
    while (indent < before.size() && before.at(indent) == QLatin1Char(' '))
        ++indent;
    // Continue at the column of the line's content, past any list dashes, so that the next key
    // belongs to the same map; one level deeper after a key that opens a map or a block scalar.
    int content = indent;
    while (content < before.size() && before.at(content) == QLatin1Char('-')
        && (content + 1 == before.size() || before.at(content + 1) == QLatin1Char(' ')))
        content += 2;
    const QString trimmed = before.trimmed();
    if (trimmed.endsWith(QLatin1Char(':')) || trimmed.endsWith(QLatin1Char('|')) || trimmed.endsWith(QLatin1Char('>')))
        content += 2;
    cursor.insertText(QLatin1Char('\n') + QString(content, QLatin1Char(' ')));
    setTextCursor(cursor);
    ensureCursorVisible();
}

void YamlEditor::focusOutEvent(QFocusEvent *event)
{
    QPlainTextEdit::focusOutEvent(event);
    flushPendingEdit();
    if (m_editedSinceFocus) {
        m_editedSinceFocus = false;
        emit editingFinished();
    }
}

void YamlEditor::flushPendingEdit()
{
    if (m_editTimer.isActive()) {
        m_editTimer.stop();
        emit textEdited(toPlainText());
    }
}

void YamlEditor::onContentsChange()
{
    m_loadedText.reset();
    if (m_settingText)
        return;
    m_editedSinceFocus = true;
    m_editTimer.start();
}

void YamlEditor::onCursorPositionChanged()
{
    if (m_settingText)
        return;
    const int line = currentLine();
    if (line != m_lastCursorLine) {
        m_lastCursorLine = line;
        emit cursorLineChanged(line);
    }
}

void YamlEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void YamlEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_colours.setPalette(palette());
        if (m_colouring != nullptr)
            m_colouring->rehighlight(lastVisibleBlockNumber());
        else if (auto *yaml = qobject_cast<YamlHighlighter *>(m_highlighter))
            yaml->setPalette(palette());
        rebuildExtraSelections();
        m_gutter->update();
    } else if (event->type() == QEvent::FontChange) {
        updateGutterGeometry();
    }
}

int YamlEditor::gutterWidth() const
{
    int digits = 1;
    for (int count = std::max(1, m_loadingLines < 0 ? blockCount() : m_loadingLines); count >= 10; count /= 10)
        ++digits;
    const QFontMetrics metrics(font());
    // Room for the numbers, a problem marker as wide as a line is high, and a little air before
    // the text.
    return metrics.horizontalAdvance(QLatin1Char('9')) * (digits + 1) + metrics.height() + gutterPadding();
}

int YamlEditor::gutterPadding() const
{
    return QFontMetrics(font()).horizontalAdvance(QLatin1Char(' ')) / 2;
}

void YamlEditor::updateGutterGeometry()
{
    const int width = gutterWidth();
    setViewportMargins(width, 0, 0, 0);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(QRect(contents.left(), contents.top(), width, contents.height()));
}

void YamlEditor::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    const QPalette colours = palette();
    painter.fillRect(event->rect(), colours.color(QPalette::AlternateBase));
    painter.fillRect(
        QRect(m_gutter->width() - gutterPadding(), event->rect().top(), gutterPadding(), event->rect().height()),
        colours.color(QPalette::Base));

    std::map<int, Severity> worst;
    for (const Underline &underline : m_underlines) {
        const int line = underline.range.block().blockNumber();
        const auto found = worst.find(line);
        if (found == worst.end() || severityRank(underline.diagnostic.severity) > severityRank(found->second))
            worst[line] = underline.diagnostic.severity;
    }

    const QFontMetrics metrics(font());
    const int markerSize = std::max(4, metrics.height() / 2);
    const int current = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const int number = block.blockNumber();
            QFont numberFont = font();
            numberFont.setBold(number == current);
            painter.setFont(numberFont);
            painter.setPen(
                number == current ? colours.color(QPalette::Text) : colours.color(QPalette::PlaceholderText));
            painter.drawText(0, top, m_gutter->width() - gutterPadding() - metrics.height(), metrics.height(),
                Qt::AlignRight, QString::number(number + 1));
            const auto marker = worst.find(number);
            if (marker != worst.end()) {
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setPen(Qt::NoPen);
                painter.setBrush(severityColour(marker->second));
                const int x
                    = m_gutter->width() - gutterPadding() - metrics.height() + (metrics.height() - markerSize) / 2;
                painter.drawEllipse(x, top + (metrics.height() - markerSize) / 2, markerSize, markerSize);
            }
        }
        block = block.next();
        top += height;
    }
}

QColor YamlEditor::severityColour(Severity severity) const
{
    const bool dark = isDarkPalette(palette());
    switch (severity) {
    case Severity::Error:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
    case Severity::Warning:
        return dark ? QColor(0xff, 0xc1, 0x07) : QColor(0xb2, 0x6a, 0x00);
    case Severity::Info:
        break;
    }
    return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
}

QString YamlEditor::gutterToolTip(int line) const
{
    QStringList messages;
    for (const Underline &underline : m_underlines) {
        if (underline.range.block().blockNumber() + 1 == line)
            messages.append(QString::fromStdString(underline.diagnostic.message));
    }
    return messages.join(QLatin1Char('\n'));
}

void YamlEditor::rebuildExtraSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (m_highlightFirst >= 1) {
        const QTextBlock first = document()->findBlockByNumber(m_highlightFirst - 1);
        if (first.isValid()) {
            const QTextBlock last
                = document()->findBlockByNumber(std::min(m_highlightLast, document()->blockCount()) - 1);
            QTextEdit::ExtraSelection selection;
            const QColor highlight = palette().color(QPalette::Highlight);
            const QColor base = palette().color(QPalette::Base);
            selection.format.setBackground(QColor::fromRgbF(base.redF() * 0.88 + highlight.redF() * 0.12,
                base.greenF() * 0.88 + highlight.greenF() * 0.12, base.blueF() * 0.88 + highlight.blueF() * 0.12));
            selection.format.setProperty(QTextFormat::FullWidthSelection, true);
            // A full-width selection colours whole lines; one per line covers the range.
            for (QTextBlock block = first; block.isValid(); block = block.next()) {
                selection.cursor = QTextCursor(block);
                selections.append(selection);
                if (block == last)
                    break;
            }
        }
    }
    for (const Underline &underline : m_underlines) {
        QTextEdit::ExtraSelection selection;
        selection.cursor = underline.range;
        selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        selection.format.setUnderlineColor(severityColour(underline.diagnostic.severity));
        selections.append(selection);
    }
    setExtraSelections(selections);
}

} // namespace ccm::designer
