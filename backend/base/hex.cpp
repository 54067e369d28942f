// SPDX-License-Identifier: Apache-2.0
#include "base/hex.h"

#include <string_view>

namespace ccm {

namespace {
constexpr std::string_view kLowerDigits = "0123456789abcdef";
constexpr std::string_view kUpperDigits = "0123456789ABCDEF";
} // namespace

std::string toHex(std::span<const unsigned char> bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const unsigned char byte : bytes)
        appendHexByte(out, byte);
    return out;
}

void appendHexByte(std::string &out, unsigned char byte)
{
    out += kLowerDigits[byte >> 4];
    out += kLowerDigits[byte & 0xf];
}

void appendHexDigits(std::string &out, std::uint64_t value, int digits, bool upperCase)
{
    const std::string_view table = upperCase ? kUpperDigits : kLowerDigits;
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4)
        out += table[(shift < 64 ? value >> shift : 0) & 0xf];
}

} // namespace ccm
