// SPDX-License-Identifier: Apache-2.0
#include "source_map.h"

#include <algorithm>

namespace ccm {

std::string escapePointerToken(std::string_view token)
{
    std::string out;
    out.reserve(token.size());
    for (char c : token) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string appendPointer(std::string_view base, std::string_view token)
{
    std::string out(base);
    out += '/';
    out += escapePointerToken(token);
    return out;
}

std::string appendPointer(std::string_view base, std::size_t index)
{
    std::string out(base);
    out += '/';
    out += std::to_string(index);
    return out;
}

void SourceMap::add(std::string pointer, NodeLocation location)
{
    m_locations.insert_or_assign(std::move(pointer), location);
}

const NodeLocation *SourceMap::nearest(std::string_view pointer) const
{
    std::string key(pointer);
    while (true) {
        if (auto it = m_locations.find(key); it != m_locations.end())
            return &it->second;
        if (key.empty())
            return nullptr;
        key.erase(key.rfind('/'));
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
