// SPDX-License-Identifier: Apache-2.0
#include "protocol/line_reader.h"

namespace ccm::protocol {

LineReader::LineReader(std::size_t maxLine)
    : m_maxLine(maxLine)
{
}

void LineReader::feed(std::string_view bytes, std::vector<Frame> &frames)
{
    while (!bytes.empty() && !m_lost) {
        const std::size_t newline = bytes.find('\n');
        if (m_discarding) {
            const std::size_t dropped = newline == std::string_view::npos ? bytes.size() : newline;
            m_discarded += dropped;
            if (m_discarded > m_maxLine) {
                m_lost = true;
                m_buffer.clear();
                frames.push_back({Frame::Kind::Lost, {}});
                return;
            }
            if (newline == std::string_view::npos)
                return;
            m_discarding = false;
            m_discarded = 0;
            bytes.remove_prefix(newline + 1);
            continue;
        }
        const std::size_t take = newline == std::string_view::npos ? bytes.size() : newline;
        if (m_buffer.size() + take > m_maxLine) {
            // The line is over the limit whether or not its end is here: report it once, then
            // drop the rest of it as it arrives.
            frames.push_back({Frame::Kind::TooLarge, {}});
            m_buffer.clear();
            m_buffer.shrink_to_fit();
            if (newline == std::string_view::npos) {
                m_discarding = true;
                m_discarded = 0;
                return;
            }
            bytes.remove_prefix(newline + 1);
            continue;
        }
        m_buffer.append(bytes.substr(0, take));
        if (newline == std::string_view::npos)
            return;
        frames.push_back({Frame::Kind::Line, std::move(m_buffer)});
        m_buffer.clear();
        bytes.remove_prefix(newline + 1);
    }
}

} // namespace ccm::protocol
