// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/source_map.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace ccm {

namespace {

void appendEscaped(std::string &out, std::string_view token)
{
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
}

} // namespace

void appendPointerToken(std::string &pointer, std::string_view token)
{
    pointer += '/';
    appendEscaped(pointer, token);
}

std::string appendPointer(std::string_view base, std::string_view token)
{
    std::string out(base);
    appendPointerToken(out, token);
    return out;
}

std::string appendPointer(std::string_view base, std::size_t index)
{
    std::string out(base);
    out += '/';
    out += std::to_string(index);
    return out;
}

namespace {

/// The list index a reference token stands for: digits without a leading zero, as pointers write
/// indexes, and below `limit`.
std::optional<std::uint32_t> indexOf(std::string_view token, std::uint32_t limit)
{
    if (token.empty() || token.size() > 10 || (token.size() > 1 && token.front() == '0'))
        return std::nullopt;
    std::uint64_t value = 0;
    for (char c : token) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (value >= limit)
        return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

std::size_t entryHash(std::uint32_t parent, std::uint32_t token)
{
    // splitmix64's finaliser: parents and tokens are small consecutive numbers.
    std::uint64_t x = (std::uint64_t(parent) << 32) | token;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

/// "~0" -> "~", "~1" -> "/"; a tilde before anything else stays as it is.
std::string_view unescapeToken(std::string_view token, std::string &scratch)
{
    if (token.find('~') == std::string_view::npos)
        return token;
    scratch.clear();
    for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
            scratch += token[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            scratch += token[i];
        }
    }
    return scratch;
}

/// Calls visit(token) for each escaped reference token of a pointer that starts with '/'.
template<typename Visit> bool forEachToken(std::string_view pointer, Visit visit)
{
    std::size_t start = 1;
    while (true) {
        const std::size_t end = pointer.find('/', start);
        if (!visit(pointer.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)))
            return false;
        if (end == std::string_view::npos)
            return true;
        start = end + 1;
    }
}

std::size_t slotsFor(std::size_t entries, std::size_t current)
{
    std::size_t slots = std::max<std::size_t>(64, current);
    while (slots < 2 * entries)
        slots *= 2;
    return slots;
}

} // namespace

void SourceMap::add(std::string_view pointer, NodeLocation location)
{
    if (!pointer.empty() && pointer.front() != '/')
        return;
    if (m_root == kNoEntry) {
        m_root = static_cast<EntryId>(m_entries.size());
        m_entries.push_back(Entry {kNoEntry, kNoToken, {}, false});
    }
    EntryId at = m_root;
    std::string scratch;
    if (!pointer.empty()) {
        forEachToken(pointer, [&](std::string_view token) {
            at = child(at, intern(unescapeToken(token, scratch)));
            return true;
        });
    }
    record(at, location);
}

SourceMap::EntryId SourceMap::addRoot(NodeLocation location)
{
    if (m_root == kNoEntry) {
        m_root = static_cast<EntryId>(m_entries.size());
        m_entries.push_back(Entry {kNoEntry, kNoToken, {}, false});
    }
    return record(m_root, location);
}

SourceMap::EntryId SourceMap::addMember(EntryId parent, std::string_view key, NodeLocation location)
{
    return record(child(parent, intern(key)), location);
}

SourceMap::EntryId SourceMap::addItem(EntryId parent, std::size_t index, NodeLocation location)
{
    const TokenId token
        = index < kIndexToken ? kIndexToken | static_cast<TokenId>(index) : intern(std::to_string(index));
    return record(child(parent, token), location);
}

void SourceMap::reserve(std::size_t entries)
{
    m_entries.reserve(entries);
    const std::size_t slots = slotsFor(entries, m_entrySlots.size());
    if (slots > m_entrySlots.size())
        rehashEntries(slots);
}

SourceMap::TokenId SourceMap::tokenOf(std::string_view token) const
{
    if (const auto index = indexOf(token, kIndexToken))
        return kIndexToken | *index;
    if (m_tokenSlots.empty())
        return kNoToken;
    const std::uint32_t slot = m_tokenSlots[tokenSlotOf(token)];
    return slot == 0 ? kNoToken : slot - 1;
}

SourceMap::TokenId SourceMap::intern(std::string_view token)
{
    if (const auto index = indexOf(token, kIndexToken))
        return kIndexToken | *index;
    if (2 * (m_tokens.size() + 1) > m_tokenSlots.size())
        rehashTokens(slotsFor(m_tokens.size() + 1, 2 * m_tokenSlots.size()));
    const std::size_t slot = tokenSlotOf(token);
    if (m_tokenSlots[slot] == 0) {
        m_tokens.push_back(Token {m_tokenText.size(), token.size()});
        m_tokenText += token;
        m_tokenSlots[slot] = static_cast<std::uint32_t>(m_tokens.size());
    }
    return m_tokenSlots[slot] - 1;
}

std::size_t SourceMap::tokenSlotOf(std::string_view token) const
{
    const std::size_t mask = m_tokenSlots.size() - 1;
    for (std::size_t slot = std::hash<std::string_view> {}(token)&mask;; slot = (slot + 1) & mask) {
        const std::uint32_t entry = m_tokenSlots[slot];
        if (entry == 0 || textOf(entry - 1) == token)
            return slot;
    }
}

SourceMap::EntryId SourceMap::child(EntryId parent, TokenId token)
{
    if (2 * (m_entries.size() + 1) > m_entrySlots.size())
        rehashEntries(slotsFor(m_entries.size() + 1, 2 * m_entrySlots.size()));
    const std::size_t slot = entrySlotOf(parent, token);
    if (m_entrySlots[slot] == 0) {
        m_entries.push_back(Entry {parent, token, {}, false});
        m_entrySlots[slot] = static_cast<std::uint32_t>(m_entries.size());
    }
    return m_entrySlots[slot] - 1;
}

SourceMap::EntryId SourceMap::record(EntryId entry, NodeLocation location)
{
    Entry &recorded = m_entries[entry];
    if (!recorded.recorded) {
        recorded.recorded = true;
        ++m_recorded;
    }
    recorded.location = location;
    return entry;
}

std::size_t SourceMap::entrySlotOf(EntryId parent, TokenId token) const
{
    const std::size_t mask = m_entrySlots.size() - 1;
    for (std::size_t slot = entryHash(parent, token) & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t entry = m_entrySlots[slot];
        if (entry == 0)
            return slot;
        const Entry &candidate = m_entries[entry - 1];
        if (candidate.parent == parent && candidate.token == token)
            return slot;
    }
}

void SourceMap::rehashEntries(std::size_t slots)
{
    m_entrySlots.assign(slots, 0);
    const std::size_t mask = slots - 1;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].parent == kNoEntry)
            continue; // the root, found through m_root
        // Entries are unique, so each takes the first free slot on its way.
        std::size_t slot = entryHash(m_entries[i].parent, m_entries[i].token) & mask;
        while (m_entrySlots[slot] != 0)
            slot = (slot + 1) & mask;
        m_entrySlots[slot] = static_cast<std::uint32_t>(i + 1);
    }
}

void SourceMap::rehashTokens(std::size_t slots)
{
    m_tokenSlots.assign(slots, 0);
    const std::size_t mask = slots - 1;
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
        std::size_t slot = std::hash<std::string_view> {}(textOf(static_cast<TokenId>(i))) & mask;
        while (m_tokenSlots[slot] != 0)
            slot = (slot + 1) & mask;
        m_tokenSlots[slot] = static_cast<std::uint32_t>(i + 1);
    }
}

std::string SourceMap::pointerOf(EntryId entry) const
{
    std::vector<TokenId> tokens;
    for (EntryId at = entry; at < m_entries.size() && m_entries[at].parent != kNoEntry; at = m_entries[at].parent)
        tokens.push_back(m_entries[at].token);
    std::string pointer;
    for (auto token = tokens.rbegin(); token != tokens.rend(); ++token) {
        if (*token & kIndexToken) {
            pointer += '/';
            pointer += std::to_string(*token & ~kIndexToken);
        } else {
            appendPointerToken(pointer, textOf(*token));
        }
    }
    return pointer;
}

SourceMap::Lookup SourceMap::lookup(std::string_view pointer) const
{
    Lookup result;
    if (m_root == kNoEntry)
        return result;
    if (m_entries[m_root].recorded)
        result.nearest = &m_entries[m_root];
    if (pointer.empty()) {
        result.exact = result.nearest != nullptr;
        return result;
    }
    if (pointer.front() != '/')
        return result;
    EntryId at = m_root;
    std::string scratch;
    const bool found = forEachToken(pointer, [&](std::string_view token) {
        const TokenId id = tokenOf(unescapeToken(token, scratch));
        if (id == kNoToken || m_entrySlots.empty())
            return false;
        const std::uint32_t slot = m_entrySlots[entrySlotOf(at, id)];
        if (slot == 0)
            return false;
        at = slot - 1;
        if (m_entries[at].recorded)
            result.nearest = &m_entries[at];
        return true;
    });
    result.exact = found && m_entries[at].recorded;
    return result;
}

bool SourceMap::contains(std::string_view pointer) const
{
    return lookup(pointer).exact;
}

SourcePosition SourceMap::valueAt(std::string_view pointer) const
{
    const Entry *entry = lookup(pointer).nearest;
    if (!entry)
        return {};
    return entry->location.value.known() ? entry->location.value : entry->location.key;
}

SourcePosition SourceMap::keyAt(std::string_view pointer) const
{
    const Entry *entry = lookup(pointer).nearest;
    if (!entry)
        return {};
    return entry->location.key.known() ? entry->location.key : entry->location.value;
}

std::vector<std::string> splitPointer(std::string_view pointer)
{
    std::vector<std::string> tokens;
    std::size_t start = 1;
    while (start <= pointer.size() && !pointer.empty()) {
        const std::size_t end = pointer.find('/', start);
        const std::string_view token = pointer.substr(start, end - start);
        std::string unescaped;
        for (std::size_t i = 0; i < token.size(); ++i) {
            if (token[i] == '~' && i + 1 < token.size()) {
                unescaped += token[i + 1] == '1' ? '/' : '~';
                ++i;
            } else {
                unescaped += token[i];
            }
        }
        tokens.push_back(std::move(unescaped));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return tokens;
}

LineIndex::LineIndex(std::string_view text)
{
    m_lineStarts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            m_lineStarts.push_back(i + 1);
    }
}

SourcePosition LineIndex::at(std::size_t offset) const
{
    const auto next = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const auto line = static_cast<std::size_t>(next - m_lineStarts.begin());
    return SourcePosition{static_cast<int>(line), static_cast<int>(offset - m_lineStarts[line - 1] + 1)};
}

std::string describeLocation(std::string_view fileName, SourcePosition position)
{
    std::string out(fileName);
    if (!position.known())
        return out;
    if (!out.empty())
        out += ':';
    out += std::to_string(position.line);
    out += ':';
    out += std::to_string(position.column);
    return out;
}

SourcePosition positionInScalar(std::string_view text, SourcePosition start, int column)
{
    if (!start.known() || column < 1)
        return start;
    std::size_t offset = 0;
    for (int line = 1; line < start.line; ++line) {
        offset = text.find('\n', offset);
        if (offset == std::string_view::npos)
            return start;
        ++offset;
    }
    offset += static_cast<std::size_t>(start.column - 1);
    if (offset >= text.size())
        return start;
    const char first = text[offset];
    if (first == '|' || first == '>')
        return start;
    const int quote = (first == '"' || first == '\'') ? 1 : 0;
    return SourcePosition{start.line, start.column + quote + column - 1};
}

SourcePosition positionInScalarValue(
    std::string_view text, SourcePosition start, std::string_view value, std::size_t offset)
{
    offset = std::min(offset, value.size());
    if (!start.known())
        return start;
    std::size_t at = 0;
    for (int line = 1; line < start.line; ++line) {
        at = text.find('\n', at);
        if (at == std::string_view::npos)
            return start;
        ++at;
    }
    at += static_cast<std::size_t>(start.column - 1);
    if (at >= text.size() || text[at] == '>')
        return start;
    if (text[at] != '|')
        return positionInScalar(text, start, static_cast<int>(offset) + 1);
    // The value's line k is the text's line start.line + 1 + k, indented as its first non-blank line.
    const std::size_t lineOfOffset = static_cast<std::size_t>(
        std::count(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    const std::size_t valueLineStart = offset == 0 ? 0 : value.rfind('\n', offset - 1) + 1;
    at = text.find('\n', at);
    if (at == std::string_view::npos)
        return start;
    ++at;
    std::size_t indent = std::string_view::npos;
    for (std::size_t line = at; line < text.size() && indent == std::string_view::npos;) {
        const std::size_t end = std::min(text.find('\n', line), text.size());
        const std::size_t first = text.find_first_not_of(' ', line);
        if (first != std::string_view::npos && first < end && text[first] != '\r')
            indent = first - line;
        line = end + 1;
    }
    if (indent == std::string_view::npos)
        return start;
    const std::size_t column = indent + (offset - valueLineStart) + 1;
    return SourcePosition {start.line + 1 + static_cast<int>(lineOfOffset), static_cast<int>(column)};
}

} // namespace ccm
