// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace ccm {

/// Bytes as lower-case hexadecimal digits, two per byte ("0a1b..."): digests, fingerprints.
[[nodiscard]] std::string toHex(std::span<const unsigned char> bytes);

/// Appends one byte as two lower-case hexadecimal digits ("\x1b" escapes, MAC addresses).
void appendHexByte(std::string &out, unsigned char byte);

/// Appends the low `digits` hexadecimal digits of value, most significant first, zero-padded
/// (Go's \uXXXX escapes, 64-bit hashes as 16 digits).
void appendHexDigits(std::string &out, std::uint64_t value, int digits, bool upperCase = false);

} // namespace ccm
