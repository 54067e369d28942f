// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// Splits a command line into words the way a POSIX shell would, without expanding anything:
/// whitespace separates words, single quotes are literal, double quotes allow \" \\ \$ \` escapes,
/// a backslash outside quotes escapes the next character. Unbalanced quotes are an error.
Result<std::vector<std::string>> splitShellWords(std::string_view line);

} // namespace ccm
