// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/yaml_block_parser.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ccm {
namespace {

/// Thrown where the text leaves the subset this parser reads; never leaves this file.
struct OutsideSubset { };

struct BlockEvent {
    enum class Kind : std::uint8_t {
        Null,
        PlainScalar,
        QuotedScalar,
        MapStart,
        MapEnd,
        SequenceStart,
        SequenceEnd,
        FlowMapStart, ///< of an empty flow map, `{}`
        FlowSequenceStart, ///< of an empty flow sequence, `[]`
    };
    Kind kind;
    bool inArena = false; ///< the scalar's text is in the arena (it had escapes), not in the input
    YAML::Mark mark;
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
};

bool isNullString(std::string_view s)
{
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

bool isPlainStart(char c, char next)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    if (c == '-')
        return next != ' ' && next != '\n' && next != '\0';
    return c == '/' || c == '.' || c == '_' || c == '$' || c == '~' || c == '+' || c == '=' || c == '(';
}

/// Tabs, carriage returns, control and non-ASCII characters, directives and document markers are
/// left to yaml-cpp: its marks count them in ways this parser does not copy.
bool onlyPlainCharacters(std::string_view text)
{
    bool lineStart = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n') || c >= 0x7f)
            return false;
        if (lineStart && (c == '%' || text.substr(i, 3) == "---" || text.substr(i, 3) == "..."))
            return false;
        lineStart = c == '\n';
    }
    return true;
}

class BlockParser {
public:
    static constexpr int kMaxDepth = 200;
    static constexpr std::size_t kMaxKeyLength = 1000;

    explicit BlockParser(std::string_view text)
        : m_text(text)
    {
    }

    void parse()
    {
        skipToContent();
        if (atEnd())
            throw OutsideSubset {};
        m_documentStart = mark();
        parseBlock(-1);
        if (!atEnd())
            throw OutsideSubset {};
    }

    /// Whether a literal block scalar's content runs to the end of the text, so that its final
    /// line break depends on whether the text has one.
    [[nodiscard]] bool literalAtEnd() const { return m_literalAtEnd; }

    /// The position of the last mark handed on (the ends of maps and sequences have none).
    [[nodiscard]] std::size_t lastMark() const
    {
        for (auto event = m_events.rbegin(); event != m_events.rend(); ++event) {
            if (event->kind != BlockEvent::Kind::MapEnd && event->kind != BlockEvent::Kind::SequenceEnd)
                return static_cast<std::size_t>(event->mark.pos);
        }
        return 0;
    }

    void replay(YAML::EventHandler &handler) const
    {
        static const std::string plainTag = "?";
        static const std::string quotedTag = "!";
        handler.OnDocumentStart(m_documentStart);
        std::string value;
        for (const BlockEvent &event : m_events) {
            switch (event.kind) {
            case BlockEvent::Kind::Null:
                handler.OnNull(event.mark, YAML::NullAnchor);
                break;
            case BlockEvent::Kind::PlainScalar:
            case BlockEvent::Kind::QuotedScalar:
                value.assign((event.inArena ? std::string_view(m_arena) : m_text).substr(event.offset, event.size));
                handler.OnScalar(event.mark, event.kind == BlockEvent::Kind::PlainScalar ? plainTag : quotedTag,
                    YAML::NullAnchor, value);
                break;
            case BlockEvent::Kind::MapStart:
                handler.OnMapStart(event.mark, plainTag, YAML::NullAnchor, YAML::EmitterStyle::Block);
                break;
            case BlockEvent::Kind::FlowMapStart:
                handler.OnMapStart(event.mark, plainTag, YAML::NullAnchor, YAML::EmitterStyle::Flow);
                break;
            case BlockEvent::Kind::MapEnd:
                handler.OnMapEnd();
                break;
            case BlockEvent::Kind::SequenceStart:
                handler.OnSequenceStart(event.mark, plainTag, YAML::NullAnchor, YAML::EmitterStyle::Block);
                break;
            case BlockEvent::Kind::FlowSequenceStart:
                handler.OnSequenceStart(event.mark, plainTag, YAML::NullAnchor, YAML::EmitterStyle::Flow);
                break;
            case BlockEvent::Kind::SequenceEnd:
                handler.OnSequenceEnd();
                break;
            }
        }
        handler.OnDocumentEnd();
    }

private:
    [[nodiscard]] bool atEnd() const { return m_pos >= m_text.size(); }
    [[nodiscard]] char at(std::size_t pos) const { return pos < m_text.size() ? m_text[pos] : '\0'; }
    [[nodiscard]] int column() const { return static_cast<int>(m_pos - m_lineStart); }
    [[nodiscard]] YAML::Mark mark() const
    {
        YAML::Mark result;
        result.pos = static_cast<int>(m_pos);
        result.line = m_line;
        result.column = column();
        return result;
    }
    /// The ':' of a block map, which a blank or a line end follows.
    [[nodiscard]] bool atValueIndicator() const
    {
        return at(m_pos) == ':' && (at(m_pos + 1) == ' ' || at(m_pos + 1) == '\n' || m_pos + 1 == m_text.size());
    }
    [[nodiscard]] bool atSequenceEntry() const
    {
        return at(m_pos) == '-' && (at(m_pos + 1) == ' ' || at(m_pos + 1) == '\n' || m_pos + 1 == m_text.size());
    }
    /// `[]` or `{}`, the only flow collections this parser reads: `resources: []` is how a
    /// manifest says it has none.
    [[nodiscard]] bool atEmptyFlowCollection() const
    {
        return (at(m_pos) == '[' && at(m_pos + 1) == ']') || (at(m_pos) == '{' && at(m_pos + 1) == '}');
    }
    /// Whether only a comment or nothing is left on the line; the caller has skipped the blanks.
    [[nodiscard]] bool atLineEnd() const { return atEnd() || at(m_pos) == '\n' || at(m_pos) == '#'; }

    void push(BlockEvent::Kind kind, const YAML::Mark &at) { m_events.push_back(BlockEvent {kind, false, at, 0, 0}); }

    void skipSpaces()
    {
        while (at(m_pos) == ' ')
            ++m_pos;
    }

    /// Skips blanks, comments and line breaks up to the next content or the end.
    void skipToContent()
    {
        while (!atEnd()) {
            const char c = m_text[m_pos];
            if (c == ' ') {
                ++m_pos;
            } else if (c == '#') {
                const std::size_t end = m_text.find('\n', m_pos);
                m_pos = end == std::string_view::npos ? m_text.size() : end;
            } else if (c == '\n') {
                ++m_pos;
                ++m_line;
                m_lineStart = m_pos;
            } else {
                return;
            }
        }
    }

    /// After a scalar: nothing but blanks and a comment may follow on its line.
    void finishLine()
    {
        const std::size_t before = m_pos;
        skipSpaces();
        if (at(m_pos) == '#' && m_pos == before)
            throw OutsideSubset {};
        if (!atLineEnd())
            throw OutsideSubset {};
        skipToContent();
    }

    /// A node whose first line starts at the current content, deeper than `parentIndent`.
    void parseBlock(int parentIndent)
    {
        // yaml-cpp refuses nesting 500 deep; such text goes there for the same error.
        if (column() <= parentIndent || ++m_depth > kMaxDepth)
            throw OutsideSubset {};
        struct Leave {
            int &depth;
            ~Leave() { --depth; }
        } leave {m_depth};
        if (atSequenceEntry()) {
            parseSequence(column());
            return;
        }
        if (!startsKey())
            throw OutsideSubset {};
        parseMap(column());
    }

    [[nodiscard]] bool startsKey()
    {
        const std::size_t pos = m_pos;
        const BlockEvent scanned = scanScalar();
        const bool key = atValueIndicator();
        m_pos = pos;
        m_arena.resize(scanned.inArena ? scanned.offset : m_arena.size());
        return key;
    }

    void parseMap(int indent)
    {
        push(BlockEvent::Kind::MapStart, mark());
        while (true) {
            const std::size_t keyStart = m_pos;
            m_events.push_back(scanScalar());
            // yaml-cpp refuses implicit keys longer than 1024 characters.
            if (!atValueIndicator() || m_pos - keyStart > kMaxKeyLength)
                throw OutsideSubset {};
            ++m_pos;
            parseMapValue(indent);
            if (atEnd() || column() < indent)
                break;
            if (column() > indent || atSequenceEntry())
                throw OutsideSubset {};
        }
        push(BlockEvent::Kind::MapEnd, mark());
    }

    void parseMapValue(int indent)
    {
        skipSpaces();
        if (at(m_pos) == '|') {
            scanLiteral(indent);
            return;
        }
        if (!atLineEnd()) {
            if (atEmptyFlowCollection())
                scanEmptyFlowCollection();
            else
                m_events.push_back(scanScalar());
            finishLine();
            if (!atEnd() && column() > indent)
                throw OutsideSubset {};
            return;
        }
        skipToContent();
        if (atEnd() || column() <= indent) {
            // yaml-cpp gives an empty value the mark of the token after it.
            if (!atEnd() && column() == indent && atSequenceEntry())
                throw OutsideSubset {};
            push(BlockEvent::Kind::Null, mark());
            return;
        }
        parseBlock(indent);
    }

    void parseSequence(int indent)
    {
        push(BlockEvent::Kind::SequenceStart, mark());
        while (true) {
            ++m_pos;
            skipSpaces();
            parseSequenceItem(indent);
            if (atEnd() || column() < indent)
                break;
            if (column() > indent || !atSequenceEntry())
                throw OutsideSubset {};
        }
        push(BlockEvent::Kind::SequenceEnd, mark());
    }

    void parseSequenceItem(int indent)
    {
        if (atLineEnd()) {
            skipToContent();
            if (atEnd() || column() <= indent)
                push(BlockEvent::Kind::Null, mark());
            else
                parseBlock(indent);
            return;
        }
        if (atSequenceEntry())
            throw OutsideSubset {};
        if (at(m_pos) == '|') {
            scanLiteral(indent);
            return;
        }
        if (atEmptyFlowCollection()) {
            scanEmptyFlowCollection();
            finishLine();
            if (!atEnd() && column() > indent)
                throw OutsideSubset {};
            return;
        }
        if (startsKey()) {
            parseMap(column());
            return;
        }
        m_events.push_back(scanScalar());
        finishLine();
        if (!atEnd() && column() > indent)
            throw OutsideSubset {};
    }

    /// A literal block scalar (`|`, `|-` or `|+`, the header alone on its line) whose content is
    /// indented deeper than `indent`, the node that holds it. Its lines keep their text after the
    /// content's indentation; clip keeps one final line break, strip none, keep every trailing one.
    /// Folded scalars, indentation indicators, empty contents, blank lines deeper than the content
    /// and a comment right after the content go to yaml-cpp.
    void scanLiteral(int indent)
    {
        const YAML::Mark start = mark();
        const char chomp = at(m_pos + 1) == '-' || at(m_pos + 1) == '+' ? at(m_pos + 1) : ' ';
        m_pos += chomp == ' ' ? 1 : 2;
        skipSpaces();
        if (at(m_pos) != '\n')
            throw OutsideSubset {};
        const std::size_t offset = m_arena.size();
        std::size_t contentIndent = 0;
        std::size_t deepestBlank = 0;
        std::size_t breaks = 0; ///< line breaks owed since the last content line
        while (!atEnd()) {
            nextLine();
            std::size_t spaces = 0;
            while (at(m_pos + spaces) == ' ')
                ++spaces;
            if (at(m_pos + spaces) == '\n') {
                deepestBlank = std::max(deepestBlank, spaces);
                ++breaks;
                m_pos += spaces;
                continue;
            }
            if (atEnd() || (contentIndent != 0 && spaces < contentIndent))
                break;
            if (contentIndent == 0) {
                if (static_cast<int>(spaces) <= indent)
                    throw OutsideSubset {};
                contentIndent = spaces;
            }
            if (deepestBlank > contentIndent)
                throw OutsideSubset {};
            m_arena.append(breaks, '\n');
            breaks = 0;
            const std::size_t end = m_text.find('\n', m_pos);
            m_arena.append(m_text.substr(m_pos + contentIndent, end - m_pos - contentIndent));
            m_pos = end;
            breaks = 1;
        }
        if (contentIndent == 0 || deepestBlank > contentIndent)
            throw OutsideSubset {};
        m_literalAtEnd = atEnd();
        m_arena.append(chomp == '+' ? breaks : chomp == '-' ? 0 : 1, '\n');
        skipSpaces();
        if (at(m_pos) == '#')
            throw OutsideSubset {};
        m_events.push_back(BlockEvent {BlockEvent::Kind::QuotedScalar, true, start, static_cast<std::uint32_t>(offset),
            static_cast<std::uint32_t>(m_arena.size() - offset)});
        if (!atEnd() && column() > indent)
            throw OutsideSubset {};
    }

    /// Steps over the line break at the current position to the start of the next line.
    void nextLine()
    {
        ++m_pos;
        ++m_line;
        m_lineStart = m_pos;
    }

    void scanEmptyFlowCollection()
    {
        const bool sequence = at(m_pos) == '[';
        push(sequence ? BlockEvent::Kind::FlowSequenceStart : BlockEvent::Kind::FlowMapStart, mark());
        push(sequence ? BlockEvent::Kind::SequenceEnd : BlockEvent::Kind::MapEnd, mark());
        m_pos += 2;
    }

    BlockEvent scanScalar()
    {
        const char c = at(m_pos);
        if (c == '"')
            return scanDoubleQuoted();
        if (c == '\'')
            return scanSingleQuoted();
        if (!isPlainStart(c, at(m_pos + 1)))
            throw OutsideSubset {};
        return scanPlain();
    }

    BlockEvent scanPlain()
    {
        const YAML::Mark start = mark();
        std::size_t end = m_pos;
        for (; end < m_text.size(); ++end) {
            const char c = m_text[end];
            if (c == '\n' || (c == '#' && m_text[end - 1] == ' '))
                break;
            if (c == ':' && (end + 1 == m_text.size() || m_text[end + 1] == ' ' || m_text[end + 1] == '\n'))
                break;
        }
        std::size_t last = end;
        while (m_text[last - 1] == ' ')
            --last;
        const std::string_view value = m_text.substr(m_pos, last - m_pos);
        m_pos = last;
        const auto kind = isNullString(value) ? BlockEvent::Kind::Null : BlockEvent::Kind::PlainScalar;
        return BlockEvent {
            kind, false, start, static_cast<std::uint32_t>(start.pos), static_cast<std::uint32_t>(value.size())};
    }

    BlockEvent scanDoubleQuoted()
    {
        const YAML::Mark start = mark();
        const std::size_t offset = m_arena.size();
        for (++m_pos; at(m_pos) != '"'; ++m_pos) {
            char c = at(m_pos);
            if (c == '\n' || c == '\0')
                throw OutsideSubset {};
            if (c == '\\') {
                c = unescape(at(++m_pos));
            }
            m_arena += c;
        }
        ++m_pos;
        return quoted(start, offset);
    }

    static char unescape(char c)
    {
        switch (c) {
        case 'n':
            return '\n';
        case 't':
            return '\t';
        case '\\':
        case '"':
        case '/':
            return c;
        default:
            throw OutsideSubset {};
        }
    }

    BlockEvent scanSingleQuoted()
    {
        const YAML::Mark start = mark();
        const std::size_t offset = m_arena.size();
        for (++m_pos;; ++m_pos) {
            const char c = at(m_pos);
            if (c == '\n' || c == '\0')
                throw OutsideSubset {};
            if (c == '\'') {
                if (at(m_pos + 1) != '\'')
                    break;
                ++m_pos;
            }
            m_arena += c;
        }
        ++m_pos;
        return quoted(start, offset);
    }

    /// A quoted scalar ends its node: only ':' (as a key), blanks or a line end may follow.
    BlockEvent quoted(const YAML::Mark &start, std::size_t offset)
    {
        const char next = at(m_pos);
        if (next != ':' && next != ' ' && next != '\n' && next != '\0')
            throw OutsideSubset {};
        return BlockEvent {BlockEvent::Kind::QuotedScalar, true, start, static_cast<std::uint32_t>(offset),
            static_cast<std::uint32_t>(m_arena.size() - offset)};
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_lineStart = 0;
    int m_line = 0;
    int m_depth = 0;
    YAML::Mark m_documentStart;
    std::vector<BlockEvent> m_events;
    std::string m_arena; ///< unescaped text of quoted scalars
    bool m_literalAtEnd = false; ///< a literal block scalar's content runs to the end of the text
};

} // namespace

bool parseBlockYaml(std::string_view text, YAML::EventHandler &handler)
{
    if (text.empty() || text.size() >= std::numeric_limits<std::uint32_t>::max() || !onlyPlainCharacters(text))
        return false;
    // A text without a final line break (the last line being typed) is read with one added; only
    // the marks of events at the very end and a literal scalar's final line break would differ from
    // yaml-cpp's, so texts with those go there.
    std::string completed;
    if (text.back() != '\n') {
        completed.reserve(text.size() + 1);
        completed.append(text).push_back('\n');
    }
    BlockParser parser(completed.empty() ? text : std::string_view(completed));
    try {
        parser.parse();
    } catch (const OutsideSubset &) {
        return false;
    }
    if (!completed.empty() && (parser.lastMark() >= text.size() || parser.literalAtEnd()))
        return false;
    parser.replay(handler);
    return true;
}

} // namespace ccm
