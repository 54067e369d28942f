// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/signing_key.h"
#include "core/capture/captured_manifest.h"
#include "fleet/preview/capture_wire.h"

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

namespace ccm::fleet {

class NatsConnection;

struct CaptureRequestOptions {
    /// What to capture, and from which host (selection.host).
    CaptureSelection selection;
    SigningKey key;
    /// The file `key` was read from, named in the no-answer message; may be empty.
    std::string keyFile;
    std::chrono::milliseconds timeout {std::chrono::seconds(30)};
    /// Set from another thread to stop waiting.
    const std::atomic<bool> *cancel = nullptr;
};

/// A host's capture, as it arrived.
struct FleetCapture {
    std::string id; ///< the request id
    std::string identity; ///< the host that answered
    CapturedManifest capture;
    /// Answers that could not be read (malformed, from another host, too large), one line each.
    std::vector<std::string> problems;
};

/// `timeout` as a person writes it: "30s", "1500ms", "2m".
std::string durationText(std::chrono::milliseconds timeout);

/// Publishes a signed capture request for options.selection.host and waits for that host's answer:
/// "accepted", then "capture" (put back together from its parts), read strictly with
/// captureFromJson(). Answers from other hosts or to other requests are ignored. Error codes:
/// "bad_request" (the selection is malformed or too large for one request), "no_answer" (nothing
/// from the host within the timeout; the message lists the likely reasons), "timeout" (the host
/// accepted and sent no capture in time), "failed" (the host answered failed), "bad_answer"
/// (its capture does not decode), "cancelled", "nats".
Result<FleetCapture> runFleetCapture(NatsConnection &connection, const CaptureRequestOptions &options);

} // namespace ccm::fleet
