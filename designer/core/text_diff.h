// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace ccm::designer {

/// The difference between two texts line by line as a unified diff that parseUnifiedDiff() reads:
/// a `---`/`+++` header with the labels, then `@@ -l,s +l,s @@` hunks with `context` unchanged
/// lines around each change, and `\ No newline at end of file` after a last line without one.
/// Empty when the texts are equal. Lines are matched by their longest common subsequence; when the
/// part that differs is too large for that (over kMaxDiffCells line pairs), it is shown as removed
/// and added as a whole, which is still a correct diff.
[[nodiscard]] QString unifiedTextDiff(
    const QString &oldText, const QString &newText, const QString &oldLabel, const QString &newLabel, int context = 3);

/// The most line pairs compared to find the common lines of the differing middle of two texts.
inline constexpr qsizetype kMaxDiffCells = 4'000'000;

} // namespace ccm::designer
