// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ccm {

/// Manifest values keep the key order of the text they came from.
using Json = nlohmann::ordered_json;

/// The kind of a value in words for messages: "a map", "a list", "a string", "an integer", ...
std::string describeJsonType(const Json &value);

} // namespace ccm
