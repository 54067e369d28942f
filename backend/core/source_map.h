// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// Escapes one reference token of a JSON Pointer (RFC 6901): "~" -> "~0", "/" -> "~1".
std::string escapePointerToken(std::string_view token);

/// base + "/" + escaped token.
std::string appendPointer(std::string_view base, std::string_view token);
std::string appendPointer(std::string_view base, std::size_t index);
/// Appends "/" + escaped token to pointer in place, for building pointers while walking a document.
void appendPointerToken(std::string &pointer, std::string_view token);

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
    /// Records the location of the node at pointer, replacing an earlier one.
    void add(std::string_view pointer, NodeLocation location);
    /// Makes room for `entries` nodes at once, so a map of known size is not copied as it grows.
    void reserve(std::size_t entries);

    /// Position of the value at pointer, or of the nearest enclosing node that has one.
    [[nodiscard]] SourcePosition valueAt(std::string_view pointer) const;
    /// Position of the key of the map member at pointer (its value for list items), or of the
    /// nearest enclosing node.
    [[nodiscard]] SourcePosition keyAt(std::string_view pointer) const;

    [[nodiscard]] bool contains(std::string_view pointer) const { return find(pointer) != nullptr; }
    [[nodiscard]] std::size_t size() const { return m_entries.size(); }

private:
    struct Entry {
        std::size_t offset; ///< of the pointer in m_pointers
        std::size_t length;
        std::size_t hash; ///< of the pointer, kept so that growing and probing do not hash again
        NodeLocation location;
    };

    const NodeLocation *find(std::string_view pointer) const;
    const NodeLocation *nearest(std::string_view pointer) const;
    [[nodiscard]] std::string_view pointerOf(const Entry &entry) const
    {
        return std::string_view(m_pointers).substr(entry.offset, entry.length);
    }
    /// The slot that holds pointer, or the empty slot where it belongs.
    [[nodiscard]] std::size_t slotOf(std::string_view pointer, std::size_t hash) const;
    void grow();
    /// Rebuilds the index with `slots` slots, a power of two.
    void rehash(std::size_t slots);

    // A document has a node per few bytes of text: every pointer in one string and an open
    // addressing table of entry numbers cost a few allocations in all, where a node-based map
    // cost two per node to build and as many to free.
    std::string m_pointers;
    std::vector<Entry> m_entries;
    std::vector<std::size_t> m_slots; ///< entry number + 1, 0 for an empty slot
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
