// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace ccm::designer {

/// One line of a hunk. Line numbers count from 1; a line that is not on a side has 0 there.
struct DiffLine {
    enum class Kind { Context, Added, Removed };
    Kind kind = Kind::Context;
    QString text;
    int oldLine = 0;
    int newLine = 0;
    /// The line was followed by "\ No newline at end of file".
    bool noNewlineAtEnd = false;
};

/// A hunk as announced by its "@@ -oldStart,oldCount +newStart,newCount @@ section" header.
struct DiffHunk {
    int oldStart = 0;
    int oldCount = 0;
    int newStart = 0;
    int newCount = 0;
    QString header;
    QList<DiffLine> lines;
};

/// A parsed unified diff of one file. Whatever could not be understood is skipped and described in
/// `errors` with its line number, so a damaged diff still shows its readable hunks.
struct UnifiedDiff {
    QString oldName;
    QString newName;
    QList<DiffHunk> hunks;
    QStringList errors;
};

/// Parses the unified diff of one file ("---"/"+++" headers optional). Never fails: a malformed
/// hunk header skips the lines up to the next hunk, a hunk with fewer lines than its header
/// announces keeps the lines it has, and both are reported in UnifiedDiff::errors.
[[nodiscard]] UnifiedDiff parseUnifiedDiff(const QString &text);

/// One side of a side-by-side row; `line` is 0 on a filler.
struct SideBySideCell {
    int line = 0;
    QString text;
    DiffLine::Kind kind = DiffLine::Kind::Context;
    bool noNewlineAtEnd = false;

    [[nodiscard]] bool isFiller() const { return line == 0; }
};

/// A row of the side-by-side view: a hunk header spanning both sides, or a pair of cells.
struct SideBySideRow {
    bool isHunkHeader = false;
    QString header;
    SideBySideCell left;
    SideBySideCell right;
};

/// Lays out `diff` in two columns, old on the left and new on the right: context lines face each
/// other, a run of removed lines faces the run of added lines that follows it line by line, and the
/// shorter side of a run is padded with fillers so the unchanged lines after it stay aligned.
[[nodiscard]] QList<SideBySideRow> sideBySideRows(const UnifiedDiff &diff);

} // namespace ccm::designer
