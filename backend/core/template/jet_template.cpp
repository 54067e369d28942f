// SPDX-License-Identifier: Apache-2.0
#include "core/template/jet_template.h"

#include "base/text.h"
#include "core/template/output_line_map.h"
#include "core/yaml/source_map.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <utility>
#include <vector>

namespace ccm {

namespace {

constexpr std::size_t kMaxBlockDepth = 100;
constexpr std::size_t kMaxOutputBytes = 64 * 1024 * 1024;
constexpr std::string_view kCommentOpen = "{*";
constexpr std::string_view kCommentClose = "*}";
constexpr auto npos = std::string_view::npos;

struct JetBranch;

/// One piece of a parsed template. Offsets are byte offsets into the template text.
struct JetNode {
    enum class Kind { Text, Output, Define, Assign, If, Range };
    Kind kind = Kind::Text;
    std::size_t offset = 0; ///< the action's opening delimiter, or the assigned variable
    std::string text; ///< Text: the literal text; Define and Assign: the variable
    /// Text: where each piece after the first starts, as (byte in text, template offset), when
    /// pieces separated by comments were merged.
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    std::optional<Expression> expression; ///< Output, Define, Assign and Range
    std::size_t expressionOffset = 0;
    std::string keyName; ///< Range: "i" of "range i, v := x"
    std::string valueName; ///< Range: "v" of "range v := x" and "range i, v := x"
    std::vector<JetBranch> branches; ///< If: one per condition, then the else; Range: the body, then the else
};

struct JetBranch {
    std::optional<Expression> condition; ///< none for an else and for a range's body
    std::size_t conditionOffset = 0;
    std::vector<JetNode> body;
};

/// Turns byte offsets into "FILE:LINE:COL: " prefixes.
class Locator {
public:
    Locator(std::string_view text, std::string fileName)
        : m_lines(text)
        , m_fileName(std::move(fileName))
    {
    }

    [[nodiscard]] Error error(std::size_t offset, const std::string &message) const
    {
        return Error {"template", describeLocation(m_fileName, m_lines.at(offset)) + ": " + message};
    }

    /// The 1-based template line of `offset`.
    [[nodiscard]] int line(std::size_t offset) const { return m_lines.at(offset).line; }

    /// An expression's error, placed where it happened inside the expression starting at `offset`.
    [[nodiscard]] Error error(std::size_t offset, const ExpressionError &failure) const
    {
        const std::size_t inside = failure.column > 0 ? static_cast<std::size_t>(failure.column) - 1 : 0;
        return error(offset + inside, failure.message);
    }

private:
    LineIndex m_lines;
    std::string m_fileName;
};

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isIdentifierStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isIdentifierChar(char c)
{
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
}

bool isIdentifier(std::string_view text)
{
    return !text.empty() && isIdentifierStart(text.front()) && std::all_of(text.begin(), text.end(), isIdentifierChar);
}

/// `text` without surrounding whitespace; `offset` moves to the first byte kept.
std::string_view trimmed(std::string_view text, std::size_t &offset)
{
    while (!text.empty() && isSpace(text.front())) {
        text.remove_prefix(1);
        ++offset;
    }
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

/// The first `token` in `text` outside quoted literals, or npos.
std::size_t findOutsideQuotes(std::string_view text, std::string_view token)
{
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, token.size(), token) == 0)
            return i;
        if (text[i] == '"' || text[i] == '\'' || text[i] == '`') {
            i = skipQuotedLiteral(text, i);
            if (i == npos)
                return npos;
        } else {
            ++i;
        }
    }
    return npos;
}

/// Where the action whose content starts at `from` ends: the index of its right delimiter, or npos.
/// A delimiter inside quotes or brackets does not count, so that [[ list[index[0]] ]] and
/// [[ "]]" ]] work. When the content never balances, the first delimiter counts, and parsing the
/// expression then names the unbalanced quote or bracket instead of a confusing unclosed action.
std::size_t findActionEnd(std::string_view text, std::size_t from, std::string_view right)
{
    int depth = 0;
    std::size_t i = from;
    while (i < text.size()) {
        const char c = text[i];
        if (depth == 0 && text.compare(i, right.size(), right) == 0)
            return i;
        if (c == '"' || c == '\'' || c == '`') {
            i = skipQuotedLiteral(text, i);
            if (i == npos)
                break;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            --depth;
        ++i;
    }
    return text.find(right, from);
}

/// Go's truthiness, which Jet follows: false, 0, nil, "" and empty lists and maps are false.
bool isTruthy(const Json &value)
{
    if (value.is_boolean())
        return value.get<bool>();
    if (value.is_number_float())
        return value.get<double>() != 0.0;
    if (value.is_number())
        return value != 0;
    if (value.is_string())
        return !value.get_ref<const std::string &>().empty();
    if (value.is_array() || value.is_object())
        return !value.empty();
    return false;
}

/// Whether `value` takes more than `limit` bytes, counting strings and keys by length and anything
/// else as 8 bytes. Stops walking as soon as the limit is passed.
bool isLargerThan(const Json &value, std::size_t limit)
{
    std::size_t total = 0;
    std::vector<const Json *> pending {&value};
    while (!pending.empty()) {
        const Json *current = pending.back();
        pending.pop_back();
        if (current->is_string()) {
            total += current->get_ref<const std::string &>().size();
        } else if (current->is_object()) {
            for (auto it = current->begin(); it != current->end(); ++it) {
                total += it.key().size();
                pending.push_back(&it.value());
            }
        } else if (current->is_array()) {
            for (const Json &element : *current)
                pending.push_back(&element);
        } else {
            total += 8;
        }
        if (total > limit)
            return true;
    }
    return false;
}

class Parser {
public:
    Parser(std::string_view text, const JetOptions &options, const Locator &locator)
        : m_text(text)
        , m_left(options.leftDelimiter)
        , m_right(options.rightDelimiter)
        , m_locator(locator)
    {
    }

    Result<std::vector<JetNode>> run()
    {
        if (m_left.empty() || m_right.empty())
            return m_locator.error(0, "the left and right delimiters must not be empty");
        std::size_t pos = 0;
        std::size_t nextAction = m_text.find(m_left);
        std::size_t nextComment = m_text.find(kCommentOpen);
        bool trimNextText = false;
        while (true) {
            if (nextAction < pos)
                nextAction = m_text.find(m_left, pos);
            if (nextComment < pos)
                nextComment = m_text.find(kCommentOpen, pos);
            const std::size_t next = std::min(nextAction, nextComment);
            const bool isAction = next != npos && next == nextAction;
            const std::size_t contentStart = isAction ? next + m_left.size() : npos;
            const bool trimPreviousText = isAction && contentStart + 1 < m_text.size() && m_text[contentStart] == '-'
                && isSpace(m_text[contentStart + 1]);
            appendText(m_text.substr(pos, next == npos ? npos : next - pos), pos, trimNextText, trimPreviousText);
            trimNextText = false;
            if (next == npos)
                break;
            if (!isAction) {
                const std::size_t close = m_text.find(kCommentClose, next + kCommentOpen.size());
                if (close == npos)
                    return m_locator.error(next, "unclosed comment, expected '" + std::string(kCommentClose) + "'");
                pos = close + kCommentClose.size();
                continue;
            }
            const std::size_t end = findActionEnd(m_text, contentStart, m_right);
            if (end == npos)
                return m_locator.error(next, "unclosed action, expected '" + m_right + "'");
            const std::size_t begin = contentStart + (trimPreviousText ? 1 : 0);
            std::size_t finish = end;
            if (finish >= begin + 2 && m_text[finish - 1] == '-' && isSpace(m_text[finish - 2])) {
                --finish;
                trimNextText = true;
            }
            if (auto failure = action(next, begin, finish))
                return *failure;
            pos = end + m_right.size();
        }
        if (!m_open.empty()) {
            const JetNode &block = m_open.back();
            return m_locator.error(block.offset,
                std::string(block.kind == JetNode::Kind::If ? "if" : "range") + " opened here is missing "
                    + tag("end"));
        }
        return std::move(m_root);
    }

private:
    [[nodiscard]] std::string tag(std::string_view keyword) const
    {
        return m_left + " " + std::string(keyword) + " " + m_right;
    }

    std::vector<JetNode> &body() { return m_open.empty() ? m_root : m_open.back().branches.back().body; }

    /// Adds literal text found at `offset`, without the whitespace that trim markers next to it remove.
    void appendText(std::string_view text, std::size_t offset, bool trimStart, bool trimEnd)
    {
        while (trimStart && !text.empty() && isSpace(text.front())) {
            text.remove_prefix(1);
            ++offset;
        }
        while (trimEnd && !text.empty() && isSpace(text.back()))
            text.remove_suffix(1);
        if (text.empty())
            return;
        std::vector<JetNode> &nodes = body();
        if (!nodes.empty() && nodes.back().kind == JetNode::Kind::Text) {
            nodes.back().pieces.emplace_back(nodes.back().text.size(), offset);
            nodes.back().text += text;
            return;
        }
        JetNode node;
        node.offset = offset;
        node.text = std::string(text);
        nodes.push_back(std::move(node));
    }

    Result<Expression> compile(std::string_view text, std::size_t offset) const
    {
        auto parsed = Expression::parse(text);
        if (!parsed)
            return m_locator.error(offset, parsed.error());
        return std::move(parsed).value();
    }

    /// Handles the action opened at `opener` whose content (without trim markers) is
    /// m_text[begin, finish).
    std::optional<Error> action(std::size_t opener, std::size_t begin, std::size_t finish)
    {
        std::size_t offset = begin;
        const std::string_view content = trimmed(m_text.substr(begin, finish - begin), offset);
        if (content.empty())
            return m_locator.error(opener, "empty action");
        std::size_t wordLength = 0;
        while (wordLength < content.size() && isIdentifierChar(content[wordLength]))
            ++wordLength;
        const std::string_view word = content.substr(0, wordLength);
        std::size_t restOffset = offset + wordLength;
        const std::string_view rest = trimmed(content.substr(wordLength), restOffset);

        if (word == "end") {
            if (!rest.empty())
                return m_locator.error(restOffset, "unexpected text after 'end'");
            return closeBlock(opener);
        }
        if (word == "else")
            return elseBranch(opener, rest, restOffset);
        if (word == "if")
            return ifBlock(opener, offset, rest, restOffset);
        if (word == "range")
            return range(opener, rest, restOffset);
        static constexpr std::array<std::string_view, 8> unsupported {
            "block", "yield", "include", "import", "extends", "return", "try", "catch"};
        if (std::find(unsupported.begin(), unsupported.end(), word) != unsupported.end()
            && (wordLength == content.size() || isSpace(content[wordLength])))
            return m_locator.error(offset, "'" + std::string(word) + "' is not supported by this Jet subset");

        if (isIdentifier(word)) {
            const bool define = rest.substr(0, 2) == ":=";
            const bool assign = !rest.empty() && rest.front() == '=' && rest.substr(0, 2) != "==";
            if (define || assign)
                return variable(offset, word, rest, restOffset, define);
        }

        return output(opener, content, offset);
    }

    /// Opens an `if` block whose condition is `rest`, found at `restOffset`.
    std::optional<Error> ifBlock(std::size_t opener, std::size_t offset, std::string_view rest, std::size_t restOffset)
    {
        if (rest.empty())
            return m_locator.error(offset, "'if' needs a condition");
        auto condition = compile(rest, restOffset);
        if (!condition)
            return condition.error();
        JetNode node;
        node.kind = JetNode::Kind::If;
        node.offset = opener;
        node.branches.push_back(JetBranch {std::move(condition).value(), restOffset, {}});
        return openBlock(std::move(node));
    }

    /// Adds a `name := value` (define) or `name = value` (assign) whose text after the name is `rest`.
    std::optional<Error> variable(
        std::size_t offset, std::string_view word, std::string_view rest, std::size_t restOffset, bool define)
    {
        std::size_t valueOffset = restOffset + (define ? 2 : 1);
        const std::string_view value = trimmed(rest.substr(define ? 2 : 1), valueOffset);
        if (value.empty()) {
            // Appended rather than "'" + std::string(word): GCC 12 -O3 reports -Wrestrict on that (GCC bug
            // 105329).
            std::string message = "'";
            message.append(word).append(define ? " :=" : " =").append("' needs a value");
            return m_locator.error(offset, message);
        }
        auto expression = compile(value, valueOffset);
        if (!expression)
            return expression.error();
        JetNode node;
        node.kind = define ? JetNode::Kind::Define : JetNode::Kind::Assign;
        node.offset = offset;
        node.text = std::string(word);
        node.expression = std::move(expression).value();
        node.expressionOffset = valueOffset;
        body().push_back(std::move(node));
        return std::nullopt;
    }

    /// Adds an action that writes the value of the expression `content` to the output.
    std::optional<Error> output(std::size_t opener, std::string_view content, std::size_t offset)
    {
        auto expression = compile(content, offset);
        if (!expression)
            return expression.error();
        JetNode node;
        node.kind = JetNode::Kind::Output;
        node.offset = opener;
        node.expression = std::move(expression).value();
        node.expressionOffset = offset;
        body().push_back(std::move(node));
        return std::nullopt;
    }

    std::optional<Error> range(std::size_t opener, std::string_view rest, std::size_t restOffset)
    {
        const std::string syntax = "bad range syntax, expected " + tag("range x") + ", " + tag("range v := x") + " or "
            + tag("range i, v := x");
        JetNode node;
        node.kind = JetNode::Kind::Range;
        node.offset = opener;
        std::string_view collection = rest;
        node.expressionOffset = restOffset;
        const std::size_t bind = findOutsideQuotes(rest, ":=");
        if (bind != npos) {
            const std::string_view names = rest.substr(0, bind);
            const std::size_t comma = names.find(',');
            std::size_t firstOffset = restOffset;
            const std::string_view first = trimmed(names.substr(0, comma), firstOffset);
            if (!isIdentifier(first))
                return m_locator.error(firstOffset, syntax);
            if (comma == npos) {
                node.valueName = std::string(first);
            } else {
                std::size_t secondOffset = restOffset + comma + 1;
                const std::string_view second = trimmed(names.substr(comma + 1), secondOffset);
                if (!isIdentifier(second))
                    return m_locator.error(secondOffset, syntax);
                node.keyName = std::string(first);
                node.valueName = std::string(second);
            }
            node.expressionOffset = restOffset + bind + 2;
            collection = trimmed(rest.substr(bind + 2), node.expressionOffset);
        }
        if (collection.empty())
            return m_locator.error(node.expressionOffset, syntax);
        auto expression = compile(collection, node.expressionOffset);
        if (!expression)
            return expression.error();
        node.expression = std::move(expression).value();
        node.branches.emplace_back();
        return openBlock(std::move(node));
    }

    std::optional<Error> elseBranch(std::size_t opener, std::string_view rest, std::size_t restOffset)
    {
        const bool elseIf = rest.substr(0, 2) == "if" && (rest.size() == 2 || !isIdentifierChar(rest[2]));
        if (!rest.empty() && !elseIf)
            return m_locator.error(restOffset, "unexpected text after 'else'");
        if (m_open.empty())
            return m_locator.error(opener, tag("else") + " outside of an if or range");
        JetNode &block = m_open.back();
        if (block.kind == JetNode::Kind::Range) {
            if (elseIf)
                return m_locator.error(opener, "a range takes " + tag("else") + " but not else if");
            if (block.branches.size() > 1)
                return m_locator.error(opener, "a second " + tag("else") + " in the same range");
            block.branches.emplace_back();
            return std::nullopt;
        }
        if (!block.branches.back().condition)
            return m_locator.error(opener,
                std::string(elseIf ? "else if" : "a second else") + " after the final " + tag("else") + " of an if");
        if (!elseIf) {
            block.branches.emplace_back();
            return std::nullopt;
        }
        std::size_t conditionOffset = restOffset + 2;
        const std::string_view condition = trimmed(rest.substr(2), conditionOffset);
        if (condition.empty())
            return m_locator.error(restOffset, "'else if' needs a condition");
        auto expression = compile(condition, conditionOffset);
        if (!expression)
            return expression.error();
        block.branches.push_back(JetBranch {std::move(expression).value(), conditionOffset, {}});
        return std::nullopt;
    }

    std::optional<Error> openBlock(JetNode node)
    {
        if (m_open.size() >= kMaxBlockDepth)
            return m_locator.error(node.offset, "blocks are nested deeper than " + std::to_string(kMaxBlockDepth));
        m_open.push_back(std::move(node));
        return std::nullopt;
    }

    std::optional<Error> closeBlock(std::size_t opener)
    {
        if (m_open.empty())
            return m_locator.error(opener, tag("end") + " without an open if or range");
        JetNode node = std::move(m_open.back());
        m_open.pop_back();
        body().push_back(std::move(node));
        return std::nullopt;
    }

    std::string_view m_text;
    std::string m_left;
    std::string m_right;
    const Locator &m_locator;
    std::vector<JetNode> m_root;
    std::vector<JetNode> m_open; ///< blocks still waiting for their end, innermost last
};

/// Jet locals in nested block frames over the caller's scope.
class LocalScope final : public ExpressionScope {
public:
    explicit LocalScope(const ExpressionScope &outer)
        : m_outer(outer)
    {
    }

    [[nodiscard]] const Json *variable(std::string_view name) const override
    {
        for (auto frame = m_frames.rbegin(); frame != m_frames.rend(); ++frame) {
            for (const auto &[local, value] : *frame) {
                if (local == name)
                    return &value;
            }
        }
        return m_outer.variable(name);
    }

    [[nodiscard]] std::optional<Result<Json>> callFunction(
        std::string_view name, const std::vector<Json> &args) const override
    {
        return m_outer.callFunction(name, args);
    }

    [[nodiscard]] bool missingLookupIsEmpty() const override { return m_outer.missingLookupIsEmpty(); }

    void push() { m_frames.emplace_back(); }
    void pop() { m_frames.pop_back(); }

    void define(std::string_view name, Json value)
    {
        for (auto &[local, existing] : m_frames.back()) {
            if (local == name) {
                existing = std::move(value);
                return;
            }
        }
        m_frames.back().emplace_back(std::string(name), std::move(value));
    }

    /// Sets the innermost local called `name`; false when there is none.
    bool assign(std::string_view name, Json value)
    {
        for (auto frame = m_frames.rbegin(); frame != m_frames.rend(); ++frame) {
            for (auto &[local, existing] : *frame) {
                if (local == name) {
                    existing = std::move(value);
                    return true;
                }
            }
        }
        return false;
    }

private:
    const ExpressionScope &m_outer;
    std::vector<std::vector<std::pair<std::string, Json>>> m_frames;
};

/// Opens a frame for a block body and closes it on every way out.
class FrameGuard {
public:
    explicit FrameGuard(LocalScope &scope)
        : m_scope(scope)
    {
        m_scope.push();
    }
    ~FrameGuard() { m_scope.pop(); }
    FrameGuard(const FrameGuard &) = delete;
    FrameGuard &operator=(const FrameGuard &) = delete;

private:
    LocalScope &m_scope;
};

} // namespace

struct JetTemplate::Compiled {
    std::vector<JetNode> nodes;
    Locator locator;
    std::uint64_t maxSteps = 0;
};

namespace {

class Renderer {
public:
    Renderer(const Locator &locator, std::uint64_t maxSteps, const ExpressionScope &outer, std::string &out,
        OutputLineMap *lineMap)
        : m_locator(locator)
        , m_steps(maxSteps)
        , m_scope(outer)
        , m_out(out)
        , m_lineMap(lineMap)
    {
    }

    std::optional<Error> renderBlock(const std::vector<JetNode> &nodes)
    {
        FrameGuard frame(m_scope);
        return renderNodes(nodes);
    }

private:
    std::optional<Error> renderNodes(const std::vector<JetNode> &nodes)
    {
        for (const JetNode &node : nodes) {
            if (auto failure = renderNode(node))
                return failure;
        }
        return std::nullopt;
    }

    /// Counts one step of the work at `offset`; fails once the steps are used up.
    std::optional<Error> step(std::size_t offset)
    {
        if (!m_steps.take())
            return m_locator.error(offset,
                "the template takes more than " + std::to_string(m_steps.limit())
                    + " steps (pieces of text, actions and passes of loops): loops nested over large data?");
        return std::nullopt;
    }

    std::optional<Error> renderNode(const JetNode &node)
    {
        if (auto failure = step(node.offset))
            return failure;
        switch (node.kind) {
        case JetNode::Kind::Text:
            return emitText(node);
        case JetNode::Kind::Output: {
            auto value = evaluate(*node.expression, node.expressionOffset);
            if (!value)
                return value.error();
            return emit(formatValue(value.value()), node.offset, OutputLineMap::Origin::Action);
        }
        case JetNode::Kind::Define:
        case JetNode::Kind::Assign:
            return store(node);
        case JetNode::Kind::If:
            for (const JetBranch &branch : node.branches) {
                if (branch.condition) {
                    auto condition = evaluate(*branch.condition, branch.conditionOffset);
                    if (!condition)
                        return condition.error();
                    if (!isTruthy(condition.value()))
                        continue;
                }
                return renderBlock(branch.body);
            }
            return std::nullopt;
        case JetNode::Kind::Range:
            return range(node);
        }
        return std::nullopt;
    }

    std::optional<Error> store(const JetNode &node)
    {
        auto value = evaluate(*node.expression, node.expressionOffset);
        if (!value)
            return value.error();
        if (isLargerThan(value.value(), kMaxOutputBytes))
            return m_locator.error(node.expressionOffset, "the value of '" + node.text + "' is larger than 64 MiB");
        if (node.kind == JetNode::Kind::Define) {
            m_scope.define(node.text, std::move(value).value());
            return std::nullopt;
        }
        if (!m_scope.assign(node.text, std::move(value).value()))
            return m_locator.error(node.offset,
                "assignment to undefined variable '" + node.text + "', define it with '" + node.text + " := ...'");
        return std::nullopt;
    }

    std::optional<Error> range(const JetNode &node)
    {
        auto collection = evaluate(*node.expression, node.expressionOffset);
        if (!collection)
            return collection.error();
        const Json &items = collection.value();
        if (!items.is_null() && !items.is_array() && !items.is_object())
            return m_locator.error(node.expressionOffset, "cannot range over " + describeJsonType(items));
        if (items.empty()) {
            if (node.branches.size() > 1)
                return renderBlock(node.branches[1].body);
            return std::nullopt;
        }
        if (items.is_array()) {
            for (std::size_t i = 0; i < items.size(); ++i) {
                if (auto failure = iteration(node, Json(static_cast<std::int64_t>(i)), items[i]))
                    return failure;
            }
            return std::nullopt;
        }
        std::vector<std::pair<const std::string *, const Json *>> entries;
        for (auto it = items.begin(); it != items.end(); ++it)
            entries.emplace_back(&it.key(), &it.value());
        std::sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) { return *a.first < *b.first; });
        for (const auto &[key, value] : entries) {
            if (auto failure = iteration(node, Json(*key), *value))
                return failure;
        }
        return std::nullopt;
    }

    std::optional<Error> iteration(const JetNode &node, Json key, const Json &element)
    {
        if (auto failure = step(node.offset))
            return failure;
        FrameGuard frame(m_scope);
        m_scope.define(".", element);
        if (!node.keyName.empty())
            m_scope.define(node.keyName, std::move(key));
        if (!node.valueName.empty())
            m_scope.define(node.valueName, element);
        return renderNodes(node.branches.front().body);
    }

    Result<Json> evaluate(const Expression &expression, std::size_t offset)
    {
        auto value = expression.evaluate(m_scope);
        if (!value)
            return m_locator.error(offset, value.error());
        return std::move(value).value();
    }

    std::optional<Error> emit(std::string_view text, std::size_t offset, OutputLineMap::Origin origin)
    {
        if (m_out.size() + text.size() > kMaxOutputBytes)
            return m_locator.error(offset, "the output is larger than 64 MiB");
        m_out += text;
        if (m_lineMap)
            m_lineMap->append(text, m_locator.line(offset), origin);
        return std::nullopt;
    }

    /// Literal text, piece by piece when comments were cut out of it, so that each output line
    /// maps to the template line it was copied from.
    std::optional<Error> emitText(const JetNode &node)
    {
        if (!m_lineMap || node.pieces.empty())
            return emit(node.text, node.offset, OutputLineMap::Origin::Verbatim);
        const std::string_view text = node.text;
        std::size_t from = 0;
        std::size_t offset = node.offset;
        for (const auto &[start, nextOffset] : node.pieces) {
            if (auto failure = emit(text.substr(from, start - from), offset, OutputLineMap::Origin::Verbatim))
                return failure;
            from = start;
            offset = nextOffset;
        }
        return emit(text.substr(from), offset, OutputLineMap::Origin::Verbatim);
    }

    const Locator &m_locator;
    TemplateSteps m_steps;
    LocalScope m_scope;
    std::string &m_out;
    OutputLineMap *m_lineMap;
};

} // namespace

JetTemplate::JetTemplate(std::shared_ptr<const Compiled> compiled)
    : m_compiled(std::move(compiled))
{
}

Result<JetTemplate> JetTemplate::parse(std::string_view text, const JetOptions &options)
{
    Locator locator(text, options.fileName);
    auto nodes = Parser(text, options, locator).run();
    if (!nodes)
        return nodes.error();
    return JetTemplate(
        std::make_shared<const Compiled>(Compiled {std::move(nodes).value(), std::move(locator), options.maxSteps}));
}

Result<std::string> JetTemplate::render(const ExpressionScope &scope, OutputLineMap *lineMap) const
{
    std::string out;
    // Values come from manifests and facts; whatever a library throws on them must not escape.
    try {
        if (auto failure
            = Renderer(m_compiled->locator, m_compiled->maxSteps, scope, out, lineMap).renderBlock(m_compiled->nodes))
            return *failure;
    } catch (const std::exception &exception) {
        return Error {"template", std::string("rendering failed: ") + exception.what()};
    }
    return out;
}

Result<std::string> renderJet(std::string_view text, const ExpressionScope &scope, const JetOptions &options)
{
    auto parsed = JetTemplate::parse(text, options);
    if (!parsed)
        return parsed.error();
    return parsed.value().render(scope);
}

} // namespace ccm
