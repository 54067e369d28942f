// SPDX-License-Identifier: Apache-2.0
#include "engine/util/unified_diff.h"

#include "base/utf8.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ccm {

namespace {

using Index = std::ptrdiff_t;

// Myers' algorithm costs about (lines x edit steps); bounding the product keeps a diff of two large,
// thoroughly different files to a fraction of a second.
constexpr Index workBudget = 50'000'000;
constexpr Index minimumEditSteps = 256;

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end + 1 - start));
        start = end + 1;
    }
    return lines;
}

/// One text's lines as numbers (equal lines, terminator included, share a number) and which of
/// them are outside the common subsequence. Lines -1 and size() read as unchanged, so that walks
/// over the marks need no bounds checks.
class Side {
public:
    explicit Side(std::vector<int> ids)
        : m_ids(std::move(ids))
        , m_marks(m_ids.size() + 2, 0)
    {
    }

    [[nodiscard]] Index size() const { return static_cast<Index>(m_ids.size()); }
    [[nodiscard]] int id(Index line) const { return m_ids[static_cast<std::size_t>(line)]; }
    [[nodiscard]] bool changed(Index line) const { return m_marks[static_cast<std::size_t>(line + 1)] != 0; }
    void mark(Index line, bool changed) { m_marks[static_cast<std::size_t>(line + 1)] = changed ? 1 : 0; }
    void markRange(Index from, Index to)
    {
        for (Index line = from; line < to; ++line)
            mark(line, true);
    }

private:
    std::vector<int> m_ids;
    std::vector<char> m_marks;
};

/// Marks the lines outside a shortest edit script using Myers' divide-and-conquer search for the
/// middle snake, which needs memory linear in the number of lines.
class LineMatcher {
public:
    LineMatcher(Side &oldSide, Side &newSide)
        : m_old(oldSide)
        , m_new(newSide)
    {
    }

    /// Marks the changed lines of the ranges; false, with nothing marked, when the ranges need more
    /// than about 2 * maxSteps edits.
    bool compare(Index oldFrom, Index oldTo, Index newFrom, Index newTo, Index maxSteps)
    {
        while (oldFrom < oldTo && newFrom < newTo && m_old.id(oldFrom) == m_new.id(newFrom)) {
            ++oldFrom;
            ++newFrom;
        }
        while (oldFrom < oldTo && newFrom < newTo && m_old.id(oldTo - 1) == m_new.id(newTo - 1)) {
            --oldTo;
            --newTo;
        }
        if (oldFrom == oldTo || newFrom == newTo) {
            m_old.markRange(oldFrom, oldTo);
            m_new.markRange(newFrom, newTo);
            return true;
        }
        const auto middle = split(oldFrom, oldTo, newFrom, newTo, maxSteps);
        if (!middle)
            return false;
        const auto [oldMiddle, newMiddle] = *middle;
        // Both halves hold fewer edits than the whole, so this recursion ends; its depth grows with
        // the logarithm of the edit count because the split is in the middle of the edit script.
        if ((oldMiddle == oldFrom && newMiddle == newFrom) || (oldMiddle == oldTo && newMiddle == newTo)) {
            m_old.markRange(oldFrom, oldTo);
            m_new.markRange(newFrom, newTo);
            return true;
        }
        compareFully(oldFrom, oldMiddle, newFrom, newMiddle);
        compareFully(oldMiddle, oldTo, newMiddle, newTo);
        return true;
    }

private:
    void compareFully(Index oldFrom, Index oldTo, Index newFrom, Index newTo)
    {
        // A search without a bound on its steps always meets in the middle; marking everything is
        // only a guard that keeps the script valid.
        if (!compare(oldFrom, oldTo, newFrom, newTo, oldTo - oldFrom + newTo - newFrom)) {
            m_old.markRange(oldFrom, oldTo);
            m_new.markRange(newFrom, newTo);
        }
    }

    /// A point on a shortest edit script, found by running the greedy search from both ends until
    /// the two frontiers overlap on a diagonal; nullopt when that takes more than maxSteps rounds.
    std::optional<std::pair<Index, Index>> split(Index oldFrom, Index oldTo, Index newFrom, Index newTo, Index maxSteps)
    {
        const Index oldLength = oldTo - oldFrom;
        const Index newLength = newTo - newFrom;
        const Index steps = std::min((oldLength + newLength + 1) / 2, maxSteps);
        const Index offset = steps + 1;
        // forward[offset + k]: furthest old-line reached from the start on diagonal k (old - new);
        // backward[offset + k]: the same counted from the ends of both ranges.
        std::vector<Index> forward(static_cast<std::size_t>(2 * steps + 3), -1);
        std::vector<Index> backward(forward.size(), -1);
        const auto at = [&](std::vector<Index> &frontier, Index k) -> Index & {
            return frontier[static_cast<std::size_t>(offset + k)];
        };
        const auto inRange
            = [&](Index k) { return offset + k >= 0 && offset + k < static_cast<Index>(forward.size()); };
        at(forward, 1) = 0;
        at(backward, 1) = 0;
        const Index delta = oldLength - newLength;
        const bool oddDelta = (delta % 2) != 0;
        // Diagonals that ran off the grid are skipped in later rounds.
        Index forwardLow = 0, forwardHigh = 0, backwardLow = 0, backwardHigh = 0;
        for (Index d = 0; d <= steps; ++d) {
            for (Index k = -d + forwardLow; k <= d - forwardHigh; k += 2) {
                Index x = (k == -d || (k != d && at(forward, k - 1) < at(forward, k + 1))) ? at(forward, k + 1)
                                                                                           : at(forward, k - 1) + 1;
                Index y = x - k;
                while (x < oldLength && y < newLength && m_old.id(oldFrom + x) == m_new.id(newFrom + y)) {
                    ++x;
                    ++y;
                }
                at(forward, k) = x;
                if (x > oldLength) {
                    forwardHigh += 2;
                } else if (y > newLength) {
                    forwardLow += 2;
                } else if (oddDelta && inRange(delta - k) && at(backward, delta - k) != -1
                    && x >= oldLength - at(backward, delta - k)) {
                    return std::pair {oldFrom + x, newFrom + y};
                }
            }
            for (Index k = -d + backwardLow; k <= d - backwardHigh; k += 2) {
                Index x = (k == -d || (k != d && at(backward, k - 1) < at(backward, k + 1))) ? at(backward, k + 1)
                                                                                             : at(backward, k - 1) + 1;
                Index y = x - k;
                while (x < oldLength && y < newLength && m_old.id(oldTo - 1 - x) == m_new.id(newTo - 1 - y)) {
                    ++x;
                    ++y;
                }
                at(backward, k) = x;
                if (x > oldLength) {
                    backwardHigh += 2;
                } else if (y > newLength) {
                    backwardLow += 2;
                } else if (!oddDelta && inRange(delta - k) && at(forward, delta - k) != -1) {
                    const Index forwardX = at(forward, delta - k);
                    if (forwardX >= oldLength - x)
                        return std::pair {oldFrom + forwardX, newFrom + forwardX - (delta - k)};
                }
            }
        }
        return std::nullopt;
    }

    Side &m_old;
    Side &m_new;
};

/// Moves every run of changed lines of side as far down as equal lines allow, merging runs that
/// meet, and then back up to the lowest place where it still sits against changed lines of other.
/// GNU diff places changes the same way, so a line added to a block of equal lines shows as the
/// last one, and a replaced line stays next to its replacement.
void slideRuns(Side &side, const Side &other)
{
    // Unchanged lines pair up in order; pairedLine[u] is other's line paired with side's u-th
    // unchanged line, and other's end pairs with side's end.
    std::vector<Index> pairedLine;
    for (Index line = 0; line < other.size(); ++line) {
        if (!other.changed(line))
            pairedLine.push_back(line);
    }
    pairedLine.push_back(other.size());
    // Whether a run of side that follows u unchanged lines sits right before changed lines of other.
    const auto againstOther = [&](Index u) { return other.changed(pairedLine[static_cast<std::size_t>(u)] - 1); };

    const Index size = side.size();
    Index line = 0;
    Index unchangedBefore = 0;
    for (;;) {
        while (line < size && !side.changed(line)) {
            ++line;
            ++unchangedBefore;
        }
        if (line == size)
            return;
        Index start = line;
        Index end = line;
        while (side.changed(end))
            ++end;
        Index lowestAgainstOther = -1;
        Index length = 0;
        do {
            length = end - start;
            while (start > 0 && side.id(start - 1) == side.id(end - 1)) {
                side.mark(--start, true);
                side.mark(--end, false);
                --unchangedBefore;
                while (side.changed(start - 1))
                    --start;
            }
            lowestAgainstOther = againstOther(unchangedBefore) ? end : -1;
            while (end < size && side.id(start) == side.id(end)) {
                side.mark(start++, false);
                side.mark(end++, true);
                ++unchangedBefore;
                while (side.changed(end))
                    ++end;
                if (againstOther(unchangedBefore))
                    lowestAgainstOther = end;
            }
        } while (length != end - start);
        while (lowestAgainstOther != -1 && lowestAgainstOther < end) {
            side.mark(--start, true);
            side.mark(--end, false);
            --unchangedBefore;
        }
        line = end;
    }
}

/// Lines [oldFrom, oldTo) of the old text replaced by [newFrom, newTo) of the new one.
struct Change {
    Index oldFrom;
    Index oldTo;
    Index newFrom;
    Index newTo;
};

std::vector<Change> collectChanges(const Side &oldSide, const Side &newSide)
{
    std::vector<Change> changes;
    Index oldLine = 0;
    Index newLine = 0;
    while (oldLine < oldSide.size() || newLine < newSide.size()) {
        if (!oldSide.changed(oldLine) && !newSide.changed(newLine)) {
            ++oldLine;
            ++newLine;
            continue;
        }
        Change change {oldLine, oldLine, newLine, newLine};
        while (oldSide.changed(oldLine))
            ++oldLine;
        while (newSide.changed(newLine))
            ++newLine;
        change.oldTo = oldLine;
        change.newTo = newLine;
        changes.push_back(change);
    }
    return changes;
}

/// A hunk header range as GNU diff writes it: "start,count", "start" for one line, and for no
/// lines the number of the line before, which is what patch expects.
std::string range(Index from, Index to)
{
    if (to == from)
        return std::to_string(from) + ",0";
    if (to == from + 1)
        return std::to_string(from + 1);
    return std::to_string(from + 1) + "," + std::to_string(to - from);
}

void appendLine(std::string &out, char prefix, std::string_view line)
{
    out.push_back(prefix);
    out.append(line);
    if (line.empty() || line.back() != '\n')
        out.append("\n\\ No newline at end of file\n");
}

/// Appends the hunk of `changes`, which lie close enough to share one, with `around` unchanged
/// lines before, between and after them.
void appendHunk(std::string &out, std::span<const Change> changes, Index around,
    const std::vector<std::string_view> &oldLines, const std::vector<std::string_view> &newLines)
{
    const Change &first = changes.front();
    const Change &last = changes.back();
    const Index oldFrom = std::max<Index>(0, first.oldFrom - around);
    const Index newFrom = first.newFrom - (first.oldFrom - oldFrom);
    const Index oldEnd = std::min(static_cast<Index>(oldLines.size()), last.oldTo + around);
    const Index newEnd = last.newTo + (oldEnd - last.oldTo);
    out.append("@@ -").append(range(oldFrom, oldEnd)).append(" +").append(range(newFrom, newEnd)).append(" @@\n");
    Index oldLine = oldFrom;
    for (const Change &change : changes) {
        for (; oldLine < change.oldFrom; ++oldLine)
            appendLine(out, ' ', oldLines[static_cast<std::size_t>(oldLine)]);
        for (; oldLine < change.oldTo; ++oldLine)
            appendLine(out, '-', oldLines[static_cast<std::size_t>(oldLine)]);
        for (Index newLine = change.newFrom; newLine < change.newTo; ++newLine)
            appendLine(out, '+', newLines[static_cast<std::size_t>(newLine)]);
    }
    for (; oldLine < oldEnd; ++oldLine)
        appendLine(out, ' ', oldLines[static_cast<std::size_t>(oldLine)]);
}

} // namespace

std::string unifiedDiff(std::string_view oldText, std::string_view newText, std::string_view oldLabel,
    std::string_view newLabel, int context)
{
    if (oldText == newText)
        return {};
    const std::vector<std::string_view> oldLines = splitLines(oldText);
    const std::vector<std::string_view> newLines = splitLines(newText);
    std::unordered_map<std::string_view, int> ids;
    ids.reserve(oldLines.size() + newLines.size());
    const auto identify = [&](const std::vector<std::string_view> &lines) {
        std::vector<int> result;
        result.reserve(lines.size());
        for (const std::string_view line : lines)
            result.push_back(ids.emplace(line, static_cast<int>(ids.size())).first->second);
        return result;
    };
    Side oldSide(identify(oldLines));
    Side newSide(identify(newLines));

    Index prefix = 0;
    while (prefix < oldSide.size() && prefix < newSide.size() && oldSide.id(prefix) == newSide.id(prefix))
        ++prefix;
    Index suffix = 0;
    while (suffix < oldSide.size() - prefix && suffix < newSide.size() - prefix
        && oldSide.id(oldSide.size() - 1 - suffix) == newSide.id(newSide.size() - 1 - suffix))
        ++suffix;
    const Index oldTo = oldSide.size() - suffix;
    const Index newTo = newSide.size() - suffix;
    const Index lines = std::max<Index>(1, oldTo - prefix + newTo - prefix);
    LineMatcher matcher(oldSide, newSide);
    if (!matcher.compare(prefix, oldTo, prefix, newTo, std::max(minimumEditSteps, workBudget / lines))) {
        oldSide.markRange(prefix, oldTo);
        newSide.markRange(prefix, newTo);
    }
    slideRuns(oldSide, newSide);
    slideRuns(newSide, oldSide);
    const std::vector<Change> changes = collectChanges(oldSide, newSide);

    const Index around = std::max(0, context);
    std::string out;
    out.append("--- ").append(oldLabel).append("\n+++ ").append(newLabel).append("\n");
    for (std::size_t first = 0; first < changes.size();) {
        std::size_t last = first;
        while (last + 1 < changes.size() && changes[last + 1].oldFrom - changes[last].oldTo <= 2 * around)
            ++last;
        appendHunk(out, std::span(changes).subspan(first, last + 1 - first), around, oldLines, newLines);
        first = last + 1;
    }
    return out;
}

bool isProbablyText(std::string_view data)
{
    return data.find('\0') == std::string_view::npos && invalidUtf8Offset(data) == std::string_view::npos;
}

} // namespace ccm
