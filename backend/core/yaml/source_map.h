// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// base + "/" + token escaped as a JSON Pointer reference token (RFC 6901: "~" -> "~0", "/" -> "~1").
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

/// Positions of every node of a document, looked up by JSON Pointer.
///
/// Nodes are stored as a tree: each entry holds its parent entry and its last reference token, so
/// a node costs the same few bytes however deep it sits and however long the keys above it are.
/// Readers add nodes by parent entry (addRoot, addMember, addItem) without building pointers;
/// pointerOf builds one when a message needs it.
class SourceMap
{
public:
    /// Names a node recorded in the map.
    using EntryId = std::uint32_t;
    static constexpr EntryId kNoEntry = std::numeric_limits<EntryId>::max();

    /// Records the location of the node at pointer, replacing an earlier one.
    void add(std::string_view pointer, NodeLocation location);
    /// Records the location of the document's root, replacing an earlier one.
    EntryId addRoot(NodeLocation location);
    /// Records the location of member `key` of the map at `parent`, replacing an earlier one.
    EntryId addMember(EntryId parent, std::string_view key, NodeLocation location);
    /// Records the location of item `index` of the list at `parent`, replacing an earlier one.
    EntryId addItem(EntryId parent, std::size_t index, NodeLocation location);
    /// Makes room for `entries` nodes at once, so a map of known size is not copied as it grows.
    void reserve(std::size_t entries);

    /// The JSON Pointer of an entry; "" for the root.
    [[nodiscard]] std::string pointerOf(EntryId entry) const;

    /// Position of the value at pointer, or of the nearest enclosing node that has one.
    [[nodiscard]] SourcePosition valueAt(std::string_view pointer) const;
    /// Position of the key of the map member at pointer (its value for list items), or of the
    /// nearest enclosing node.
    [[nodiscard]] SourcePosition keyAt(std::string_view pointer) const;

    [[nodiscard]] bool contains(std::string_view pointer) const;
    /// Nodes recorded.
    [[nodiscard]] std::size_t size() const { return m_recorded; }

private:
    /// A reference token: an index for list items (and keys that read as one), with kIndexToken
    /// set, or else a number in m_tokens. Keys repeat across a document (every resource has an
    /// "ensure"), so each distinct one is stored once.
    using TokenId = std::uint32_t;
    static constexpr TokenId kIndexToken = TokenId(1) << 31;
    static constexpr TokenId kNoToken = std::numeric_limits<TokenId>::max();

    struct Entry {
        EntryId parent;
        TokenId token;
        NodeLocation location;
        /// False for a node that is only there because a node below it was added by pointer.
        bool recorded;
    };
    struct Token {
        std::size_t offset; ///< in m_tokenText
        std::size_t length;
    };

    /// The token for an unescaped reference token, or kNoToken when the map has none.
    [[nodiscard]] TokenId tokenOf(std::string_view token) const;
    /// The token for an unescaped reference token, added if new.
    TokenId intern(std::string_view token);
    /// The slot of m_tokenSlots that holds token, or the empty slot where it belongs.
    [[nodiscard]] std::size_t tokenSlotOf(std::string_view token) const;
    [[nodiscard]] std::string_view textOf(TokenId token) const
    {
        return std::string_view(m_tokenText).substr(m_tokens[token].offset, m_tokens[token].length);
    }
    /// The entry (parent, token), created unrecorded if missing.
    EntryId child(EntryId parent, TokenId token);
    EntryId record(EntryId entry, NodeLocation location);
    /// The slot of m_entrySlots that holds (parent, token), or the empty slot where it belongs.
    [[nodiscard]] std::size_t entrySlotOf(EntryId parent, TokenId token) const;
    struct Lookup {
        const Entry *nearest = nullptr; ///< the deepest recorded entry on the way to the pointer
        bool exact = false; ///< whether that is the pointer's own
    };
    [[nodiscard]] Lookup lookup(std::string_view pointer) const;
    void rehashEntries(std::size_t slots);
    void rehashTokens(std::size_t slots);

    // Open addressing tables of entry and token numbers + 1 (0 for an empty slot) cost a few
    // allocations in all, where node-based maps cost one or two per node to build and to free.
    std::vector<Entry> m_entries;
    std::vector<std::uint32_t> m_entrySlots;
    EntryId m_root = kNoEntry;
    std::size_t m_recorded = 0;
    std::string m_tokenText;
    std::vector<Token> m_tokens;
    std::vector<std::uint32_t> m_tokenSlots;
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

/// Where byte `offset` of `value`, the decoded value of the scalar that starts at `start`, sits
/// in `text`. Literal block scalars (|) map line for line below their indicator; folded ones (>)
/// give their start; the others are as positionInScalar().
SourcePosition positionInScalarValue(
    std::string_view text, SourcePosition start, std::string_view value, std::size_t offset);

} // namespace ccm
