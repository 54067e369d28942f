// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// Whitespace as isspace() sees it in the "C" locale: space, \t, \n, \v, \f and \r. Unlike
/// isspace() it depends on no locale and takes any char, negative ones included.
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/// A blank inside a line: space, tab, or the carriage return of a CRLF line end.
constexpr bool isInlineBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

constexpr bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

constexpr bool isAsciiLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// Whether `text` is one or more ASCII digits and nothing else.
constexpr bool isAsciiDigits(std::string_view text)
{
    if (text.empty())
        return false;
    for (const char c : text)
        if (!isAsciiDigit(c))
            return false;
    return true;
}

/// The index just past the quoted literal (", ' or `) that opens at `open`, or npos when it is not
/// closed. Backtick literals are raw; the others take backslash escapes, as in Go templates, Jet and
/// expressions.
constexpr std::size_t skipQuotedLiteral(std::string_view text, std::size_t open)
{
    const char quote = text[open];
    for (std::size_t i = open + 1; i < text.size(); ++i) {
        if (text[i] == '\\' && quote != '`')
            ++i;
        else if (text[i] == quote)
            return i + 1;
    }
    return std::string_view::npos;
}

/// `parts` with `separator` between them, for messages that list things.
inline std::string joined(const std::vector<std::string> &parts, std::string_view separator = ", ")
{
    std::string text;
    for (const std::string &part : parts) {
        if (!text.empty())
            text += separator;
        text += part;
    }
    return text;
}

/// `text` without the ASCII whitespace around it.
constexpr std::string_view trimAsciiSpace(std::string_view text)
{
    while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isAsciiSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace ccm
