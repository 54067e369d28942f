// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace ccm::cli {

/// `ccm-backend fleet capture HOST --key PEM ...` (docs/fleet.md, "Fleet capture"); `args` follow
/// "capture".
int fleetCaptureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace ccm::cli
