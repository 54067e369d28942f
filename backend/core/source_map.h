// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccm {

/// Escapes one reference token of a JSON Pointer (RFC 6901): "~" -> "~0", "/" -> "~1".
std::string escapePointerToken(std::string_view token);

/// base + "/" + escaped token.
std::string appendPointer(std::string_view base, std::string_view token);
std::string appendPointer(std::string_view base, std::size_t index);

/// The unescaped reference tokens of a JSON Pointer: "/a~1b/0" -> {"a/b", "0"}; "" -> {}.
std::vector<std::string> splitPointer(std::string_view pointer);

/// Where a node sits in the text: its key (for map members) and its value.
struct NodeLocation {
    SourcePosition key;
    SourcePosition value;
};

/// Positions of every node of a document, keyed by JSON Pointer.
class SourceMap
{
public:
    void add(std::string pointer, NodeLocation location);

    /// Position of the value at pointer, or of the nearest enclosing node that has one.
    [[nodiscard]] SourcePosition valueAt(std::string_view pointer) const;
    /// Position of the key of the map member at pointer (its value for list items), or of the
    /// nearest enclosing node.
    [[nodiscard]] SourcePosition keyAt(std::string_view pointer) const;

    [[nodiscard]] bool contains(std::string_view pointer) const { return m_locations.contains(std::string(pointer)); }
    [[nodiscard]] std::size_t size() const { return m_locations.size(); }

private:
    const NodeLocation *nearest(std::string_view pointer) const;

    std::unordered_map<std::string, NodeLocation> m_locations;
};

/// The start of every line of a text, to turn byte offsets into positions. The text itself is not
/// kept.
class LineIndex
{
public:
    /// The index of an empty text.
    LineIndex()
        : LineIndex(std::string_view())
    {
    }
    explicit LineIndex(std::string_view text);

    /// The 1-based line and column (in bytes) of `offset`; an offset past the end counts on from
    /// the last line.
    [[nodiscard]] SourcePosition at(std::size_t offset) const;

private:
    std::vector<std::size_t> m_lineStarts;
};

/// "FILE:LINE:COL", or "LINE:COL" without a file name, or "FILE" when the position is unknown:
/// the prefix of messages about a place in a file.
std::string describeLocation(std::string_view fileName, SourcePosition position);

/// Where column `column` (1-based, in the scalar's value) of the scalar that starts at `start`
/// sits in `text`: past an opening quote for quoted scalars; the start itself for block scalars
/// (| and >), whose lines do not map one to one.
SourcePosition positionInScalar(std::string_view text, SourcePosition start, int column);

} // namespace ccm
