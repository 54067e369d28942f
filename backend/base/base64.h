// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace ccm {

/// Standard base64 (RFC 4648 section 4) with padding: preview envelopes, keys and signatures.
[[nodiscard]] std::string encodeBase64(std::string_view data);

/// base64url (RFC 4648 section 5) with padding: JetStream object names in subjects and object
/// digests, as the NATS clients write them.
[[nodiscard]] std::string encodeBase64Url(std::string_view data);

/// The strict inverse of encodeBase64: standard alphabet, length a multiple of four, padding only
/// at the end. Anything else is the error `bad_base64`, for what a peer signed or sent.
[[nodiscard]] Result<std::string> decodeBase64(std::string_view text);

/// Decodes either alphabet, padded or not, as NATS clients have written object digests over time;
/// nullopt on a character of neither alphabet or a length no encoding gives.
[[nodiscard]] std::optional<std::string> decodeBase64Lenient(std::string_view text);

} // namespace ccm
