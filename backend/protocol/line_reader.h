// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "protocol/protocol.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::protocol {

/// What the framing found in the bytes of a connection.
struct Frame {
    enum class Kind {
        /// A complete line, newline removed.
        Line,
        /// A line longer than the limit; its bytes are being dropped up to the next newline.
        TooLarge,
        /// No newline came within another limit's worth of bytes after a line that was too
        /// large: the message boundary is lost and the connection must be closed.
        Lost,
    };
    Kind kind = Kind::Line;
    std::string text;
};

/// Splits a byte stream into newline-terminated lines of at most `maxLine` bytes. Memory stays
/// bounded by about `maxLine` plus one read, whatever the peer sends.
class LineReader {
public:
    explicit LineReader(std::size_t maxLine = kMaxLineBytes);

    /// Takes the next bytes read and appends what they complete to `frames`. After a Lost frame
    /// every further byte is ignored.
    void feed(std::string_view bytes, std::vector<Frame> &frames);

    /// Bytes of an unfinished line held.
    [[nodiscard]] std::size_t pending() const { return m_buffer.size(); }

private:
    std::size_t m_maxLine;
    std::string m_buffer;
    bool m_discarding = false;
    bool m_lost = false;
    std::size_t m_discarded = 0;
};

} // namespace ccm::protocol
