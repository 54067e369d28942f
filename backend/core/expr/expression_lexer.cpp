// SPDX-License-Identifier: Apache-2.0
#include "core/expr/expression_lexer.h"

#include "base/text.h"
#include "base/utf8.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <optional>

namespace ccm::expr {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

bool isNameChar(char c)
{
    return isNameStart(c) || isAsciiDigit(c);
}

/// The visible character at `at` when it is a well-formed UTF-8 sequence, so that a stray byte
/// never ends up in a message.
std::optional<std::string_view> visibleCharacter(std::string_view text, std::size_t at)
{
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    if (lead >= 0x21 && lead < 0x7F)
        length = 1;
    else if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF)
        length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4)
        length = 4;
    bool wellFormed = length > 0 && at + length <= text.size();
    for (std::size_t i = 1; wellFormed && i < length; ++i)
        wellFormed = (static_cast<unsigned char>(text[at + i]) & 0xC0) == 0x80;
    if (wellFormed)
        return text.substr(at, length);
    return std::nullopt;
}

std::string describeCharacter(std::string_view text, std::size_t at)
{
    if (const auto visible = visibleCharacter(text, at))
        return "character '" + std::string(*visible) + "'";
    std::array<char, 8> hex {};
    std::snprintf(hex.data(), hex.size(), "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
    return "byte " + std::string(hex.data());
}

/// The digits of a number in `base` without their separating underscores, or nothing when an
/// underscore does not stand between two digits.
std::optional<std::string> withoutUnderscores(const std::string &digits, int base)
{
    const auto isDigitOfBase = [base](char ch) { return base == 16 ? hexDigitValue(ch) >= 0 : isAsciiDigit(ch); };
    std::string clean;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (digits[i] != '_') {
            clean += digits[i];
            continue;
        }
        // An underscore must separate two digits (Go also allows one right after a base prefix).
        const bool afterDigit = i > 0 ? isDigitOfBase(digits[i - 1]) : base != 10;
        const bool beforeDigit = i + 1 < digits.size() && isDigitOfBase(digits[i + 1]);
        if (!afterDigit || !beforeDigit)
            return std::nullopt;
    }
    return clean;
}

class Lexer {
public:
    explicit Lexer(std::string_view text)
        : m_text(text)
    {
    }

    ExpressionResult<std::vector<Token>> run()
    {
        bool space = false;
        while (true) {
            while (m_pos < m_text.size() && isAsciiSpace(m_text[m_pos])) {
                ++m_pos;
                space = true;
            }
            if (m_pos >= m_text.size())
                break;
            Token token;
            token.column = column(m_pos);
            token.spaceBefore = space;
            space = false;
            const std::size_t start = m_pos;
            const char c = m_text[m_pos];
            std::optional<ExpressionError> error;
            if (isAsciiDigit(c))
                error = number(token);
            else if (isNameStart(c))
                name(token);
            else if (c == '\'' || c == '"')
                error = quoted(token);
            else if (c == '`')
                error = raw(token);
            else if (!punctuation(token))
                return ExpressionError {"unexpected " + describeCharacter(m_text, m_pos), token.column};
            if (error)
                return *error;
            token.source = m_text.substr(start, m_pos - start);
            m_tokens.push_back(std::move(token));
        }
        Token end;
        end.column = column(m_text.size());
        end.spaceBefore = space;
        m_tokens.push_back(std::move(end));
        return std::move(m_tokens);
    }

private:
    static int column(std::size_t offset) { return static_cast<int>(offset) + 1; }

    void name(Token &token)
    {
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
            ++m_pos;
        token.kind = TokenKind::Name;
        token.text = std::string(m_text.substr(start, m_pos - start));
    }

    /// Go number syntax as expr-lang reads it: 0x/0o/0b prefixes, underscores between digits,
    /// decimal fractions and exponents.
    std::optional<ExpressionError> number(Token &token)
    {
        const std::size_t start = m_pos;
        int base = 10;
        if (m_text[m_pos] == '0' && m_pos + 1 < m_text.size()) {
            const char prefix = static_cast<char>(m_text[m_pos + 1] | 0x20);
            base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : prefix == 'b' ? 2 : 10;
            if (base != 10)
                m_pos += 2;
        }
        std::string digits;
        const bool isFloat = readDigits(base, digits);
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
            ++m_pos;
        const std::string_view written = m_text.substr(start, m_pos - start);
        const ExpressionError invalid {"invalid number '" + std::string(written) + "'", column(start)};
        if (m_pos != start + (base == 10 ? 0 : 2) + digits.size())
            return invalid;
        const std::optional<std::string> clean = withoutUnderscores(digits, base);
        if (!clean || clean->empty())
            return invalid;
        const char *first = clean->data();
        const char *last = clean->data() + clean->size();
        if (isFloat) {
            token.kind = TokenKind::Float;
            const auto [end, ec] = std::from_chars(first, last, token.number);
            if (ec != std::errc() || end != last)
                return ExpressionError {"number '" + std::string(written) + "' is out of range", column(start)};
            return std::nullopt;
        }
        token.kind = TokenKind::Integer;
        const auto [end, ec] = std::from_chars(first, last, token.integer, base);
        if (ec == std::errc::result_out_of_range)
            return ExpressionError {"integer '" + std::string(written) + "' is too large", column(start)};
        if (ec != std::errc() || end != last)
            return invalid;
        return std::nullopt;
    }

    /// Reads the digits of a number in `base` into `digits`, with a decimal number's fraction and
    /// exponent; returns whether it read a fraction or an exponent.
    bool readDigits(int base, std::string &digits)
    {
        bool isFloat = false;
        const auto takeDigits = [&](bool hex) {
            while (m_pos < m_text.size()
                && (isAsciiDigit(m_text[m_pos]) || m_text[m_pos] == '_'
                    || (hex && hexDigitValue(m_text[m_pos]) >= 0))) {
                digits += m_text[m_pos];
                ++m_pos;
            }
        };
        takeDigits(base == 16);
        if (base == 10 && m_pos + 1 < m_text.size() && m_text[m_pos] == '.' && isAsciiDigit(m_text[m_pos + 1])) {
            isFloat = true;
            digits += '.';
            ++m_pos;
            takeDigits(false);
        }
        if (base == 10 && m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            std::size_t look = m_pos + 1;
            if (look < m_text.size() && (m_text[look] == '+' || m_text[look] == '-'))
                ++look;
            if (look < m_text.size() && isAsciiDigit(m_text[look])) {
                isFloat = true;
                digits += 'e';
                digits.append(m_text.substr(m_pos + 1, look - m_pos - 1));
                m_pos = look;
                takeDigits(false);
            }
        }
        return isFloat;
    }

    std::optional<ExpressionError> quoted(Token &token)
    {
        const std::size_t open = m_pos;
        const char quote = m_text[m_pos++];
        token.kind = TokenKind::String;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == quote) {
                ++m_pos;
                return std::nullopt;
            }
            if (c != '\\') {
                token.text += c;
                ++m_pos;
                continue;
            }
            if (m_pos + 1 >= m_text.size())
                break;
            if (auto error = escape(token.text))
                return error;
        }
        return ExpressionError {"unterminated string", column(open)};
    }

    std::optional<ExpressionError> escape(std::string &out)
    {
        const std::size_t at = m_pos;
        const char c = m_text[at + 1];
        m_pos += 2;
        switch (c) {
        case 'n':
            out += '\n';
            return std::nullopt;
        case 't':
            out += '\t';
            return std::nullopt;
        case 'r':
            out += '\r';
            return std::nullopt;
        case 'b':
            out += '\b';
            return std::nullopt;
        case 'f':
            out += '\f';
            return std::nullopt;
        case 'v':
            out += '\v';
            return std::nullopt;
        case '0':
            out += '\0';
            return std::nullopt;
        case '\\':
        case '\'':
        case '"':
        case '`':
        case '/':
            out += c;
            return std::nullopt;
        case 'u':
            break;
        default:
            if (const auto visible = visibleCharacter(m_text, at + 1))
                return ExpressionError {"unknown escape '\\" + std::string(*visible) + "'", column(at)};
            return ExpressionError {"unknown escape", column(at)};
        }
        auto unit = hexUnit();
        if (!unit)
            return ExpressionError {"\\u needs four hex digits", column(at)};
        char32_t codePoint = *unit;
        if (codePoint >= 0xD800 && codePoint <= 0xDBFF) {
            // A high surrogate only makes sense followed by a \u low surrogate: JSON's way of writing
            // characters beyond the basic plane.
            std::optional<std::uint32_t> low;
            if (m_pos + 1 < m_text.size() && m_text[m_pos] == '\\' && m_text[m_pos + 1] == 'u') {
                m_pos += 2;
                low = hexUnit();
            }
            if (!low || *low < 0xDC00 || *low > 0xDFFF)
                return ExpressionError {"\\u escape is half of a surrogate pair", column(at)};
            codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (*low - 0xDC00);
        } else if (codePoint >= 0xDC00 && codePoint <= 0xDFFF) {
            return ExpressionError {"\\u escape is half of a surrogate pair", column(at)};
        }
        appendUtf8(out, codePoint);
        return std::nullopt;
    }

    std::optional<std::uint32_t> hexUnit()
    {
        if (m_pos + 4 > m_text.size())
            return std::nullopt;
        std::uint32_t value = 0;
        for (int i = 0; i < 4; ++i) {
            const int digit = hexDigitValue(m_text[m_pos + i]);
            if (digit < 0)
                return std::nullopt;
            value = value * 16 + static_cast<std::uint32_t>(digit);
        }
        m_pos += 4;
        return value;
    }

    std::optional<ExpressionError> raw(Token &token)
    {
        const std::size_t close = m_text.find('`', m_pos + 1);
        if (close == std::string_view::npos)
            return ExpressionError {"unterminated string", column(m_pos)};
        token.kind = TokenKind::String;
        token.text = std::string(m_text.substr(m_pos + 1, close - m_pos - 1));
        m_pos = close + 1;
        return std::nullopt;
    }

    bool punctuation(Token &token)
    {
        static constexpr std::array<std::string_view, 9> pairs {"**", "==", "!=", "<=", ">=", "&&", "||", "??", "?."};
        static constexpr std::string_view singles = "+-*/%<>!?:,.()[]{}";
        const std::string_view rest = m_text.substr(m_pos);
        for (const std::string_view pair : pairs) {
            if (rest.substr(0, 2) == pair) {
                token.kind = TokenKind::Operator;
                token.text = std::string(pair);
                m_pos += 2;
                return true;
            }
        }
        if (singles.find(rest.front()) == std::string_view::npos)
            return false;
        token.kind = TokenKind::Operator;
        token.text = std::string(1, rest.front());
        ++m_pos;
        return true;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::vector<Token> m_tokens;
};

} // namespace

ExpressionResult<std::vector<Token>> tokenize(std::string_view text)
{
    return Lexer(text).run();
}

std::string describeToken(const Token &token)
{
    switch (token.kind) {
    case TokenKind::End:
        return "the end of the expression";
    case TokenKind::String:
        return "a string";
    default: {
        std::string quoted = "'";
        quoted.append(token.source);
        quoted += '\'';
        return quoted;
    }
    }
}

} // namespace ccm::expr
