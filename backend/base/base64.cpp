// SPDX-License-Identifier: Apache-2.0
#include "base/base64.h"

#include <array>
#include <cstdint>

namespace ccm {
namespace {

constexpr std::string_view kStandard = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kUrl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::uint8_t kNotADigit = 0xff;

/// The value of each character in either alphabet ('+' and '-' are 62, '/' and '_' 63).
constexpr std::array<std::uint8_t, 256> decodingTable()
{
    std::array<std::uint8_t, 256> table {};
    table.fill(kNotADigit);
    for (std::size_t i = 0; i < kStandard.size(); ++i) {
        table[static_cast<unsigned char>(kStandard[i])] = static_cast<std::uint8_t>(i);
        table[static_cast<unsigned char>(kUrl[i])] = static_cast<std::uint8_t>(i);
    }
    return table;
}

constexpr std::array<std::uint8_t, 256> kValues = decodingTable();

std::string encode(std::string_view data, std::string_view alphabet)
{
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    const auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])); };
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        const std::uint32_t n = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        for (const int shift : {18, 12, 6, 0})
            out += alphabet[(n >> shift) & 63];
    }
    const std::size_t rest = data.size() - i;
    if (rest > 0) {
        const std::uint32_t n = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += rest == 2 ? alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// Decodes digits of one alphabet (checked by the caller) without padding.
std::optional<std::string> decodeDigits(std::string_view digits)
{
    if (digits.size() % 4 == 1)
        return std::nullopt;
    std::string out;
    out.reserve(digits.size() / 4 * 3 + 2);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : digits) {
        const std::uint8_t value = kValues[static_cast<unsigned char>(c)];
        if (value == kNotADigit)
            return std::nullopt;
        buffer = (buffer << 6 | value) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xff);
        }
    }
    return out;
}

} // namespace

std::string encodeBase64(std::string_view data)
{
    return encode(data, kStandard);
}

std::string encodeBase64Url(std::string_view data)
{
    return encode(data, kUrl);
}

Result<std::string> decodeBase64(std::string_view text)
{
    const Error bad {"bad_base64", "not standard padded base64"};
    if (text.size() % 4 != 0)
        return bad;
    std::string_view digits = text;
    for (int padding = 0; padding < 2 && digits.ends_with('='); ++padding)
        digits.remove_suffix(1);
    for (const char c : digits) {
        if (kStandard.find(c) == std::string_view::npos)
            return bad;
    }
    auto decoded = decodeDigits(digits);
    if (!decoded)
        return bad;
    return std::move(*decoded);
}

std::optional<std::string> decodeBase64Lenient(std::string_view text)
{
    while (text.ends_with('='))
        text.remove_suffix(1);
    return decodeDigits(text);
}

} // namespace ccm
