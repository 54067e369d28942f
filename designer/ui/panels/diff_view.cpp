// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/diff_view.h"

#include "designer/core/unified_diff.h"
#include "designer/ui/palette_tone.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

#include <algorithm>

namespace ccm::designer {

namespace {

const QString kModeKey = QStringLiteral("preview/diffMode");
const QString kUnifiedName = QStringLiteral("unified");
const QString kSideBySideName = QStringLiteral("sideBySide");

QColor mix(const QColor &base, const QColor &tint, double amount)
{
    const auto channel = [amount](int from, int to) { return static_cast<int>(from + (to - from) * amount + 0.5); };
    return QColor(
        channel(base.red(), tint.red()), channel(base.green(), tint.green()), channel(base.blue(), tint.blue()));
}

// A dark base takes a stronger tint for the same visible difference.
double tintAmount(const QPalette &palette)
{
    return isDarkPalette(palette) ? 0.3 : 0.2;
}

QPlainTextEdit *makeTextView(QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

// Writes lines with full-width backgrounds; an invalid colour leaves the base showing.
class LineWriter {
public:
    explicit LineWriter(QTextDocument *document)
        : m_cursor(document)
    {
    }

    void add(const QString &text, const QColor &background, const QColor &foreground = {})
    {
        if (m_started)
            m_cursor.insertBlock();
        m_started = true;
        QTextBlockFormat block;
        if (background.isValid())
            block.setBackground(background);
        m_cursor.setBlockFormat(block);
        QTextCharFormat chars;
        if (foreground.isValid())
            chars.setForeground(foreground);
        m_cursor.insertText(text, chars);
    }

private:
    QTextCursor m_cursor;
    bool m_started = false;
};

QColor backgroundOf(DiffLine::Kind kind, const QPalette &palette)
{
    switch (kind) {
    case DiffLine::Kind::Added:
        return DiffView::addedBackground(palette);
    case DiffLine::Kind::Removed:
        return DiffView::removedBackground(palette);
    case DiffLine::Kind::Context:
        break;
    }
    return {};
}

QChar prefixOf(DiffLine::Kind kind)
{
    switch (kind) {
    case DiffLine::Kind::Added:
        return QLatin1Char('+');
    case DiffLine::Kind::Removed:
        return QLatin1Char('-');
    case DiffLine::Kind::Context:
        break;
    }
    return QLatin1Char(' ');
}

} // namespace

DiffView::DiffView(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_attributes(new QLabel(this))
    , m_hint(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_unified(makeTextView(this))
    , m_left(makeTextView(this))
    , m_right(makeTextView(this))
{
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_attributes->setTextFormat(Qt::PlainText);
    m_attributes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hint->setTextFormat(Qt::PlainText);
    m_hint->setWordWrap(true);

    auto *sideBySide = new QWidget(this);
    auto *sideLayout = new QHBoxLayout(sideBySide);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(2);
    sideLayout->addWidget(m_left);
    sideLayout->addWidget(m_right);
    m_left->setAccessibleName(tr("Old content"));
    m_right->setAccessibleName(tr("New content"));
    m_unified->setAccessibleName(tr("Unified diff"));
    // Setting a scroll bar to its current value emits nothing, so the two panes cannot ping-pong.
    for (auto [from, to] : {std::pair {m_left, m_right}, std::pair {m_right, m_left}}) {
        connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to->verticalScrollBar(), &QScrollBar::setValue);
        connect(
            from->horizontalScrollBar(), &QScrollBar::valueChanged, to->horizontalScrollBar(), &QScrollBar::setValue);
    }

    m_tabs->addTab(m_unified, tr("Unified"));
    m_tabs->addTab(sideBySide, tr("Side by side"));
    m_tabs->setDocumentMode(true);
    m_tabs->setCurrentIndex(QSettings().value(kModeKey).toString() == kSideBySideName ? 1 : 0);
    connect(m_tabs, &QTabWidget::currentChanged, this,
        [](int index) { QSettings().setValue(kModeKey, index == 1 ? kSideBySideName : kUnifiedName); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_attributes);
    layout->addWidget(m_hint);
    layout->addWidget(m_tabs, 1);
    clear();
}

void DiffView::setChange(
    const QString &resource, const QString &unifiedDiff, const QList<AttributeChange> &attributes, bool contentWithheld)
{
    m_hasChange = true;
    m_title->setText(resource);
    QStringList lines;
    for (const AttributeChange &change : attributes) {
        const QString from = change.from.isEmpty() ? tr("(unset)") : change.from;
        const QString to = change.to.isEmpty() ? tr("(unset)") : change.to;
        lines.append(tr("%1 %2 → %3").arg(change.attribute, from, to));
    }
    m_attributes->setText(lines.join(QLatin1Char('\n')));
    m_attributes->setVisible(!lines.isEmpty());
    m_diffText = unifiedDiff;
    m_contentWithheld = contentWithheld;
    render();
}

void DiffView::clear()
{
    m_hasChange = false;
    m_title->clear();
    m_attributes->clear();
    m_attributes->hide();
    m_diffText.clear();
    m_contentWithheld = false;
    render();
}

DiffView::Mode DiffView::mode() const
{
    return m_tabs->currentIndex() == 1 ? Mode::SideBySide : Mode::Unified;
}

void DiffView::setMode(Mode mode)
{
    m_tabs->setCurrentIndex(mode == Mode::SideBySide ? 1 : 0);
}

QColor DiffView::addedBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), QColor(0x2e, 0xa0, 0x43), tintAmount(palette));
}

QColor DiffView::removedBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), QColor(0xd7, 0x3a, 0x49), tintAmount(palette));
}

QColor DiffView::fillerBackground(const QPalette &palette)
{
    return mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.08);
}

QColor DiffView::hunkForeground(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0x79, 0xc0, 0xff) : QColor(0x05, 0x50, 0xae);
}

QLabel *DiffView::titleLabel() const
{
    return m_title;
}

QLabel *DiffView::attributesLabel() const
{
    return m_attributes;
}

QLabel *DiffView::hintLabel() const
{
    return m_hint;
}

QPlainTextEdit *DiffView::unifiedView() const
{
    return m_unified;
}

QPlainTextEdit *DiffView::leftView() const
{
    return m_left;
}

QPlainTextEdit *DiffView::rightView() const
{
    return m_right;
}

void DiffView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        render();
}

void DiffView::render()
{
    QStringList hints;
    if (m_hasChange && m_diffText.isEmpty()) {
        hints.append(m_contentWithheld ? tr("Content not shown (binary, too large, or not readable by you)")
                                       : tr("No content change"));
    }
    if (!m_diffText.isEmpty())
        hints.append(parseUnifiedDiff(m_diffText).errors);
    m_hint->setText(hints.join(QLatin1Char('\n')));
    m_hint->setVisible(!hints.isEmpty());
    m_tabs->setVisible(!m_diffText.isEmpty());
    renderUnified();
    renderSideBySide();
}

void DiffView::renderUnified()
{
    m_unified->clear();
    if (m_diffText.isEmpty())
        return;
    const UnifiedDiff diff = parseUnifiedDiff(m_diffText);
    const QPalette palette = m_unified->palette();
    LineWriter writer(m_unified->document());
    if (!diff.oldName.isEmpty() || !diff.newName.isEmpty()) {
        writer.add(QStringLiteral("--- ") + diff.oldName, {}, hunkForeground(palette));
        writer.add(QStringLiteral("+++ ") + diff.newName, {}, hunkForeground(palette));
    }
    const QColor dim = palette.color(QPalette::PlaceholderText);
    for (const DiffHunk &hunk : diff.hunks) {
        writer.add(hunk.header, {}, hunkForeground(palette));
        for (const DiffLine &line : hunk.lines) {
            writer.add(prefixOf(line.kind) + line.text, backgroundOf(line.kind, palette));
            if (line.noNewlineAtEnd)
                writer.add(tr("\\ No newline at end of file"), {}, dim);
        }
    }
    m_unified->moveCursor(QTextCursor::Start);
}

void DiffView::renderSideBySide()
{
    m_left->clear();
    m_right->clear();
    if (m_diffText.isEmpty())
        return;
    const QList<SideBySideRow> rows = sideBySideRows(parseUnifiedDiff(m_diffText));
    int largest = 0;
    for (const SideBySideRow &row : rows)
        largest = std::max({largest, row.left.line, row.right.line});
    const int width = static_cast<int>(QString::number(largest).size());
    const QPalette palette = m_left->palette();
    const QString noNewline = tr("  (no newline at end of file)");
    const auto cellText = [width, &noNewline](const SideBySideCell &cell) {
        if (cell.isFiller())
            return QString();
        QString text = QStringLiteral("%1  %2").arg(cell.line, width).arg(cell.text);
        if (cell.noNewlineAtEnd)
            text += noNewline;
        return text;
    };
    LineWriter left(m_left->document());
    LineWriter right(m_right->document());
    for (const SideBySideRow &row : rows) {
        if (row.isHunkHeader) {
            left.add(row.header, {}, hunkForeground(palette));
            right.add(row.header, {}, hunkForeground(palette));
            continue;
        }
        const auto background = [&palette](const SideBySideCell &cell) {
            return cell.isFiller() ? fillerBackground(palette) : backgroundOf(cell.kind, palette);
        };
        left.add(cellText(row.left), background(row.left));
        right.add(cellText(row.right), background(row.right));
    }
    m_left->moveCursor(QTextCursor::Start);
    m_right->moveCursor(QTextCursor::Start);
}

} // namespace ccm::designer
