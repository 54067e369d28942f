// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/package/generic_version.h"

#include "base/text.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ccm::engine {

namespace {

char upper(char c)
{
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

/// '-' and '.' alone, runs of digits, runs of anything else.
std::vector<std::string_view> tokens(std::string_view text)
{
    std::vector<std::string_view> result;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = at + 1;
        if (isAsciiDigit(text[at])) {
            while (end < text.size() && isAsciiDigit(text[end]))
                ++end;
        } else if (text[at] != '-' && text[at] != '.') {
            while (end < text.size() && !isAsciiDigit(text[end]) && text[end] != '-' && text[end] != '.')
                ++end;
        }
        result.push_back(text.substr(at, end - at));
        at = end;
    }
    return result;
}

int compareText(std::string_view a, std::string_view b, bool ignoreCase)
{
    const std::size_t common = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < common; ++i) {
        const char left = ignoreCase ? upper(a[i]) : a[i];
        const char right = ignoreCase ? upper(b[i]) : b[i];
        if (left != right)
            return static_cast<unsigned char>(left) < static_cast<unsigned char>(right) ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

/// Two digit runs without leading zeros: the longer is larger, equal lengths compare digit by digit.
int compareNumbers(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return a.size() < b.size() ? -1 : 1;
    return std::clamp(a.compare(b), -1, 1);
}

/// Drops trailing ".0" parts (".0", ".00", ...) of what comes before the first '-'.
std::string withoutTrailingZeroes(std::string_view version)
{
    const std::size_t hyphen = version.find('-');
    std::string_view head = version.substr(0, hyphen);
    const std::string_view tail = hyphen == std::string_view::npos ? std::string_view() : version.substr(hyphen);
    for (;;) {
        const std::size_t dot = head.rfind('.');
        if (dot == std::string_view::npos || dot + 1 == head.size())
            break;
        const std::string_view part = head.substr(dot + 1);
        if (part.find_first_not_of('0') != std::string_view::npos)
            break;
        head = head.substr(0, dot);
    }
    return std::string(head) + std::string(tail);
}

int compareTokens(std::string_view a, std::string_view b)
{
    const auto left = tokens(a);
    const auto right = tokens(b);
    const std::size_t common = std::min(left.size(), right.size());
    for (std::size_t i = 0; i < common; ++i) {
        const std::string_view x = left[i];
        const std::string_view y = right[i];
        if (x == y)
            continue;
        if (x == "-")
            return -1;
        if (y == "-")
            return 1;
        if (x == ".")
            return -1;
        if (y == ".")
            return 1;
        if (isAsciiDigit(x.front()) && isAsciiDigit(y.front())) {
            if (x.front() == '0' || y.front() == '0')
                return compareText(x, y, false);
            return compareNumbers(x, y);
        }
        // Runs that differ only in case decide nothing; the next tokens or the whole strings do.
        if (const int order = compareText(x, y, true); order != 0)
            return order;
    }
    return compareText(a, b, false);
}

} // namespace

int compareGenericVersions(std::string_view a, std::string_view b, bool ignoreTrailingZeroes)
{
    if (ignoreTrailingZeroes)
        return compareTokens(withoutTrailingZeroes(a), withoutTrailingZeroes(b));
    return compareTokens(a, b);
}

} // namespace ccm::engine
