// SPDX-License-Identifier: Apache-2.0
#include "go_template.h"

#include "source_map.h"
#include "utf8.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace ccm {

namespace {

/// A problem at a byte offset of the template text; turned into "FILE:LINE:COL: message" at the end.
struct Failure {
    std::size_t offset = 0;
    std::string message;
};

template<typename T> using Outcome = Result<T, Failure>;

struct Done { };

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// Letters, digits and underscore; bytes of multi-byte UTF-8 sequences count as letters so that
/// non-ASCII keys can be fields, as Go's Unicode letters can.
bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_'
        || static_cast<unsigned char>(c) >= 0x80;
}

/// A character for a message: itself when printable ASCII, else its code in hex.
std::string describeChar(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F)
        return std::string("'") + c + "'";
    std::array<char, 8> buffer {};
    std::snprintf(buffer.data(), buffer.size(), "0x%02X", byte);
    return buffer.data();
}

// ---------------------------------------------------------------------------------------------
// Lexer

enum class Tok {
    Text,
    LeftDelim,
    RightDelim,
    Identifier,
    Field,
    Variable,
    String,
    Number,
    Bool,
    Nil,
    Dot,
    Pipe,
    LeftParen,
    RightParen,
    Declare,
    Assign,
    Comma,
    If,
    Else,
    End,
    Range,
    With,
    Break,
    Continue,
    Unsupported,
    Eof,
};

struct Token {
    Tok type = Tok::Eof;
    std::string value; ///< text, field or function name, "$name", unquoted string, number text
    std::size_t offset = 0;
    std::size_t length = 0; ///< bytes of template text the token covers
    bool spaceBefore = false; ///< separates operands: ".a .b" is two, ".a.b" one
};

Tok keywordType(std::string_view word)
{
    static constexpr std::array<std::pair<std::string_view, Tok>, 13> keywords {{
        {"if", Tok::If},
        {"else", Tok::Else},
        {"end", Tok::End},
        {"range", Tok::Range},
        {"with", Tok::With},
        {"break", Tok::Break},
        {"continue", Tok::Continue},
        {"define", Tok::Unsupported},
        {"template", Tok::Unsupported},
        {"block", Tok::Unsupported},
        {"true", Tok::Bool},
        {"false", Tok::Bool},
        {"nil", Tok::Nil},
    }};
    for (const auto &[name, type] : keywords) {
        if (name == word)
            return type;
    }
    return Tok::Identifier;
}

/// Decodes the inside of a double-quoted Go string; `offset` is where the opening quote is.
Outcome<std::string> unquote(std::string_view body, std::size_t offset)
{
    std::string out;
    std::size_t i = 0;
    while (i < body.size()) {
        const char c = body[i];
        if (c != '\\') {
            out += c;
            ++i;
            continue;
        }
        const std::size_t escapeOffset = offset + 1 + i;
        const auto bad = [&](std::size_t length) {
            return Failure {
                escapeOffset, "bad escape sequence \\" + std::string(body.substr(i + 1, length)) + " in string"};
        };
        if (i + 1 >= body.size())
            return bad(0);
        const char kind = body[i + 1];
        static constexpr std::string_view simple = "abfnrtv\\\"";
        static constexpr std::string_view simpleValues = "\a\b\f\n\r\t\v\\\"";
        if (const std::size_t index = simple.find(kind); index != std::string_view::npos) {
            out += simpleValues[index];
            i += 2;
            continue;
        }
        if (kind >= '0' && kind <= '7') {
            int value = 0;
            for (std::size_t k = 1; k <= 3; ++k) {
                if (i + k >= body.size() || body[i + k] < '0' || body[i + k] > '7')
                    return bad(k);
                value = value * 8 + (body[i + k] - '0');
            }
            if (value > 255)
                return bad(3);
            out += static_cast<char>(value);
            i += 4;
            continue;
        }
        std::size_t digits = 0;
        if (kind == 'x')
            digits = 2;
        else if (kind == 'u')
            digits = 4;
        else if (kind == 'U')
            digits = 8;
        else
            return bad(1);
        std::uint32_t value = 0;
        for (std::size_t k = 0; k < digits; ++k) {
            const std::size_t at = i + 2 + k;
            if (at >= body.size() || hexDigitValue(body[at]) < 0)
                return bad(1 + std::min(k + 1, body.size() - i - 1));
            value = value * 16 + static_cast<std::uint32_t>(hexDigitValue(body[at]));
        }
        if (kind == 'x')
            out += static_cast<char>(value);
        else if (value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
            return bad(1 + digits);
        else
            appendUtf8(out, value);
        i += 2 + digits;
    }
    return out;
}

/// Splits template text into text and action tokens, as Go's lexer does: comments disappear,
/// trim markers remove the neighbouring whitespace, and every action ends with a right delimiter.
class Lexer {
public:
    Lexer(std::string_view text, std::string_view left, std::string_view right)
        : m_text(text)
        , m_left(left)
        , m_right(right)
    {
    }

    Outcome<std::vector<Token>> run()
    {
        std::size_t pos = 0;
        bool trimLeading = false;
        while (true) {
            std::size_t start = pos;
            if (trimLeading) {
                while (start < m_text.size() && isSpace(m_text[start]))
                    ++start;
            }
            const std::size_t open = m_text.find(m_left, start);
            const std::size_t afterOpen = open == std::string_view::npos ? m_text.size() : open + m_left.size();
            const bool trimBefore = open != std::string_view::npos && afterOpen + 1 < m_text.size()
                && m_text[afterOpen] == '-' && isSpace(m_text[afterOpen + 1]);
            std::size_t end = open == std::string_view::npos ? m_text.size() : open;
            if (trimBefore) {
                while (end > start && isSpace(m_text[end - 1]))
                    --end;
            }
            if (end > start)
                push(Tok::Text, std::string(m_text.substr(start, end - start)), start, end - start, false);
            if (open == std::string_view::npos)
                break;

            const std::size_t commentStart = trimBefore ? afterOpen + 2 : afterOpen;
            if (m_text.substr(commentStart).starts_with("/*")) {
                auto after = skipComment(open, commentStart);
                if (!after)
                    return after.error();
                pos = after.value().first;
                trimLeading = after.value().second;
                continue;
            }

            push(Tok::LeftDelim, {}, open, m_left.size() + (trimBefore ? 1 : 0), false);
            auto after = lexAction(open, trimBefore ? afterOpen + 1 : afterOpen);
            if (!after)
                return after.error();
            pos = after.value().first;
            trimLeading = after.value().second;
        }
        push(Tok::Eof, {}, m_text.size(), 0, false);
        return std::move(m_tokens);
    }

private:
    void push(Tok type, std::string value, std::size_t offset, std::size_t length, bool spaceBefore)
    {
        m_tokens.push_back(Token {type, std::move(value), offset, length, spaceBefore});
    }

    /// At `p`: " -" followed by the right delimiter.
    [[nodiscard]] bool atTrimmedRight(std::size_t p) const
    {
        return p + 1 < m_text.size() && isSpace(m_text[p]) && m_text[p + 1] == '-'
            && m_text.substr(p + 2).starts_with(m_right);
    }

    /// Go's terminators: what may follow a word inside an action.
    [[nodiscard]] bool atTerminator(std::size_t p) const
    {
        if (p >= m_text.size())
            return true;
        const char c = m_text[p];
        return isSpace(c) || c == '.' || c == ',' || c == '|' || c == ':' || c == ')' || c == '('
            || m_text.substr(p).starts_with(m_right);
    }

    /// Skips {{/* ... */}}; returns where the text resumes and whether it is to be left-trimmed.
    Outcome<std::pair<std::size_t, bool>> skipComment(std::size_t open, std::size_t commentStart) const
    {
        const std::size_t close = m_text.find("*/", commentStart + 2);
        if (close == std::string_view::npos)
            return Failure {open, "unclosed comment"};
        const std::size_t after = close + 2;
        if (atTrimmedRight(after))
            return std::pair {after + 2 + m_right.size(), true};
        if (m_text.substr(after).starts_with(m_right))
            return std::pair {after + m_right.size(), false};
        return Failure {close, "comment ends before closing delimiter"};
    }

    /// Lexes the inside of an action starting at `p`; returns where the text resumes and whether
    /// it is to be left-trimmed.
    Outcome<std::pair<std::size_t, bool>> lexAction(std::size_t open, std::size_t p)
    {
        bool space = true;
        while (true) {
            if (p >= m_text.size())
                return Failure {open, "unclosed action: no " + std::string(m_right) + " before the end of the text"};
            if (atTrimmedRight(p)) {
                push(Tok::RightDelim, {}, p + 1, 1 + m_right.size(), true);
                return std::pair {p + 2 + m_right.size(), true};
            }
            if (m_text.substr(p).starts_with(m_right)) {
                push(Tok::RightDelim, {}, p, m_right.size(), space);
                return std::pair {p + m_right.size(), false};
            }
            const char c = m_text[p];
            if (isSpace(c)) {
                space = true;
                ++p;
                continue;
            }
            const bool spaceBefore = space;
            space = false;
            const std::size_t start = p;
            if (c == '"') {
                ++p;
                while (p < m_text.size() && m_text[p] != '"' && m_text[p] != '\n') {
                    p += m_text[p] == '\\' && p + 1 < m_text.size() && m_text[p + 1] != '\n' ? 2 : 1;
                }
                if (p >= m_text.size() || m_text[p] != '"')
                    return Failure {start, "unterminated quoted string"};
                auto value = unquote(m_text.substr(start + 1, p - start - 1), start);
                if (!value)
                    return value.error();
                ++p;
                push(Tok::String, std::move(value).value(), start, p - start, spaceBefore);
            } else if (c == '`') {
                const std::size_t close = m_text.find('`', p + 1);
                if (close == std::string_view::npos)
                    return Failure {start, "unterminated raw quoted string"};
                std::string value;
                for (const char r : m_text.substr(p + 1, close - p - 1)) {
                    if (r != '\r')
                        value += r;
                }
                p = close + 1;
                push(Tok::String, std::move(value), start, p - start, spaceBefore);
            } else if (c == '$' || (c == '.' && !(p + 1 < m_text.size() && isDigit(m_text[p + 1])))) {
                ++p;
                while (p < m_text.size() && isWordChar(m_text[p]))
                    ++p;
                if (!atTerminator(p))
                    return Failure {p,
                        "unexpected character " + describeChar(m_text[p]) + " after "
                            + std::string(m_text.substr(start, p - start))};
                const std::string name(m_text.substr(start + 1, p - start - 1));
                if (c == '$')
                    push(Tok::Variable, "$" + name, start, p - start, spaceBefore);
                else
                    push(name.empty() ? Tok::Dot : Tok::Field, name, start, p - start, spaceBefore);
            } else if (isDigit(c) || c == '.' || c == '+' || c == '-') {
                p = scanNumber(p);
                push(Tok::Number, std::string(m_text.substr(start, p - start)), start, p - start, spaceBefore);
            } else if (isWordChar(c)) {
                while (p < m_text.size() && isWordChar(m_text[p]))
                    ++p;
                if (!atTerminator(p))
                    return Failure {p,
                        "unexpected character " + describeChar(m_text[p]) + " after "
                            + std::string(m_text.substr(start, p - start))};
                const std::string word(m_text.substr(start, p - start));
                push(keywordType(word), word, start, p - start, spaceBefore);
            } else if (c == ':') {
                if (p + 1 >= m_text.size() || m_text[p + 1] != '=')
                    return Failure {start, "expected := after ':'"};
                p += 2;
                push(Tok::Declare, ":=", start, 2, spaceBefore);
            } else {
                static constexpr std::string_view singles = "|(),=";
                static constexpr std::array<Tok, 5> singleTypes {
                    Tok::Pipe, Tok::LeftParen, Tok::RightParen, Tok::Comma, Tok::Assign};
                const std::size_t index = singles.find(c);
                if (index == std::string_view::npos)
                    return Failure {start, "unexpected character " + describeChar(c) + " in action"};
                ++p;
                push(singleTypes[index], std::string(1, c), start, 1, spaceBefore);
            }
        }
    }

    /// The end of a number's text: Go's digits, prefixes, fraction and exponent; anything
    /// word-like glued to it is included so that "12ab" is reported whole.
    [[nodiscard]] std::size_t scanNumber(std::size_t p) const
    {
        if (m_text[p] == '+' || m_text[p] == '-')
            ++p;
        const bool hex = m_text.substr(p).starts_with("0x") || m_text.substr(p).starts_with("0X");
        while (p < m_text.size()) {
            const char c = m_text[p];
            if (isWordChar(c) || c == '.') {
                ++p;
            } else if ((c == '+' || c == '-') && !hex && (m_text[p - 1] == 'e' || m_text[p - 1] == 'E')) {
                ++p;
            } else {
                break;
            }
        }
        return p;
    }

    std::string_view m_text;
    std::string_view m_left;
    std::string_view m_right;
    std::vector<Token> m_tokens;
};

/// A Go number literal as a value: integers (decimal, 0x, 0o, 0b, leading-zero octal, with
/// underscores between digits) become integers, anything with a fraction or exponent a float.
Outcome<Json> parseNumber(std::string_view text, std::size_t offset)
{
    const Failure bad {offset, "bad number syntax: " + std::string(text)};
    std::string_view rest = text;
    bool negative = false;
    if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
        negative = rest.front() == '-';
        rest.remove_prefix(1);
    }
    std::string digits;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] != '_') {
            digits += rest[i];
            continue;
        }
        if (i == 0 || i + 1 >= rest.size() || rest[i + 1] == '_' || !isWordChar(rest[i - 1])
            || !isWordChar(rest[i + 1]))
            return bad;
    }
    if (digits.empty())
        return bad;
    int base = 10;
    std::string_view body = digits;
    if (body.size() > 1 && body[0] == '0' && std::string_view("xXoObB").find(body[1]) != std::string_view::npos) {
        base = body[1] == 'x' || body[1] == 'X' ? 16 : body[1] == 'o' || body[1] == 'O' ? 8 : 2;
        body.remove_prefix(2);
    } else if (body.find_first_of(".eE") != std::string_view::npos) {
        double value = 0;
        const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
        if (error == std::errc::result_out_of_range)
            return Failure {offset, "number " + std::string(text) + " is out of range"};
        if (error != std::errc() || end != body.data() + body.size() || !(isDigit(body[0]) || body[0] == '.'))
            return bad;
        return Json(negative ? -value : value);
    } else if (body.size() > 1 && body[0] == '0') {
        base = 8;
        body.remove_prefix(1);
    }
    if (body.empty())
        return bad;
    std::uint64_t magnitude = 0;
    const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), magnitude, base);
    if (error == std::errc::result_out_of_range)
        return Failure {offset, "number " + std::string(text) + " is out of range"};
    if (error != std::errc() || end != body.data() + body.size())
        return bad;
    constexpr auto maxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (magnitude > maxInt + (negative ? 1 : 0))
        return Failure {offset, "number " + std::string(text) + " is out of range"};
    if (negative)
        return Json(
            magnitude == maxInt + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(magnitude));
    return Json(static_cast<std::int64_t>(magnitude));
}

// ---------------------------------------------------------------------------------------------
// Parse tree

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

// ---------------------------------------------------------------------------------------------
// Values

/// A value during execution: JSON, or missing (Go's invalid value, what a map gives for a key it
/// does not have). Values inside the data are borrowed; computed ones are owned, and a part of an
/// owned value keeps its owner alive.
class Value {
public:
    static Value missing() { return Value(nullptr); }
    static Value borrowed(const Json &json)
    {
        return Value(std::shared_ptr<const Json>(std::shared_ptr<const Json>(), &json));
    }
    static Value owned(Json json) { return Value(std::make_shared<const Json>(std::move(json))); }

    [[nodiscard]] bool isMissing() const { return !m_json; }
    /// Missing or null: what Go calls nil.
    [[nodiscard]] bool isNil() const { return !m_json || m_json->is_null(); }
    [[nodiscard]] bool isString() const { return m_json && m_json->is_string(); }
    /// Only valid when !isMissing().
    [[nodiscard]] const Json &json() const { return *m_json; }
    [[nodiscard]] Value part(const Json &element) const { return Value(std::shared_ptr<const Json>(m_json, &element)); }

private:
    explicit Value(std::shared_ptr<const Json> json)
        : m_json(std::move(json))
    {
    }

    std::shared_ptr<const Json> m_json;
};

std::string describeValue(const Value &value)
{
    return value.isMissing() ? "a missing value" : describeJsonType(value.json());
}

/// Numbers print as JSON numbers: integers plainly, integral floats without ".0" (YAML and JSON do
/// not tell 3 from 3.0), other floats in their shortest exact form.
std::string formatNumber(const Json &number)
{
    if (number.is_number_unsigned())
        return std::to_string(number.get<std::uint64_t>());
    if (number.is_number_integer())
        return std::to_string(number.get<std::int64_t>());
    const double value = number.get<double>();
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    const double magnitude = std::fabs(value);
    std::array<char, 64> buffer {};
    if (value == std::trunc(value) && magnitude < 1e21) {
        std::snprintf(buffer.data(), buffer.size(), "%.0f", value);
        return buffer.data();
    }
    const auto format
        = magnitude >= 1e-4 && magnitude < 1e21 ? std::chars_format::fixed : std::chars_format::scientific;
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format);
    return std::string(buffer.data(), result.ptr);
}

void appendJsonString(std::string &out, const std::string &text)
{
    out += Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void appendScalar(std::string &out, const Json &value)
{
    if (value.is_string())
        appendJsonString(out, value.get_ref<const std::string &>());
    else if (value.is_number())
        out += formatNumber(value);
    else if (value.is_boolean())
        out += value.get<bool>() ? "true" : "false";
    else
        out += "null";
}

/// Compact JSON with numbers as formatNumber() prints them. Iterative: data nesting is not bounded
/// by the template's limits.
void appendJson(std::string &out, const Json &root)
{
    std::vector<std::pair<const Json *, Json::const_iterator>> stack;
    const auto open = [&](const Json &value) {
        if (value.is_object() || value.is_array()) {
            out += value.is_object() ? '{' : '[';
            stack.emplace_back(&value, value.cbegin());
        } else {
            appendScalar(out, value);
        }
    };
    open(root);
    while (!stack.empty()) {
        auto &[container, it] = stack.back();
        if (it == container->cend()) {
            out += container->is_object() ? '}' : ']';
            stack.pop_back();
            continue;
        }
        if (it != container->cbegin())
            out += ',';
        if (container->is_object()) {
            appendJsonString(out, it.key());
            out += ':';
        }
        const Json &element = *it;
        ++it;
        open(element);
    }
}

/// A value as text: strings as they are, `nilText` for nil, anything else as JSON.
void appendValue(std::string &out, const Value &value, std::string_view nilText)
{
    if (value.isNil())
        out += nilText;
    else if (value.isString())
        out += value.json().get_ref<const std::string &>();
    else
        appendJson(out, value.json());
}

/// Go's truth: false, 0, nil and empty strings, lists and maps are false.
bool isTrue(const Value &value)
{
    if (value.isNil())
        return false;
    const Json &json = value.json();
    switch (json.type()) {
    case Json::value_t::boolean:
        return json.get<bool>();
    case Json::value_t::number_integer:
        return json.get<std::int64_t>() != 0;
    case Json::value_t::number_unsigned:
        return json.get<std::uint64_t>() != 0;
    case Json::value_t::number_float:
        return json.get<double>() != 0.0;
    case Json::value_t::string:
        return !json.get_ref<const std::string &>().empty();
    case Json::value_t::array:
    case Json::value_t::object:
        return !json.empty();
    default:
        return false;
    }
}

// ---------------------------------------------------------------------------------------------
// Functions

/// Why a function failed, without the position the caller adds.
struct Problem {
    std::string message;
};

template<typename T> using Checked = Result<T, Problem>;

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

using Args = std::vector<Value>;

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

void appendHex(std::string &out, std::uint32_t value, int digits, bool upper)
{
    static constexpr std::string_view lowerDigits = "0123456789abcdef";
    static constexpr std::string_view upperDigits = "0123456789ABCDEF";
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += (upper ? upperDigits : lowerDigits)[(value >> shift) & 0xF];
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
            appendHex(out, static_cast<unsigned char>(text[i]), 2, false);
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
            appendHex(out, codePoint, 2, false);
        } else if (codePoint >= 0x80 && codePoint < 0xA0) {
            out += "\\u";
            appendHex(out, codePoint, 4, false);
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
            appendHex(out, codePoint, 4, true);
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
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-' || c == '_' || c == '.'
            || c == '~') {
            out += c;
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            appendHex(out, static_cast<unsigned char>(c), 2, true);
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

Checked<std::string> formatConversion(const Conversion &spec, const Value &arg)
{
    const std::string verb = std::string("%") + spec.verb;
    const auto wrongType = [&](std::string_view wanted) {
        return Problem {verb + " needs " + std::string(wanted) + ", got " + describeValue(arg)};
    };
    std::string sign;
    std::string prefix;
    std::string body;
    switch (spec.verb) {
    case 'v':
    case 's':
        appendValue(body, arg, "<nil>");
        if (spec.precision && countRunes(body) > *spec.precision) {
            std::size_t runes = 0;
            std::size_t cut = 0;
            while (cut < body.size()
                && (runes < *spec.precision || (static_cast<unsigned char>(body[cut]) & 0xC0) == 0x80)) {
                if ((static_cast<unsigned char>(body[cut]) & 0xC0) != 0x80)
                    ++runes;
                ++cut;
            }
            body.resize(cut);
        }
        break;
    case 'q':
        if (!arg.isString())
            return wrongType("a string");
        body = goQuote(arg.json().get_ref<const std::string &>());
        break;
    case 't':
        if (arg.isNil() || !arg.json().is_boolean())
            return wrongType("a boolean");
        body = arg.json().get<bool>() ? "true" : "false";
        break;
    case 'd':
    case 'x':
    case 'X': {
        if (spec.verb != 'd' && arg.isString()) {
            for (const char c : arg.json().get_ref<const std::string &>())
                appendHex(body, static_cast<unsigned char>(c), 2, spec.verb == 'X');
            if (spec.sharp && !body.empty())
                prefix = spec.verb == 'X' ? "0X" : "0x";
            break;
        }
        const auto parts = integerParts(arg);
        if (!parts)
            return wrongType(spec.verb == 'd' ? "an integer" : "an integer or a string");
        std::array<char, 32> digits {};
        const auto end
            = std::to_chars(digits.data(), digits.data() + digits.size(), parts->second, spec.verb == 'd' ? 10 : 16)
                  .ptr;
        body.assign(digits.data(), end);
        if (spec.verb == 'X')
            std::transform(body.begin(), body.end(), body.begin(),
                [](char c) { return c >= 'a' ? static_cast<char>(c - 32) : c; });
        if (spec.precision && body.size() < *spec.precision)
            body.insert(0, *spec.precision - body.size(), '0');
        sign = parts->first ? "-" : spec.plus ? "+" : spec.space ? " " : "";
        if (spec.sharp && spec.verb != 'd')
            prefix = spec.verb == 'X' ? "0X" : "0x";
        break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E': {
        if (arg.isNil() || !arg.json().is_number())
            return wrongType("a number");
        const double number = arg.json().get<double>();
        const char format[] = {'%', '.', '*', spec.verb == 'F' ? 'f' : spec.verb, '\0'};
        const int precision = static_cast<int>(spec.precision.value_or(6));
        const int length = std::snprintf(nullptr, 0, format, precision, std::fabs(number));
        body.resize(static_cast<std::size_t>(std::max(length, 0)) + 1);
        std::snprintf(body.data(), body.size(), format, precision, std::fabs(number));
        body.resize(body.size() - 1);
        sign = std::signbit(number) ? "-" : spec.plus ? "+" : spec.space ? " " : "";
        break;
    }
    default:
        return Problem {"unsupported verb " + verb};
    }

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

/// fmt.Sprintf for the verbs %v %s %q %d %x %X %f %F %e %E %t and %%, with flags, width and
/// precision. Where Go would print "%!d(string=...)" markers, this is an error instead.
Checked<Value> callPrintf(const Args &args)
{
    if (!args[0].isString())
        return Problem {"the format must be a string, got " + describeValue(args[0])};
    const std::string &format = args[0].json().get_ref<const std::string &>();
    constexpr std::size_t maxWidth = 10000;
    std::string out;
    std::size_t nextArg = 1;
    std::size_t i = 0;
    while (i < format.size()) {
        if (format[i] != '%') {
            out += format[i++];
            continue;
        }
        const std::size_t start = i++;
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
            for (; i < format.size() && isDigit(format[i]); ++i) {
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
        if (spec.verb == '%') {
            out += '%';
            continue;
        }
        if (nextArg >= args.size())
            return Problem {"missing argument for " + format.substr(start, i - start)};
        auto text = formatConversion(spec, args[nextArg++]);
        if (!text)
            return text.error();
        out += text.value();
    }
    if (nextArg < args.size())
        return Problem {
            std::to_string(args.size() - 1) + " arguments but the format uses " + std::to_string(nextArg - 1)};
    return Value::owned(std::move(out));
}

struct Function {
    std::string_view name;
    std::size_t minArgs;
    std::size_t maxArgs;
    Checked<Value> (*call)(const Args &); ///< nullptr for and/or, which evaluate their arguments lazily
};

constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();

constexpr std::array<Function, 18> functions {{
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
}};

const Function *findFunction(std::string_view name)
{
    const auto found = std::find_if(
        functions.begin(), functions.end(), [&](const Function &function) { return function.name == name; });
    return found == functions.end() ? nullptr : &*found;
}

// ---------------------------------------------------------------------------------------------
// Parser

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
        default:
            return "\"" + std::string(m_text.substr(token.offset, token.length)) + "\"";
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

// ---------------------------------------------------------------------------------------------
// Execution

class Executor {
public:
    Executor(std::string_view source, std::size_t maxOutput, const ExpressionScope *scope)
        : m_source(source)
        , m_maxOutput(maxOutput)
        , m_scope(scope)
    {
    }

    Outcome<std::string> run(const std::vector<Node> &root, const Json &dot)
    {
        const Value rootValue = Value::borrowed(dot);
        m_variables.emplace_back("$", rootValue);
        auto flow = walk(root, rootValue);
        if (!flow)
            return flow.error();
        return std::move(m_out);
    }

private:
    enum class Flow { Next, Break, Continue };

    [[nodiscard]] std::string outputExceeded() const
    {
        return "output exceeds the limit of " + std::to_string(m_maxOutput) + " bytes";
    }

    Outcome<Done> emit(std::string_view text, std::size_t offset)
    {
        if (text.size() > m_maxOutput - m_out.size())
            return Failure {offset, outputExceeded()};
        m_out.append(text);
        return Done {};
    }

    void truncateVariables(std::size_t mark)
    {
        m_variables.erase(m_variables.begin() + static_cast<std::ptrdiff_t>(mark), m_variables.end());
    }

    Outcome<Flow> walk(const std::vector<Node> &nodes, const Value &dot)
    {
        for (const Node &node : nodes) {
            auto flow = walkNode(node, dot);
            if (!flow || flow.value() != Flow::Next)
                return flow;
        }
        return Flow::Next;
    }

    Outcome<Flow> walkNode(const Node &node, const Value &dot)
    {
        switch (node.kind) {
        case Node::Kind::Text:
            if (auto done = emit(node.text, node.offset); !done)
                return done.error();
            return Flow::Next;
        case Node::Kind::Action: {
            auto value = evalPipeline(node.pipeline, dot);
            if (!value)
                return value.error();
            if (node.pipeline.variables.empty()) {
                std::string text;
                appendValue(text, value.value(), "<no value>");
                if (auto done = emit(text, node.offset); !done)
                    return done.error();
            }
            return Flow::Next;
        }
        case Node::Kind::If:
        case Node::Kind::With: {
            const std::size_t mark = m_variables.size();
            auto value = evalPipeline(node.pipeline, dot);
            if (!value)
                return value.error();
            auto flow = isTrue(value.value()) ? walk(node.body, node.kind == Node::Kind::With ? value.value() : dot)
                                              : walk(node.elseBody, dot);
            truncateVariables(mark);
            return flow;
        }
        case Node::Kind::Range:
            return walkRange(node, dot);
        case Node::Kind::Break:
            return Flow::Break;
        case Node::Kind::Continue:
            return Flow::Continue;
        }
        return Flow::Next;
    }

    /// Lists in order, maps in sorted key order (as Go); nil runs the else branch like an empty
    /// collection.
    Outcome<Flow> walkRange(const Node &node, const Value &dot)
    {
        const std::size_t mark = m_variables.size();
        auto collection = evalPipeline(node.pipeline, dot);
        if (!collection)
            return collection.error();
        const Value &items = collection.value();
        const std::vector<std::string> &variables = node.pipeline.variables;

        // Returns false after {{break}}.
        const auto iterate = [&](const Value &key, const Value &element) -> Outcome<bool> {
            const std::array<const Value *, 2> values {variables.size() == 2 ? &key : &element, &element};
            for (std::size_t i = 0; i < variables.size(); ++i) {
                if (!node.pipeline.assign) {
                    m_variables[mark + i].second = *values[i];
                } else if (auto done = setVariable(variables[i], *values[i], node.pipeline.offset); !done) {
                    return done.error();
                }
            }
            const std::size_t inner = m_variables.size();
            auto flow = walk(node.body, element);
            truncateVariables(inner);
            if (!flow)
                return flow.error();
            return flow.value() != Flow::Break;
        };

        bool any = false;
        if (!items.isNil()) {
            const Json &json = items.json();
            if (json.is_array()) {
                for (std::size_t i = 0; i < json.size(); ++i) {
                    any = true;
                    auto more = iterate(Value::owned(i), items.part(json[i]));
                    if (!more)
                        return more.error();
                    if (!more.value())
                        break;
                }
            } else if (json.is_object()) {
                std::vector<std::pair<const std::string *, const Json *>> entries;
                for (auto it = json.cbegin(); it != json.cend(); ++it)
                    entries.emplace_back(&it.key(), &it.value());
                std::sort(
                    entries.begin(), entries.end(), [](const auto &a, const auto &b) { return *a.first < *b.first; });
                for (const auto &[key, element] : entries) {
                    any = true;
                    auto more = iterate(Value::owned(*key), items.part(*element));
                    if (!more)
                        return more.error();
                    if (!more.value())
                        break;
                }
            } else {
                return Failure {node.pipeline.offset, "range can't iterate over " + describeValue(items)};
            }
        }
        Outcome<Flow> flow = Flow::Next;
        if (!any)
            flow = walk(node.elseBody, dot);
        truncateVariables(mark);
        return flow;
    }

    Outcome<Value> variable(const std::string &name, std::size_t offset) const
    {
        for (auto it = m_variables.rbegin(); it != m_variables.rend(); ++it) {
            if (it->first == name)
                return it->second;
        }
        return Failure {offset, "undefined variable \"" + name + "\""};
    }

    Outcome<Done> setVariable(const std::string &name, const Value &value, std::size_t offset)
    {
        for (auto it = m_variables.rbegin(); it != m_variables.rend(); ++it) {
            if (it->first == name) {
                it->second = value;
                return Done {};
            }
        }
        return Failure {offset, "undefined variable \"" + name + "\""};
    }

    /// Runs the commands, each one's result the last argument of the next; declares or assigns
    /// the pipeline's variables. A null result becomes missing, as Go unwraps a nil interface.
    Outcome<Value> evalPipeline(const Pipeline &pipeline, const Value &dot)
    {
        std::optional<Value> value;
        for (const Command &command : pipeline.commands) {
            auto result = evalCommand(command, dot, value);
            if (!result)
                return result.error();
            value = std::move(result).value();
        }
        const Value result = value->isNil() ? Value::missing() : *value;
        for (const std::string &name : pipeline.variables) {
            if (!pipeline.assign)
                m_variables.emplace_back(name, result);
            else if (auto done = setVariable(name, result, pipeline.offset); !done)
                return done.error();
        }
        return result;
    }

    Outcome<Value> evalCommand(const Command &command, const Value &dot, const std::optional<Value> &final)
    {
        const Operand &first = command.operands.front();
        const bool hasArgs = command.operands.size() > 1 || final.has_value();
        if (first.kind == Operand::Kind::Function)
            return callFunction(first, std::span(command.operands).subspan(1), dot, final);
        if (first.kind == Operand::Kind::Nil)
            return Failure {first.offset, "nil is not a command"};
        if (hasArgs && first.fields.empty())
            return Failure {first.offset,
                "can't give argument to non-function " + std::string(m_source.substr(first.offset, first.length))};
        return evalOperand(first, dot, hasArgs);
    }

    /// An operand's value; `hasArgs` when it heads a command with arguments, which only a
    /// function may have.
    Outcome<Value> evalOperand(const Operand &operand, const Value &dot, bool hasArgs = false)
    {
        Value base = dot;
        switch (operand.kind) {
        case Operand::Kind::Dot:
        case Operand::Kind::Field:
            break;
        case Operand::Kind::Literal:
            base = Value::borrowed(operand.literal);
            break;
        case Operand::Kind::Nil:
            base = Value::owned(nullptr);
            break;
        case Operand::Kind::Variable: {
            auto value = variable(operand.name, operand.offset);
            if (!value)
                return value.error();
            base = std::move(value).value();
            break;
        }
        case Operand::Kind::Pipeline: {
            auto value = evalPipeline(*operand.pipeline, dot);
            if (!value)
                return value.error();
            base = std::move(value).value();
            break;
        }
        case Operand::Kind::Function:
            return callFunction(operand, {}, dot, std::nullopt);
        }
        for (std::size_t i = 0; i < operand.fields.size(); ++i) {
            const std::string &field = operand.fields[i];
            if (base.isMissing())
                return base;
            const Json &json = base.json();
            if (!json.is_object())
                return Failure {operand.offset, "can't evaluate field " + field + " of " + describeValue(base)};
            if (hasArgs && i + 1 == operand.fields.size())
                return Failure {operand.offset, field + " is not a method but has arguments"};
            const Json *found = m_members.find(json, field);
            base = found ? base.part(*found) : Value::missing();
        }
        return base;
    }

    Outcome<Value> callFunction(const Operand &operand, std::span<const Operand> argOperands, const Value &dot,
        const std::optional<Value> &final)
    {
        const Function *builtin = findFunction(operand.name);
        if (builtin == nullptr)
            return callScopeFunction(operand, argOperands, dot, final);
        const Function &function = *builtin;
        const std::size_t count = argOperands.size() + (final ? 1 : 0);
        if (count < function.minArgs || count > function.maxArgs) {
            const std::string wanted = function.minArgs == function.maxArgs
                ? std::to_string(function.minArgs)
                : "at least " + std::to_string(function.minArgs);
            return Failure {operand.offset,
                "wrong number of args for " + std::string(function.name) + ": want " + wanted + " got "
                    + std::to_string(count)};
        }
        const auto argument = [&](std::size_t i) -> Outcome<Value> {
            if (i < argOperands.size())
                return evalOperand(argOperands[i], dot);
            return *final;
        };
        if (function.call == nullptr) {
            const bool isAnd = function.name == "and";
            for (std::size_t i = 0;; ++i) {
                auto value = argument(i);
                if (!value || isTrue(value.value()) != isAnd || i + 1 == count)
                    return value;
            }
        }
        Args args;
        args.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            auto value = argument(i);
            if (!value)
                return value.error();
            args.push_back(std::move(value).value());
        }
        auto result = function.call(args);
        if (!result)
            return Failure {
                operand.offset, "error calling " + std::string(function.name) + ": " + result.error().message};
        if (result.value().isString() && result.value().json().get_ref<const std::string &>().size() > m_maxOutput)
            return Failure {operand.offset, "error calling " + std::string(function.name) + ": " + outputExceeded()};
        return std::move(result).value();
    }

    /// A function of GoTemplateOptions::scopeFunctions, called with its arguments' JSON values.
    Outcome<Value> callScopeFunction(const Operand &operand, std::span<const Operand> argOperands, const Value &dot,
        const std::optional<Value> &final)
    {
        std::vector<Json> args;
        for (const Operand &argument : argOperands) {
            auto value = evalOperand(argument, dot);
            if (!value)
                return value.error();
            args.push_back(value.value().isMissing() ? Json() : value.value().json());
        }
        if (final)
            args.push_back(final->isMissing() ? Json() : final->json());
        std::optional<Result<Json>> result;
        if (m_scope != nullptr)
            result = m_scope->callFunction(operand.name, args);
        if (!result)
            return Failure {operand.offset, "function \"" + operand.name + "\" is not available here"};
        if (!*result)
            return Failure {operand.offset, "error calling " + operand.name + ": " + result->error().message};
        return Value::owned(std::move(*result).value());
    }

    std::string_view m_source;
    std::size_t m_maxOutput;
    const ExpressionScope *m_scope;
    std::string m_out;
    std::vector<std::pair<std::string, Value>> m_variables;
    /// Field lookups in large maps (.Data of a big manifest) go through hash indexes.
    MemberIndex m_members;
};

} // namespace

struct GoTemplate::Tree {
    std::string text;
    std::string fileName;
    LineIndex lines;
    std::size_t maxOutputBytes = 0;
    std::vector<Node> root;
    std::vector<std::string> scopeFunctions;

    [[nodiscard]] Error error(const Failure &failure) const
    {
        return Error {"template", describeLocation(fileName, lines.at(failure.offset)) + ": " + failure.message};
    }
};

GoTemplate::GoTemplate(std::shared_ptr<const Tree> tree)
    : m_tree(std::move(tree))
{
}

Result<GoTemplate> GoTemplate::parse(std::string_view text, const GoTemplateOptions &options)
{
    auto tree = std::make_shared<Tree>();
    tree->text = std::string(text);
    tree->fileName = options.fileName;
    tree->maxOutputBytes = options.maxOutputBytes;
    tree->lines = LineIndex(text);
    const std::string_view left
        = options.leftDelimiter.empty() ? std::string_view("{{") : std::string_view(options.leftDelimiter);
    const std::string_view right
        = options.rightDelimiter.empty() ? std::string_view("}}") : std::string_view(options.rightDelimiter);
    auto tokens = Lexer(tree->text, left, right).run();
    if (!tokens)
        return tree->error(tokens.error());
    tree->scopeFunctions = options.scopeFunctions;
    auto root = Parser(tree->text, std::move(tokens).value(), options.maxDepth, tree->scopeFunctions).parseTemplate();
    if (!root)
        return tree->error(root.error());
    tree->root = std::move(root).value();
    return GoTemplate(std::move(tree));
}

Result<std::string> GoTemplate::execute(const Json &dot, const ExpressionScope *scope) const
{
    auto output = Executor(m_tree->text, m_tree->maxOutputBytes, scope).run(m_tree->root, dot);
    if (!output)
        return m_tree->error(output.error());
    return std::move(output).value();
}

Result<std::string> renderGoTemplate(std::string_view text, const Json &dot, const GoTemplateOptions &options)
{
    auto parsed = GoTemplate::parse(text, options);
    if (!parsed)
        return parsed.error();
    return parsed.value().execute(dot);
}

} // namespace ccm
