// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"

#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::expr {

enum class Op {
    Or,
    And,
    Equal,
    NotEqual,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    In,
    NotIn,
    Contains,
    StartsWith,
    EndsWith,
    Matches,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Power,
    Coalesce,
    Not,
    Negate,
    Plus,
};

/// The operator as written, for messages ("+", "not in", "matches").
std::string_view opName(Op op);

/// A compiled `matches` pattern together with the figure that bounds the work of one match.
struct CompiledPattern {
    std::regex regex;
    std::size_t cost = 0; ///< states of the automaton, roughly; work per subject byte
};

/// Compiles a `matches` pattern; errors are reported at `column`.
ExpressionResult<std::shared_ptr<const CompiledPattern>> compilePattern(const std::string &pattern, int column);

/// Refuses a subject that would make matching `pattern` run for too long.
std::optional<ExpressionError> checkMatchCost(const CompiledPattern &pattern, std::size_t subjectLength, int column);

} // namespace ccm::expr

namespace ccm {

/// One node of the syntax tree. Immutable once parsed; the tree's height is bounded by
/// ExpressionLimits::maxDepth, so recursive evaluation and destruction are safe.
struct Expression::Node {
    enum class Kind {
        Literal, ///< value
        Variable, ///< name
        Member, ///< children[0].name, optional for ?.
        Index, ///< children[0][children[1]], optional for ?.[
        Slice, ///< children[0][children[1]:children[2]], either bound may be null
        Call, ///< name(children...)
        Unary, ///< op children[0]
        Binary, ///< children[0] op children[1]
        Ternary, ///< children[0] ? children[1] : children[2]
        List, ///< [children...]
        Map, ///< {keys[i]: children[i]}
    };

    Kind kind = Kind::Literal;
    int column = 0; ///< the token naming the operation: an operator, a member name, '[', a call's name
    int start = 0; ///< the first column of the whole sub-expression
    int height = 1;
    Json value;
    std::string name;
    expr::Op op = expr::Op::Add;
    bool optional = false;
    std::vector<std::unique_ptr<const Node>> children;
    std::vector<std::string> keys;
    std::shared_ptr<const expr::CompiledPattern> pattern; ///< a literal `matches` pattern, compiled once
};

} // namespace ccm

namespace ccm::expr {

using NodePtr = std::unique_ptr<const Expression::Node>;

/// Parses `text` into a tree whose height stays within limits.maxDepth.
ExpressionResult<std::shared_ptr<const Expression::Node>> parseTree(
    std::string_view text, const ExpressionLimits &limits);

} // namespace ccm::expr
