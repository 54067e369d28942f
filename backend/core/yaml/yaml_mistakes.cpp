// SPDX-License-Identifier: Apache-2.0
#include "core/yaml/yaml_mistakes.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ccm {
namespace yaml_mistakes {
namespace {

/// Levels of nesting this check follows. Deeper text is left to the parser's own message, which
/// bounds the memory hostile text can make it take.
constexpr std::size_t kMaxDepth = 1000;

/// Where a bracket, a quote or a node started: 1-based line and byte column.
struct Spot {
    int line = 0;
    int column = 0;
};

/// One level of block structure: the keys of a map, the items of a list, or the lines of a plain
/// scalar, all starting at `column` (0-based). `line` and `text` are those of the last line seen
/// at the level, for messages.
struct Level {
    enum class Kind { Map, List, Scalar } kind = Kind::Map;
    int column = 0;
    int line = 0;
    std::string text; ///< the key of a map, the item of a list, the line of a scalar
};

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

/// True when `text` from `at` holds nothing but blanks and maybe a comment.
bool restIsEmpty(std::string_view text, std::size_t at)
{
    while (at < text.size() && isBlank(text[at]))
        ++at;
    return at >= text.size() || text[at] == '#';
}

/// `text` up to its comment, without the blanks around it.
std::string_view withoutComment(std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '#' && (i == 0 || isBlank(text[i - 1]))) {
            text = text.substr(0, i);
            break;
        }
    }
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

/// The offset of the ':' that makes `content` a `key: value` line, or npos.
std::size_t keyIndicator(std::string_view content)
{
    std::size_t from = 0;
    if (!content.empty() && (content[0] == '"' || content[0] == '\'')) {
        const std::size_t close = closingYamlQuote(content, 0);
        if (close == std::string_view::npos)
            return std::string_view::npos;
        from = close + 1;
        while (from < content.size() && isBlank(content[from]))
            ++from;
        return from < content.size() && content[from] == ':'
                && (from + 1 == content.size() || isBlank(content[from + 1]))
            ? from
            : std::string_view::npos;
    }
    if (!content.empty() && (content[0] == '[' || content[0] == '{'))
        return std::string_view::npos;
    for (std::size_t i = from; i < content.size(); ++i) {
        if (content[i] == '#' && i > 0 && isBlank(content[i - 1]))
            break;
        if (content[i] == ':' && (i + 1 == content.size() || isBlank(content[i + 1])))
            return i;
    }
    return std::string_view::npos;
}

/// "`text`", cut to a readable length.
std::string backticked(std::string_view text)
{
    text = withoutComment(text);
    constexpr std::size_t kLongest = 40;
    if (text.size() > kLongest)
        return "`" + std::string(text.substr(0, kLongest)) + "...`";
    return "`" + std::string(text) + "`";
}

std::string spaces(int count)
{
    return std::to_string(count) + (count == 1 ? " space" : " spaces");
}

/// How a node is named in a message: a key by its name, a list item or a scalar by its text.
std::string nodeName(Level::Kind kind, std::string_view text)
{
    if (kind == Level::Kind::List)
        return "the list item " + backticked(text);
    return backticked(text);
}

/// What a line's siblings are, for "... but its siblings 12 (`owner` on line 34)".
std::string siblingsOf(const Level &level)
{
    if (level.kind == Level::Kind::List)
        return "the list items before it " + std::to_string(level.column) + " (" + backticked(level.text) + " on line "
            + std::to_string(level.line) + ")";
    return "its siblings " + std::to_string(level.column) + " (" + backticked(level.text) + " on line "
        + std::to_string(level.line) + ")";
}

class Scanner {
public:
    explicit Scanner(std::string_view text)
        : m_text(text)
    {
    }

    std::optional<Diagnostic> run()
    {
        std::size_t start = 0;
        int number = 0;
        while (start <= m_text.size() && !m_mistake && !m_giveUp) {
            std::size_t end = m_text.find('\n', start);
            if (end == std::string_view::npos)
                end = m_text.size();
            std::string_view line = m_text.substr(start, end - start);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            scanLine(++number, line);
            start = end + 1;
        }
        if (m_giveUp)
            return std::nullopt;
        if (!m_mistake && m_quote)
            report(*m_quote, "this quoted string is never closed");
        if (!m_mistake && !m_flow.empty())
            report(m_flow.back().spot,
                std::string("the '") + m_flow.back().bracket + "' opened here is never closed; close it with '"
                    + (m_flow.back().bracket == '[' ? ']' : '}') + "'");
        return m_mistake;
    }

private:
    struct Bracket {
        char bracket;
        Spot spot;
    };

    void report(Spot spot, const std::string &message)
    {
        if (!m_mistake)
            m_mistake
                = Diagnostic {Severity::Error, "invalid YAML: " + message, "", SourcePosition {spot.line, spot.column}};
    }

    void scanLine(int number, std::string_view line);
    void continueQuote(int number, std::string_view line);
    void scanFlow(int number, std::string_view line, std::size_t from);
    bool placeNode(int number, int column, std::string_view content);
    void placeBeside(int number, int column, std::string_view content, Level::Kind kind);
    void readNode(int number, std::string_view line, std::size_t at, int ownerColumn);
    void readValue(int number, std::string_view line, std::size_t at, int ownerColumn);
    void afterClosed(int number, std::string_view line, std::size_t at, std::string_view what);
    void checkQuoted(int number, std::string_view line, std::size_t open, std::size_t close);

    std::string_view m_text;
    std::vector<Level> m_levels;
    std::vector<Bracket> m_flow;
    std::optional<Spot> m_quote; ///< a quoted scalar that runs on past its line
    char m_quoteChar = '"';
    bool m_quoteInFlow = false;
    int m_blockScalarOwner = -1; ///< the column a block scalar's lines must be deeper than, or -1
    int m_blockIndent = -1; ///< the indentation of a block scalar's lines, once known
    bool m_opened = false; ///< the last node ended with ':' or '-': a deeper level may follow
    bool m_giveUp = false;
    std::optional<Diagnostic> m_mistake;
};

void Scanner::scanLine(int number, std::string_view line)
{
    if (m_quote)
        return continueQuote(number, line);
    if (!m_flow.empty())
        return scanFlow(number, line, 0);
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ')
        ++indent;
    if (m_blockScalarOwner >= 0) {
        // Its first line that is not blank sets the indentation of a block scalar's lines.
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            return;
        if (m_blockIndent < 0 && int(indent) > m_blockScalarOwner)
            m_blockIndent = int(indent);
        if (m_blockIndent >= 0 && int(indent) >= m_blockIndent)
            return;
        m_blockScalarOwner = m_blockIndent = -1;
    }
    std::size_t content = indent;
    while (content < line.size() && isBlank(line[content]))
        ++content;
    if (restIsEmpty(line, content))
        return;
    if (content != indent) {
        report(Spot {number, int(indent) + 1}, "a tab indents this line; YAML indents with spaces only");
        return;
    }
    const std::string_view rest = line.substr(indent);
    if (rest.starts_with("---") || rest.starts_with("...")) {
        m_giveUp = rest.size() > 3 && !restIsEmpty(rest, 3);
        m_levels.clear();
        m_opened = false;
        return;
    }
    if (rest[0] == '%' || (rest[0] == '?' && (rest.size() == 1 || isBlank(rest[1])))) {
        m_giveUp = true;
        return;
    }
    readNode(number, line, indent, -1);
}

void Scanner::continueQuote(int number, std::string_view line)
{
    const char quote = m_quoteChar;
    std::string probe(1, quote);
    probe += line;
    const std::size_t close = closingYamlQuote(probe, 0);
    if (close == std::string_view::npos)
        return;
    const std::size_t after = close; // offset in `line` just past the closing quote
    const Spot opened = *m_quote;
    m_quote.reset();
    if (m_quoteInFlow)
        return scanFlow(number, line, after);
    std::size_t next = after;
    while (next < line.size() && isBlank(line[next]))
        ++next;
    if (next < line.size() && line[next] == ':') { // it was a key
        m_opened = true;
        ++next;
        while (next < line.size() && isBlank(line[next]))
            ++next;
        return readValue(number, line, next, opened.column - 1);
    }
    if (!restIsEmpty(line, after))
        report(opened,
            "this quoted string is not closed on its line; it runs on to the " + std::string(1, quote) + " on line "
                + std::to_string(number) + ", column " + std::to_string(close));
}

void Scanner::scanFlow(int number, std::string_view line, std::size_t from)
{
    for (std::size_t i = from; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '#' && (i == 0 || isBlank(line[i - 1])))
            return;
        if (c == '"' || c == '\'') {
            const std::size_t close = closingYamlQuote(line, i);
            if (close == std::string_view::npos) {
                m_quote = Spot {number, int(i) + 1};
                m_quoteChar = c;
                m_quoteInFlow = true;
                return;
            }
            i = close;
        } else if (c == '[' || c == '{') {
            m_flow.push_back(Bracket {c, Spot {number, int(i) + 1}});
            if (m_flow.size() > kMaxDepth) {
                m_giveUp = true;
                return;
            }
        } else if (c == ']' || c == '}') {
            const char expected = c == ']' ? '[' : '{';
            if (m_flow.empty() || m_flow.back().bracket != expected) {
                report(Spot {number, int(i) + 1},
                    m_flow.empty() ? std::string("'") + c + "' closes nothing"
                                   : std::string("'") + c + "' does not match the '" + m_flow.back().bracket
                            + "' opened at line " + std::to_string(m_flow.back().spot.line) + ", column "
                            + std::to_string(m_flow.back().spot.column));
                return;
            }
            m_flow.pop_back();
            if (m_flow.empty())
                return afterClosed(number, line, i + 1, "the flow collection");
        }
    }
}

/// What may follow a quoted scalar or a flow collection on its line: nothing but a comment.
void Scanner::afterClosed(int number, std::string_view line, std::size_t at, std::string_view what)
{
    std::size_t next = at;
    while (next < line.size() && isBlank(line[next]))
        ++next;
    if (restIsEmpty(line, next) || line[next] == ':')
        return;
    report(Spot {number, int(next) + 1},
        "unexpected text " + backticked(line.substr(next)) + " after " + std::string(what) + " that ends at column "
            + std::to_string(at));
}

/// Reads the node at `at` of `line`: list dashes, then a key and its value or a scalar.
void Scanner::readNode(int number, std::string_view line, std::size_t at, int ownerColumn)
{
    for (;;) { // one round a list dash: "- - key: value"
        // An anchor or a tag alone ("- &base") belongs to the node on the lines below.
        std::size_t properties = at;
        while (properties < line.size() && (line[properties] == '&' || line[properties] == '!')) {
            while (properties < line.size() && !isBlank(line[properties]))
                ++properties;
            while (properties < line.size() && isBlank(line[properties]))
                ++properties;
        }
        if (properties != at && restIsEmpty(line, properties))
            return;
        const std::string_view content = line.substr(at);
        const bool item = content == "-" || content.starts_with("- ") || content.starts_with("-\t");
        if (!placeNode(number, int(at), content))
            return;
        if (!item)
            break;
        std::size_t next = at + 1;
        while (next < line.size() && isBlank(line[next]))
            ++next;
        m_opened = true;
        if (restIsEmpty(line, next))
            return;
        ownerColumn = int(at);
        at = next;
    }
    const std::string_view content = line.substr(at);
    const std::size_t colon = keyIndicator(content);
    if (colon == std::string_view::npos)
        return readValue(number, line, at, ownerColumn < 0 ? int(at) - 1 : ownerColumn);
    m_opened = true;
    std::size_t value = at + colon + 1;
    while (value < line.size() && isBlank(line[value]))
        ++value;
    readValue(number, line, value, int(at));
}

/// Places a line's node whose content starts at `column` among the levels. False after a mistake.
bool Scanner::placeNode(int number, int column, std::string_view content)
{
    const bool item = content == "-" || content.starts_with("- ") || content.starts_with("-\t");
    // A quoted scalar that goes on to the next lines may turn out to be a key there.
    const bool unclosedQuote = !content.empty() && (content[0] == '"' || content[0] == '\'')
        && closingYamlQuote(content, 0) == std::string_view::npos;
    const bool key = !item && (unclosedQuote || keyIndicator(content) != std::string_view::npos);
    const Level::Kind kind = item ? Level::Kind::List : key ? Level::Kind::Map : Level::Kind::Scalar;
    std::optional<Level> deeper;
    while (!m_levels.empty() && m_levels.back().column > column) {
        deeper = m_levels.back();
        m_levels.pop_back();
    }
    // Messages show the start of a line only; a longer part would make every level cost its line.
    constexpr std::size_t kShown = 80;
    const std::string name = key && !item
        ? std::string(withoutComment(content.substr(0, std::min(keyIndicator(content), kShown))))
        : std::string(withoutComment(content.substr(0, kShown)));
    if (deeper && (m_levels.empty() || m_levels.back().column < column)) {
        report(Spot {number, column + 1},
            nodeName(kind, name) + " is indented " + spaces(column) + " but " + siblingsOf(*deeper));
        return false;
    }
    if (m_levels.empty() || m_levels.back().column < column) {
        if (!m_opened && !m_levels.empty()) {
            if (kind == Level::Kind::Scalar)
                return false; // the next line of a plain scalar
            report(Spot {number, column + 1},
                nodeName(kind, name) + " is indented " + spaces(column) + " but " + siblingsOf(m_levels.back())
                    + "; only a line that ends with ':' or '-' starts a deeper level");
            return false;
        }
        m_levels.push_back(Level {kind, column, number, name});
        m_giveUp = m_levels.size() > kMaxDepth;
        return !m_giveUp;
    }
    placeBeside(number, column, content, kind);
    if (!m_mistake)
        m_levels.back() = Level {kind, column, number, name};
    return !m_mistake;
}

/// Checks a node that starts at the column of the level above it against its siblings.
void Scanner::placeBeside(int number, int column, std::string_view content, Level::Kind kind)
{
    Level &top = m_levels.back();
    if (top.kind == Level::Kind::Scalar) {
        if (kind == Level::Kind::Scalar)
            return; // the next line of a plain scalar
        report(Spot {top.line, top.column + 1},
            "expected `key: value`, found " + backticked(top.text)
                + (top.text.find(':') != std::string::npos ? "; put a space after the ':'" : ""));
        return;
    }
    if (top.kind == Level::Kind::List && kind != Level::Kind::List) {
        // A list written at its key's column ("packages:\n- a\nnext: 1") ends at the next key.
        if (m_levels.size() >= 2 && m_levels[m_levels.size() - 2].column == column) {
            m_levels.pop_back();
            return placeBeside(number, column, content, kind);
        }
        const bool dashed = content.size() > 1 && content[0] == '-';
        report(Spot {number, column + 1},
            "expected a list item `- ...` like " + backticked(top.text) + " on line " + std::to_string(top.line)
                + ", found " + backticked(content) + (dashed ? "; put a space after the '-'" : ""));
        return;
    }
    if (top.kind == Level::Kind::Map && kind == Level::Kind::List) {
        if (m_opened) {
            m_levels.push_back(Level {kind, column, number, ""});
            return;
        }
        report(Spot {number, column + 1},
            "expected `key: value` like " + backticked(top.text) + " on line " + std::to_string(top.line)
                + ", found the list item " + backticked(content));
        return;
    }
    if (top.kind == Level::Kind::Map && kind == Level::Kind::Scalar)
        report(Spot {number, column + 1},
            "expected `key: value`, found " + backticked(content)
                + (withoutComment(content).find(':') != std::string_view::npos ? "; put a space after the ':'" : ""));
}

/// Checks a quoted scalar closed on its line, from `open` to `close`: its escapes and what follows.
void Scanner::checkQuoted(int number, std::string_view line, std::size_t open, std::size_t close)
{
    static constexpr std::string_view kEscapes = "0abt\tnvfre \"/\\N_LPxuU";
    for (std::size_t i = open + 1; line[open] == '"' && i < close; ++i) {
        if (line[i] != '\\')
            continue;
        if (kEscapes.find(line[i + 1]) == std::string_view::npos) {
            report(Spot {number, int(i) + 1},
                backticked(line.substr(i, 2))
                    + " is not an escape YAML knows; write \\\\ for a backslash, or put the text in single quotes");
            return;
        }
        ++i;
    }
    const std::size_t after = close + 1;
    if (after < line.size() && !isBlank(line[after]) && line[after] != ':' && line[after] != '#') {
        report(Spot {number, int(close) + 1},
            std::string("the quoted string ends here and ") + backticked(withoutComment(line.substr(after)))
                + " follows; "
                + (line[open] == '\'' ? "inside single quotes write '' for a quote, as in 'it''s'"
                                      : "inside double quotes write \\\" for a quote, as in \"say \\\"hi\\\"\""));
        return;
    }
    afterClosed(number, line, after, "the quoted string");
}

/// Reads a value (or a scalar that is the whole node) at `at`; `ownerColumn` is the column of the
/// key or dash it belongs to.
void Scanner::readValue(int number, std::string_view line, std::size_t at, int ownerColumn)
{
    // Anchors and tags before the value.
    while (at < line.size() && (line[at] == '&' || line[at] == '!')) {
        while (at < line.size() && !isBlank(line[at]))
            ++at;
        while (at < line.size() && isBlank(line[at]))
            ++at;
    }
    if (restIsEmpty(line, at))
        return;
    m_opened = false;
    const char c = line[at];
    if (c == '|' || c == '>') {
        m_blockScalarOwner = ownerColumn;
        m_blockIndent = -1;
        // An indentation indicator ("|2") gives the indentation of the lines itself.
        for (std::size_t i = at + 1; i < line.size() && i < at + 3; ++i)
            if (line[i] >= '1' && line[i] <= '9')
                m_blockIndent = std::max(ownerColumn, 0) + (line[i] - '0');
        return;
    }
    if (c == '"' || c == '\'') {
        const std::size_t close = closingYamlQuote(line, at);
        if (close == std::string_view::npos) {
            m_quote = Spot {number, int(at) + 1};
            m_quoteChar = c;
            m_quoteInFlow = false;
            return;
        }
        return checkQuoted(number, line, at, close);
    }
    if (c == '[' || c == '{')
        return scanFlow(number, line, at);
    const std::string_view plain = withoutComment(line.substr(at));
    if (const std::size_t inner = plain.find(": "); inner != std::string_view::npos && keyIndicator(plain) == inner)
        report(Spot {number, int(at + inner) + 1},
            "a value cannot hold ': ' unquoted; put it in quotes: " + backticked("\"" + std::string(plain) + "\""));
}

} // namespace
} // namespace yaml_mistakes

std::optional<Diagnostic> findYamlMistake(std::string_view text)
{
    return yaml_mistakes::Scanner(text).run();
}

/// Double quotes escape with a backslash; single quotes only by doubling the quote.
std::size_t closingYamlQuote(std::string_view text, std::size_t open)
{
    const char quote = text[open];
    for (std::size_t i = open + 1; i < text.size(); ++i) {
        if (quote == '"' && text[i] == '\\') {
            ++i;
        } else if (text[i] == quote) {
            if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
                ++i;
                continue;
            }
            return i;
        }
    }
    return std::string_view::npos;
}

} // namespace ccm
