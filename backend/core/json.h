// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ccm {

/// Manifest values keep the key order of the text they came from.
using Json = nlohmann::ordered_json;

/// The kind of a value in words for messages: "a map", "a list", "a string", "an integer", ...
std::string describeJsonType(const Json &value);

/// Merges `overlay` into `base` as Hiera's deep merge and fact merging do: maps recursively, lists
/// concatenated (base first), anything else replaced by the overlay.
void deepMerge(Json &base, const Json &overlay);

} // namespace ccm
