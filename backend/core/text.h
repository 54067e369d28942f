// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace ccm {

/// Whitespace as isspace() sees it in the "C" locale: space, \t, \n, \v, \f and \r. Unlike
/// isspace() it depends on no locale and takes any char, negative ones included.
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
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
