// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace ccm {

/// Manifest values keep the key order of the text they came from.
using Json = nlohmann::ordered_json;

/// The kind of a value in words for messages: "a map", "a list", "a string", "an integer", ...
std::string describeJsonType(const Json &value);

/// Appends a member to `object`, a map that does not hold `key` yet. ordered_json's own insertion
/// searches the map first, which makes building a map member by member quadratic.
void appendMember(Json &object, std::string key, Json value);

/// Merges `overlay` into `base` as Hiera's deep merge and fact merging do: maps recursively, lists
/// concatenated (base first), anything else replaced by the overlay.
void deepMerge(Json &base, const Json &overlay);

/// Offset of the first bracket of JSON text that opens a level deeper than `limit` (outside
/// strings), or nullopt. Parsing such text recursively could exhaust the stack, so it is refused
/// before it is parsed.
std::optional<std::size_t> jsonNestingBeyond(std::string_view text, int limit);

} // namespace ccm
