// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>
#include <vector>

namespace ccm {

/// Records, while a template renders, which template line produced each line of the output, so
/// that an editor can link rendered text back to its source. Renderers take one as an optional
/// sink and pay nothing without it.
class OutputLineMap {
public:
    /// How appended output relates to the template text.
    enum class Origin {
        Verbatim, ///< copied from the template: each newline in it is a newline of the template too
        Action, ///< produced by an action: every line it starts belongs to the action's line
    };

    /// `text` was appended to the output; its first byte comes from template line `line` (1-based).
    void append(std::string_view text, int line, Origin origin);

    /// Element i is the template line that produced output line i + 1. A final newline does not
    /// start another line.
    [[nodiscard]] const std::vector<int> &lines() const { return m_lines; }

private:
    std::vector<int> m_lines;
    bool m_atLineStart = true;
};

} // namespace ccm
