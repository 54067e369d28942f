// SPDX-License-Identifier: Apache-2.0
#include "core/model/json_query.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string>

namespace ccm {
namespace {
// File-local names in a namespace of their own: the library is compiled in unity batches.
namespace gjson_path {

using Found = std::optional<Json>;

/// Paths recurse once per component and per nested query; deeper ones are refused.
constexpr int kMaxDepth = 256;

/// Every modifier gjson knows, so that `.@name` means a modifier for all of them, as in gjson.
constexpr std::array<std::string_view, 13> kKnownModifiers {"pretty", "ugly", "reverse", "this", "flatten", "join",
    "valid", "keys", "values", "tostr", "fromstr", "group", "dig"};

bool isKnownModifier(std::string_view name)
{
    return std::find(kKnownModifiers.begin(), kKnownModifiers.end(), name) != kKnownModifiers.end();
}

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray byte).
std::size_t sequenceLength(unsigned char lead)
{
    if (lead >= 0xF0 && lead < 0xF8)
        return 4;
    if (lead >= 0xE0)
        return lead < 0xF0 ? 3 : 1;
    if (lead >= 0xC0)
        return 2;
    return 1;
}

/// gjson's pattern match (tidwall/match): `*` any run of bytes, `?` one character, `\` makes the
/// next character literal. Greedy with one backtracking point, so linear-times-pattern at worst.
bool matchPattern(std::string_view text, std::string_view pattern)
{
    std::size_t t = 0, p = 0;
    std::size_t starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starP = ++p;
            starT = t;
            continue;
        }
        if (p < pattern.size() && pattern[p] == '?') {
            t += std::min(sequenceLength(static_cast<unsigned char>(text[t])), text.size() - t);
            ++p;
            continue;
        }
        if (p < pattern.size()) {
            const std::size_t literal = pattern[p] == '\\' && p + 1 < pattern.size() ? p + 1 : p;
            if (pattern[literal] == text[t]) {
                p = literal + 1;
                ++t;
                continue;
            }
        }
        if (starP == std::string_view::npos)
            return false;
        p = starP;
        t = ++starT;
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

/// The text with its `\` escapes removed.
std::string unescapePath(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size())
            ++i;
        out += text[i];
    }
    return out;
}

/// gjson's trim: bytes up to ' ' go at both ends.
std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ')
        text.remove_prefix(1);
    while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ')
        text.remove_suffix(1);
    return text;
}

/// Whether the text after a '.' starts a modifier or a multipath, which gjson applies to the
/// result so far as a '|' would.
bool startsPipedPart(std::string_view rest)
{
    if (rest.empty())
        return false;
    if (rest.front() == '@') {
        const std::size_t end = std::min(rest.find_first_of(".|:", 1), rest.size());
        return isKnownModifier(rest.substr(1, end - 1));
    }
    return rest.front() == '[' || rest.front() == '{';
}

/// How a component ends: the path's end, a '.' (the rest is a path into the value found) or a
/// '|' (the rest applies to the result).
enum class Next { End, More, Pipe };

struct Component {
    std::string_view part; ///< as written, escapes included
    std::string_view rest;
    Next next = Next::End;
    bool wildcard = false;
};

/// Splits an object path component off `path` (gjson's parseObjectPath).
Component objectComponent(std::string_view path)
{
    Component c;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const char ch = path[i];
        if (ch == '\\') {
            ++i;
        } else if (ch == '*' || ch == '?') {
            c.wildcard = true;
        } else if (ch == '|' || ch == '.') {
            c.part = path.substr(0, i);
            c.rest = path.substr(i + 1);
            c.next = ch == '|' || startsPipedPart(c.rest) ? Next::Pipe : Next::More;
            return c;
        }
    }
    c.part = path;
    return c;
}

/// A parsed `#(PATH OP VALUE)`.
struct Query {
    std::string_view path;
    std::string op; ///< "" (existence), "=", "!=", "<", "<=", ">", ">=", "%", "!%"
    std::string value; ///< unquoted
    bool all = false; ///< `#(...)#`
};

struct ArrayComponent {
    std::string_view part;
    std::string_view rest;
    Next next = Next::End;
    bool hash = false; ///< the part holds an unescaped '#'
    bool eachElement = false; ///< `#.PATH`
    std::optional<Query> query;
};

/// Where `#(` ... `)` ends in `text` (which starts with '#'), skipping quoted strings and escapes;
/// sets `opAt` to the first operator character at the top level and `escaped` when a string has
/// escapes. npos when the brackets do not close.
std::size_t queryEnd(std::string_view text, std::size_t &opAt, bool &escaped)
{
    int depth = 1;
    opAt = 0;
    for (std::size_t i = 2; i < text.size(); ++i) {
        const char ch = text[i];
        if (depth == 1 && opAt == 0 && std::string_view("!=<>%").find(ch) != std::string_view::npos) {
            opAt = i;
            continue;
        }
        if (ch == '\\') {
            ++i;
        } else if (ch == '[' || ch == '(') {
            ++depth;
        } else if (ch == ']' || ch == ')') {
            if (--depth == 0)
                return i;
        } else if (ch == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i) {
                if (text[i] == '\\') {
                    escaped = true;
                    ++i;
                }
            }
        }
    }
    return std::string_view::npos;
}

/// The operator at the start of `value` and its length (gjson's parseQuery).
std::pair<std::string, std::size_t> queryOperator(std::string_view value)
{
    if (value.size() == 1)
        return {std::string(value), 1};
    for (std::string_view two : {"!=", "!%", "<=", ">="}) {
        if (value.starts_with(two))
            return {std::string(two), 2};
    }
    if (value.starts_with("=="))
        return {"=", 2};
    if (!value.empty() && std::string_view("<>=%").find(value.front()) != std::string_view::npos)
        return {std::string(1, value.front()), 1};
    return {"", 0};
}

/// A quoted query value without its quotes, JSON escapes decoded.
std::string queryValue(std::string_view value, bool escaped)
{
    if (value.size() < 2 || value.front() != '"' || value.back() != '"')
        return std::string(value);
    if (escaped) {
        const Json parsed = Json::parse(value, nullptr, false);
        if (parsed.is_string())
            return parsed.get<std::string>();
    }
    return std::string(value.substr(1, value.size() - 2));
}

/// gjson's splitPossiblePipe: the path before and after its first '|' outside queries.
std::optional<std::pair<std::string_view, std::string_view>> splitPipe(std::string_view path)
{
    if (path.find('|') == std::string_view::npos || (!path.empty() && path.front() == '{'))
        return std::nullopt;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '\\') {
            ++i;
        } else if (path[i] == '.') {
            if (i + 1 == path.size())
                return std::nullopt;
            if (path[i + 1] != '#')
                continue;
            i += 2;
            if (i == path.size())
                return std::nullopt;
            if (path[i] == '(' || path[i] == '[') {
                std::size_t opAt = 0;
                bool escaped = false;
                const std::size_t end = queryEnd(path.substr(i - 1), opAt, escaped);
                if (end == std::string_view::npos)
                    return std::nullopt;
                i += end - 1;
            }
        } else if (path[i] == '|') {
            return std::pair {path.substr(0, i), path.substr(i + 1)};
        }
    }
    return std::nullopt;
}

double numberOf(std::string_view text)
{
    const std::string copy(text);
    char *end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && !copy.empty() ? value : 0.0;
}

/// strconv.ParseBool of the lower-cased text, as gjson's truthiness tests use it.
std::optional<bool> parseBool(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    if (text == "1" || text == "t" || text == "true")
        return true;
    if (text == "0" || text == "f" || text == "false")
        return false;
    return std::nullopt;
}

bool truthy(const Found &value)
{
    if (!value)
        return false;
    if (value->is_boolean())
        return value->get<bool>();
    if (value->is_string())
        return parseBool(value->get<std::string>()).value_or(false);
    if (value->is_number())
        return value->get<double>() != 0;
    return false;
}

bool falsy(const Found &value)
{
    if (!value || value->is_null())
        return true;
    if (value->is_boolean())
        return !value->get<bool>();
    if (value->is_string()) {
        const auto parsed = parseBool(value->get<std::string>());
        return parsed && !*parsed;
    }
    if (value->is_number())
        return value->get<double>() == 0;
    return false;
}

template<typename T> bool compare(const std::string &op, const T &a, const T &b)
{
    if (op == "=")
        return a == b;
    if (op == "!=")
        return a != b;
    if (op == "<")
        return a < b;
    if (op == "<=")
        return a <= b;
    if (op == ">")
        return a > b;
    if (op == ">=")
        return a >= b;
    return false;
}

/// gjson's queryMatches: whether the value at the query's path satisfies it.
bool queryMatches(const Query &query, Found value)
{
    std::string expected = query.value;
    if (!expected.empty() && expected.front() == '~') {
        const std::string kind = expected.substr(1);
        std::optional<bool> ish;
        if (kind == "*")
            ish = value.has_value();
        else if (kind == "null")
            ish = !value || value->is_null();
        else if (kind == "true")
            ish = truthy(value);
        else if (kind == "false")
            ish = falsy(value);
        if (ish) {
            expected = "true";
            value = Json(*ish);
        } else {
            expected.clear();
            value.reset();
        }
    }
    if (!value)
        return false;
    if (query.op.empty())
        return true;
    if (value->is_string()) {
        const std::string &text = value->get_ref<const std::string &>();
        if (query.op == "%" || query.op == "!%")
            return matchPattern(text, expected) == (query.op == "%");
        return compare(query.op, text, expected);
    }
    if (value->is_number())
        return compare(query.op, value->get<double>(), numberOf(expected));
    if (value->is_boolean()) {
        const bool isTrue = value->get<bool>();
        const std::string &op = query.op;
        if (op == "=")
            return expected == (isTrue ? "true" : "false");
        if (op == "!=")
            return expected != (isTrue ? "true" : "false");
        if (isTrue)
            return (op == ">" && expected == "false") || op == ">=";
        return (op == "<" && expected == "true") || op == "<=";
    }
    return false;
}

class Evaluator {
public:
    explicit Evaluator(std::string_view whole)
        : m_whole(whole)
    {
    }

    /// gjson's Get: modifiers and the refused forms at the start, then the path's components.
    Result<Found> get(const Found &value, std::string_view path, int depth)
    {
        if (depth > kMaxDepth)
            return error(path, "the path nests deeper than " + std::to_string(kMaxDepth) + " levels");
        if (path.size() > 1) {
            if (path.front() == '@') {
                const std::size_t end = std::min(path.find_first_of(".|:", 1), path.size());
                const std::string_view name = path.substr(1, end - 1);
                if (isKnownModifier(name))
                    return modifier(value, path, name, end, depth);
            }
            if (path.front() == '!' && isLiteral(path.substr(1)))
                return error(path, "JSON literals ('!') are not supported");
            if (path.front() == '[' || path.front() == '{')
                return error(path, "multipaths ('[a,b]', '{a,b}') are not supported");
            if (path.starts_with(".."))
                return error(path, "JSON Lines paths ('..') are not supported");
        }
        if (!value)
            return Found {};
        return walk(*value, path, depth);
    }

private:
    Error error(std::string_view at, const std::string &message) const
    {
        const auto offset = at.data() >= m_whole.data() && at.data() <= m_whole.data() + m_whole.size()
            ? static_cast<std::size_t>(at.data() - m_whole.data())
            : 0;
        return Error {"query",
            "query '" + std::string(m_whole) + "': at character " + std::to_string(offset + 1) + ": " + message};
    }

    static bool isLiteral(std::string_view text)
    {
        if (!text.empty() && std::string_view("{[\"+-0123456789").find(text.front()) != std::string_view::npos)
            return true;
        std::string name(text.substr(0, std::min(text.find_first_of(".|"), text.size())));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        return name == "true" || name == "false" || name == "null" || name == "nan" || name == "inf";
    }

    /// The components of a path on a value (gjson's parseObject and parseArray).
    Result<Found> walk(const Json &value, std::string_view path, int depth)
    {
        if (depth > kMaxDepth)
            return error(path, "the path nests deeper than " + std::to_string(kMaxDepth) + " levels");
        if (value.is_object())
            return walkObject(value, path, depth);
        if (value.is_array())
            return walkArray(value, path, depth);
        return Found {};
    }

    Result<Found> continueAfter(const Found &value, const Component &c, int depth)
    {
        if (c.next == Next::Pipe)
            return get(value, c.rest, depth + 1);
        if (c.next == Next::More)
            return value ? walk(*value, c.rest, depth + 1) : Found {};
        return value;
    }

    Result<Found> walkObject(const Json &object, std::string_view path, int depth)
    {
        const Component c = objectComponent(path);
        const std::string key = c.wildcard ? std::string() : unescapePath(c.part);
        for (const auto &[name, member] : object.items()) {
            if (c.wildcard ? !matchPattern(name, c.part) : name != key)
                continue;
            if (c.next != Next::More)
                return continueAfter(member, c, depth);
            // A key that matches but whose rest of the path leads nowhere lets the next one try.
            auto found = walk(member, c.rest, depth + 1);
            if (!found || found.value())
                return found;
        }
        return c.next == Next::Pipe ? get(Found {}, c.rest, depth + 1) : Found {};
    }

    /// Splits an array path component off `path` (gjson's parseArrayPath).
    Result<ArrayComponent> arrayComponent(std::string_view path)
    {
        ArrayComponent c;
        for (std::size_t i = 0; i < path.size(); ++i) {
            const char ch = path[i];
            if (ch == '|' || ch == '.') {
                c.part = path.substr(0, i);
                c.rest = path.substr(i + 1);
                c.next = ch == '|' || (!c.hash && startsPipedPart(c.rest)) ? Next::Pipe : Next::More;
                return c;
            }
            if (ch != '#')
                continue;
            c.hash = true;
            if (i != 0 || path.size() < 2)
                continue;
            if (path[1] == '.') {
                c.eachElement = true;
            } else if (path[1] == '(' || path[1] == '[') {
                auto query = parseQuery(path, i);
                if (!query)
                    return query.error();
                c.query = std::move(query).value();
            }
        }
        c.part = path;
        return c;
    }

    /// Parses the query at the start of `path`, leaving `i` on its last character (its closing
    /// bracket, or the '#' after it).
    Result<Query> parseQuery(std::string_view path, std::size_t &i)
    {
        std::size_t opAt = 0;
        bool escaped = false;
        const std::size_t end = queryEnd(path, opAt, escaped);
        if (end == std::string_view::npos)
            return error(path, "the query '" + std::string(path) + "' has no closing bracket");
        Query query;
        if (opAt > 0) {
            query.path = trimmed(path.substr(2, opAt - 2));
            const std::string_view operand = trimmed(path.substr(opAt, end - opAt));
            const auto [op, length] = queryOperator(operand);
            query.op = op;
            query.value = queryValue(trimmed(operand.substr(length)), escaped);
        } else {
            query.path = trimmed(path.substr(2, end - 2));
        }
        i = end;
        if (end + 1 < path.size() && path[end + 1] == '#') {
            query.all = true;
            i = end + 1;
        }
        return query;
    }

    Result<Found> walkArray(const Json &array, std::string_view path, int depth)
    {
        auto parsed = arrayComponent(path);
        if (!parsed)
            return parsed.error();
        const ArrayComponent &c = parsed.value();
        const Component next {c.part, c.rest, c.next, false};
        if (c.query)
            return runQuery(array, c, *c.query, depth);
        if (c.eachElement)
            return eachElement(array, c.rest, depth);
        if (c.hash) {
            const Found count = c.part == "#" ? Found(Json(array.size())) : Found {};
            return c.next == Next::More ? Found {} : continueAfter(count, next, depth);
        }
        const bool digits = !c.part.empty()
            && std::all_of(c.part.begin(), c.part.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        const std::size_t index = digits && c.part.size() < 19 ? std::stoull(std::string(c.part)) : array.size();
        return continueAfter(index < array.size() ? Found(array[index]) : Found {}, next, depth);
    }

    /// `#.PATH`: PATH of every element that has it; a '|' in PATH applies to the list.
    Result<Found> eachElement(const Json &array, std::string_view path, int depth)
    {
        const auto split = splitPipe(path);
        Json out = Json::array();
        for (const Json &element : array) {
            auto found = get(element, split ? split->first : path, depth + 1);
            if (!found)
                return found.error();
            if (found.value())
                out.push_back(std::move(*found.value()));
        }
        return split ? get(out, split->second, depth + 1) : Found(std::move(out));
    }

    Result<Found> runQuery(const Json &array, const ArrayComponent &c, const Query &query, int depth)
    {
        const auto split = c.next == Next::More ? splitPipe(c.rest) : std::nullopt;
        const std::string_view perElement = split ? split->first : c.rest;
        Json all = Json::array();
        bool matched = false;
        Found first;
        for (const Json &element : array) {
            Found tested;
            if (element.is_object() || element.is_array()) {
                auto found = get(element, query.path, depth + 1);
                if (!found)
                    return found.error();
                tested = std::move(found).value();
            } else if (query.path.empty()) {
                tested = element;
            }
            if (!queryMatches(query, tested))
                continue;
            matched = true;
            Found result = element;
            if (c.next == Next::More) {
                auto found = get(element, perElement, depth + 1);
                if (!found)
                    return found.error();
                result = std::move(found).value();
            }
            if (!query.all) {
                first = std::move(result);
                break;
            }
            if (result)
                all.push_back(std::move(*result));
        }
        Found out = query.all ? Found(std::move(all)) : std::move(first);
        if (c.next == Next::Pipe)
            return get(out, c.rest, depth + 1);
        if (split && matched)
            return get(out, split->second, depth + 1);
        return out;
    }

    /// The value of a JSON argument after "@name:", its length in `used`; nullopt when there is
    /// none, and then `used` covers the plain argument, up to a '|'.
    static std::optional<Json> modifierArgument(std::string_view text, std::size_t &used)
    {
        used = std::min(text.find('|'), text.size());
        if (text.empty() || std::string_view("{[\"").find(text.front()) == std::string_view::npos)
            return std::nullopt;
        std::size_t end = 0;
        int depth = 0;
        for (; end < text.size(); ++end) {
            const char ch = text[end];
            if (ch == '"') {
                for (++end; end < text.size() && text[end] != '"'; ++end)
                    end += text[end] == '\\' ? 1 : 0;
            } else if (ch == '{' || ch == '[') {
                ++depth;
            } else if (ch == '}' || ch == ']') {
                --depth;
            }
            if (depth <= 0)
                break;
        }
        if (end >= text.size())
            return std::nullopt;
        Json parsed = Json::parse(text.substr(0, end + 1), nullptr, false);
        if (parsed.is_discarded())
            return std::nullopt;
        used = end + 1;
        return parsed;
    }

    Result<Found> modifier(const Found &value, std::string_view path, std::string_view name, std::size_t end, int depth)
    {
        if (name == "pretty" || name == "ugly" || name == "tostr" || name == "fromstr" || name == "group"
            || name == "dig")
            return error(path, "the modifier @" + std::string(name) + " is not supported");
        std::string_view rest = path.substr(end);
        std::optional<Json> argument;
        if (!rest.empty() && rest.front() == ':') {
            std::size_t used = 0;
            argument = modifierArgument(rest.substr(1), used);
            rest = rest.substr(1 + used);
        }
        auto result = applyModifier(value, name, argument, path);
        if (!result)
            return result.error();
        if (!rest.empty() && (rest.front() == '.' || rest.front() == '|'))
            return get(result.value(), rest.substr(1), depth + 1);
        return result;
    }

    static bool option(const std::optional<Json> &argument, const char *name)
    {
        if (!argument || !argument->is_object())
            return false;
        const auto found = argument->find(name);
        return found != argument->end() && truthy(Found(*found));
    }

    Result<Found> applyModifier(
        const Found &value, std::string_view name, const std::optional<Json> &argument, std::string_view path)
    {
        if (name == "keys" || name == "values") {
            if (!value)
                return Found(Json::array());
            if (name == "values" && value->is_array())
                return value;
            Json out = Json::array();
            if (value->is_object()) {
                for (const auto &[key, member] : value->items())
                    out.push_back(name == "keys" ? Json(key) : member);
            } else if (value->is_array()) {
                for (std::size_t i = 0; i < value->size(); ++i)
                    out.push_back(nullptr);
            } else {
                out.push_back(name == "keys" ? Json() : *value);
            }
            return Found(std::move(out));
        }
        if (!value || name == "this" || name == "valid")
            return value;
        if (name == "reverse")
            return reversed(*value);
        if (name == "flatten")
            return value->is_array() ? Found(flattened(*value, option(argument, "deep"))) : value;
        if (option(argument, "preserve"))
            return error(path, "@join with preserve (duplicate keys) is not supported");
        return value->is_array() ? Found(joined(*value)) : value;
    }

    static Found reversed(const Json &value)
    {
        if (value.is_array())
            return Json(Json::array_t(value.rbegin(), value.rend()));
        if (!value.is_object())
            return value;
        Json out = Json::object();
        const auto &members = value.get_ref<const Json::object_t &>();
        for (auto it = members.rbegin(); it != members.rend(); ++it)
            appendMember(out, it->first, it->second);
        return out;
    }

    static Json flattened(const Json &array, bool deep)
    {
        Json out = Json::array();
        for (const Json &element : array) {
            if (!element.is_array()) {
                out.push_back(element);
                continue;
            }
            const Json inner = deep ? flattened(element, true) : element;
            out.insert(out.end(), inner.begin(), inner.end());
        }
        return out;
    }

    static Json joined(const Json &array)
    {
        Json out = Json::object();
        MemberSetter members(out);
        for (const Json &element : array) {
            if (!element.is_object())
                continue;
            for (const auto &[key, member] : element.items())
                members[key] = member;
        }
        return out;
    }

    std::string_view m_whole;
};

} // namespace gjson_path
} // namespace

Result<std::optional<Json>> queryJson(const Json &document, std::string_view path)
{
    return gjson_path::Evaluator(path).get(document, path, 0);
}

} // namespace ccm
