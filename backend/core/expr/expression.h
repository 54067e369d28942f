// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/lazy_facts.h"
#include "core/model/json.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// Why an expression could not be parsed or evaluated, and where: a 1-based column (in bytes) of
/// the expression text, pointing at the token that was wrong.
struct ExpressionError {
    std::string message; ///< "expected ')'", "missing key 'data.pkg'", "cannot add a string and a map"
    int column = 0;

    /// "expected ')' at column 17" (the column left out when it is 0).
    [[nodiscard]] std::string describe() const;
    /// As an Error with code "expression" and describe() as the message.
    [[nodiscard]] Error toError() const;
};

template<typename T> using ExpressionResult = Result<T, ExpressionError>;

/// What an expression sees besides literals and the built-in functions. Template engines, Hiera and
/// the apply engine each provide one.
class ExpressionScope {
public:
    virtual ~ExpressionScope() = default;

    /// The value of the variable `name` (Facts, Data, Environ, Jet locals, "." for the Jet element),
    /// or nullptr when there is no such variable.
    [[nodiscard]] virtual const Json *variable(std::string_view name) const = 0;

    /// Calls a function that is not built in (readFile, template, jet, ...). nullopt when the scope
    /// has no function of that name; otherwise the value, or an Error whose message is reported at
    /// the call's column.
    [[nodiscard]] virtual std::optional<Result<Json>> callFunction(
        std::string_view name, const std::vector<Json> &args) const
    {
        (void)name;
        (void)args;
        return std::nullopt;
    }

    /// lookup() of a missing path without a default: an error (false) or "" (true, used while
    /// Hiera data is resolved).
    [[nodiscard]] virtual bool missingLookupIsEmpty() const { return false; }

    /// The member `key` of the map `object`, or nullptr. Large maps are found through indexes the
    /// scope keeps while it lives, so that reading many keys of Data is not quadratic. A scope is
    /// used by one thread at a time.
    [[nodiscard]] const Json *findMember(const Json &object, std::string_view key) const
    {
        return m_members.find(object, key);
    }

private:
    mutable MemberIndex m_members;
};

/// A scope with just the three standard variables, by reference. The referenced values must outlive
/// the scope. Lazy facts are gathered when an expression first reads Facts.
class StandardScope : public ExpressionScope {
public:
    StandardScope(const Json &facts, const Json &data, const Json &environment)
        : m_facts(&facts)
        , m_data(data)
        , m_environ(environment)
    {
    }
    StandardScope(const LazyFacts &facts, const Json &data, const Json &environment)
        : m_lazyFacts(&facts)
        , m_data(data)
        , m_environ(environment)
    {
    }

    [[nodiscard]] const Json *variable(std::string_view name) const override;

private:
    const Json *m_facts = nullptr;
    const LazyFacts *m_lazyFacts = nullptr; ///< read instead of m_facts when set
    const Json &m_data;
    const Json &m_environ;
};

/// Limits that keep hostile input from exhausting the stack or memory.
struct ExpressionLimits {
    std::size_t maxLength = 64 * 1024; ///< bytes of expression text
    int maxDepth = 200; ///< nesting of parentheses, operators, calls and literals
};

/// A parsed expression of the CCM expression language (a subset of expr-lang, ENGINE-SPEC §4).
/// Parse once, evaluate many times; evaluation never changes the expression. Cheap to copy.
class Expression {
public:
    /// Parses `text`. Errors name the column and what was expected.
    static ExpressionResult<Expression> parse(std::string_view text, const ExpressionLimits &limits = {});

    /// Evaluates against `scope`. Errors name the column of the failing part.
    [[nodiscard]] ExpressionResult<Json> evaluate(const ExpressionScope &scope) const;

    /// The text this expression was parsed from.
    [[nodiscard]] const std::string &text() const { return m_text; }

    struct Node;

private:
    Expression(std::string text, std::shared_ptr<const Node> root);

    std::string m_text;
    std::shared_ptr<const Node> m_root;
};

/// Parses and evaluates in one step.
ExpressionResult<Json> evaluateExpression(std::string_view text, const ExpressionScope &scope);

/// A value as templates print it: strings as they are, null as "", booleans as true/false, numbers
/// without a trailing ".0" (3.0 prints "3", 2.5 prints "2.5"), lists and maps as compact JSON.
std::string formatValue(const Json &value);

/// The value at a gjson-style path (ENGINE-SPEC §4): "a.b.c", "list.0.name", "list.#" (a list's
/// length); "\." escapes a dot inside a key. nullopt when any part is missing. Keys are found
/// through `scope`'s member indexes when one is given.
std::optional<Json> lookupPath(const Json &root, std::string_view path, const ExpressionScope *scope = nullptr);

} // namespace ccm
