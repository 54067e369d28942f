// SPDX-License-Identifier: Apache-2.0
#include "designer/core/yaml_edit.h"

#include "core/model/manifest_writer.h"

#include <algorithm>

namespace ccm::designer {
namespace {

struct LineInfo {
    std::size_t begin = 0;
    std::size_t end = 0; ///< past the newline, or the text's end
    std::size_t contentEnd = 0; ///< before the newline
    int firstColumn = 0; ///< of the first non-space character
    bool blank = true;
    bool comment = false;
};

LineInfo lineAt(std::string_view text, std::size_t begin)
{
    LineInfo line;
    line.begin = begin;
    const std::size_t newline = text.find('\n', begin);
    line.contentEnd = newline == std::string_view::npos ? text.size() : newline;
    line.end = newline == std::string_view::npos ? text.size() : newline + 1;
    std::size_t first = begin;
    while (first < line.contentEnd && text[first] == ' ')
        ++first;
    line.firstColumn = static_cast<int>(first - begin);
    line.blank = first == line.contentEnd || (first + 1 == line.contentEnd && text[first] == '\r');
    line.comment = !line.blank && text[first] == '#';
    return line;
}

/// Whether the line ends with a block scalar header ("key: |", "- >-", "key: |+ # note"), and
/// whether that scalar keeps its trailing blank lines.
struct BlockScalarHeader {
    bool present = false;
    bool keep = false;
};

BlockScalarHeader blockScalarHeader(std::string_view line)
{
    for (std::size_t p = 1; p < line.size(); ++p) {
        if ((line[p] != '|' && line[p] != '>') || line[p - 1] != ' ')
            continue;
        std::size_t before = p - 1;
        while (before > 0 && line[before] == ' ')
            --before;
        if (line[before] != ':' && line[before] != '-')
            continue;
        std::size_t q = p + 1;
        bool keep = false;
        while (q < line.size() && (line[q] == '+' || line[q] == '-' || (line[q] >= '0' && line[q] <= '9'))) {
            keep = keep || line[q] == '+';
            ++q;
        }
        while (q < line.size() && (line[q] == ' ' || line[q] == '\r'))
            ++q;
        if (q == line.size() || line[q] == '#')
            return {true, keep};
    }
    return {};
}

/// The offset of the colon that ends the key starting at `begin`, within [begin, lineEnd).
std::optional<std::size_t> keyColon(std::string_view text, std::size_t begin, std::size_t lineEnd)
{
    std::size_t end = begin;
    const char quote = begin < lineEnd ? text[begin] : '\0';
    if (quote == '"' || quote == '\'') {
        ++end;
        while (end < lineEnd) {
            if (quote == '"' && text[end] == '\\') {
                end += 2;
                continue;
            }
            if (text[end] == quote) {
                if (quote == '\'' && end + 1 < lineEnd && text[end + 1] == '\'') {
                    end += 2;
                    continue;
                }
                break;
            }
            ++end;
        }
        if (end >= lineEnd)
            return std::nullopt;
        ++end;
    } else {
        while (end < lineEnd && !(text[end] == ':' && (end + 1 == lineEnd || text[end + 1] == ' ')))
            ++end;
    }
    if (end >= lineEnd || text[end] != ':')
        return std::nullopt;
    return end;
}

std::string spliced(std::string_view text, std::size_t begin, std::size_t end, std::string_view replacement)
{
    std::string out;
    out.reserve(text.size() + replacement.size());
    out.append(text.substr(0, begin));
    out.append(replacement);
    out.append(text.substr(end));
    return out;
}

/// Inserts whole lines at a line start; a text without a final newline gets one first.
std::string insertedLines(std::string_view text, std::size_t at, std::string_view lines)
{
    if (at == text.size() && !text.empty() && text.back() != '\n')
        return std::string(text) + "\n" + std::string(lines);
    return spliced(text, at, at, lines);
}

} // namespace

YamlPatcher::YamlPatcher(std::string_view text, const SourceMap &sourceMap)
    : m_text(text)
    , m_map(sourceMap)
{
    m_lineStarts.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n')
            m_lineStarts.push_back(i + 1);
    }
}

std::optional<std::size_t> YamlPatcher::offsetOf(SourcePosition position) const
{
    if (position.line < 1 || position.column < 1 || static_cast<std::size_t>(position.line) > m_lineStarts.size())
        return std::nullopt;
    const std::size_t offset
        = m_lineStarts[static_cast<std::size_t>(position.line) - 1] + static_cast<std::size_t>(position.column) - 1;
    if (offset >= m_text.size())
        return std::nullopt;
    return offset;
}

std::size_t YamlPatcher::lineStartOf(std::size_t offset) const
{
    const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    return *(it - 1);
}

std::optional<NodeSpan> YamlPatcher::spanFrom(std::size_t begin, bool isItem) const
{
    NodeSpan span;
    span.begin = begin;
    span.lineBegin = lineStartOf(begin);
    span.indent = static_cast<int>(begin - span.lineBegin);
    // Only spaces and the dashes of enclosing list items may precede the node: anything else
    // means it sits inside a flow collection or after another node on the same line.
    span.ownsLine = true;
    for (std::size_t i = span.lineBegin; i < begin; ++i) {
        const char c = m_text[i];
        if (c == '-' && i + 1 <= begin && (i + 1 == begin || m_text[i + 1] == ' '))
            span.ownsLine = false;
        else if (c != ' ')
            return std::nullopt;
    }
    const LineInfo first = lineAt(m_text, span.lineBegin);
    span.end = first.end;
    const std::string_view firstText = m_text.substr(begin, first.contentEnd - begin);
    BlockScalarHeader scalar = blockScalarHeader(firstText);
    int scalarParent = span.indent;
    // A member whose value starts on the next line may write a list at its own indentation.
    bool valueOnNextLine = false;
    if (!isItem && !scalar.present) {
        if (const auto colon = keyColon(m_text, begin, first.contentEnd)) {
            std::size_t rest = *colon + 1;
            while (rest < first.contentEnd && (m_text[rest] == ' ' || m_text[rest] == '\r'))
                ++rest;
            valueOnNextLine = rest == first.contentEnd || m_text[rest] == '#';
        }
    }
    std::size_t at = first.end;
    while (at < m_text.size()) {
        const LineInfo line = lineAt(m_text, at);
        at = line.end;
        if (scalar.present) {
            if (line.blank) {
                if (scalar.keep)
                    span.end = line.end;
                continue;
            }
            if (line.firstColumn > scalarParent) {
                span.end = line.end;
                continue;
            }
            scalar = {};
        }
        if (line.blank || line.comment)
            continue;
        const char lead = m_text[line.begin + static_cast<std::size_t>(line.firstColumn)];
        const std::size_t afterLead = line.begin + static_cast<std::size_t>(line.firstColumn) + 1;
        const bool dash = lead == '-' && (afterLead >= line.contentEnd || m_text[afterLead] == ' ');
        const bool belongs
            = line.firstColumn > span.indent || (line.firstColumn == span.indent && dash && valueOnNextLine);
        if (!belongs)
            break;
        span.end = line.end;
        const std::string_view content = m_text.substr(line.begin, line.contentEnd - line.begin);
        scalar = blockScalarHeader(content);
        scalarParent = line.firstColumn;
    }
    return span;
}

std::optional<NodeSpan> YamlPatcher::memberSpan(std::string_view pointer) const
{
    if (pointer.empty() || !m_map.contains(pointer))
        return std::nullopt;
    const auto offset = offsetOf(m_map.keyAt(pointer));
    if (!offset)
        return std::nullopt;
    return spanFrom(*offset, false);
}

std::optional<NodeSpan> YamlPatcher::itemSpan(std::string_view pointer) const
{
    if (pointer.empty() || !m_map.contains(pointer))
        return std::nullopt;
    const auto offset = offsetOf(m_map.valueAt(pointer));
    if (!offset)
        return std::nullopt;
    const std::size_t lineBegin = lineStartOf(*offset);
    std::size_t dash = *offset;
    while (dash > lineBegin && m_text[dash - 1] == ' ')
        --dash;
    if (dash == lineBegin || m_text[dash - 1] != '-')
        return std::nullopt;
    return spanFrom(dash - 1, true);
}

std::optional<std::string> YamlPatcher::replaceMember(
    std::string_view pointer, const std::string &key, const Json &value) const
{
    const auto span = memberSpan(pointer);
    if (!span)
        return std::nullopt;
    Json member = Json::object();
    member[key] = value;
    const std::string yaml = toYaml(member, span->indent);
    return spliced(
        m_text, span->begin, span->end, std::string_view(yaml).substr(static_cast<std::size_t>(span->indent)));
}

std::optional<std::string> YamlPatcher::setMember(std::string_view mapPointer, const Json &members,
    const std::string &key, const Json &value, const std::vector<std::string> &insertBefore) const
{
    if (!members.is_object() || members.empty())
        return std::nullopt;
    const std::string base(mapPointer);
    if (members.contains(key))
        return replaceMember(appendPointer(base, key), key, value);
    Json member = Json::object();
    member[key] = value;
    for (const std::string &next : insertBefore) {
        if (!members.contains(next))
            continue;
        const auto span = memberSpan(appendPointer(base, next));
        if (!span || !span->ownsLine)
            return std::nullopt;
        return insertedLines(m_text, span->lineBegin, toYaml(member, span->indent));
    }
    const auto last = memberSpan(appendPointer(base, (--members.end()).key()));
    if (!last)
        return std::nullopt;
    return insertedLines(m_text, last->end, toYaml(member, last->indent));
}

std::optional<std::string> YamlPatcher::removeNode(const std::optional<NodeSpan> &span) const
{
    if (!span || !span->ownsLine)
        return std::nullopt;
    return spliced(m_text, span->lineBegin, span->end, {});
}

std::optional<std::string> YamlPatcher::replaceItem(std::string_view pointer, std::string_view yaml) const
{
    const auto span = itemSpan(pointer);
    if (!span)
        return std::nullopt;
    return spliced(m_text, span->begin, span->end, indented(yaml, span->indent, true));
}

std::optional<std::string> YamlPatcher::insertItem(std::string_view pointer, std::string_view yaml, bool after) const
{
    const auto span = itemSpan(pointer);
    if (!span || !span->ownsLine)
        return std::nullopt;
    return insertedLines(m_text, after ? span->end : span->lineBegin, indented(yaml, span->indent));
}

std::optional<std::string> YamlPatcher::moveItem(std::string_view from, std::string_view to, bool after) const
{
    const auto source = itemSpan(from);
    const auto target = itemSpan(to);
    if (!source || !target || !source->ownsLine || !target->ownsLine)
        return std::nullopt;
    const std::size_t at = after ? target->end : target->lineBegin;
    if (at == source->lineBegin || at == source->end)
        return std::string(m_text);
    if (at > source->lineBegin && at < source->end)
        return std::nullopt;
    std::string chunk(m_text.substr(source->lineBegin, source->end - source->lineBegin));
    if (chunk.empty() || chunk.back() != '\n')
        chunk += '\n';
    chunk = indented(chunk, target->indent - source->indent);
    std::string out;
    out.reserve(m_text.size() + 1);
    if (at < source->lineBegin) {
        out.append(m_text.substr(0, at));
        out.append(chunk);
        out.append(m_text.substr(at, source->lineBegin - at));
        out.append(m_text.substr(source->end));
    } else {
        out.append(m_text.substr(0, source->lineBegin));
        const std::string_view between = m_text.substr(source->end, at - source->end);
        out.append(between);
        if (!between.empty() && between.back() != '\n')
            out += '\n';
        out.append(chunk);
        out.append(m_text.substr(at));
    }
    return out;
}

std::optional<std::string> YamlPatcher::renameKey(std::string_view pointer, const std::string &key) const
{
    if (pointer.empty() || !m_map.contains(pointer))
        return std::nullopt;
    const auto offset = offsetOf(m_map.keyAt(pointer));
    if (!offset)
        return std::nullopt;
    const LineInfo line = lineAt(m_text, lineStartOf(*offset));
    const auto colon = keyColon(m_text, *offset, line.contentEnd);
    if (!colon)
        return std::nullopt;
    return spliced(m_text, *offset, *colon, quotedKey(key));
}

std::string YamlPatcher::quotedKey(const std::string &key)
{
    Json member = Json::object();
    member[key] = 0;
    const std::string yaml = toYaml(member);
    return yaml.substr(0, yaml.size() - std::string_view(": 0\n").size());
}

std::string YamlPatcher::indented(std::string_view yaml, int columns, bool skipFirst)
{
    std::string out;
    out.reserve(yaml.size() + 16);
    std::size_t start = 0;
    bool firstLine = true;
    while (start < yaml.size()) {
        const std::size_t newline = yaml.find('\n', start);
        const std::size_t end = newline == std::string_view::npos ? yaml.size() : newline + 1;
        std::string_view line = yaml.substr(start, end - start);
        const bool empty = line.empty() || line == "\n";
        if (!empty && !(firstLine && skipFirst)) {
            if (columns > 0) {
                out.append(static_cast<std::size_t>(columns), ' ');
            } else {
                std::size_t drop = 0;
                while (drop < static_cast<std::size_t>(-columns) && drop < line.size() && line[drop] == ' ')
                    ++drop;
                line.remove_prefix(drop);
            }
        }
        out.append(line);
        firstLine = false;
        start = end;
    }
    return out;
}

} // namespace ccm::designer
