// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QObject>
#include <QTextLayout>
#include <QTimer>

#include <functional>

class QTextBlock;
class QTextDocument;

namespace ccm::designer {

/// Colours a document line by line, as QSyntaxHighlighter does, but not all of it at once. A
/// change colours its own lines, and the lines after it whose state it changes, up to a bound; the
/// view asks for the lines it is about to show (highlightThrough); what remains is coloured in
/// slices of a few milliseconds while the event loop is idle. A document of 40,000 lines therefore
/// opens without waiting for its last line to be coloured, and a keystroke that changes the state
/// of every line after it costs the lines in view, not the whole document.
class IncrementalHighlighter : public QObject {
    Q_OBJECT

public:
    /// Stretches of one line and their formats, in order and not overlapping.
    using Formats = QList<QTextLayout::FormatRange>;
    /// Colours `line` (without its line break) into `formats`, given the state the line before
    /// ended in (-1 before the first line); returns the state this line ends in.
    using LineRule = std::function<int(const QString &line, int previousState, Formats &formats)>;

    /// Lines a change colours at once, at most, from the first line it touched.
    static constexpr int kEagerLines = 400;
    /// How long one idle slice colours before it lets the event loop run.
    static constexpr int kSliceMilliseconds = 4;

    IncrementalHighlighter(QTextDocument *document, LineRule rule, QObject *parent = nullptr);

    /// Colours every line up to `blockNumber` (from 0) that is not coloured yet, now.
    void highlightThrough(int blockNumber);
    /// Colours the whole document again, for a rule that changed (a new palette): the lines up to
    /// `blockNumber` now, the rest in idle slices.
    void rehighlight(int blockNumber = kEagerLines);

    /// Whether every line is coloured as the rule says for the current text.
    [[nodiscard]] bool isComplete() const;
    /// The lines from the first that are coloured for the current text.
    [[nodiscard]] int colouredBlocks() const { return m_coloured; }

signals:
    /// The last line got its colours: the whole document is coloured.
    void completed();

private:
    void contentsChange(int from, int removed, int added);
    /// Colours `block` from the state of the one before; returns whether its own state changed.
    bool colourBlock(QTextBlock block);
    /// Colours from the first uncoloured line through `last`, or until `deadline` ms have passed.
    void colourForward(int last, qint64 deadline = -1);
    void runSlice();
    void scheduleRest();
    /// Tells the layout which characters changed format.
    void flushDirty();

    QTextDocument *m_document;
    LineRule m_rule;
    QTimer m_slice;
    int m_coloured = 0;
    int m_blockCount = 1;
    int m_dirtyFrom = -1;
    int m_dirtyTo = -1;
    bool m_applying = false;
};

} // namespace ccm::designer
