// SPDX-License-Identifier: Apache-2.0
#include "base/text.h"
#include "core/expr/expression_operators.h"
#include "core/expr/expression_parser.h"
#include "core/model/value_checks.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

namespace ccm {

namespace {

using Node = Expression::Node;
using Kind = Node::Kind;
using expr::Op;
using namespace expr;

constexpr std::size_t kMaxSubjectLength = 64 * 1024;
constexpr int kMaxJsonDepth = 512;

/// An intermediate value: borrowed from the scope when it is a variable or part of one (no copy of
/// a large map just to read one key), owned when it was computed.
class Value {
public:
    Value() = default;
    explicit Value(Json owned)
        : m_owned(std::move(owned))
    {
    }

    static Value borrow(const Json &value)
    {
        Value result;
        result.m_borrowed = &value;
        return result;
    }

    /// The nil of an optional chain (a?.b) whose object was nil: the rest of the chain is skipped.
    static Value skipped()
    {
        Value result;
        result.m_skipped = true;
        return result;
    }

    [[nodiscard]] const Json &get() const { return m_borrowed ? *m_borrowed : m_owned; }
    [[nodiscard]] bool isSkipped() const { return m_skipped; }

    /// A part of this value, borrowed when this one is.
    [[nodiscard]] Value part(const Json &element) const { return m_borrowed ? borrow(element) : Value(element); }

    Json take() && { return m_borrowed ? *m_borrowed : std::move(m_owned); }

private:
    const Json *m_borrowed = nullptr;
    Json m_owned;
    bool m_skipped = false;
};

using ValueResult = ExpressionResult<Value>;

class Evaluator;

struct Builtin {
    std::string_view name;
    std::size_t minArguments;
    std::size_t maxArguments; ///< SIZE_MAX: any number
    ExpressionResult<Json> (Evaluator::*call)(std::vector<Json> &arguments, const Node &node) const;
};

class Evaluator {
public:
    explicit Evaluator(const ExpressionScope &scope)
        : m_scope(scope)
    {
    }

    /// `lenient` is set on the left of ??: a missing variable or reading through nil gives nil.
    ValueResult eval(const Node &node, bool lenient) const
    {
        switch (node.kind) {
        case Kind::Literal:
            return Value::borrow(node.value);
        case Kind::Variable:
            return variable(node, lenient);
        case Kind::Member:
            return member(node, lenient);
        case Kind::Index:
            return index(node, lenient);
        case Kind::Slice:
            return slice(node, lenient);
        case Kind::Call:
            return call(node);
        case Kind::Unary:
            return unary(node);
        case Kind::Binary:
            return binary(node, lenient);
        case Kind::Ternary:
            return ternary(node, lenient);
        case Kind::List:
            return list(node);
        case Kind::Map:
            return map(node);
        }
        return errorAt("unknown expression", node.column);
    }

private:
    ExpressionResult<Json> evalOwned(const Node &node) const
    {
        auto value = eval(node, false);
        if (!value)
            return value.error();
        return std::move(value).value().take();
    }

    ExpressionResult<bool> condition(const Node &node) const
    {
        auto value = eval(node, false);
        if (!value)
            return value.error();
        const Json &json = value.value().get();
        if (!json.is_boolean())
            return errorAt("expected a boolean, got " + kind(json), node.start);
        return json.get<bool>();
    }

    ValueResult variable(const Node &node, bool lenient) const
    {
        if (const Json *found = m_scope.variable(node.name))
            return Value::borrow(*found);
        if (lenient)
            return Value();
        return errorAt("unknown name '" + node.name + "'", node.column);
    }

    ValueResult member(const Node &node, bool lenient) const
    {
        auto object = eval(*node.children[0], lenient);
        if (!object || object.value().isSkipped())
            return object;
        const Json &json = object.value().get();
        if (json.is_null()) {
            if (node.optional)
                return Value::skipped();
            if (lenient)
                return Value();
            return errorAt("cannot read '" + node.name + "' of nil", node.column);
        }
        if (!json.is_object())
            return errorAt("cannot read '" + node.name + "' of " + kind(json), node.column);
        const Json *found = m_scope.findMember(json, node.name);
        if (!found)
            return Value();
        return object.value().part(*found);
    }

    ValueResult index(const Node &node, bool lenient) const
    {
        auto object = eval(*node.children[0], lenient);
        if (!object || object.value().isSkipped())
            return object;
        auto key = eval(*node.children[1], false);
        if (!key)
            return key.error();
        const Json &json = object.value().get();
        const Json &at = key.value().get();
        if (json.is_null()) {
            if (node.optional)
                return Value::skipped();
            if (lenient)
                return Value();
            return errorAt("cannot read index " + at.dump(-1, ' ', false, Json::error_handler_t::replace) + " of nil",
                node.column);
        }
        if (json.is_object()) {
            if (!at.is_string())
                return errorAt("a map index must be a string, got " + kind(at), node.column);
            const Json *found = m_scope.findMember(json, at.get_ref<const std::string &>());
            if (!found)
                return Value();
            return object.value().part(*found);
        }
        if (!json.is_array() && !json.is_string())
            return errorAt("cannot index " + kind(json), node.column);
        const auto position = toInteger(at);
        if (!position)
            return errorAt("an index must be an integer, got " + kind(at), node.column);
        if (json.is_array()) {
            const auto resolved = resolveIndex(*position, json.size());
            if (!resolved) {
                if (lenient)
                    return Value();
                return errorAt("index " + std::to_string(*position) + " is out of range for a list of "
                        + std::to_string(json.size()) + " items",
                    node.column);
            }
            return object.value().part(json[*resolved]);
        }
        const auto &text = json.get_ref<const std::string &>();
        const auto starts = characterStarts(text);
        const auto resolved = resolveIndex(*position, starts.size() - 1);
        if (!resolved) {
            if (lenient)
                return Value();
            return errorAt("index " + std::to_string(*position) + " is out of range for a string of "
                    + std::to_string(starts.size() - 1) + " characters",
                node.column);
        }
        return Value(Json(text.substr(starts[*resolved], starts[*resolved + 1] - starts[*resolved])));
    }

    ValueResult slice(const Node &node, bool lenient) const
    {
        auto object = eval(*node.children[0], lenient);
        if (!object || object.value().isSkipped())
            return object;
        std::optional<std::int64_t> bounds[2];
        for (int i = 0; i < 2; ++i) {
            const Node *bound = node.children[static_cast<std::size_t>(i) + 1].get();
            if (!bound)
                continue;
            auto value = eval(*bound, false);
            if (!value)
                return value.error();
            bounds[i] = toInteger(value.value().get());
            if (!bounds[i])
                return errorAt("a slice bound must be an integer, got " + kind(value.value().get()), bound->start);
        }
        const Json &json = object.value().get();
        if (json.is_null()) {
            if (node.optional)
                return Value::skipped();
            if (lenient)
                return Value();
        }
        if (!json.is_array() && !json.is_string())
            return errorAt("cannot slice " + kind(json), node.column);
        std::vector<std::size_t> starts;
        if (json.is_string())
            starts = characterStarts(json.get_ref<const std::string &>());
        const std::size_t size = json.is_array() ? json.size() : starts.size() - 1;
        const std::size_t from = bounds[0] ? clampBound(*bounds[0], size) : 0;
        const std::size_t to = std::max(from, bounds[1] ? clampBound(*bounds[1], size) : size);
        if (json.is_string())
            return Value(Json(json.get_ref<const std::string &>().substr(starts[from], starts[to] - starts[from])));
        Json part = Json::array();
        for (std::size_t i = from; i < to; ++i)
            part.push_back(json[i]);
        return Value(std::move(part));
    }

    ValueResult unary(const Node &node) const
    {
        if (node.op == Op::Not) {
            const auto value = condition(*node.children[0]);
            if (!value)
                return value.error();
            return Value(Json(!value.value()));
        }
        auto operand = eval(*node.children[0], false);
        if (!operand)
            return operand;
        const Json &json = operand.value().get();
        const auto number = toNumber(json);
        if (!number)
            return errorAt(
                "unary " + std::string(expr::opName(node.op)) + " needs a number, got " + kind(json), node.column);
        if (node.op == Op::Plus)
            return operand;
        if (number->isReal)
            return Value(Json(-number->real));
        if (number->integer == std::numeric_limits<std::int64_t>::min())
            return errorAt("integer overflow: the result of - does not fit in 64 bits", node.column);
        return Value(Json(-number->integer));
    }

    ValueResult binary(const Node &node, bool lenient) const
    {
        if (node.op == Op::Or || node.op == Op::And || node.op == Op::Coalesce)
            return shortCircuit(node, lenient);
        auto first = eval(*node.children[0], false);
        if (!first)
            return first;
        auto second = eval(*node.children[1], false);
        if (!second)
            return second;
        return applyBinary(node, first.value().get(), second.value().get());
    }

    /// The operators that may leave their right operand unevaluated: `or`, `and` and `??`.
    ValueResult shortCircuit(const Node &node, bool lenient) const
    {
        const Node &left = *node.children[0];
        const Node &right = *node.children[1];
        if (node.op == Op::Coalesce) {
            auto first = eval(left, true);
            if (!first)
                return first;
            if (!first.value().get().is_null())
                return first;
            return eval(right, lenient);
        }
        const auto first = condition(left);
        if (!first)
            return first.error();
        if (first.value() == (node.op == Op::Or))
            return Value(Json(first.value()));
        const auto second = condition(right);
        if (!second)
            return second.error();
        return Value(Json(second.value()));
    }

    /// The operators that need both operands, already evaluated to `a` and `b`.
    ValueResult applyBinary(const Node &node, const Json &a, const Json &b) const
    {
        const auto wrap = [](ExpressionResult<Json> result) -> ValueResult {
            if (!result)
                return result.error();
            return Value(std::move(result).value());
        };
        switch (node.op) {
        case Op::Equal:
            return Value(Json(deepEqual(a, b)));
        case Op::NotEqual:
            return Value(Json(!deepEqual(a, b)));
        case Op::Less:
        case Op::Greater:
        case Op::LessEqual:
        case Op::GreaterEqual:
            return wrap(compare(node.op, a, b, node.column));
        case Op::In:
            return wrap(membership(a, b, node.column));
        case Op::NotIn: {
            auto found = membership(a, b, node.column);
            if (!found)
                return found.error();
            return Value(Json(!found.value().get<bool>()));
        }
        case Op::Contains:
        case Op::StartsWith:
        case Op::EndsWith:
            return wrap(stringTest(node.op, a, b, node.column));
        case Op::Matches:
            return wrap(matches(node, a, b));
        case Op::Add:
            return wrap(add(a, b, node.column));
        default:
            return wrap(arithmetic(node.op, a, b, node.column));
        }
    }

    ExpressionResult<Json> matches(const Node &node, const Json &subject, const Json &pattern) const
    {
        if (!subject.is_string() || !pattern.is_string())
            return errorAt("'matches' needs two strings, got " + kind(subject) + " and " + kind(pattern), node.column);
        return search(
            node, "'matches'", subject.get_ref<const std::string &>(), pattern.get_ref<const std::string &>());
    }

    /// Whether `pattern` (the node's precompiled one when it has one) matches anywhere in `text`:
    /// the `matches` operator and isRegex(), whose operands are the node's first two children.
    ExpressionResult<Json> search(
        const Node &node, std::string_view what, const std::string &text, const std::string &pattern) const
    {
        if (text.size() > kMaxSubjectLength)
            return errorAt(std::string(what) + " refuses a string longer than "
                    + std::to_string(kMaxSubjectLength / 1024) + " KiB",
                node.children[0]->start);
        std::shared_ptr<const expr::CompiledPattern> compiled = node.pattern;
        if (!compiled) {
            auto fresh = expr::compilePattern(pattern, node.children[1]->start);
            if (!fresh)
                return fresh.error();
            compiled = fresh.value();
        }
        if (auto tooCostly = expr::checkMatchCost(*compiled, text.size(), node.column))
            return *tooCostly;
        try {
            return Json(std::regex_match(text, compiled->regex));
        } catch (const std::regex_error &error) {
            return errorAt("cannot match the pattern: "
                    + std::string(error.code() == std::regex_constants::error_stack ? "it needs too much memory"
                                                                                    : "it is too complex"),
                node.children[1]->start);
        }
    }

    ValueResult ternary(const Node &node, bool lenient) const
    {
        const auto chosen = condition(*node.children[0]);
        if (!chosen)
            return chosen.error();
        return eval(*node.children[chosen.value() ? 1 : 2], lenient);
    }

    ValueResult list(const Node &node) const
    {
        Json items = Json::array();
        for (const auto &child : node.children) {
            auto item = evalOwned(*child);
            if (!item)
                return item.error();
            items.push_back(std::move(item).value());
        }
        return Value(std::move(items));
    }

    ValueResult map(const Node &node) const
    {
        Json entries = Json::object();
        MemberSetter members(entries);
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            auto entry = evalOwned(*node.children[i]);
            if (!entry)
                return entry.error();
            members[node.keys[i]] = std::move(entry).value();
        }
        return Value(std::move(entries));
    }

    ValueResult call(const Node &node) const
    {
        std::vector<Json> arguments;
        arguments.reserve(node.children.size());
        for (const auto &child : node.children) {
            auto argument = evalOwned(*child);
            if (!argument)
                return argument.error();
            arguments.push_back(std::move(argument).value());
        }
        ExpressionResult<Json> result = builtin(node, arguments);
        if (!result)
            return result.error();
        return Value(std::move(result).value());
    }

    ExpressionResult<Json> builtin(const Node &node, std::vector<Json> &arguments) const
    {
        constexpr std::size_t any = std::numeric_limits<std::size_t>::max();
        static const Builtin builtins[] = {
            {"lookup", 1, 2, &Evaluator::lookup},
            {"len", 1, 1, &Evaluator::length},
            {"lower", 1, 1, &Evaluator::lower},
            {"upper", 1, 1, &Evaluator::upper},
            {"trim", 1, 2, &Evaluator::trim},
            {"split", 2, 2, &Evaluator::split},
            {"join", 1, 2, &Evaluator::join},
            {"string", 1, 1, &Evaluator::toString},
            {"int", 1, 1, &Evaluator::toInt},
            {"float", 1, 1, &Evaluator::toFloat},
            {"keys", 1, 1, &Evaluator::keys},
            {"values", 1, 1, &Evaluator::values},
            {"abs", 1, 1, &Evaluator::absolute},
            {"min", 1, any, &Evaluator::minimum},
            {"max", 1, any, &Evaluator::maximum},
            {"toJSON", 1, 1, &Evaluator::toJson},
            {"fromJSON", 1, 1, &Evaluator::fromJson},
            {"isIP", 1, 1, &Evaluator::checkText},
            {"is_ip", 1, 1, &Evaluator::checkText},
            {"isIPv4", 1, 1, &Evaluator::checkText},
            {"is_ipv4", 1, 1, &Evaluator::checkText},
            {"isIPv6", 1, 1, &Evaluator::checkText},
            {"is_ipv6", 1, 1, &Evaluator::checkText},
            {"isInt", 1, 1, &Evaluator::checkText},
            {"is_int", 1, 1, &Evaluator::checkText},
            {"isFloat", 1, 1, &Evaluator::checkText},
            {"is_float", 1, 1, &Evaluator::checkText},
            {"isDuration", 1, 1, &Evaluator::checkText},
            {"is_duration", 1, 1, &Evaluator::checkText},
            {"isShellSafe", 1, 1, &Evaluator::checkText},
            {"is_shell_safe", 1, 1, &Evaluator::checkText},
            {"is_shellsafe", 1, 1, &Evaluator::checkText},
            {"isHostname", 1, 1, &Evaluator::checkText},
            {"is_hostname", 1, 1, &Evaluator::checkText},
            {"isFQDN", 1, 1, &Evaluator::checkText},
            {"is_fqdn", 1, 1, &Evaluator::checkText},
            {"isRegex", 2, 2, &Evaluator::isRegex},
            {"is_regex", 2, 2, &Evaluator::isRegex},
            {"registrations", 4, 4, &Evaluator::registrations},
        };
        for (const Builtin &candidate : builtins) {
            if (candidate.name != node.name)
                continue;
            const std::size_t count = arguments.size();
            if (count < candidate.minArguments || count > candidate.maxArguments) {
                std::string takes;
                if (candidate.maxArguments == any)
                    takes = "at least " + std::to_string(candidate.minArguments);
                else if (candidate.minArguments == candidate.maxArguments)
                    takes = std::to_string(candidate.minArguments);
                else
                    takes = std::to_string(candidate.minArguments) + " or " + std::to_string(candidate.maxArguments);
                const bool plural = takes != "1" && takes != "at least 1";
                return errorAt(std::string(candidate.name) + "() takes " + takes + (plural ? " arguments" : " argument")
                        + ", got " + std::to_string(count),
                    node.column);
            }
            return (this->*candidate.call)(arguments, node);
        }
        auto custom = m_scope.callFunction(node.name, arguments);
        if (!custom)
            return errorAt("unknown function '" + node.name + "'", node.column);
        if (!*custom)
            return errorAt(custom->error().message, node.column);
        return std::move(*custom).value();
    }

    static ExpressionError needs(const Node &node, std::string_view what, const Json &got)
    {
        return errorAt(node.name + "() needs " + std::string(what) + ", got " + kind(got), node.column);
    }

    ExpressionResult<Json> lookup(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_string())
            return needs(node, "a string path", arguments[0]);
        const auto &path = arguments[0].get_ref<const std::string &>();
        static const std::pair<std::string_view, std::string_view> roots[]
            = {{"facts", "Facts"}, {"data", "Data"}, {"environ", "Environ"}};
        std::optional<Json> found;
        if (path.empty()) {
            Json all = Json::object();
            for (const auto &[root, variableName] : roots) {
                if (const Json *value = m_scope.variable(variableName))
                    all[std::string(root)] = *value;
            }
            found = std::move(all);
        } else {
            std::string root;
            std::size_t i = 0;
            for (; i < path.size() && path[i] != '.'; ++i) {
                if (path[i] == '\\' && i + 1 < path.size())
                    ++i;
                root += path[i];
            }
            for (const auto &[name, variableName] : roots) {
                const Json *value = name == root ? m_scope.variable(variableName) : nullptr;
                if (value)
                    found
                        = i < path.size() ? lookupPath(*value, std::string_view(path).substr(i + 1), &m_scope) : *value;
            }
        }
        if (found)
            return std::move(*found);
        if (arguments.size() == 2)
            return std::move(arguments[1]);
        if (m_scope.missingLookupIsEmpty())
            return Json("");
        return errorAt("missing key '" + path + "'", node.column);
    }

    ExpressionResult<Json> length(std::vector<Json> &arguments, const Node &node) const
    {
        const Json &value = arguments[0];
        if (value.is_string())
            return Json(static_cast<std::int64_t>(characterCount(value.get_ref<const std::string &>())));
        if (value.is_array() || value.is_object())
            return Json(static_cast<std::int64_t>(value.size()));
        return needs(node, "a string, a list or a map", value);
    }

    ExpressionResult<Json> lower(std::vector<Json> &arguments, const Node &node) const
    {
        return changeCase(arguments[0], node, false);
    }

    ExpressionResult<Json> upper(std::vector<Json> &arguments, const Node &node) const
    {
        return changeCase(arguments[0], node, true);
    }

    /// ASCII letters only: without a Unicode database other scripts are left as they are.
    static ExpressionResult<Json> changeCase(const Json &value, const Node &node, bool toUpper)
    {
        if (!value.is_string())
            return needs(node, "a string", value);
        std::string text = value.get<std::string>();
        for (char &c : text) {
            if (toUpper && c >= 'a' && c <= 'z')
                c = static_cast<char>(c - 'a' + 'A');
            else if (!toUpper && c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        }
        return Json(std::move(text));
    }

    ExpressionResult<Json> trim(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_string())
            return needs(node, "a string", arguments[0]);
        const auto &text = arguments[0].get_ref<const std::string &>();
        if (arguments.size() == 1) {
            return Json(std::string(trimAsciiSpace(text)));
        }
        if (!arguments[1].is_string())
            return needs(node, "a string of characters to trim", arguments[1]);
        // The set is compared character by character so a multi-byte character is never cut in half.
        const auto &set = arguments[1].get_ref<const std::string &>();
        const auto setStarts = characterStarts(set);
        std::vector<std::string_view> characters;
        for (std::size_t i = 0; i + 1 < setStarts.size(); ++i)
            characters.push_back(std::string_view(set).substr(setStarts[i], setStarts[i + 1] - setStarts[i]));
        const auto starts = characterStarts(text);
        const auto inSet = [&](std::size_t i) {
            const auto character = std::string_view(text).substr(starts[i], starts[i + 1] - starts[i]);
            return std::find(characters.begin(), characters.end(), character) != characters.end();
        };
        std::size_t first = 0;
        std::size_t last = starts.size() - 1;
        while (first < last && inSet(first))
            ++first;
        while (last > first && inSet(last - 1))
            --last;
        return Json(text.substr(starts[first], starts[last] - starts[first]));
    }

    ExpressionResult<Json> split(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_string() || !arguments[1].is_string())
            return errorAt(
                "split() needs two strings, got " + kind(arguments[0]) + " and " + kind(arguments[1]), node.column);
        const auto &text = arguments[0].get_ref<const std::string &>();
        const auto &separator = arguments[1].get_ref<const std::string &>();
        Json parts = Json::array();
        if (separator.empty()) {
            const auto starts = characterStarts(text);
            for (std::size_t i = 0; i + 1 < starts.size(); ++i)
                parts.push_back(text.substr(starts[i], starts[i + 1] - starts[i]));
            return parts;
        }
        std::size_t from = 0;
        while (true) {
            const std::size_t at = text.find(separator, from);
            if (at == std::string::npos)
                break;
            parts.push_back(text.substr(from, at - from));
            from = at + separator.size();
        }
        parts.push_back(text.substr(from));
        return parts;
    }

    ExpressionResult<Json> join(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_array())
            return needs(node, "a list", arguments[0]);
        std::string separator;
        if (arguments.size() == 2) {
            if (!arguments[1].is_string())
                return needs(node, "a string separator", arguments[1]);
            separator = arguments[1].get<std::string>();
        }
        std::string joined;
        bool first = true;
        for (const Json &item : arguments[0]) {
            if (!first)
                joined += separator;
            first = false;
            joined += formatValue(item);
            if (joined.size() > kMaxStringBytes)
                return errorAt("join() would make a string longer than " + std::to_string(kMaxStringBytes) + " bytes",
                    node.column);
        }
        return Json(std::move(joined));
    }

    ExpressionResult<Json> toString(std::vector<Json> &arguments, const Node &) const
    {
        return Json(formatValue(arguments[0]));
    }

    /// A scalar as the validator functions read it: strings as they are, numbers and booleans as
    /// they print (upstream validates the text of a value); nullopt for null, lists and maps.
    static std::optional<std::string> checkedText(const Json &value)
    {
        if (value.is_string())
            return value.get<std::string>();
        if (value.is_number() || value.is_boolean())
            return formatValue(value);
        return std::nullopt;
    }

    /// isIP(), isInt(), isShellSafe() and the other one-argument validator functions.
    ExpressionResult<Json> checkText(std::vector<Json> &arguments, const Node &node) const
    {
        static const std::pair<std::string_view, bool (*)(std::string_view)> checks[]
            = {{"isIP", isIpAddress}, {"is_ip", isIpAddress}, {"isIPv4", isIpv4Address}, {"is_ipv4", isIpv4Address},
                {"isIPv6", isIpv6Address}, {"is_ipv6", isIpv6Address}, {"isInt", isIntegerText},
                {"is_int", isIntegerText}, {"isFloat", isFloatText}, {"is_float", isFloatText},
                {"isDuration", isDurationText}, {"is_duration", isDurationText}, {"isShellSafe", isShellSafeText},
                {"is_shell_safe", isShellSafeText}, {"is_shellsafe", isShellSafeText}, {"isHostname", isHostnameText},
                {"is_hostname", isHostnameText}, {"isFQDN", isFqdnText}, {"is_fqdn", isFqdnText}};
        const std::optional<std::string> text = checkedText(arguments[0]);
        if (!text)
            return needs(node, "a string or a number", arguments[0]);
        for (const auto &[name, check] : checks) {
            if (name == node.name)
                return Json(check(*text));
        }
        return errorAt("unknown function '" + node.name + "'", node.column);
    }

    /// isRegex(value, pattern): whether the pattern matches anywhere in the value's text.
    ExpressionResult<Json> isRegex(std::vector<Json> &arguments, const Node &node) const
    {
        const std::optional<std::string> text = checkedText(arguments[0]);
        if (!text)
            return needs(node, "a string or a number", arguments[0]);
        if (!arguments[1].is_string())
            return needs(node, "a string pattern", arguments[1]);
        return search(node, node.name + "()", *text, arguments[1].get_ref<const std::string &>());
    }

    /// registrations(cluster, protocol, service, address): upstream's lookup in the registration
    /// stream, through the scope's lookup; a scope without one finds nothing.
    ExpressionResult<Json> registrations(std::vector<Json> &arguments, const Node &node) const
    {
        for (const Json &argument : arguments) {
            if (!argument.is_string())
                return needs(node, "four strings (cluster, protocol, service, address)", argument);
        }
        auto found = m_scope.callFunction(node.name, arguments);
        if (!found)
            return Json::array();
        if (!*found)
            return errorAt(found->error().message, node.column);
        return std::move(*found).value();
    }

    ExpressionResult<Json> toInt(std::vector<Json> &arguments, const Node &node) const
    {
        const Json &value = arguments[0];
        if (const auto number = toNumber(value)) {
            if (!number->isReal)
                return Json(number->integer);
            // Truncates toward zero as Go's int() does; 2^63 itself does not fit.
            if (!std::isfinite(number->real) || number->real >= 9223372036854775808.0
                || number->real < -9223372036854775808.0)
                return errorAt("int() cannot convert " + formatValue(value) + " to an integer", node.column);
            return Json(static_cast<std::int64_t>(number->real));
        }
        if (!value.is_string())
            return needs(node, "a number or a string", value);
        const auto &text = value.get_ref<const std::string &>();
        std::int64_t parsed = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (ec != std::errc() || end != text.data() + text.size())
            return errorAt("int() cannot convert '" + text + "' to an integer", node.column);
        return Json(parsed);
    }

    ExpressionResult<Json> toFloat(std::vector<Json> &arguments, const Node &node) const
    {
        const Json &value = arguments[0];
        if (const auto number = toNumber(value))
            return Json(number->asReal());
        if (!value.is_string())
            return needs(node, "a number or a string", value);
        const auto &text = value.get_ref<const std::string &>();
        double parsed = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(parsed))
            return errorAt("float() cannot convert '" + text + "' to a number", node.column);
        return Json(parsed);
    }

    ExpressionResult<Json> keys(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_object())
            return needs(node, "a map", arguments[0]);
        Json names = Json::array();
        for (auto it = arguments[0].begin(); it != arguments[0].end(); ++it)
            names.push_back(it.key());
        return names;
    }

    ExpressionResult<Json> values(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_object())
            return needs(node, "a map", arguments[0]);
        Json items = Json::array();
        for (auto &item : arguments[0])
            items.push_back(std::move(item));
        return items;
    }

    ExpressionResult<Json> absolute(std::vector<Json> &arguments, const Node &node) const
    {
        const auto number = toNumber(arguments[0]);
        if (!number)
            return needs(node, "a number", arguments[0]);
        if (number->isReal)
            return Json(std::fabs(number->real));
        if (number->integer == std::numeric_limits<std::int64_t>::min())
            return errorAt("integer overflow: abs() of the smallest integer does not fit in 64 bits", node.column);
        return Json(number->integer < 0 ? -number->integer : number->integer);
    }

    ExpressionResult<Json> minimum(std::vector<Json> &arguments, const Node &node) const
    {
        return extreme(arguments, node, -1);
    }

    ExpressionResult<Json> maximum(std::vector<Json> &arguments, const Node &node) const
    {
        return extreme(arguments, node, 1);
    }

    /// min and max over numbers, given as arguments or as one list, as expr-lang accepts both.
    static ExpressionResult<Json> extreme(std::vector<Json> &arguments, const Node &node, int direction)
    {
        const bool oneList = arguments.size() == 1 && arguments[0].is_array();
        const std::vector<Json> *items = &arguments;
        std::vector<Json> listed;
        if (oneList) {
            listed.assign(arguments[0].begin(), arguments[0].end());
            items = &listed;
            if (listed.empty())
                return errorAt(node.name + "() of an empty list", node.column);
        }
        std::size_t best = 0;
        for (std::size_t i = 0; i < items->size(); ++i) {
            const auto number = toNumber((*items)[i]);
            if (!number)
                return needs(node, "numbers", (*items)[i]);
            if (i > 0 && compareNumbers(*number, *toNumber((*items)[best])) * direction > 0)
                best = i;
        }
        return (*items)[best];
    }

    ExpressionResult<Json> toJson(std::vector<Json> &arguments, const Node &) const
    {
        return Json(arguments[0].dump(-1, ' ', false, Json::error_handler_t::replace));
    }

    ExpressionResult<Json> fromJson(std::vector<Json> &arguments, const Node &node) const
    {
        if (!arguments[0].is_string())
            return needs(node, "a string", arguments[0]);
        const auto &text = arguments[0].get_ref<const std::string &>();
        if (jsonNestingBeyond(text, kMaxJsonDepth))
            return errorAt(
                "fromJSON() refuses JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", node.column);
        try {
            Json parsed = parseJson(text, false);
            if (!parsed.is_discarded())
                return parsed;
        } catch (const Json::exception &) {
            // Reported below like any other invalid text.
        }
        return errorAt("fromJSON() got invalid JSON", node.column);
    }

    const ExpressionScope &m_scope;
};

} // namespace

ExpressionResult<Json> Expression::evaluate(const ExpressionScope &scope) const
{
    auto value = Evaluator(scope).eval(*m_root, false);
    if (!value)
        return value.error();
    return std::move(value).value().take();
}

} // namespace ccm
