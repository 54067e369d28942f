// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccm {

/// The KEY=value assignments of a .env file, in file order. Blank lines and lines starting with #
/// are skipped, an `export ` prefix is allowed, and a value wrapped in matching single or double
/// quotes loses them (no escapes are processed inside). An unquoted value ends at a # preceded by
/// a space; a quoted one may be followed by such a comment. Lines whose value is empty are dropped;
/// malformed lines (no '=', a key that is not a shell name, an unclosed quote) are ignored.
std::vector<std::pair<std::string, std::string>> parseDotenv(std::string_view text);

/// The process environment as a map of strings sorted by name, with the assignments of
/// `dotenvFile` (when it exists and can be read) merged over it. Text is made valid UTF-8.
Json processEnviron(const std::filesystem::path &dotenvFile = ".env");

} // namespace ccm
