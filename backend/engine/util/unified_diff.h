// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace ccm {

/// The difference between two texts, line by line, as a unified diff in the format of GNU
/// `diff -u --label oldLabel --label newLabel`: a `---`/`+++` header, then `@@ -l,s +l,s @@` hunks with
/// `context` unchanged lines around each change, and `\ No newline at end of file` after a last line
/// that lacks one. Returns an empty string when the texts are equal.
///
/// Lines are matched with Myers' O(ND) algorithm, so the diff is minimal. When the texts differ in
/// so many lines that this would be slow (thousands of changed lines in large files), the differing
/// middle part is shown as removed and added as a whole instead; the diff is still correct.
std::string unifiedDiff(std::string_view oldText, std::string_view newText, std::string_view oldLabel,
    std::string_view newLabel, int context = 3);

/// Whether data looks like text that a diff can show: no NUL byte and well-formed UTF-8.
bool isProbablyText(std::string_view data);

} // namespace ccm
