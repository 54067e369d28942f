// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ccm {

/// Escapes one reference token of a JSON Pointer (RFC 6901): "~" -> "~0", "/" -> "~1".
std::string escapePointerToken(std::string_view token);

/// base + "/" + escaped token.
std::string appendPointer(std::string_view base, std::string_view token);
std::string appendPointer(std::string_view base, std::size_t index);

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

/// Where column `column` (1-based, in the scalar's value) of the scalar that starts at `start`
/// sits in `text`: past an opening quote for quoted scalars; the start itself for block scalars
/// (| and >), whose lines do not map one to one.
SourcePosition positionInScalar(std::string_view text, SourcePosition start, int column);

} // namespace ccm
