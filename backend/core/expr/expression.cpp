// SPDX-License-Identifier: Apache-2.0
#include "core/expr/expression.h"

#include "core/expr/expression_parser.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace ccm {

std::string ExpressionError::describe() const
{
    if (column <= 0)
        return message;
    return message + " at column " + std::to_string(column);
}

Error ExpressionError::toError() const
{
    return Error {"expression", describe()};
}

const Json *StandardScope::variable(std::string_view name) const
{
    if (name == "Facts" || name == "facts")
        return m_lazyFacts ? &m_lazyFacts->get() : m_facts;
    if (name == "Data" || name == "data")
        return &m_data;
    if (name == "Environ" || name == "environ")
        return &m_environ;
    return nullptr;
}

Expression::Expression(std::string text, std::shared_ptr<const Node> root)
    : m_text(std::move(text))
    , m_root(std::move(root))
{
}

ExpressionResult<Expression> Expression::parse(std::string_view text, const ExpressionLimits &limits)
{
    auto root = expr::parseTree(text, limits);
    if (!root)
        return root.error();
    return Expression(std::string(text), std::move(root).value());
}

ExpressionResult<Json> evaluateExpression(std::string_view text, const ExpressionScope &scope)
{
    const auto expression = Expression::parse(text);
    if (!expression)
        return expression.error();
    return expression->evaluate(scope);
}

std::string formatValue(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return {};
    case Json::value_t::string:
        return value.get<std::string>();
    case Json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
        return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
        return std::to_string(value.get<std::uint64_t>());
    case Json::value_t::number_float: {
        const double number = value.get<double>();
        // Whole numbers print as integers while every digit is exact; beyond that the shortest
        // form that reads back the same ("1e+20").
        if (std::isfinite(number) && number == std::trunc(number) && std::fabs(number) < 1e15)
            return std::to_string(static_cast<std::int64_t>(number));
        char buffer[64];
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
        if (ec != std::errc())
            return value.dump();
        return std::string(buffer, end);
    }
    default:
        return value.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
}

std::optional<Json> lookupPath(const Json &root, std::string_view path, const ExpressionScope *scope)
{
    if (path.empty())
        return root;
    const Json *current = &root;
    std::size_t i = 0;
    while (true) {
        std::string key;
        for (; i < path.size() && path[i] != '.'; ++i) {
            if (path[i] == '\\' && i + 1 < path.size())
                ++i;
            key += path[i];
        }
        const bool last = i >= path.size();
        if (current->is_object()) {
            if (scope) {
                current = scope->findMember(*current, key);
                if (!current)
                    return std::nullopt;
            } else {
                const auto found = current->find(key);
                if (found == current->end())
                    return std::nullopt;
                current = &*found;
            }
        } else if (current->is_array()) {
            if (key == "#") {
                if (!last)
                    return std::nullopt;
                return Json(static_cast<std::int64_t>(current->size()));
            }
            std::size_t index = 0;
            const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), index);
            if (key.empty() || ec != std::errc() || end != key.data() + key.size() || index >= current->size())
                return std::nullopt;
            current = &(*current)[index];
        } else {
            return std::nullopt;
        }
        if (last)
            return *current;
        ++i;
    }
}

} // namespace ccm
