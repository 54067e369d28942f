// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace ccm::engine {

/// Compares two version strings with the generic algorithm RPM versions are compared with here.
/// Both are cut into tokens: '-', '.', runs of digits and runs of anything else. Token by token,
/// the first difference decides: '-' loses to anything, then '.' loses to anything; two digit runs
/// compare numerically unless one has a leading zero, then as text; other runs compare as text
/// without regard to case. When one side runs out of tokens, or every token matched, the whole
/// strings compare as text.
///
/// With `ignoreTrailingZeroes`, trailing ".0" parts of what comes before the first '-' are dropped
/// first, so "1.0.0" equals "1" and "1.0.0-rc1" equals "1-rc1".
/// -1 when a < b, 0 when equal, 1 when a > b. Any input is accepted.
int compareGenericVersions(std::string_view a, std::string_view b, bool ignoreTrailingZeroes);

} // namespace ccm::engine
