// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/template/go_template_lexer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::gotmpl {

struct Pipeline;

/// One operand of a command: a term and the field chain after it (".a.b", "$x.a", "(...).a").
struct Operand {
    enum class Kind { Dot, Field, Variable, Function, Literal, Nil, Pipeline };
    Kind kind = Kind::Dot;
    std::size_t offset = 0;
    std::size_t length = 0; ///< bytes of template text, for messages that quote the operand
    std::string name; ///< "$x" for a variable, the name of a function
    std::vector<std::string> fields;
    Json literal;
    std::shared_ptr<const Pipeline> pipeline;
};

struct Command {
    std::size_t offset = 0;
    std::vector<Operand> operands;
};

struct Pipeline {
    std::size_t offset = 0;
    std::vector<std::string> variables; ///< declared (":=") or assigned ("=") names
    bool assign = false;
    std::vector<Command> commands;
};

struct Node {
    enum class Kind { Text, Action, If, With, Range, Break, Continue };
    Kind kind = Kind::Text;
    std::size_t offset = 0;
    std::string text;
    Pipeline pipeline;
    std::vector<Node> body;
    std::vector<Node> elseBody;
};

/// Builds the parse tree from `tokens`; blocks nest at most `maxDepth` deep, and calls may name
/// the built-in functions or `scopeFunctions`.
Outcome<std::vector<Node>> parseTemplate(
    std::string_view text, std::vector<Token> tokens, int maxDepth, const std::vector<std::string> &scopeFunctions);

} // namespace ccm::gotmpl
