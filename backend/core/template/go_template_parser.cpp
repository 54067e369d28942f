// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template_parser.h"

#include "core/template/go_template_functions.h"

#include <algorithm>
#include <utility>

namespace ccm::gotmpl {

namespace {

class Parser {
public:
    Parser(
        std::string_view text, std::vector<Token> tokens, int maxDepth, const std::vector<std::string> &scopeFunctions)
        : m_text(text)
        , m_tokens(std::move(tokens))
        , m_maxDepth(maxDepth)
        , m_scopeFunctions(scopeFunctions)
    {
    }

    Outcome<std::vector<Node>> parseTemplate()
    {
        std::vector<Node> root;
        auto end = parseList(root, 0);
        if (!end)
            return end.error();
        if (end.value().stop == Stop::End)
            return Failure {end.value().offset, "unexpected {{end}}: no block is open"};
        if (end.value().stop == Stop::Else)
            return Failure {end.value().offset, "unexpected {{else}}: no block is open"};
        return root;
    }

private:
    enum class Stop { Eof, End, Else };
    struct ListEnd {
        Stop stop = Stop::Eof;
        std::size_t offset = 0; ///< of the left delimiter of {{end}} or {{else}}
    };

    [[nodiscard]] const Token &peek(std::size_t ahead = 0) const
    {
        return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)];
    }

    const Token &next()
    {
        const Token &token = peek();
        if (m_pos < m_tokens.size() - 1)
            ++m_pos;
        return token;
    }

    [[nodiscard]] std::string describe(const Token &token) const
    {
        switch (token.type) {
        case Tok::Eof:
            return "end of text";
        case Tok::RightDelim:
            return "end of action";
        case Tok::LeftDelim:
            return "start of action";
        case Tok::String:
            return std::string(m_text.substr(token.offset, token.length));
        default: {
            // Appended rather than "\"" + std::string(...): GCC 12 -O3 reports -Wrestrict on that (GCC
            // bug 105329).
            std::string quotedText = "\"";
            quotedText.append(m_text.substr(token.offset, token.length));
            quotedText += '"';
            return quotedText;
        }
        }
    }

    Failure unexpected(const Token &token, std::string_view where) const
    {
        return Failure {token.offset, "unexpected " + describe(token) + " in " + std::string(where)};
    }

    Outcome<Done> checkDepth(int depth, std::size_t offset) const
    {
        if (depth > m_maxDepth)
            return Failure {offset,
                "nesting too deep: more than " + std::to_string(m_maxDepth) + " levels of blocks and parentheses"};
        return Done {};
    }

    Outcome<Done> expectRightDelim(std::string_view where)
    {
        if (peek().type != Tok::RightDelim)
            return unexpected(peek(), where);
        next();
        return Done {};
    }

    [[nodiscard]] bool isDefined(const std::string &variable) const
    {
        return std::find(m_variables.rbegin(), m_variables.rend(), variable) != m_variables.rend();
    }

    /// Nodes up to the end of the text or an {{end}} or {{else}} (consumed up to the keyword).
    Outcome<ListEnd> parseList(std::vector<Node> &out, int depth)
    {
        while (true) {
            const Token &token = next();
            if (token.type == Tok::Eof)
                return ListEnd {Stop::Eof, token.offset};
            if (token.type == Tok::Text) {
                out.push_back(Node {Node::Kind::Text, token.offset, token.value, {}, {}, {}});
                continue;
            }
            const std::size_t open = token.offset;
            const Token &keyword = peek();
            switch (keyword.type) {
            case Tok::End: {
                next();
                if (auto done = expectRightDelim("{{end}}"); !done)
                    return done.error();
                return ListEnd {Stop::End, open};
            }
            case Tok::Else:
                next();
                return ListEnd {Stop::Else, open};
            case Tok::If:
            case Tok::With:
            case Tok::Range: {
                next();
                auto node = parseControl(keyword.type, open, open, depth + 1);
                if (!node)
                    return node.error();
                out.push_back(std::move(node).value());
                break;
            }
            case Tok::Break:
            case Tok::Continue: {
                const bool isBreak = keyword.type == Tok::Break;
                const std::string name = isBreak ? "{{break}}" : "{{continue}}";
                if (m_rangeDepth == 0)
                    return Failure {keyword.offset, name + " outside {{range}}"};
                next();
                if (auto done = expectRightDelim(name); !done)
                    return done.error();
                out.push_back(Node {isBreak ? Node::Kind::Break : Node::Kind::Continue, open, {}, {}, {}, {}});
                break;
            }
            case Tok::Unsupported:
                return Failure {keyword.offset, "{{" + keyword.value + "}} is not supported: a template is one file"};
            default: {
                auto pipeline = parsePipeline("command", depth, std::nullopt);
                if (!pipeline)
                    return pipeline.error();
                out.push_back(Node {Node::Kind::Action, open, {}, std::move(pipeline).value(), {}, {}});
                break;
            }
            }
        }
    }

    /// if, with or range after its keyword, up to and including its {{end}}. `reportAt` is where
    /// the block began for a missing {{end}}: the first {{if}} of an else-if chain.
    Outcome<Node> parseControl(Tok type, std::size_t open, std::size_t reportAt, int depth)
    {
        const std::string name = type == Tok::If ? "if" : type == Tok::With ? "with" : "range";
        if (auto ok = checkDepth(depth, open); !ok)
            return ok.error();
        const std::size_t variablesMark = m_variables.size();
        Node node;
        node.kind = type == Tok::If ? Node::Kind::If : type == Tok::With ? Node::Kind::With : Node::Kind::Range;
        node.offset = open;
        auto pipeline = parsePipeline(name, depth, std::nullopt);
        if (!pipeline)
            return pipeline.error();
        node.pipeline = std::move(pipeline).value();

        // The else branch sees the block's own declarations but not those made in its body, as
        // at run time.
        const std::size_t bodyMark = m_variables.size();
        if (type == Tok::Range)
            ++m_rangeDepth;
        auto end = parseList(node.body, depth);
        if (type == Tok::Range)
            --m_rangeDepth;
        if (!end)
            return end.error();
        m_variables.resize(bodyMark);
        const Failure missingEnd {reportAt, "missing {{end}} for this {{" + name + "}}"};
        if (end.value().stop == Stop::Eof)
            return missingEnd;
        if (end.value().stop == Stop::Else) {
            const Token &after = peek();
            if (after.type == Tok::If || after.type == Tok::With) {
                next();
                auto chained = parseControl(after.type, end.value().offset, reportAt, depth + 1);
                if (!chained)
                    return chained.error();
                node.elseBody.push_back(std::move(chained).value());
            } else {
                if (auto done = expectRightDelim("{{else}}"); !done)
                    return done.error();
                auto elseEnd = parseList(node.elseBody, depth);
                if (!elseEnd)
                    return elseEnd.error();
                if (elseEnd.value().stop == Stop::Eof)
                    return missingEnd;
                if (elseEnd.value().stop == Stop::Else)
                    return Failure {elseEnd.value().offset, "unexpected second {{else}} in {{" + name + "}}"};
            }
        }
        m_variables.resize(variablesMark);
        return node;
    }

    /// Declarations, then commands separated by '|', up to the right delimiter or, inside
    /// parentheses (`paren` is where the '(' is), the ')'; both are consumed.
    Outcome<Pipeline> parsePipeline(const std::string &context, int depth, std::optional<std::size_t> paren)
    {
        Pipeline pipeline;
        pipeline.offset = peek().offset;
        if (peek().type == Tok::Variable) {
            const Tok after = peek(1).type;
            if (after == Tok::Declare || after == Tok::Assign) {
                pipeline.variables.push_back(next().value);
                pipeline.assign = next().type == Tok::Assign;
            } else if (after == Tok::Comma) {
                if (context != "range")
                    return Failure {peek(1).offset, "too many declarations in " + context};
                pipeline.variables.push_back(next().value);
                next();
                if (peek().type != Tok::Variable || (peek(1).type != Tok::Declare && peek(1).type != Tok::Assign))
                    return Failure {peek().offset, "range can only initialize variables: expected $name := after ','"};
                pipeline.variables.push_back(next().value);
                pipeline.assign = next().type == Tok::Assign;
            }
            if (pipeline.assign) {
                for (const std::string &variable : pipeline.variables) {
                    if (!isDefined(variable))
                        return Failure {pipeline.offset, "undefined variable \"" + variable + "\""};
                }
            }
        }

        while (true) {
            auto command = parseCommand(depth);
            if (!command)
                return command.error();
            if (command.value().operands.empty()) {
                return Failure {command.value().offset,
                    pipeline.commands.empty() ? "missing value for " + context
                                              : std::string("missing command after '|'")};
            }
            pipeline.commands.push_back(std::move(command).value());
            const Token &token = peek();
            if (token.type == Tok::Pipe) {
                next();
                continue;
            }
            if (paren) {
                if (token.type != Tok::RightParen)
                    return Failure {*paren, "unclosed left paren"};
            } else if (token.type != Tok::RightDelim) {
                return Failure {token.offset, "unexpected right paren: no '(' is open"};
            }
            next();
            break;
        }

        for (std::size_t stage = 1; stage < pipeline.commands.size(); ++stage) {
            const Operand &first = pipeline.commands[stage].operands.front();
            if (first.kind == Operand::Kind::Literal || first.kind == Operand::Kind::Dot
                || first.kind == Operand::Kind::Nil)
                return Failure {first.offset, "non executable command in pipeline stage " + std::to_string(stage + 1)};
        }
        if (!pipeline.assign) {
            for (const std::string &variable : pipeline.variables)
                m_variables.push_back(variable);
        }
        return pipeline;
    }

    /// Operands up to '|', ')' or the end of the action, which are left for the caller.
    Outcome<Command> parseCommand(int depth)
    {
        Command command;
        command.offset = peek().offset;
        while (true) {
            const Token &token = peek();
            if (token.type == Tok::Pipe || token.type == Tok::RightParen || token.type == Tok::RightDelim
                || token.type == Tok::Eof)
                return command;
            if (!command.operands.empty() && !token.spaceBefore) {
                if (token.type == Tok::Number && token.value.starts_with("."))
                    return Failure {token.offset,
                        "unexpected " + describe(token) + ": a field is a name; index gets a list element"};
                return unexpected(token, "operand: a space must separate arguments");
            }
            auto operand = parseOperand(depth);
            if (!operand)
                return operand.error();
            command.operands.push_back(std::move(operand).value());
        }
    }

    Outcome<Operand> parseOperand(int depth)
    {
        const Token &token = next();
        auto term = parseTerm(token, depth);
        if (!term)
            return term.error();
        Operand &operand = term.value();
        while (peek().type == Tok::Field && !peek().spaceBefore) {
            if (operand.kind != Operand::Kind::Field && operand.kind != Operand::Kind::Variable
                && operand.kind != Operand::Kind::Pipeline)
                return Failure {peek().offset,
                    "unexpected " + describe(peek()) + " after "
                        + std::string(m_text.substr(token.offset, token.length)) + ": only maps have fields"};
            operand.fields.push_back(next().value);
        }
        const Token &last = m_tokens[m_pos - 1];
        operand.length = last.offset + last.length - operand.offset;
        return std::move(operand);
    }

    /// The operand that `token` starts, without the fields chained after it.
    Outcome<Operand> parseTerm(const Token &token, int depth)
    {
        Operand operand;
        operand.offset = token.offset;
        switch (token.type) {
        case Tok::Dot:
            operand.kind = Operand::Kind::Dot;
            break;
        case Tok::Nil:
            operand.kind = Operand::Kind::Nil;
            break;
        case Tok::Bool:
            operand.kind = Operand::Kind::Literal;
            operand.literal = token.value == "true";
            break;
        case Tok::String:
            operand.kind = Operand::Kind::Literal;
            operand.literal = token.value;
            break;
        case Tok::Number: {
            auto number = parseNumber(token.value, token.offset);
            if (!number)
                return number.error();
            operand.kind = Operand::Kind::Literal;
            operand.literal = std::move(number).value();
            break;
        }
        case Tok::Field:
            operand.kind = Operand::Kind::Field;
            operand.fields.push_back(token.value);
            break;
        case Tok::Variable:
            if (!isDefined(token.value))
                return Failure {token.offset, "undefined variable \"" + token.value + "\""};
            operand.kind = Operand::Kind::Variable;
            operand.name = token.value;
            break;
        case Tok::Identifier:
            if (findFunction(token.value) == nullptr
                && std::find(m_scopeFunctions.begin(), m_scopeFunctions.end(), token.value) == m_scopeFunctions.end())
                return Failure {token.offset, "function \"" + token.value + "\" not defined"};
            operand.kind = Operand::Kind::Function;
            operand.name = token.value;
            break;
        case Tok::LeftParen: {
            if (auto ok = checkDepth(depth + 1, token.offset); !ok)
                return ok.error();
            auto pipeline = parsePipeline("parenthesized pipeline", depth + 1, token.offset);
            if (!pipeline)
                return pipeline.error();
            operand.kind = Operand::Kind::Pipeline;
            operand.pipeline = std::make_shared<const Pipeline>(std::move(pipeline).value());
            break;
        }
        default:
            return unexpected(token, "operand");
        }
        return operand;
    }

    std::string_view m_text;
    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_maxDepth;
    const std::vector<std::string> &m_scopeFunctions;
    int m_rangeDepth = 0;
    std::vector<std::string> m_variables {"$"};
};

} // namespace

Outcome<std::vector<Node>> parseTemplate(
    std::string_view text, std::vector<Token> tokens, int maxDepth, const std::vector<std::string> &scopeFunctions)
{
    return Parser(text, std::move(tokens), maxDepth, scopeFunctions).parseTemplate();
}

} // namespace ccm::gotmpl
