// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <string>
#include <string_view>

namespace ccm::engine {

/// A Debian package version split as the Debian Policy Manual describes it:
/// [epoch:]upstream_version[-debian_revision].
struct DebianVersion {
    /// The epoch's digits without leading zeros; "0" when the version has none.
    std::string epoch = "0";
    std::string upstream;
    /// Empty when the version has no revision.
    std::string revision;
};

/// Splits a version. The epoch is everything before the first ':' and must be digits; the revision
/// is what follows the last '-' when that is not empty (a trailing '-' stays in the upstream part).
/// Errors name the version and what is wrong: empty, a non-numeric or empty epoch, an empty
/// upstream version, or a character a Debian version cannot hold.
Result<DebianVersion> parseDebianVersion(std::string_view text);

/// Compares two versions by the Debian policy algorithm: epochs numerically, then the upstream
/// parts and then the revisions, each alternating non-digit runs (where '~' sorts before anything,
/// even the end, and letters before other characters) and digit runs compared numerically.
/// -1 when a < b, 0 when equal, 1 when a > b; an Error when either is not a valid version.
Result<int> compareDebianVersions(std::string_view a, std::string_view b);

} // namespace ccm::engine
