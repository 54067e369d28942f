// SPDX-License-Identifier: Apache-2.0
#include "designer/core/text_diff.h"

#include <QList>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace ccm::designer {
namespace {

/// A text's lines; the last one remembers whether a newline ended it.
struct Lines {
    QStringList text;
    bool lastHasNewline = true;

    explicit Lines(const QString &whole)
    {
        if (whole.isEmpty())
            return;
        text = whole.split(QLatin1Char('\n'));
        if (text.last().isEmpty())
            text.removeLast();
        else
            lastHasNewline = false;
    }

    /// Line `i` with its ending, so "x" at the end without a newline differs from "x\n".
    [[nodiscard]] bool same(qsizetype i, const Lines &other, qsizetype j) const
    {
        return text[i] == other.text[j] && endsLine(i) == other.endsLine(j);
    }
    [[nodiscard]] bool endsLine(qsizetype i) const { return lastHasNewline || i + 1 < text.size(); }
};

struct Step {
    enum class Kind { Same, Removed, Added };
    Kind kind;
    qsizetype oldLine; ///< index into the old lines (Same, Removed)
    qsizetype newLine; ///< index into the new lines (Same, Added)
};

/// The steps from old to new over the middle [begin, oldEnd) × [begin, newEnd) by their longest
/// common subsequence, or all removed then all added when that middle is too large.
void middleSteps(const Lines &oldLines, const Lines &newLines, qsizetype oldBegin, qsizetype oldEnd, qsizetype newBegin,
    qsizetype newEnd, std::vector<Step> &steps)
{
    const qsizetype rows = oldEnd - oldBegin;
    const qsizetype columns = newEnd - newBegin;
    if (rows * columns > kMaxDiffCells) {
        for (qsizetype i = oldBegin; i < oldEnd; ++i)
            steps.push_back({Step::Kind::Removed, i, newBegin});
        for (qsizetype j = newBegin; j < newEnd; ++j)
            steps.push_back({Step::Kind::Added, oldEnd, j});
        return;
    }
    // common[i][j]: the length of the longest common subsequence of old[i..] and new[j..].
    std::vector<int> common(static_cast<size_t>((rows + 1) * (columns + 1)), 0);
    const auto at = [columns](qsizetype i, qsizetype j) { return static_cast<size_t>(i * (columns + 1) + j); };
    for (qsizetype i = rows - 1; i >= 0; --i) {
        for (qsizetype j = columns - 1; j >= 0; --j) {
            common[at(i, j)] = oldLines.same(oldBegin + i, newLines, newBegin + j)
                ? common[at(i + 1, j + 1)] + 1
                : std::max(common[at(i + 1, j)], common[at(i, j + 1)]);
        }
    }
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < rows || j < columns) {
        if (i < rows && j < columns && oldLines.same(oldBegin + i, newLines, newBegin + j)) {
            steps.push_back({Step::Kind::Same, oldBegin + i++, newBegin + j++});
        } else if (i < rows && (j == columns || common[at(i + 1, j)] >= common[at(i, j + 1)])) {
            // Removals first within a change, as diff -u writes them.
            steps.push_back({Step::Kind::Removed, oldBegin + i++, newBegin + j});
        } else {
            steps.push_back({Step::Kind::Added, oldBegin + i, newBegin + j++});
        }
    }
}

std::vector<Step> stepsOf(const Lines &oldLines, const Lines &newLines)
{
    const qsizetype oldCount = oldLines.text.size();
    const qsizetype newCount = newLines.text.size();
    qsizetype prefix = 0;
    while (prefix < oldCount && prefix < newCount && oldLines.same(prefix, newLines, prefix))
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < oldCount - prefix && suffix < newCount - prefix
        && oldLines.same(oldCount - 1 - suffix, newLines, newCount - 1 - suffix))
        ++suffix;
    std::vector<Step> steps;
    for (qsizetype k = 0; k < prefix; ++k)
        steps.push_back({Step::Kind::Same, k, k});
    middleSteps(oldLines, newLines, prefix, oldCount - suffix, prefix, newCount - suffix, steps);
    for (qsizetype k = suffix; k > 0; --k)
        steps.push_back({Step::Kind::Same, oldCount - k, newCount - k});
    return steps;
}

QString hunkRange(qsizetype start, qsizetype count)
{
    // diff -u names the line before an empty range.
    const qsizetype first = count == 0 ? start : start + 1;
    return count == 1 ? QString::number(first) : QStringLiteral("%1,%2").arg(first).arg(count);
}

QString hunkText(const std::vector<Step> &steps, size_t begin, size_t end, const Lines &oldLines, const Lines &newLines)
{
    qsizetype oldCount = 0;
    qsizetype newCount = 0;
    QString body;
    for (size_t k = begin; k < end; ++k) {
        const Step &step = steps[k];
        const bool fromOld = step.kind != Step::Kind::Added;
        const Lines &lines = fromOld ? oldLines : newLines;
        const qsizetype line = fromOld ? step.oldLine : step.newLine;
        const QChar prefix = step.kind == Step::Kind::Same
            ? QLatin1Char(' ')
            : (step.kind == Step::Kind::Removed ? QLatin1Char('-') : QLatin1Char('+'));
        body += prefix + lines.text[line] + QLatin1Char('\n');
        if (!lines.endsLine(line))
            body += QStringLiteral("\\ No newline at end of file\n");
        oldCount += step.kind != Step::Kind::Added ? 1 : 0;
        newCount += step.kind != Step::Kind::Removed ? 1 : 0;
    }
    const Step &first = steps[begin];
    return QStringLiteral("@@ -%1 +%2 @@\n").arg(hunkRange(first.oldLine, oldCount), hunkRange(first.newLine, newCount))
        + body;
}

} // namespace

QString unifiedTextDiff(
    const QString &oldText, const QString &newText, const QString &oldLabel, const QString &newLabel, int context)
{
    const Lines oldLines(oldText);
    const Lines newLines(newText);
    const std::vector<Step> steps = stepsOf(oldLines, newLines);
    const auto changed = [&](size_t k) { return steps[k].kind != Step::Kind::Same; };
    QString out;
    const size_t gap = static_cast<size_t>(std::max(context, 0));
    size_t k = 0;
    while (k < steps.size()) {
        if (!changed(k)) {
            ++k;
            continue;
        }
        const size_t begin = k > gap ? k - gap : 0;
        // A hunk goes on while the next change is within two contexts of the last one.
        size_t last = k;
        for (size_t next = k + 1; next < steps.size() && next <= last + 2 * gap + 1; ++next) {
            if (changed(next))
                last = next;
        }
        const size_t end = std::min(steps.size(), last + gap + 1);
        out += hunkText(steps, begin, end, oldLines, newLines);
        k = end;
    }
    if (out.isEmpty())
        return {};
    return QStringLiteral("--- %1\n+++ %2\n").arg(oldLabel, newLabel) + out;
}

} // namespace ccm::designer
