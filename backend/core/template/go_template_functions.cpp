// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template_functions.h"

#include "base/hex.h"
#include "base/utf8.h"
#include "core/template/go_template_lexer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <utility>

namespace ccm::gotmpl {

namespace {

enum class BasicKind { Nil, Bool, Number, String, Composite };

BasicKind basicKind(const Value &value)
{
    if (value.isNil())
        return BasicKind::Nil;
    const Json &json = value.json();
    if (json.is_boolean())
        return BasicKind::Bool;
    if (json.is_number())
        return BasicKind::Number;
    if (json.is_string())
        return BasicKind::String;
    return BasicKind::Composite;
}

/// -1, 0 or 1. Integers of either sign compare exactly; a float on either side compares as double.
int compareNumbers(const Json &a, const Json &b)
{
    const auto order = [](auto x, auto y) { return x < y ? -1 : y < x ? 1 : 0; };
    if (a.is_number_float() || b.is_number_float())
        return order(a.get<double>(), b.get<double>());
    if (a.is_number_unsigned() && b.is_number_unsigned())
        return order(a.get<std::uint64_t>(), b.get<std::uint64_t>());
    if (!a.is_number_unsigned() && !b.is_number_unsigned())
        return order(a.get<std::int64_t>(), b.get<std::int64_t>());
    if (a.is_number_unsigned())
        return -compareNumbers(b, a);
    const auto signedValue = a.get<std::int64_t>();
    if (signedValue < 0)
        return -1;
    return order(static_cast<std::uint64_t>(signedValue), b.get<std::uint64_t>());
}

Checked<bool> equal(const Value &a, const Value &b)
{
    const BasicKind kindA = basicKind(a);
    const BasicKind kindB = basicKind(b);
    if (kindA == BasicKind::Nil || kindB == BasicKind::Nil)
        return kindA == kindB;
    if (kindA != kindB)
        return Problem {"incompatible types for comparison: " + describeValue(a) + " and " + describeValue(b)};
    switch (kindA) {
    case BasicKind::Number:
        return compareNumbers(a.json(), b.json()) == 0;
    case BasicKind::Composite:
        return Problem {"non-comparable type: " + describeValue(a)};
    default:
        return a.json() == b.json();
    }
}

Checked<bool> less(const Value &a, const Value &b)
{
    for (const Value *operand : {&a, &b}) {
        const BasicKind kind = basicKind(*operand);
        if (kind != BasicKind::Number && kind != BasicKind::String && kind != BasicKind::Bool)
            return Problem {"invalid type for comparison: " + describeValue(*operand)};
    }
    if (basicKind(a) != basicKind(b))
        return Problem {"incompatible types for comparison: " + describeValue(a) + " and " + describeValue(b)};
    if (basicKind(a) == BasicKind::Bool)
        return Problem {"invalid type for comparison: a boolean"};
    if (basicKind(a) == BasicKind::Number)
        return compareNumbers(a.json(), b.json()) < 0;
    return a.json().get_ref<const std::string &>() < b.json().get_ref<const std::string &>();
}

Checked<Value> callEq(const Args &args)
{
    if (args.size() < 2)
        return Problem {"missing argument for comparison"};
    for (std::size_t i = 1; i < args.size(); ++i) {
        auto same = equal(args[0], args[i]);
        if (!same)
            return same.error();
        if (same.value())
            return Value::owned(true);
    }
    return Value::owned(false);
}

/// A comparison's outcome as a template value, negated when asked.
Checked<Value> truthValue(const Checked<bool> &outcome, bool negate = false)
{
    if (!outcome)
        return outcome.error();
    return Value::owned(outcome.value() != negate);
}

Checked<bool> lessOrEqual(const Args &args)
{
    auto lower = less(args[0], args[1]);
    if (!lower || lower.value())
        return lower;
    return equal(args[0], args[1]);
}

Checked<Value> callNe(const Args &args)
{
    return truthValue(equal(args[0], args[1]), true);
}

Checked<Value> callLt(const Args &args)
{
    return truthValue(less(args[0], args[1]));
}

Checked<Value> callLe(const Args &args)
{
    return truthValue(lessOrEqual(args));
}

Checked<Value> callGt(const Args &args)
{
    return truthValue(lessOrEqual(args), true);
}

Checked<Value> callGe(const Args &args)
{
    return truthValue(less(args[0], args[1]), true);
}

Checked<Value> callNot(const Args &args)
{
    return Value::owned(!isTrue(args[0]));
}

/// registrations cluster protocol service address: upstream's lookup in the registration stream,
/// through the scope's lookup; without a scope or a lookup it finds nothing.
Checked<Value> callRegistrations(const Args &args, const ExpressionScope *scope)
{
    std::vector<Json> values;
    for (const Value &arg : args) {
        if (arg.isNil() || !arg.json().is_string())
            return Problem {
                "registrations needs four strings (cluster, protocol, service, address), got " + describeValue(arg)};
        values.push_back(arg.json());
    }
    if (scope == nullptr)
        return Value::owned(Json::array());
    auto found = scope->callFunction("registrations", values);
    if (!found)
        return Value::owned(Json::array());
    if (!*found)
        return Problem {found->error().message};
    return Value::owned(std::move(*found).value());
}

Checked<Value> callLen(const Args &args)
{
    const Value &item = args[0];
    if (!item.isNil()) {
        const Json &json = item.json();
        if (json.is_string())
            return Value::owned(json.get_ref<const std::string &>().size());
        if (json.is_array() || json.is_object())
            return Value::owned(json.size());
    }
    return Problem {"len of " + describeValue(item)};
}

/// An index into something of `size` elements: an integer (or an integral float, as JSON numbers
/// may be) from 0 to `size`; callers that need an element refuse `size` itself.
Checked<std::size_t> toIndex(const Value &index, std::size_t size)
{
    if (index.isNil() || !index.json().is_number())
        return Problem {"cannot index with " + describeValue(index)};
    const Json &json = index.json();
    if (json.is_number_float() && json.get<double>() != std::trunc(json.get<double>()))
        return Problem {"cannot index with a fraction: " + formatNumber(json)};
    const bool negative
        = json.is_number_float() ? json.get<double>() < 0 : !json.is_number_unsigned() && json.get<std::int64_t>() < 0;
    const bool tooLarge = json.is_number_float() ? json.get<double>() > static_cast<double>(size)
                                                 : !negative && json.get<std::uint64_t>() > size;
    if (negative || tooLarge)
        return Problem {"index out of range: " + formatNumber(json)};
    return json.is_number_float() ? static_cast<std::size_t>(json.get<double>())
                                  : static_cast<std::size_t>(json.get<std::uint64_t>());
}

Checked<Value> callIndex(const Args &args)
{
    Value item = args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (item.isNil())
            return Problem {"index of " + describeValue(item)};
        const Json &json = item.json();
        if (json.is_array() || json.is_string()) {
            const std::size_t size = json.is_string() ? json.get_ref<const std::string &>().size() : json.size();
            auto position = toIndex(args[i], size);
            if (!position)
                return position.error();
            if (position.value() >= size)
                return Problem {"index out of range: " + std::to_string(position.value())};
            if (json.is_string())
                item = Value::owned(static_cast<unsigned char>(json.get_ref<const std::string &>()[position.value()]));
            else
                item = item.part(json[position.value()]);
        } else if (json.is_object()) {
            if (!args[i].isString())
                return Problem {"cannot index a map with " + describeValue(args[i]) + ": keys are strings"};
            const auto found = json.find(args[i].json().get_ref<const std::string &>());
            item = found == json.end() ? Value::owned(nullptr) : item.part(*found);
        } else {
            return Problem {"can't index " + describeValue(item)};
        }
    }
    if (args.size() == 1 && item.isNil())
        return Problem {"index of " + describeValue(item)};
    return item;
}

Checked<Value> callSlice(const Args &args)
{
    const Value &item = args[0];
    const std::size_t indexCount = args.size() - 1;
    if (indexCount > 3)
        return Problem {"too many slice indexes: " + std::to_string(indexCount)};
    if (item.isNil() || !(item.isString() || item.json().is_array()))
        return Problem {"can't slice " + describeValue(item)};
    if (item.isString() && indexCount == 3)
        return Problem {"cannot 3-index slice a string"};
    const Json &json = item.json();
    const std::size_t size = item.isString() ? json.get_ref<const std::string &>().size() : json.size();
    std::array<std::size_t, 3> bounds {0, size, size};
    for (std::size_t i = 0; i < indexCount; ++i) {
        auto position = toIndex(args[i + 1], size);
        if (!position)
            return position.error();
        bounds[i] = position.value();
    }
    if (bounds[0] > bounds[1])
        return Problem {"invalid slice index: " + std::to_string(bounds[0]) + " > " + std::to_string(bounds[1])};
    if (indexCount == 3 && bounds[1] > bounds[2])
        return Problem {"invalid slice index: " + std::to_string(bounds[1]) + " > " + std::to_string(bounds[2])};
    if (item.isString())
        return Value::owned(json.get_ref<const std::string &>().substr(bounds[0], bounds[1] - bounds[0]));
    Json slice = Json::array();
    for (std::size_t i = bounds[0]; i < bounds[1]; ++i)
        slice.push_back(json[i]);
    return Value::owned(std::move(slice));
}

/// fmt.Sprint: a space between two operands when neither is a string.
std::string sprint(const Args &args, std::string_view nilText, bool nilIsString)
{
    std::string out;
    bool previousIsString = true;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool isString = args[i].isString() || (nilIsString && args[i].isNil());
        if (i > 0 && !isString && !previousIsString)
            out += ' ';
        appendValue(out, args[i], nilText);
        previousIsString = isString;
    }
    return out;
}

Checked<Value> callPrint(const Args &args)
{
    return Value::owned(sprint(args, "<nil>", false));
}

Checked<Value> callPrintln(const Args &args)
{
    std::string out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i > 0)
            out += ' ';
        appendValue(out, args[i], "<nil>");
    }
    out += '\n';
    return Value::owned(std::move(out));
}

std::size_t countRunes(std::string_view text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// strconv.Quote: a double-quoted Go string literal.
std::string goQuote(std::string_view text)
{
    std::string out = "\"";
    std::size_t i = 0;
    while (i < text.size()) {
        char32_t codePoint = 0;
        const std::size_t length = decodeUtf8(text, i, codePoint);
        if (length == 0) {
            out += "\\x";
            appendHexDigits(out, static_cast<unsigned char>(text[i]), 2, false);
            ++i;
            continue;
        }
        static constexpr std::string_view named = "\a\b\f\n\r\t\v\\\"";
        static constexpr std::string_view letters = "abfnrtv\\\"";
        if (length == 1 && named.find(text[i]) != std::string_view::npos) {
            out += '\\';
            out += letters[named.find(text[i])];
        } else if (codePoint < 0x20 || codePoint == 0x7F) {
            out += "\\x";
            appendHexDigits(out, codePoint, 2, false);
        } else if (codePoint >= 0x80 && codePoint < 0xA0) {
            out += "\\u";
            appendHexDigits(out, codePoint, 4, false);
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    return out + "\"";
}

/// The text the escaping functions work on: a lone string as it is, anything else as Sprint
/// prints it, with nil as "<no value>".
std::string escaperInput(const Args &args)
{
    if (args.size() == 1 && args[0].isString())
        return args[0].json().get_ref<const std::string &>();
    return sprint(args, "<no value>", true);
}

Checked<Value> callHtml(const Args &args)
{
    std::string out;
    for (const char c : escaperInput(args)) {
        switch (c) {
        case '"':
            out += "&#34;";
            break;
        case '\'':
            out += "&#39;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '\0':
            out += "\xEF\xBF\xBD";
            break;
        default:
            out += c;
        }
    }
    return Value::owned(std::move(out));
}

Checked<Value> callJs(const Args &args)
{
    const std::string text = escaperInput(args);
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        static constexpr std::string_view special = "\\'\"<>&=";
        char32_t codePoint = 0;
        const std::size_t length = decodeUtf8(text, i, codePoint);
        if (c == '\\' || c == '\'' || c == '"') {
            out += '\\';
            out += c;
        } else if (special.find(c) != std::string_view::npos
            || (length > 0 && (codePoint < 0x20 || (codePoint >= 0x80 && codePoint < 0xA0)))) {
            out += "\\u";
            appendHexDigits(out, codePoint, 4, true);
        } else {
            out.append(text.substr(i, std::max<std::size_t>(length, 1)));
        }
        i += std::max<std::size_t>(length, 1);
    }
    return Value::owned(std::move(out));
}

Checked<Value> callUrlquery(const Args &args)
{
    std::string out;
    for (const char c : escaperInput(args)) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isAsciiDigit(c) || c == '-' || c == '_' || c == '.'
            || c == '~') {
            out += c;
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            appendHexDigits(out, static_cast<unsigned char>(c), 2, true);
        }
    }
    return Value::owned(std::move(out));
}

/// Sign and magnitude of an integer, or of a float that holds one (JSON numbers from YAML).
std::optional<std::pair<bool, std::uint64_t>> integerParts(const Value &value)
{
    if (value.isNil() || !value.json().is_number())
        return std::nullopt;
    const Json &json = value.json();
    if (json.is_number_unsigned())
        return std::pair {false, json.get<std::uint64_t>()};
    if (json.is_number_integer()) {
        const auto number = json.get<std::int64_t>();
        const auto magnitude = static_cast<std::uint64_t>(number);
        return std::pair {number < 0, number < 0 ? ~magnitude + 1 : magnitude};
    }
    const double number = json.get<double>();
    if (number != std::trunc(number) || std::fabs(number) >= 1.8e19)
        return std::nullopt;
    return std::pair {number < 0, static_cast<std::uint64_t>(std::fabs(number))};
}

/// One conversion of printf: flags, width and precision as parsed, and the argument.
struct Conversion {
    bool minus = false;
    bool plus = false;
    bool space = false;
    bool zero = false;
    bool sharp = false;
    std::size_t width = 0;
    std::optional<std::size_t> precision;
    char verb = 'v';
};

/// The parts of a formatted argument; the width pads around them or, with the 0 flag, between.
struct Formatted {
    std::string sign;
    std::string prefix;
    std::string body;
};

Problem wrongType(const Conversion &spec, const Value &arg, std::string_view wanted)
{
    return Problem {std::string("%") + spec.verb + " needs " + std::string(wanted) + ", got " + describeValue(arg)};
}

std::string signText(bool negative, const Conversion &spec)
{
    return negative ? "-" : spec.plus ? "+" : spec.space ? " " : "";
}

/// %v and %s: the value as print writes it, cut to the precision in characters.
Formatted formatText(const Conversion &spec, const Value &arg)
{
    Formatted out;
    std::string &body = out.body;
    appendValue(body, arg, "<nil>");
    if (spec.precision && countRunes(body) > *spec.precision) {
        std::size_t runes = 0;
        std::size_t cut = 0;
        while (
            cut < body.size() && (runes < *spec.precision || (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80)) {
            if ((static_cast<unsigned char>(body[cut]) & 0xC0) != 0x80)
                ++runes;
            ++cut;
        }
        body.resize(cut);
    }
    return out;
}

/// %d, %x and %X of an integer; %x and %X of a string hex-encode its bytes.
Checked<Formatted> formatInteger(const Conversion &spec, const Value &arg)
{
    Formatted out;
    if (spec.verb != 'd' && arg.isString()) {
        for (const char c : arg.json().get_ref<const std::string &>())
            appendHexDigits(out.body, static_cast<unsigned char>(c), 2, spec.verb == 'X');
        if (spec.sharp && !out.body.empty())
            out.prefix = spec.verb == 'X' ? "0X" : "0x";
        return out;
    }
    const auto parts = integerParts(arg);
    if (!parts)
        return wrongType(spec, arg, spec.verb == 'd' ? "an integer" : "an integer or a string");
    std::array<char, 32> digits {};
    const auto end
        = std::to_chars(digits.data(), digits.data() + digits.size(), parts->second, spec.verb == 'd' ? 10 : 16).ptr;
    out.body.assign(digits.data(), end);
    if (spec.verb == 'X')
        std::transform(out.body.begin(), out.body.end(), out.body.begin(),
            [](char c) { return c >= 'a' ? static_cast<char>(c - 32) : c; });
    if (spec.precision && out.body.size() < *spec.precision)
        out.body.insert(0, *spec.precision - out.body.size(), '0');
    out.sign = signText(parts->first, spec);
    if (spec.sharp && spec.verb != 'd')
        out.prefix = spec.verb == 'X' ? "0X" : "0x";
    return out;
}

/// %f, %F, %e and %E.
Checked<Formatted> formatFloat(const Conversion &spec, const Value &arg)
{
    if (arg.isNil() || !arg.json().is_number())
        return wrongType(spec, arg, "a number");
    Formatted out;
    const double number = arg.json().get<double>();
    const char format[] = {'%', '.', '*', spec.verb == 'F' ? 'f' : spec.verb, '\0'};
    const int precision = static_cast<int>(spec.precision.value_or(6));
    const int length = std::snprintf(nullptr, 0, format, precision, std::fabs(number));
    out.body.resize(static_cast<std::size_t>(std::max(length, 0)) + 1);
    std::snprintf(out.body.data(), out.body.size(), format, precision, std::fabs(number));
    out.body.resize(out.body.size() - 1);
    out.sign = signText(std::signbit(number), spec);
    return out;
}

Checked<Formatted> formatVerb(const Conversion &spec, const Value &arg)
{
    switch (spec.verb) {
    case 'v':
    case 's':
        return formatText(spec, arg);
    case 'q':
        if (!arg.isString())
            return wrongType(spec, arg, "a string");
        return Formatted {{}, {}, goQuote(arg.json().get_ref<const std::string &>())};
    case 't':
        if (arg.isNil() || !arg.json().is_boolean())
            return wrongType(spec, arg, "a boolean");
        return Formatted {{}, {}, arg.json().get<bool>() ? "true" : "false"};
    case 'd':
    case 'x':
    case 'X':
        return formatInteger(spec, arg);
    case 'f':
    case 'F':
    case 'e':
    case 'E':
        return formatFloat(spec, arg);
    default:
        return Problem {std::string("unsupported verb %") + spec.verb};
    }
}

Checked<std::string> formatConversion(const Conversion &spec, const Value &arg)
{
    auto formatted = formatVerb(spec, arg);
    if (!formatted)
        return formatted.error();
    const auto &[sign, prefix, body] = formatted.value();
    const std::size_t length = countRunes(sign) + prefix.size() + countRunes(body);
    if (spec.width <= length)
        return sign + prefix + body;
    const std::size_t padding = spec.width - length;
    if (spec.minus)
        return sign + prefix + body + std::string(padding, ' ');
    if (spec.zero)
        return sign + prefix + std::string(padding, '0') + body;
    return std::string(padding, ' ') + sign + prefix + body;
}

constexpr std::size_t maxWidth = 10000;

/// Reads the flags, width, precision and verb of the conversion whose '%' is at `start`; `i` ends
/// after the verb.
Checked<Conversion> parseConversion(const std::string &format, std::size_t start, std::size_t &i)
{
    i = start + 1;
    Conversion spec;
    for (; i < format.size(); ++i) {
        const char flag = format[i];
        if (flag == '-')
            spec.minus = true;
        else if (flag == '+')
            spec.plus = true;
        else if (flag == ' ')
            spec.space = true;
        else if (flag == '0')
            spec.zero = true;
        else if (flag == '#')
            spec.sharp = true;
        else
            break;
    }
    const auto readNumber = [&]() -> std::optional<std::size_t> {
        std::size_t number = 0;
        for (; i < format.size() && isAsciiDigit(format[i]); ++i) {
            number = number * 10 + static_cast<std::size_t>(format[i] - '0');
            if (number > maxWidth)
                return std::nullopt;
        }
        return number;
    };
    const auto width = readNumber();
    std::optional<std::size_t> precision;
    bool tooLarge = !width;
    if (width && i < format.size() && format[i] == '.') {
        ++i;
        precision = readNumber();
        tooLarge = !precision;
    }
    if (tooLarge)
        return Problem {"width or precision over " + std::to_string(maxWidth) + " in the format"};
    if (i >= format.size())
        return Problem {"format ends inside the verb " + format.substr(start)};
    spec.width = *width;
    spec.precision = precision;
    spec.verb = format[i++];
    return spec;
}

/// fmt.Sprintf for the verbs %v %s %q %d %x %X %f %F %e %E %t and %%, with flags, width and
/// precision. Where Go would print "%!d(string=...)" markers, this is an error instead.
Checked<Value> callPrintf(const Args &args)
{
    if (!args[0].isString())
        return Problem {"the format must be a string, got " + describeValue(args[0])};
    const std::string &format = args[0].json().get_ref<const std::string &>();
    std::string out;
    std::size_t nextArg = 1;
    std::size_t i = 0;
    while (i < format.size()) {
        if (format[i] != '%') {
            out += format[i++];
            continue;
        }
        const std::size_t start = i;
        auto spec = parseConversion(format, start, i);
        if (!spec)
            return spec.error();
        if (spec.value().verb == '%') {
            out += '%';
            continue;
        }
        if (nextArg >= args.size())
            return Problem {"missing argument for " + format.substr(start, i - start)};
        auto text = formatConversion(spec.value(), args[nextArg++]);
        if (!text)
            return text.error();
        out += text.value();
    }
    if (nextArg < args.size())
        return Problem {
            std::to_string(args.size() - 1) + " arguments but the format uses " + std::to_string(nextArg - 1)};
    return Value::owned(std::move(out));
}

constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

constexpr std::array<Function, 19> functions {{
    {"and", 1, unlimited, nullptr},
    {"or", 1, unlimited, nullptr},
    {"not", 1, 1, callNot},
    {"len", 1, 1, callLen},
    {"index", 1, unlimited, callIndex},
    {"slice", 1, unlimited, callSlice},
    {"eq", 1, unlimited, callEq},
    {"ne", 2, 2, callNe},
    {"lt", 2, 2, callLt},
    {"le", 2, 2, callLe},
    {"gt", 2, 2, callGt},
    {"ge", 2, 2, callGe},
    {"print", 0, unlimited, callPrint},
    {"printf", 1, unlimited, callPrintf},
    {"println", 0, unlimited, callPrintln},
    {"html", 0, unlimited, callHtml},
    {"js", 0, unlimited, callJs},
    {"urlquery", 0, unlimited, callUrlquery},
    {"registrations", 4, 4, nullptr, callRegistrations},
}};

} // namespace

const Function *findFunction(std::string_view name)
{
    const auto found = std::find_if(
        functions.begin(), functions.end(), [&](const Function &function) { return function.name == name; });
    return found == functions.end() ? nullptr : &*found;
}

} // namespace ccm::gotmpl
