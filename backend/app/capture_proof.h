// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "engine/run.h"

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ccm::cli {

// The proof of a capture (docs/capture.md): the written manifest, loaded as `apply --noop` loads
// it and run in noop on the host it was read on, must find nothing to change. Anything else is a
// defect of the capture: the manifest does not describe the host.

/// A resource the noop would change or could not check, and why.
struct CaptureDefect {
    std::string resource; ///< "file#/etc/motd"; "manifest" when the manifest itself is at fault
    std::string reason; ///< the event's message, errors or diff summary
};

/// What the noop of a capture found.
struct CaptureProof {
    std::size_t resources = 0; ///< resources the noop ran
    std::size_t changes = 0; ///< of them, those it would change
    std::size_t failed = 0; ///< of them, those that failed
    std::vector<CaptureDefect> defects;

    /// The noop found nothing to change and nothing failed.
    [[nodiscard]] bool proven() const { return defects.empty(); }
};

/// The defect an event of the noop shows, or nullopt when the resource is as the manifest says:
/// a failure (its errors), a change (its noop message, with the size of its content diff), a
/// skip (the requirements it lacked).
std::optional<CaptureDefect> captureDefect(const TransactionEvent &event);

/// The proof of a noop run: its counts, a defect per changed, failed or skipped event in order,
/// and one for a run that was cancelled or aborted before every resource ran.
CaptureProof proofOfRun(const std::vector<TransactionEvent> &events, const engine::RunResult &result);

/// Opens `written` (a manifest file or a .tar.gz/.tgz bundle) as `apply --noop` opens its
/// MANIFEST argument (ManifestInput, the default inputs of apply), prepares it and runs it in noop
/// with this process's rights. A manifest that does not validate or resolve is a proof with a
/// "manifest" defect per error. With `verbose`, the run's report lines and log messages are
/// written there as apply writes them. Errors: the manifest could not be opened or the inputs
/// (facts) could not be gathered.
Result<CaptureProof> proveCapture(const std::filesystem::path &written, std::ostream *verbose = nullptr);

/// {resources, changes, failed, defects: [{resource, reason}]}.
Json captureProofToJson(const CaptureProof &proof);

/// "Verified: N resources, 0 changes\n", or a line with the counts followed by one
/// "capture defect: RESOURCE: REASON" line per defect.
std::string captureProofText(const CaptureProof &proof);

} // namespace ccm::cli
