// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/capture/captured_manifest.h"
#include "core/model/json.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ccm::fleet {

// Fleet capture (docs/fleet.md, "Fleet capture"): a signed preview request whose body carries a
// "capture" member in place of "bundle" asks the one agent named by capture.host for a capture of
// its host, read with its preview user's rights. The agent answers "accepted", then "capture"
// {capture: captureToJson(...)} (split into parts when large), or "failed".

/// The most patterns (or paths) of one kind a capture request carries, and the longest one.
inline constexpr std::size_t kMaxCapturePatterns = 256;
inline constexpr std::size_t kMaxCapturePatternBytes = 4096;
/// The longest agent identity a capture request names.
inline constexpr std::size_t kMaxCaptureHostBytes = 1024;

/// What a fleet capture asks one host for: the request's "capture" member.
struct CaptureSelection {
    std::string host; ///< the identity of the one agent that answers
    std::vector<std::string> packages; ///< glob patterns over package names
    std::vector<std::string> services; ///< glob patterns over service names
    std::vector<std::string> files; ///< absolute paths
    std::vector<std::string> excludes; ///< glob patterns over absolute paths
    bool data = false;
    bool pin = false;
    bool includePrivate = false;

    bool operator==(const CaptureSelection &) const = default;
};

/// The "capture" member: {host, packages, services, files, excludes, data, pin, include_private}.
Json captureSelectionToJson(const CaptureSelection &selection);

/// Reads the "capture" member strictly, as from a hostile peer: exactly the members above, host a
/// non-empty string of at most 1024 bytes, each list at most 256 non-empty strings of at most 4096
/// bytes without NUL, files absolute paths, the flags booleans. Error code "bad_request", the
/// message naming the member at fault ("capture.files[2]").
Result<CaptureSelection> captureSelectionFromJson(const Json &json);

/// Checks the type's own member of a "capture" answer: "capture" is an object (read strictly by
/// captureFromJson() where it is used). Error code "bad_answer".
Result<void> checkCaptureAnswer(const Json &message);

/// The limits an agent captures with for the fleet: smaller than a local capture's, so that the
/// answer (base64 sources, escaped text) stays within the largest answer a requester reads.
CaptureLimits fleetCaptureLimits();

/// The capture as the selection would ask for it on a command line, for the capture's header:
/// "ccm-backend fleet capture HOST --package P ... --file PATH ...".
std::vector<std::string> captureCommandLine(const CaptureSelection &selection);

} // namespace ccm::fleet
