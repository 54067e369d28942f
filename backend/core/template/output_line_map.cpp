// SPDX-License-Identifier: Apache-2.0
#include "core/template/output_line_map.h"

namespace ccm {

void OutputLineMap::append(std::string_view text, int line, Origin origin)
{
    for (const char c : text) {
        if (m_atLineStart) {
            m_lines.push_back(line);
            m_atLineStart = false;
        }
        if (c == '\n') {
            m_atLineStart = true;
            if (origin == Origin::Verbatim)
                ++line;
        }
    }
}

} // namespace ccm
