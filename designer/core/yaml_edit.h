// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "core/yaml/source_map.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::designer {

/// Where a block-style node sits in its text: from its key (a map member) or dash (a list
/// item) to the end of its last line. Comment and blank lines after the node's last line of
/// content are not part of it; those between its lines are.
struct NodeSpan {
    std::size_t begin = 0; ///< offset of the key or dash
    std::size_t lineBegin = 0; ///< offset of the line the node starts on
    std::size_t end = 0; ///< offset past the last line (its newline included)
    int indent = 0; ///< 0-based column of the key or dash
    bool ownsLine = false; ///< nothing but spaces precedes the key or dash on its line
};

/// Text edits that touch one node of a YAML document and leave every other byte alone. Each
/// returns the new text, or nothing when the node cannot be edited that way (it is not in the
/// source map, it is written in flow style, it shares its line with another node): callers
/// then regenerate a larger part or the whole document.
class YamlPatcher {
public:
    /// text must be the text the source map was built from.
    YamlPatcher(std::string_view text, const SourceMap &sourceMap);

    /// The span of the map member at pointer (its key starts the span).
    [[nodiscard]] std::optional<NodeSpan> memberSpan(std::string_view pointer) const;
    /// The span of the list item at pointer (its dash starts the span).
    [[nodiscard]] std::optional<NodeSpan> itemSpan(std::string_view pointer) const;

    /// Replaces a member's key and value with `key: value` written at the member's indentation.
    [[nodiscard]] std::optional<std::string> replaceMember(
        std::string_view pointer, const std::string &key, const Json &value) const;
    /// Sets member `key` of the block map at mapPointer, whose current members are `members`:
    /// replaces it when present, else adds it before the first of `insertBefore` that is
    /// present, else after the last member. Nothing when the map is empty.
    [[nodiscard]] std::optional<std::string> setMember(std::string_view mapPointer, const Json &members,
        const std::string &key, const Json &value, const std::vector<std::string> &insertBefore = {}) const;
    /// Removes a member or a list item that owns its lines.
    [[nodiscard]] std::optional<std::string> removeNode(const std::optional<NodeSpan> &span) const;
    /// Replaces a list item with `yaml`, an item written by toYaml() at indentation 0 (it is
    /// indented to the item's column).
    [[nodiscard]] std::optional<std::string> replaceItem(std::string_view pointer, std::string_view yaml) const;
    /// Inserts `yaml` (written at indentation 0) as a new list item before the item at pointer,
    /// or after it when `after` is set, at that item's indentation.
    [[nodiscard]] std::optional<std::string> insertItem(
        std::string_view pointer, std::string_view yaml, bool after) const;
    /// Moves the list item at `from` before (or, with `after`, after) the item at `to`, keeping
    /// its text (comments inside it included) and re-indenting it to the target's column.
    [[nodiscard]] std::optional<std::string> moveItem(std::string_view from, std::string_view to, bool after) const;
    /// Replaces the key of the map member at pointer, quoting it as the writer would.
    [[nodiscard]] std::optional<std::string> renameKey(std::string_view pointer, const std::string &key) const;

    /// The key as the writer spells it: plain, or double-quoted when plain would not read back.
    static std::string quotedKey(const std::string &key);
    /// Shifts every non-empty line of yaml right by `columns` spaces (left when negative, as far
    /// as the lines have spaces); the first line too unless skipFirst.
    static std::string indented(std::string_view yaml, int columns, bool skipFirst = false);

private:
    [[nodiscard]] std::optional<std::size_t> offsetOf(SourcePosition position) const;
    [[nodiscard]] std::optional<NodeSpan> spanFrom(std::size_t begin, bool isItem) const;
    [[nodiscard]] std::size_t lineStartOf(std::size_t offset) const;

    std::string_view m_text;
    const SourceMap &m_map;
    std::vector<std::size_t> m_lineStarts;
};

} // namespace ccm::designer
