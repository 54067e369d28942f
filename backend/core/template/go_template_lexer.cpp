// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template_lexer.h"

#include "base/utf8.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>

namespace ccm::gotmpl {

namespace {

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
            auto next = lexToken(p, spaceBefore);
            if (!next)
                return next.error();
            p = next.value();
        }
    }

    /// Lexes the token of an action at `start`; returns where it ends.
    Outcome<std::size_t> lexToken(std::size_t start, bool spaceBefore)
    {
        const char c = m_text[start];
        std::size_t p = start;
        if (c == '"')
            return lexQuoted(start, spaceBefore);
        if (c == '`')
            return lexRawQuoted(start, spaceBefore);
        if (c == '$' || (c == '.' && !(p + 1 < m_text.size() && isAsciiDigit(m_text[p + 1]))))
            return lexName(start, spaceBefore);
        if (isAsciiDigit(c) || c == '.' || c == '+' || c == '-') {
            p = scanNumber(p);
            push(Tok::Number, std::string(m_text.substr(start, p - start)), start, p - start, spaceBefore);
            return p;
        }
        if (isWordChar(c))
            return lexName(start, spaceBefore);
        if (c == ':') {
            if (p + 1 >= m_text.size() || m_text[p + 1] != '=')
                return Failure {start, "expected := after ':'"};
            push(Tok::Declare, ":=", start, 2, spaceBefore);
            return p + 2;
        }
        static constexpr std::string_view singles = "|(),=";
        static constexpr std::array<Tok, 5> singleTypes {
            Tok::Pipe, Tok::LeftParen, Tok::RightParen, Tok::Comma, Tok::Assign};
        const std::size_t index = singles.find(c);
        if (index == std::string_view::npos)
            return Failure {start, "unexpected character " + describeChar(c) + " in action"};
        push(singleTypes[index], std::string(1, c), start, 1, spaceBefore);
        return p + 1;
    }

    /// Lexes the double-quoted string at `start`; returns where it ends.
    Outcome<std::size_t> lexQuoted(std::size_t start, bool spaceBefore)
    {
        std::size_t p = start + 1;
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
        return p;
    }

    /// Lexes the raw (back-quoted) string at `start`, without carriage returns as Go does; returns
    /// where it ends.
    Outcome<std::size_t> lexRawQuoted(std::size_t start, bool spaceBefore)
    {
        const std::size_t close = m_text.find('`', start + 1);
        if (close == std::string_view::npos)
            return Failure {start, "unterminated raw quoted string"};
        std::string value;
        for (const char r : m_text.substr(start + 1, close - start - 1)) {
            if (r != '\r')
                value += r;
        }
        push(Tok::String, std::move(value), start, close + 1 - start, spaceBefore);
        return close + 1;
    }

    /// Lexes a variable ("$x"), a field (".x"), the dot, or a word (an identifier or keyword) at
    /// `start`; returns where it ends.
    Outcome<std::size_t> lexName(std::size_t start, bool spaceBefore)
    {
        const char c = m_text[start];
        const bool word = c != '$' && c != '.';
        std::size_t p = word ? start : start + 1;
        while (p < m_text.size() && isWordChar(m_text[p]))
            ++p;
        if (!atTerminator(p))
            return Failure {p,
                "unexpected character " + describeChar(m_text[p]) + " after "
                    + std::string(m_text.substr(start, p - start))};
        if (word) {
            const std::string text(m_text.substr(start, p - start));
            push(keywordType(text), text, start, p - start, spaceBefore);
            return p;
        }
        const std::string name(m_text.substr(start + 1, p - start - 1));
        if (c == '$')
            push(Tok::Variable, "$" + name, start, p - start, spaceBefore);
        else
            push(name.empty() ? Tok::Dot : Tok::Field, name, start, p - start, spaceBefore);
        return p;
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

} // namespace

Outcome<std::vector<Token>> tokenize(std::string_view text, std::string_view left, std::string_view right)
{
    return Lexer(text, left, right).run();
}

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
        if (error != std::errc() || end != body.data() + body.size() || !(isAsciiDigit(body[0]) || body[0] == '.'))
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

} // namespace ccm::gotmpl
