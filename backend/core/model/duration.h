// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <chrono>
#include <string_view>

namespace ccm {

/// Parses a duration in Go syntax ("300ms", "1.5h", "2h45m", "0") extended with the units
/// d (day), w (week), M (30 days) and y (365 days). Negative durations are refused.
Result<std::chrono::nanoseconds> parseDuration(std::string_view text);

} // namespace ccm
