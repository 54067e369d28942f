// SPDX-License-Identifier: Apache-2.0
#include "designer/core/unified_diff.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <algorithm>

namespace ccm::designer {

namespace {

// Long lines are cut in messages so one bad line cannot flood the view.
QString excerpt(const QString &line)
{
    constexpr int limit = 40;
    return line.size() <= limit ? line : line.left(limit) + QChar(0x2026);
}

// "--- a/name<TAB>2024-01-01 ..." names the file up to the tab that starts the optional timestamp.
QString headerName(const QString &line)
{
    const QString rest = line.mid(4);
    const qsizetype tab = rest.indexOf(QLatin1Char('\t'));
    return tab < 0 ? rest : rest.left(tab);
}

bool parseHunkHeader(const QString &line, DiffHunk &hunk)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$)"));
    const QRegularExpressionMatch match = pattern.match(line);
    if (!match.hasMatch())
        return false;
    const auto number = [&match](int group, int fallback, bool &ok) {
        const QString captured = match.captured(group);
        if (captured.isEmpty())
            return fallback;
        bool parsed = false;
        const int value = captured.toInt(&parsed);
        ok = ok && parsed;
        return value;
    };
    bool ok = true;
    hunk.oldStart = number(1, 0, ok);
    hunk.oldCount = number(2, 1, ok);
    hunk.newStart = number(3, 0, ok);
    hunk.newCount = number(4, 1, ok);
    hunk.header = line;
    return ok;
}

class Parser {
    Q_DECLARE_TR_FUNCTIONS(ccm::designer::UnifiedDiff)

public:
    UnifiedDiff parse(const QString &text)
    {
        QStringList lines = text.split(QLatin1Char('\n'));
        if (!lines.isEmpty() && lines.last().isEmpty())
            lines.removeLast();
        for (int i = 0; i < lines.size(); ++i) {
            m_lineNumber = i + 1;
            if (!inHunk() || !takeHunkLine(lines.at(i)))
                takeOutsideLine(lines.at(i));
        }
        finishHunk();
        return std::move(m_diff);
    }

private:
    [[nodiscard]] bool inHunk() const { return m_remainingOld > 0 || m_remainingNew > 0; }

    void error(const QString &message) { m_diff.errors.append(tr("line %1: %2").arg(m_lineNumber).arg(message)); }

    // False when the line cannot belong to the open hunk, which then ends and the line is read as
    // text outside a hunk.
    bool takeHunkLine(const QString &line)
    {
        if (line.startsWith(QLatin1Char('\\'))) {
            markNoNewline();
            return true;
        }
        DiffHunk &hunk = m_diff.hunks.last();
        DiffLine diffLine;
        diffLine.text = line.mid(1);
        // Some tools strip the space that marks an empty context line.
        const QChar marker = line.isEmpty() ? QLatin1Char(' ') : line.at(0);
        if (marker == QLatin1Char(' ')) {
            if (m_remainingOld == 0 || m_remainingNew == 0) {
                error(tr("more context lines than the hunk header announces"));
                finishHunk();
                return false;
            }
            diffLine.oldLine = m_oldLine++;
            diffLine.newLine = m_newLine++;
            --m_remainingOld;
            --m_remainingNew;
        } else if (marker == QLatin1Char('-')) {
            if (m_remainingOld == 0) {
                error(tr("more removed lines than the hunk header announces"));
                finishHunk();
                return false;
            }
            diffLine.kind = DiffLine::Kind::Removed;
            diffLine.oldLine = m_oldLine++;
            --m_remainingOld;
        } else if (marker == QLatin1Char('+')) {
            if (m_remainingNew == 0) {
                error(tr("more added lines than the hunk header announces"));
                finishHunk();
                return false;
            }
            diffLine.kind = DiffLine::Kind::Added;
            diffLine.newLine = m_newLine++;
            --m_remainingNew;
        } else {
            finishHunk();
            return false;
        }
        hunk.lines.append(diffLine);
        m_canMarkNoNewline = true;
        return true;
    }

    void takeOutsideLine(const QString &line)
    {
        if (line.startsWith(QLatin1String("@@"))) {
            m_canMarkNoNewline = false;
            DiffHunk hunk;
            if (!parseHunkHeader(line, hunk)) {
                error(tr("not a hunk header: \"%1\"").arg(excerpt(line)));
                m_skipping = true;
                return;
            }
            m_skipping = false;
            m_oldLine = hunk.oldStart;
            m_newLine = hunk.newStart;
            m_remainingOld = hunk.oldCount;
            m_remainingNew = hunk.newCount;
            m_hunkLine = m_lineNumber;
            m_diff.hunks.append(hunk);
            return;
        }
        if (line.startsWith(QLatin1Char('\\'))) {
            markNoNewline();
            return;
        }
        m_canMarkNoNewline = false;
        if (m_skipping)
            return;
        if (m_diff.hunks.isEmpty()) {
            // Before the first hunk: the file names, and "diff"/"index" lines that say nothing here.
            if (line.startsWith(QLatin1String("--- ")))
                m_diff.oldName = headerName(line);
            else if (line.startsWith(QLatin1String("+++ ")))
                m_diff.newName = headerName(line);
            return;
        }
        error(tr("text outside a hunk: \"%1\"").arg(excerpt(line)));
    }

    void markNoNewline()
    {
        if (!m_canMarkNoNewline) {
            error(tr("\"\\ No newline at end of file\" without a line before it"));
            return;
        }
        m_diff.hunks.last().lines.last().noNewlineAtEnd = true;
        m_canMarkNoNewline = false;
    }

    void finishHunk()
    {
        if (inHunk()) {
            m_diff.errors.append(tr("line %1: the hunk that starts there is missing %2 old and %3 new lines")
                                     .arg(m_hunkLine)
                                     .arg(m_remainingOld)
                                     .arg(m_remainingNew));
        }
        m_remainingOld = 0;
        m_remainingNew = 0;
    }

    UnifiedDiff m_diff;
    int m_lineNumber = 0;
    int m_hunkLine = 0;
    int m_oldLine = 0;
    int m_newLine = 0;
    int m_remainingOld = 0;
    int m_remainingNew = 0;
    bool m_canMarkNoNewline = false;
    bool m_skipping = false;
};

SideBySideCell cellOf(const DiffLine &line, bool left)
{
    return SideBySideCell {left ? line.oldLine : line.newLine, line.text, line.kind, line.noNewlineAtEnd};
}

} // namespace

UnifiedDiff parseUnifiedDiff(const QString &text)
{
    return Parser().parse(text);
}

QList<SideBySideRow> sideBySideRows(const UnifiedDiff &diff)
{
    QList<SideBySideRow> rows;
    QList<const DiffLine *> removed;
    QList<const DiffLine *> added;
    const auto flush = [&] {
        const qsizetype count = std::max(removed.size(), added.size());
        for (qsizetype i = 0; i < count; ++i) {
            SideBySideRow row;
            if (i < removed.size())
                row.left = cellOf(*removed.at(i), true);
            if (i < added.size())
                row.right = cellOf(*added.at(i), false);
            rows.append(row);
        }
        removed.clear();
        added.clear();
    };
    for (const DiffHunk &hunk : diff.hunks) {
        SideBySideRow header;
        header.isHunkHeader = true;
        header.header = hunk.header;
        rows.append(header);
        for (const DiffLine &line : hunk.lines) {
            switch (line.kind) {
            case DiffLine::Kind::Removed:
                if (!added.isEmpty())
                    flush();
                removed.append(&line);
                break;
            case DiffLine::Kind::Added:
                added.append(&line);
                break;
            case DiffLine::Kind::Context:
                flush();
                rows.append(SideBySideRow {false, {}, cellOf(line, true), cellOf(line, false)});
                break;
            }
        }
        flush();
    }
    return rows;
}

} // namespace ccm::designer
