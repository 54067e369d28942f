// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/incremental_highlighter.h"

#include <QElapsedTimer>
#include <QTextBlock>
#include <QTextDocument>

#include <algorithm>

namespace ccm::designer {

namespace {

/// The formats the input method shows in `layout` while a word is composed: kept through colouring.
IncrementalHighlighter::Formats preeditFormats(const QTextLayout &layout)
{
    IncrementalHighlighter::Formats kept;
    if (layout.preeditAreaText().isEmpty())
        return kept;
    const int start = layout.preeditAreaPosition();
    const int end = start + static_cast<int>(layout.preeditAreaText().size());
    for (const QTextLayout::FormatRange &range : layout.formats()) {
        if (range.start >= start && range.start + range.length <= end)
            kept.append(range);
    }
    return kept;
}

} // namespace

IncrementalHighlighter::IncrementalHighlighter(QTextDocument *document, LineRule rule, QObject *parent)
    : QObject(parent)
    , m_document(document)
    , m_rule(std::move(rule))
    , m_blockCount(document->blockCount())
{
    // A document announces its changes only once it has a layout.
    document->documentLayout();
    m_slice.setSingleShot(true);
    m_slice.setInterval(0);
    connect(&m_slice, &QTimer::timeout, this, [this] { runSlice(); });
    connect(document, &QTextDocument::contentsChange, this,
        [this](int from, int removed, int added) { contentsChange(from, removed, added); });
    rehighlight();
}

void IncrementalHighlighter::highlightThrough(int blockNumber)
{
    if (blockNumber >= m_coloured) {
        colourForward(blockNumber);
        flushDirty();
    }
}

void IncrementalHighlighter::rehighlight(int blockNumber)
{
    m_coloured = 0;
    m_blockCount = m_document->blockCount();
    highlightThrough(blockNumber);
    scheduleRest();
}

bool IncrementalHighlighter::isComplete() const
{
    return m_coloured >= m_document->blockCount();
}

void IncrementalHighlighter::contentsChange(int from, int removed, int added)
{
    Q_UNUSED(removed);
    if (m_applying)
        return;
    const int delta = m_document->blockCount() - m_blockCount;
    m_blockCount = m_document->blockCount();
    QTextBlock block = m_document->findBlock(from);
    QTextBlock last = m_document->findBlock(from + added);
    if (!block.isValid())
        block = m_document->lastBlock();
    if (!last.isValid())
        last = m_document->lastBlock();
    const int first = block.blockNumber();
    const int lastChanged = last.blockNumber();
    if (first >= m_coloured) {
        scheduleRest(); // not coloured yet: the slices get there
        return;
    }
    // The coloured lines after the change keep their colours as long as the state they start in
    // does not change; when the change swallowed the end of the coloured lines, none after it are.
    const int oldLastChanged = lastChanged - delta;
    const int colouredAfter = m_coloured > oldLastChanged + 1 ? m_coloured + delta : lastChanged + 1;
    const int bound = first + kEagerLines;
    int number = first;
    bool stateChanged = true;
    while (block.isValid() && number < bound) {
        if (number > lastChanged && (!stateChanged || number >= colouredAfter))
            break;
        stateChanged = colourBlock(block);
        block = block.next();
        ++number;
    }
    const bool stable = number > lastChanged && !stateChanged && number < colouredAfter;
    m_coloured = stable ? colouredAfter : number;
    flushDirty();
    scheduleRest();
}

bool IncrementalHighlighter::colourBlock(QTextBlock block)
{
    const QTextBlock previous = block.previous();
    Formats formats;
    const int state = m_rule(block.text(), previous.isValid() ? previous.userState() : -1, formats);
    const bool stateChanged = block.userState() != state;
    block.setUserState(state);
    QTextLayout *layout = block.layout();
    formats += preeditFormats(*layout);
    if (layout->formats() != formats) {
        layout->setFormats(formats);
        const int end = block.position() + block.length();
        m_dirtyFrom = m_dirtyFrom < 0 ? block.position() : std::min(m_dirtyFrom, block.position());
        m_dirtyTo = std::max(m_dirtyTo, end);
    }
    return stateChanged;
}

void IncrementalHighlighter::colourForward(int last, qint64 deadline)
{
    QElapsedTimer clock;
    clock.start();
    QTextBlock block = m_document->findBlockByNumber(m_coloured);
    while (block.isValid() && m_coloured <= last) {
        colourBlock(block);
        block = block.next();
        ++m_coloured;
        if (deadline >= 0 && (m_coloured & 31) == 0 && clock.elapsed() >= deadline)
            break;
    }
}

void IncrementalHighlighter::runSlice()
{
    colourForward(m_document->blockCount(), kSliceMilliseconds);
    flushDirty();
    if (isComplete())
        emit completed();
    else
        scheduleRest();
}

void IncrementalHighlighter::scheduleRest()
{
    if (!isComplete() && !m_slice.isActive())
        m_slice.start();
}

void IncrementalHighlighter::flushDirty()
{
    if (m_dirtyFrom < 0)
        return;
    m_applying = true;
    m_document->markContentsDirty(m_dirtyFrom, m_dirtyTo - m_dirtyFrom);
    m_applying = false;
    m_dirtyFrom = -1;
    m_dirtyTo = -1;
}

} // namespace ccm::designer
