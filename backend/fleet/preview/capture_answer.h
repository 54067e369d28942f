// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "engine/util/command_runner.h"
#include "fleet/preview/capture_wire.h"

#include <atomic>
#include <cstddef>
#include <string>

namespace ccm::fleet {

/// How an agent captures its host for a fleet capture request.
struct CaptureAnswerSettings {
    /// The user whose rights the capture reads files with and runs the package and service
    /// queries as (preview.user).
    std::string previewUser = "nobody";
    /// The largest capture answer, as JSON text; a larger capture fails with a message saying to
    /// narrow it.
    std::size_t maxAnswerBytes = 0;
    /// Set when the agent stops: no command starts after it, and no capture is sent.
    const std::atomic<bool> *cancel = nullptr;
};

/// The capture `selection` asks for, as the "capture" answer's member (captureToJson): read with
/// the preview user's file system identity (CaptureRequest.reader) and every process run as that
/// user through an IdentityRunner over `runner`, within fleetCaptureLimits(). Errors: "no_user"
/// (the preview user does not exist), "cancelled", "too_large", and captureHost()'s.
Result<Json> captureForRequest(
    const CaptureSelection &selection, const CaptureAnswerSettings &settings, CommandRunner &runner);

} // namespace ccm::fleet
