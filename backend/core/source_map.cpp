// SPDX-License-Identifier: Apache-2.0
#include "source_map.h"

#include <algorithm>
#include <functional>

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

std::string escapePointerToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    appendEscaped(out, token);
    return out;
}

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

void SourceMap::add(std::string_view pointer, NodeLocation location)
{
    if (2 * (m_entries.size() + 1) > m_slots.size())
        grow();
    const std::size_t hash = std::hash<std::string_view> {}(pointer);
    const std::size_t slot = slotOf(pointer, hash);
    if (m_slots[slot] != 0) {
        m_entries[m_slots[slot] - 1].location = location;
        return;
    }
    m_entries.push_back(Entry {m_pointers.size(), pointer.size(), hash, location});
    m_pointers += pointer;
    m_slots[slot] = m_entries.size();
}

void SourceMap::reserve(std::size_t entries)
{
    m_entries.reserve(entries);
    std::size_t slots = 64;
    while (slots < 2 * entries)
        slots *= 2;
    if (slots > m_slots.size())
        rehash(slots);
}

std::size_t SourceMap::slotOf(std::string_view pointer, std::size_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const std::size_t entry = m_slots[slot];
        if (entry == 0)
            return slot;
        const Entry &candidate = m_entries[entry - 1];
        if (candidate.hash == hash && pointerOf(candidate) == pointer)
            return slot;
    }
}

void SourceMap::grow()
{
    rehash(std::max<std::size_t>(64, m_slots.size() * 2));
}

void SourceMap::rehash(std::size_t slots)
{
    m_slots.assign(slots, 0);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        // Pointers are unique, so each entry takes the first free slot on its way.
        std::size_t slot = m_entries[i].hash & mask;
        while (m_slots[slot] != 0)
            slot = (slot + 1) & mask;
        m_slots[slot] = i + 1;
    }
}

const NodeLocation *SourceMap::find(std::string_view pointer) const
{
    if (m_slots.empty())
        return nullptr;
    const std::size_t entry = m_slots[slotOf(pointer, std::hash<std::string_view> {}(pointer))];
    return entry == 0 ? nullptr : &m_entries[entry - 1].location;
}

const NodeLocation *SourceMap::nearest(std::string_view pointer) const
{
    while (true) {
        if (const NodeLocation *location = find(pointer))
            return location;
        if (pointer.empty())
            return nullptr;
        const std::size_t slash = pointer.rfind('/');
        pointer = slash == std::string_view::npos ? std::string_view() : pointer.substr(0, slash);
    }
}

SourcePosition SourceMap::valueAt(std::string_view pointer) const
{
    const NodeLocation *location = nearest(pointer);
    if (!location)
        return {};
    return location->value.known() ? location->value : location->key;
}

SourcePosition SourceMap::keyAt(std::string_view pointer) const
{
    const NodeLocation *location = nearest(pointer);
    if (!location)
        return {};
    return location->key.known() ? location->key : location->value;
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

} // namespace ccm
