// SPDX-License-Identifier: Apache-2.0
#include "core/model/value_checks.h"

#include "base/text.h"
#include "core/model/duration.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace ccm {
namespace {

using Address = std::array<std::uint8_t, 16>;

int hexValue(char c)
{
    if (isAsciiDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// Whether `text` starts with `prefix`, a lower-case word, in any case.
bool startsWithNoCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), text.begin(), [](char p, char t) {
        return p == (t >= 'A' && t <= 'Z' ? t + 32 : t);
    });
}

/// The four bytes of a dotted decimal IPv4 address; leading zeros are refused, as Go does.
std::optional<std::array<std::uint8_t, 4>> parseIpv4(std::string_view text)
{
    std::array<std::uint8_t, 4> bytes {};
    std::size_t i = 0;
    for (std::size_t part = 0; part < 4; ++part) {
        if (part > 0) {
            if (i >= text.size() || text[i] != '.')
                return std::nullopt;
            ++i;
        }
        const std::size_t start = i;
        int value = 0;
        while (i < text.size() && isAsciiDigit(text[i]) && i - start < 3)
            value = value * 10 + (text[i++] - '0');
        const std::size_t digits = i - start;
        if (digits == 0 || value > 255 || (digits > 1 && text[start] == '0'))
            return std::nullopt;
        bytes[part] = static_cast<std::uint8_t>(value);
    }
    if (i != text.size())
        return std::nullopt;
    return bytes;
}

/// The sixteen bytes of an IPv6 address: groups of 1 to 4 hex digits, one "::" for a run of zero
/// groups, and an IPv4 address in place of the last two groups. Zones ("%eth0") are refused.
std::optional<Address> parseIpv6(std::string_view text)
{
    Address bytes {};
    int group = 0;
    int gap = -1; // the group where "::" stands
    std::size_t i = 0;
    if (text.starts_with("::")) {
        gap = 0;
        i = 2;
    }
    while (i < text.size() && group < 8) {
        const std::size_t start = i;
        int value = 0;
        while (i < text.size() && hexValue(text[i]) >= 0 && i - start < 4)
            value = value * 16 + hexValue(text[i++]);
        if (i < text.size() && text[i] == '.') {
            const auto v4 = parseIpv4(text.substr(start));
            if (!v4 || group > 6)
                return std::nullopt;
            std::copy(v4->begin(), v4->end(), bytes.begin() + group * 2);
            group += 2;
            i = text.size();
            break;
        }
        if (i == start)
            return std::nullopt;
        bytes[static_cast<std::size_t>(group * 2)] = static_cast<std::uint8_t>(value >> 8);
        bytes[static_cast<std::size_t>(group * 2 + 1)] = static_cast<std::uint8_t>(value & 0xff);
        ++group;
        if (i == text.size())
            break;
        if (text[i] != ':' || i + 1 == text.size())
            return std::nullopt;
        ++i;
        if (text[i] == ':') {
            if (gap >= 0)
                return std::nullopt;
            gap = group;
            ++i;
        }
    }
    if (i != text.size())
        return std::nullopt;
    if (gap < 0)
        return group == 8 ? std::optional<Address>(bytes) : std::nullopt;
    if (group == 8)
        return std::nullopt;
    // Move the groups after "::" to the end.
    const int after = group - gap;
    for (int k = after * 2 - 1; k >= 0; --k) {
        bytes[static_cast<std::size_t>(16 - after * 2 + k)] = bytes[static_cast<std::size_t>(gap * 2 + k)];
        bytes[static_cast<std::size_t>(gap * 2 + k)] = 0;
    }
    return bytes;
}

bool isV4Mapped(const Address &bytes)
{
    return std::all_of(bytes.begin(), bytes.begin() + 10, [](std::uint8_t b) { return b == 0; }) && bytes[10] == 0xff
        && bytes[11] == 0xff;
}

/// Skips the digits (hex ones with `hex`) at `i`; how many there were.
std::size_t skipDigits(std::string_view text, std::size_t &i, bool hex)
{
    const std::size_t start = i;
    while (i < text.size() && (hex ? hexValue(text[i]) >= 0 : isAsciiDigit(text[i])))
        ++i;
    return i - start;
}

/// Whether `text` (without its sign) is spelled as Go's ParseFloat reads a number.
bool isFloatSyntax(std::string_view text)
{
    for (std::string_view word : {"infinity", "inf", "nan"}) {
        if (text.size() == word.size() && startsWithNoCase(text, word))
            return true;
    }
    const bool hex = startsWithNoCase(text, "0x");
    std::size_t i = hex ? 2 : 0;
    std::size_t digits = skipDigits(text, i, hex);
    if (i < text.size() && text[i] == '.') {
        ++i;
        digits += skipDigits(text, i, hex);
    }
    if (digits == 0)
        return false;
    const char exponent = hex ? 'p' : 'e';
    if (i < text.size() && (text[i] == exponent || text[i] == exponent - 32)) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (skipDigits(text, i, false) == 0)
            return false;
    } else if (hex) {
        return false; // a hexadecimal float needs its p exponent
    }
    return i == text.size();
}

std::string_view trimmedSpace(std::string_view text)
{
    constexpr std::string_view kSpace = " \t\n\v\f\r";
    const std::size_t first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

} // namespace

bool isIpAddress(std::string_view text)
{
    return parseIpv4(text) || parseIpv6(text);
}

bool isIpv4Address(std::string_view text)
{
    if (parseIpv4(text))
        return true;
    const auto v6 = parseIpv6(text);
    return v6 && isV4Mapped(*v6);
}

bool isIpv6Address(std::string_view text)
{
    const auto v6 = parseIpv6(text);
    return v6 && !isV4Mapped(*v6);
}

bool isIntegerText(std::string_view text)
{
    const bool negative = !text.empty() && text.front() == '-';
    if (!text.empty() && (text.front() == '+' || text.front() == '-'))
        text.remove_prefix(1);
    if (text.empty() || !std::all_of(text.begin(), text.end(), isAsciiDigit))
        return false;
    text.remove_prefix(std::min(text.find_first_not_of('0'), text.size()));
    constexpr std::string_view kMax = "9223372036854775807";
    constexpr std::string_view kMin = "9223372036854775808";
    const std::string_view limit = negative ? kMin : kMax;
    return text.size() < limit.size() || (text.size() == limit.size() && text <= limit);
}

bool isFloatText(std::string_view text)
{
    std::string_view unsignedText = text;
    if (!unsignedText.empty() && (unsignedText.front() == '+' || unsignedText.front() == '-'))
        unsignedText.remove_prefix(1);
    if (!isFloatSyntax(unsignedText))
        return false;
    const char first = unsignedText.front();
    if (first == 'i' || first == 'I' || first == 'n' || first == 'N')
        return true;
    // Go refuses values beyond the double range and takes those too small as zero.
    const std::string copy(text);
    errno = 0;
    const double value = std::strtod(copy.c_str(), nullptr);
    return !(errno == ERANGE && std::isinf(value));
}

bool isDurationText(std::string_view text)
{
    return static_cast<bool>(parseDuration(text));
}

bool isShellSafeText(std::string_view text)
{
    return trimmedSpace(text).find_first_of("`$;|&><()\n") == std::string_view::npos;
}

bool isHostnameText(std::string_view text)
{
    if (text.ends_with('.'))
        text.remove_suffix(1);
    if (text.empty() || text.size() > 253)
        return false;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('.', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view label = text.substr(start, end - start);
        const auto allowed
            = [](char c) { return isAsciiDigit(c) || c == '-' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); };
        if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-'
            || !std::all_of(label.begin(), label.end(), allowed))
            return false;
        start = end + 1;
    }
    return true;
}

bool isFqdnText(std::string_view text)
{
    if (!isHostnameText(text))
        return false;
    if (text.ends_with('.'))
        text.remove_suffix(1);
    const std::size_t lastDot = text.rfind('.');
    if (lastDot == std::string_view::npos)
        return false;
    const std::string_view top = text.substr(lastDot + 1);
    return !std::all_of(top.begin(), top.end(), isAsciiDigit);
}

} // namespace ccm
