// SPDX-License-Identifier: Apache-2.0
// The values expressions compute with: numbers widened for arithmetic, equality, UTF-8 character
// positions, and the binary operators. Used by the evaluator (expression_eval.cpp).
#pragma once

#include "core/expr/expression.h"
#include "core/expr/expression_parser.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ccm::expr {

// Concatenation and join refuse results beyond these, so a few operators cannot exhaust memory.
constexpr std::size_t kMaxStringBytes = 16 * 1024 * 1024;
constexpr std::size_t kMaxListItems = 1024 * 1024;

/// A number widened for arithmetic: integers stay exact, unsigned values beyond int64 become real.
struct Number {
    bool isReal = false;
    std::int64_t integer = 0;
    double real = 0;

    [[nodiscard]] double asReal() const { return isReal ? real : static_cast<double>(integer); }
};

/// An evaluation error at `column` of the expression.
ExpressionError errorAt(std::string message, int column);

/// The value as a number; nullopt when it is not one.
std::optional<Number> toNumber(const Json &value);

/// The kind of a value in messages, "nil" for null.
std::string kind(const Json &value);

/// -1, 0 or 1 as `a` is less than, equal to or greater than `b`.
int compareNumbers(const Number &a, const Number &b);

/// Equality where 1 == 1.0 and maps compare regardless of key order. Iterative, so deeply nested
/// data cannot exhaust the stack.
bool deepEqual(const Json &a, const Json &b);

/// Byte offsets where each UTF-8 character starts, with the string's size appended. Stray bytes
/// count as characters of their own, so any string has an answer.
std::vector<std::size_t> characterStarts(const std::string &text);

/// The number of UTF-8 characters in `text`, counted as characterStarts() does.
std::size_t characterCount(const std::string &text);

/// `a op b` for -, *, /, %, ** on numbers, with overflow as an error at `column`.
ExpressionResult<Json> arithmetic(Op op, const Json &a, const Json &b, int column);

/// `a + b`: numbers add, strings and lists concatenate (within kMaxStringBytes and kMaxListItems).
ExpressionResult<Json> add(const Json &a, const Json &b, int column);

/// `a op b` for <, <=, >, >= on two numbers or two strings; NaN is unordered.
ExpressionResult<Json> compare(Op op, const Json &a, const Json &b, int column);

/// `element in container`: an item of a list (by deepEqual), a key of a map.
ExpressionResult<Json> membership(const Json &element, const Json &container, int column);

/// contains, startsWith and endsWith on two strings.
ExpressionResult<Json> stringTest(Op op, const Json &a, const Json &b, int column);

/// A resolved index into a sequence of `size` items: negative counts from the end.
std::optional<std::size_t> resolveIndex(std::int64_t index, std::size_t size);

/// A slice bound clamped into [0, size], as expr-lang does.
std::size_t clampBound(std::int64_t bound, std::size_t size);

/// The value as an exact integer; nullopt for reals and what is not a number.
std::optional<std::int64_t> toInteger(const Json &value);

} // namespace ccm::expr
