// SPDX-License-Identifier: Apache-2.0
#include "core/expr/expression_parser.h"

#include "core/expr/expression_lexer.h"

#include <algorithm>
#include <optional>

namespace ccm::expr {

std::string_view opName(Op op)
{
    switch (op) {
    case Op::Or:
        return "||";
    case Op::And:
        return "&&";
    case Op::Equal:
        return "==";
    case Op::NotEqual:
        return "!=";
    case Op::Less:
        return "<";
    case Op::Greater:
        return ">";
    case Op::LessEqual:
        return "<=";
    case Op::GreaterEqual:
        return ">=";
    case Op::In:
        return "in";
    case Op::NotIn:
        return "not in";
    case Op::Contains:
        return "contains";
    case Op::StartsWith:
        return "startsWith";
    case Op::EndsWith:
        return "endsWith";
    case Op::Matches:
        return "matches";
    case Op::Add:
        return "+";
    case Op::Subtract:
        return "-";
    case Op::Multiply:
        return "*";
    case Op::Divide:
        return "/";
    case Op::Modulo:
        return "%";
    case Op::Power:
        return "**";
    case Op::Coalesce:
        return "??";
    case Op::Not:
        return "!";
    case Op::Negate:
        return "-";
    case Op::Plus:
        return "+";
    }
    return "?";
}

namespace {

using Node = Expression::Node;
using Kind = Node::Kind;

// Binding strength of the binary operators, loosest first; the ternary sits below all of them.
constexpr int kOr = 1;
constexpr int kAnd = 2;
constexpr int kCompare = 3;
constexpr int kSum = 4;
constexpr int kProduct = 5;
constexpr int kPower = 6;
constexpr int kCoalesce = 7;

struct BinaryOperator {
    Op op;
    int precedence;
    int tokens; ///< "not in" spans two tokens
};

/// Words that are operators or literals can never name a variable.
bool isReservedWord(std::string_view word)
{
    static constexpr std::string_view words[]
        = {"true", "false", "nil", "and", "or", "not", "in", "contains", "startsWith", "endsWith", "matches"};
    return std::find(std::begin(words), std::end(words), word) != std::end(words);
}

class Parser {
public:
    Parser(const std::vector<Token> &tokens, const ExpressionLimits &limits)
        : m_tokens(tokens)
        , m_limits(limits)
    {
    }

    ExpressionResult<std::shared_ptr<const Node>> run()
    {
        NodePtr root = ternary();
        if (root && peek().kind != TokenKind::End)
            fail("unexpected " + describeToken(peek()) + ", expected an operator or the end of the expression",
                peek().column);
        if (m_error)
            return *m_error;
        return std::shared_ptr<const Node>(std::move(root));
    }

private:
    /// Counts one level of parser recursion; the parser refuses to go deeper than the limit, so a
    /// hostile text cannot exhaust the stack.
    class Nesting {
    public:
        explicit Nesting(Parser &parser)
            : m_parser(parser)
        {
            ++m_parser.m_depth;
        }
        ~Nesting() { --m_parser.m_depth; }
        Nesting(const Nesting &) = delete;
        Nesting &operator=(const Nesting &) = delete;

    private:
        Parser &m_parser;
    };

    const Token &peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }

    const Token &next() { return m_tokens[std::min(m_pos++, m_tokens.size() - 1)]; }

    bool isOperator(const Token &token, std::string_view text) const
    {
        return token.kind == TokenKind::Operator && token.text == text;
    }

    bool isWord(const Token &token, std::string_view text) const
    {
        return token.kind == TokenKind::Name && token.text == text;
    }

    NodePtr fail(std::string message, int column)
    {
        if (!m_error)
            m_error = ExpressionError {std::move(message), column};
        return nullptr;
    }

    bool tooDeep() const { return m_depth > m_limits.maxDepth; }

    NodePtr failTooDeep() { return fail("expression nests too deeply", peek().column); }

    /// Gives the node its height and start column, refusing a tree taller than the limit: left-
    /// associative chains grow the tree in a loop, without recursion in the parser.
    NodePtr finish(std::unique_ptr<Node> node, int column)
    {
        node->column = column;
        node->start = column;
        int height = 0;
        for (const NodePtr &child : node->children) {
            if (child) {
                height = std::max(height, child->height);
                node->start = std::min(node->start, child->start);
            }
        }
        node->height = height + 1;
        if (node->height > m_limits.maxDepth)
            return fail("expression nests too deeply", column);
        return node;
    }

    NodePtr make(Kind kind, int column, std::vector<NodePtr> children = {})
    {
        auto node = std::make_unique<Node>();
        node->kind = kind;
        node->children = std::move(children);
        return finish(std::move(node), column);
    }

    NodePtr expect(std::string_view text, NodePtr node)
    {
        if (!node)
            return nullptr;
        if (!isOperator(peek(), text))
            return fail("expected '" + std::string(text) + "'", peek().column);
        next();
        return node;
    }

    NodePtr ternary()
    {
        const Nesting nesting(*this);
        if (tooDeep())
            return failTooDeep();
        NodePtr condition = binary(kOr);
        if (!condition || !isOperator(peek(), "?"))
            return condition;
        const int column = next().column;
        NodePtr whenTrue = ternary();
        if (!whenTrue)
            return nullptr;
        if (!isOperator(peek(), ":"))
            return fail("expected ':' of the ternary operator", peek().column);
        next();
        NodePtr whenFalse = ternary();
        if (!whenFalse)
            return nullptr;
        std::vector<NodePtr> children;
        children.push_back(std::move(condition));
        children.push_back(std::move(whenTrue));
        children.push_back(std::move(whenFalse));
        return make(Kind::Ternary, column, std::move(children));
    }

    std::optional<BinaryOperator> binaryOperator() const
    {
        const Token &token = peek();
        if (token.kind == TokenKind::Operator) {
            static const std::pair<std::string_view, BinaryOperator> symbols[] = {
                {"||", {Op::Or, kOr, 1}},
                {"&&", {Op::And, kAnd, 1}},
                {"==", {Op::Equal, kCompare, 1}},
                {"!=", {Op::NotEqual, kCompare, 1}},
                {"<", {Op::Less, kCompare, 1}},
                {">", {Op::Greater, kCompare, 1}},
                {"<=", {Op::LessEqual, kCompare, 1}},
                {">=", {Op::GreaterEqual, kCompare, 1}},
                {"+", {Op::Add, kSum, 1}},
                {"-", {Op::Subtract, kSum, 1}},
                {"*", {Op::Multiply, kProduct, 1}},
                {"/", {Op::Divide, kProduct, 1}},
                {"%", {Op::Modulo, kProduct, 1}},
                {"**", {Op::Power, kPower, 1}},
                {"??", {Op::Coalesce, kCoalesce, 1}},
            };
            for (const auto &[symbol, binary] : symbols) {
                if (token.text == symbol)
                    return binary;
            }
            return std::nullopt;
        }
        if (token.kind != TokenKind::Name)
            return std::nullopt;
        static const std::pair<std::string_view, BinaryOperator> words[] = {
            {"or", {Op::Or, kOr, 1}},
            {"and", {Op::And, kAnd, 1}},
            {"in", {Op::In, kCompare, 1}},
            {"contains", {Op::Contains, kCompare, 1}},
            {"startsWith", {Op::StartsWith, kCompare, 1}},
            {"endsWith", {Op::EndsWith, kCompare, 1}},
            {"matches", {Op::Matches, kCompare, 1}},
        };
        for (const auto &[word, binary] : words) {
            if (token.text == word)
                return binary;
        }
        if (token.text == "not" && isWord(peek(1), "in"))
            return BinaryOperator {Op::NotIn, kCompare, 2};
        return std::nullopt;
    }

    /// Precedence climbing: operands bind to the stronger operator; ** is right-associative.
    NodePtr binary(int minPrecedence)
    {
        NodePtr left = unary();
        while (left) {
            const auto found = binaryOperator();
            if (!found || found->precedence < minPrecedence)
                break;
            const int column = peek().column;
            m_pos += static_cast<std::size_t>(found->tokens);
            const bool rightAssociative = found->op == Op::Power;
            NodePtr right;
            {
                const Nesting nesting(*this);
                if (tooDeep())
                    return failTooDeep();
                right = binary(rightAssociative ? found->precedence : found->precedence + 1);
            }
            if (!right)
                return nullptr;
            std::shared_ptr<const CompiledPattern> pattern;
            if (found->op == Op::Matches && right->kind == Kind::Literal && right->value.is_string()) {
                auto compiled = compilePattern(right->value.get<std::string>(), right->start);
                if (!compiled)
                    return fail(compiled.error().message, compiled.error().column);
                pattern = compiled.value();
            }
            std::vector<NodePtr> children;
            children.push_back(std::move(left));
            children.push_back(std::move(right));
            auto node = std::make_unique<Node>();
            node->kind = Kind::Binary;
            node->op = found->op;
            node->children = std::move(children);
            node->pattern = std::move(pattern);
            left = finish(std::move(node), column);
        }
        return left;
    }

    NodePtr unary()
    {
        const Token &token = peek();
        std::optional<Op> op;
        if (isOperator(token, "!") || isWord(token, "not"))
            op = Op::Not;
        else if (isOperator(token, "-"))
            op = Op::Negate;
        else if (isOperator(token, "+"))
            op = Op::Plus;
        if (!op)
            return postfix();
        const int column = next().column;
        NodePtr operand;
        {
            const Nesting nesting(*this);
            if (tooDeep())
                return failTooDeep();
            // As in expr-lang, a sign binds more loosely than ** and ??: -2 ** 2 is -4.
            operand = *op == Op::Not ? unary() : binary(kPower);
        }
        if (!operand)
            return nullptr;
        std::vector<NodePtr> children;
        children.push_back(std::move(operand));
        auto node = std::make_unique<Node>();
        node->kind = Kind::Unary;
        node->op = *op;
        node->children = std::move(children);
        return finish(std::move(node), column);
    }

    NodePtr member(NodePtr object, bool optional)
    {
        const Token &name = peek();
        if (name.kind != TokenKind::Name)
            return fail("expected a name after '" + std::string(optional ? "?." : ".") + "'", name.column);
        next();
        std::vector<NodePtr> children;
        children.push_back(std::move(object));
        auto node = std::make_unique<Node>();
        node->kind = Kind::Member;
        node->name = name.text;
        node->optional = optional;
        node->children = std::move(children);
        return finish(std::move(node), name.column);
    }

    /// a[i] or a[from:to] with the '[' already read.
    NodePtr index(NodePtr object, int column, bool optional)
    {
        NodePtr from;
        if (!isOperator(peek(), ":")) {
            from = ternary();
            if (!from)
                return nullptr;
        }
        bool slice = false;
        NodePtr to;
        if (isOperator(peek(), ":")) {
            slice = true;
            next();
            if (!isOperator(peek(), "]")) {
                to = ternary();
                if (!to)
                    return nullptr;
            }
        }
        if (!isOperator(peek(), "]"))
            return fail("expected ']'", peek().column);
        next();
        std::vector<NodePtr> children;
        children.push_back(std::move(object));
        children.push_back(std::move(from));
        if (slice)
            children.push_back(std::move(to));
        auto node = std::make_unique<Node>();
        node->kind = slice ? Kind::Slice : Kind::Index;
        node->optional = optional;
        node->children = std::move(children);
        return finish(std::move(node), column);
    }

    NodePtr postfix()
    {
        NodePtr node = primary();
        while (node) {
            const Token &token = peek();
            if (isOperator(token, ".")) {
                next();
                node = member(std::move(node), false);
            } else if (isOperator(token, "?.")) {
                next();
                if (isOperator(peek(), "[")) {
                    const int column = next().column;
                    node = index(std::move(node), column, true);
                } else {
                    node = member(std::move(node), true);
                }
            } else if (isOperator(token, "[")) {
                next();
                node = index(std::move(node), token.column, false);
            } else if (isOperator(token, "(")) {
                return fail("only named functions can be called", token.column);
            } else {
                break;
            }
        }
        return node;
    }

    /// Comma-separated items up to `close`, a trailing comma allowed; `item` parses one.
    template<typename Item> bool list(std::string_view close, Item item)
    {
        while (!isOperator(peek(), close)) {
            if (!item())
                return false;
            if (isOperator(peek(), ",")) {
                next();
                continue;
            }
            if (!isOperator(peek(), close)) {
                fail("expected ',' or '" + std::string(close) + "'", peek().column);
                return false;
            }
        }
        next();
        return true;
    }

    NodePtr primary()
    {
        const Token &token = peek();
        switch (token.kind) {
        case TokenKind::End:
            return fail("unexpected end of expression, expected a value", token.column);
        case TokenKind::Integer:
            next();
            return literal(Json(token.integer), token.column);
        case TokenKind::Float:
            next();
            return literal(Json(token.number), token.column);
        case TokenKind::String:
            next();
            return literal(Json(token.text), token.column);
        case TokenKind::Name:
            return name();
        case TokenKind::Operator:
            break;
        }
        if (isOperator(token, "("))
            return parenthesised();
        if (isOperator(token, "["))
            return listLiteral();
        if (isOperator(token, "{"))
            return mapLiteral();
        if (isOperator(token, "."))
            return element();
        return fail("unexpected " + describeToken(token) + ", expected a value", token.column);
    }

    NodePtr literal(Json value, int column)
    {
        auto node = std::make_unique<Node>();
        node->kind = Kind::Literal;
        node->value = std::move(value);
        return finish(std::move(node), column);
    }

    NodePtr name()
    {
        const Token &token = next();
        if (token.text == "true" || token.text == "false")
            return literal(Json(token.text == "true"), token.column);
        if (token.text == "nil")
            return literal(Json(), token.column);
        if (isReservedWord(token.text))
            return fail("unexpected '" + token.text + "', expected a value", token.column);
        if (!isOperator(peek(), "(")) {
            auto node = std::make_unique<Node>();
            node->kind = Kind::Variable;
            node->name = token.text;
            return finish(std::move(node), token.column);
        }
        next();
        const Nesting nesting(*this);
        if (tooDeep())
            return failTooDeep();
        std::vector<NodePtr> arguments;
        const bool closed = list(")", [&] {
            NodePtr argument = ternary();
            arguments.push_back(std::move(argument));
            return arguments.back() != nullptr;
        });
        if (!closed)
            return nullptr;
        auto node = std::make_unique<Node>();
        node->kind = Kind::Call;
        node->name = token.text;
        node->children = std::move(arguments);
        return finish(std::move(node), token.column);
    }

    /// `.` alone is the variable "." (Jet's range element); `.Name` right after it reads a member.
    NodePtr element()
    {
        const Token &dot = next();
        auto self = std::make_unique<Node>();
        self->kind = Kind::Variable;
        self->name = ".";
        NodePtr node = finish(std::move(self), dot.column);
        if (peek().kind == TokenKind::Name && !peek().spaceBefore)
            return member(std::move(node), false);
        return node;
    }

    NodePtr parenthesised()
    {
        next();
        return expect(")", ternary());
    }

    NodePtr listLiteral()
    {
        const int column = next().column;
        const Nesting nesting(*this);
        if (tooDeep())
            return failTooDeep();
        std::vector<NodePtr> items;
        const bool closed = list("]", [&] {
            items.push_back(ternary());
            return items.back() != nullptr;
        });
        if (!closed)
            return nullptr;
        return make(Kind::List, column, std::move(items));
    }

    NodePtr mapLiteral()
    {
        const int column = next().column;
        const Nesting nesting(*this);
        if (tooDeep())
            return failTooDeep();
        std::vector<NodePtr> values;
        std::vector<std::string> keys;
        const bool closed = list("}", [&] {
            const Token &key = peek();
            if (key.kind != TokenKind::Name && key.kind != TokenKind::String) {
                fail("expected a map key (a name or a string), got " + describeToken(key), key.column);
                return false;
            }
            next();
            if (!isOperator(peek(), ":")) {
                fail("expected ':' after the map key", peek().column);
                return false;
            }
            next();
            keys.push_back(key.text);
            values.push_back(ternary());
            return values.back() != nullptr;
        });
        if (!closed)
            return nullptr;
        auto node = std::make_unique<Node>();
        node->kind = Kind::Map;
        node->children = std::move(values);
        node->keys = std::move(keys);
        return finish(std::move(node), column);
    }

    const std::vector<Token> &m_tokens;
    const ExpressionLimits &m_limits;
    std::size_t m_pos = 0;
    int m_depth = 0;
    std::optional<ExpressionError> m_error;
};

} // namespace

ExpressionResult<std::shared_ptr<const Expression::Node>> parseTree(
    std::string_view text, const ExpressionLimits &limits)
{
    if (text.size() > limits.maxLength)
        return ExpressionError {"expression is " + std::to_string(text.size()) + " bytes long, more than the limit of "
                + std::to_string(limits.maxLength),
            0};
    if (text.find_first_not_of(" \t\n\r\v\f") == std::string_view::npos)
        return ExpressionError {"empty expression", 1};
    auto tokens = tokenize(text);
    if (!tokens)
        return tokens.error();
    return Parser(tokens.value(), limits).run();
}

} // namespace ccm::expr
