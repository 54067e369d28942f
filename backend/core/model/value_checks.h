// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace ccm {

// The checks behind the validator functions of expressions (isIP, isInt, ...) and so of
// `# @validate` annotations. Each reads text as upstream CCM's validators read it.

/// An IPv4 address in dotted decimal ("10.0.0.1", no leading zeros) or an IPv6 address without a
/// zone ("fe80::1", "::ffff:10.0.0.1").
bool isIpAddress(std::string_view text);
/// An IPv4 address, also written as an IPv4-mapped IPv6 address ("::ffff:10.0.0.1").
bool isIpv4Address(std::string_view text);
/// An IPv6 address that is not an IPv4-mapped one.
bool isIpv6Address(std::string_view text);
/// A decimal integer with an optional sign that fits 64 bits ("42", "-7", "+007").
bool isIntegerText(std::string_view text);
/// A floating point number as Go's strconv.ParseFloat reads it: decimal with an optional fraction
/// and exponent, hexadecimal with a p exponent, inf, infinity or nan; not beyond the double range.
bool isFloatText(std::string_view text);
/// A duration as parseDuration() reads it ("1h30m", "2d").
bool isDurationText(std::string_view text);
/// No shell metacharacter ` $ ; | & > < ( ) and no newline once surrounding whitespace is removed.
bool isShellSafeText(std::string_view text);
/// A host name by RFC 1123: dot-separated labels of 1 to 63 letters, digits and hyphens, not
/// starting or ending with a hyphen, at most 253 characters, with an optional final dot.
bool isHostnameText(std::string_view text);
/// A host name of at least two labels whose last label is not all digits ("web1.example.net").
bool isFqdnText(std::string_view text);

} // namespace ccm
