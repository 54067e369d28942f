// SPDX-License-Identifier: Apache-2.0
#include "core/expr/expression_operators.h"

#include "core/model/json.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ccm::expr {

ExpressionError errorAt(std::string message, int column)
{
    return ExpressionError {std::move(message), column};
}

std::optional<Number> toNumber(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::number_integer:
        return Number {false, value.get<std::int64_t>(), 0};
    case Json::value_t::number_unsigned: {
        const auto u = value.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return Number {false, static_cast<std::int64_t>(u), 0};
        return Number {true, 0, static_cast<double>(u)};
    }
    case Json::value_t::number_float:
        return Number {true, 0, value.get<double>()};
    default:
        return std::nullopt;
    }
}

std::string kind(const Json &value)
{
    return value.is_null() ? "nil" : describeJsonType(value);
}

int compareNumbers(const Number &a, const Number &b)
{
    if (!a.isReal && !b.isReal)
        return a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
    const double x = a.asReal();
    const double y = b.asReal();
    return x < y ? -1 : x > y ? 1 : 0;
}

namespace {

bool numbersEqual(const Json &a, const Json &b)
{
    if (a.is_number_unsigned() && b.is_number_unsigned())
        return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    const auto x = toNumber(a);
    const auto y = toNumber(b);
    if (x->isReal || y->isReal)
        return x->asReal() == y->asReal();
    return x->integer == y->integer;
}

} // namespace

/// Equality where 1 == 1.0 and maps compare regardless of key order. Iterative, so deeply nested
/// data cannot exhaust the stack.
bool deepEqual(const Json &a, const Json &b)
{
    std::vector<std::pair<const Json *, const Json *>> pending {{&a, &b}};
    while (!pending.empty()) {
        const auto [x, y] = pending.back();
        pending.pop_back();
        if (x->is_number() && y->is_number()) {
            if (!numbersEqual(*x, *y))
                return false;
            continue;
        }
        if (x->type() != y->type())
            return false;
        if (x->is_array()) {
            if (x->size() != y->size())
                return false;
            for (std::size_t i = 0; i < x->size(); ++i)
                pending.emplace_back(&(*x)[i], &(*y)[i]);
        } else if (x->is_object()) {
            if (x->size() != y->size())
                return false;
            for (auto it = x->begin(); it != x->end(); ++it) {
                const auto other = y->find(it.key());
                if (other == y->end())
                    return false;
                pending.emplace_back(&it.value(), &*other);
            }
        } else if (*x != *y) {
            return false;
        }
    }
    return true;
}

/// Byte offsets where each UTF-8 character starts, with the string's size appended. Stray bytes
/// count as characters of their own, so any string has an answer.
std::vector<std::size_t> characterStarts(const std::string &text)
{
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
            starts.push_back(i);
    }
    if (!text.empty() && starts.empty())
        starts.push_back(0);
    starts.push_back(text.size());
    return starts;
}

std::size_t characterCount(const std::string &text)
{
    return characterStarts(text).size() - 1;
}

namespace {

ExpressionResult<Json> integerResult(bool overflow, std::int64_t value, Op op, int column)
{
    if (overflow)
        return errorAt(
            "integer overflow: the result of " + std::string(expr::opName(op)) + " does not fit in 64 bits", column);
    return Json(value);
}

ExpressionResult<Json> realResult(double value, Op op, int column)
{
    if (!std::isfinite(value))
        return errorAt("the result of " + std::string(expr::opName(op)) + " is not a finite number", column);
    return Json(value);
}

} // namespace

ExpressionResult<Json> arithmetic(Op op, const Json &a, const Json &b, int column)
{
    const auto x = toNumber(a);
    const auto y = toNumber(b);
    if (!x || !y) {
        switch (op) {
        case Op::Subtract:
            return errorAt("cannot subtract " + kind(b) + " from " + kind(a), column);
        case Op::Multiply:
            return errorAt("cannot multiply " + kind(a) + " by " + kind(b), column);
        case Op::Divide:
            return errorAt("cannot divide " + kind(a) + " by " + kind(b), column);
        case Op::Power:
            return errorAt("cannot raise " + kind(a) + " to the power of " + kind(b), column);
        default:
            return errorAt("cannot add " + kind(a) + " and " + kind(b), column);
        }
    }
    const bool integers = !x->isReal && !y->isReal;
    std::int64_t result = 0;
    switch (op) {
    case Op::Add:
        if (integers) {
            const bool overflow = __builtin_add_overflow(x->integer, y->integer, &result);
            return integerResult(overflow, result, op, column);
        }
        return realResult(x->asReal() + y->asReal(), op, column);
    case Op::Subtract:
        if (integers) {
            const bool overflow = __builtin_sub_overflow(x->integer, y->integer, &result);
            return integerResult(overflow, result, op, column);
        }
        return realResult(x->asReal() - y->asReal(), op, column);
    case Op::Multiply:
        if (integers) {
            const bool overflow = __builtin_mul_overflow(x->integer, y->integer, &result);
            return integerResult(overflow, result, op, column);
        }
        return realResult(x->asReal() * y->asReal(), op, column);
    case Op::Divide:
        if (y->asReal() == 0)
            return errorAt("division by zero", column);
        return realResult(x->asReal() / y->asReal(), op, column);
    case Op::Modulo:
        if (!integers)
            return errorAt("% needs two integers, got " + kind(a) + " and " + kind(b), column);
        if (y->integer == 0)
            return errorAt("modulo by zero", column);
        // INT64_MIN % -1 overflows in C++ although the remainder is 0.
        if (y->integer == -1)
            return Json(std::int64_t {0});
        return Json(x->integer % y->integer);
    default: {
        const double power = std::pow(x->asReal(), y->asReal());
        if (std::isnan(power))
            return errorAt("the result of ** is not a number", column);
        return realResult(power, op, column);
    }
    }
}

ExpressionResult<Json> add(const Json &a, const Json &b, int column)
{
    if (a.is_string() && b.is_string()) {
        const auto &x = a.get_ref<const std::string &>();
        const auto &y = b.get_ref<const std::string &>();
        if (x.size() + y.size() > kMaxStringBytes)
            return errorAt(
                "the joined string would be longer than " + std::to_string(kMaxStringBytes) + " bytes", column);
        return Json(x + y);
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() + b.size() > kMaxListItems)
            return errorAt("the joined list would have more than " + std::to_string(kMaxListItems) + " items", column);
        Json joined = a;
        joined.insert(joined.end(), b.begin(), b.end());
        return joined;
    }
    return arithmetic(Op::Add, a, b, column);
}

ExpressionResult<Json> compare(Op op, const Json &a, const Json &b, int column)
{
    int order = 0;
    const auto x = toNumber(a);
    const auto y = toNumber(b);
    if (x && y) {
        order = compareNumbers(*x, *y);
        // NaN never comes from the language, but data can hold anything; it is unordered.
        if (x->isReal && std::isnan(x->real))
            return Json(false);
        if (y->isReal && std::isnan(y->real))
            return Json(false);
    } else if (a.is_string() && b.is_string()) {
        order = a.get_ref<const std::string &>().compare(b.get_ref<const std::string &>());
    } else {
        return errorAt("cannot compare " + kind(a) + " with " + kind(b), column);
    }
    switch (op) {
    case Op::Less:
        return Json(order < 0);
    case Op::Greater:
        return Json(order > 0);
    case Op::LessEqual:
        return Json(order <= 0);
    default:
        return Json(order >= 0);
    }
}

ExpressionResult<Json> membership(const Json &element, const Json &container, int column)
{
    if (container.is_array()) {
        for (const Json &item : container) {
            if (deepEqual(element, item))
                return Json(true);
        }
        return Json(false);
    }
    if (container.is_object()) {
        if (!element.is_string())
            return errorAt("'in' needs a string key for a map, got " + kind(element), column);
        return Json(container.contains(element.get_ref<const std::string &>()));
    }
    return errorAt("'in' needs a list or a map on the right, got " + kind(container), column);
}

ExpressionResult<Json> stringTest(Op op, const Json &a, const Json &b, int column)
{
    if (!a.is_string() || !b.is_string())
        return errorAt(
            "'" + std::string(expr::opName(op)) + "' needs two strings, got " + kind(a) + " and " + kind(b), column);
    const std::string_view text = a.get_ref<const std::string &>();
    const std::string_view part = b.get_ref<const std::string &>();
    switch (op) {
    case Op::Contains:
        return Json(text.find(part) != std::string_view::npos);
    case Op::StartsWith:
        return Json(text.substr(0, part.size()) == part);
    default:
        return Json(text.size() >= part.size() && text.substr(text.size() - part.size()) == part);
    }
}

/// A resolved index into a sequence of `size` items: negative counts from the end.
std::optional<std::size_t> resolveIndex(std::int64_t index, std::size_t size)
{
    const auto count = static_cast<std::int64_t>(size);
    if (index < 0)
        index += count;
    if (index < 0 || index >= count)
        return std::nullopt;
    return static_cast<std::size_t>(index);
}

/// A slice bound clamped into [0, size], as expr-lang does.
std::size_t clampBound(std::int64_t bound, std::size_t size)
{
    const auto count = static_cast<std::int64_t>(size);
    if (bound < 0)
        bound = std::max<std::int64_t>(bound + count, 0);
    return static_cast<std::size_t>(std::min(bound, count));
}

std::optional<std::int64_t> toInteger(const Json &value)
{
    const auto number = toNumber(value);
    if (!number || number->isReal)
        return std::nullopt;
    return number->integer;
}

} // namespace ccm::expr
