// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ccm {

/// Decodes the UTF-8 sequence that starts at text[at]: sets codePoint and returns the sequence's
/// length in bytes, or returns 0 when the bytes there are not well-formed UTF-8 (truncated,
/// overlong, a surrogate, or past U+10FFFF).
std::size_t decodeUtf8(std::string_view text, std::size_t at, char32_t &codePoint);

/// Offset of the first byte that is not part of well-formed UTF-8, or npos when the text is valid.
std::size_t invalidUtf8Offset(std::string_view text);

/// The text with every byte that is not part of well-formed UTF-8 replaced by U+FFFD, so that it
/// can go into JSON (whose writer refuses invalid UTF-8).
std::string toValidUtf8(std::string_view text);

/// Appends the UTF-8 encoding of a code point (at most U+10FFFF).
void appendUtf8(std::string &out, char32_t codePoint);

/// The value of a hexadecimal digit, or -1 when c is not one.
int hexDigitValue(char c);

} // namespace ccm
