// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

namespace ccm {

/// Manifest values keep the key order of the text they came from.
using Json = nlohmann::ordered_json;

} // namespace ccm
