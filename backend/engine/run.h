// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/resolve.h"
#include "core/model/transaction_event.h"
#include "engine/resource.h"
#include "engine/util/command_runner.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::engine {

/// How a resource outside the manifest last ended, as a session recorded it: what a require or
/// subscribe naming it needs to know.
struct PriorOutcome {
    bool failed = false;
    /// It was skipped for unmet requirements.
    bool unmet = false;
    bool changed = false;
    /// The change only would have happened (noop).
    bool noop = false;
};

/// How a manifest is run.
struct RunOptions {
    /// Change nothing; report what would change.
    bool noop = false;
    /// Run only the health checks of each resource.
    bool healthCheckOnly = false;
    /// Set (from another thread or a signal handler) to stop before the next resource.
    const std::atomic<bool> *cancel = nullptr;
    /// The identity every process of the run runs as: guards, health checks, goss, provider
    /// commands and scaffold post commands alike, through an IdentityRunner over the run's runner.
    /// nullopt runs them as this process. Set for a preview on somebody else's behalf.
    std::optional<Credentials> processCredentials;
    /// Whether a file's content diff may be put into its event; unset allows every diff.
    std::function<bool(const std::filesystem::path &)> mayShowDiff;
    /// Runs `read` with the identity the manifest's own file reads are made with: deferred templates
    /// and child manifests. False when that identity could not be taken (nothing was read). Unset
    /// reads as this process. A preview for another user sets it, so what templates put into the
    /// events is only what that user could read.
    std::function<bool(const std::function<void()> &read)> readAsCaller;
    /// The goss binary for goss health checks; empty looks for `goss` in the fixed PATH.
    std::filesystem::path gossBinary;
    /// How deep apply resources may nest child manifests.
    int maxApplyDepth = 10;
    /// Answers a require or subscribe ("type#name" or "type#alias") that names no resource that
    /// ran before in this run: the latest outcome of that resource elsewhere (an ensure session),
    /// or nullopt when there is none. Unset, such a reference fails the resource.
    std::function<std::optional<PriorOutcome>(const std::string &reference)> priorOutcome;
};

/// What a run reports while it goes. Every callback is made on the thread that runs the manifest.
class RunObserver {
public:
    virtual ~RunObserver();
    /// A manifest's pre_message or post_message.
    virtual void message(std::string_view text);
    /// A resource is about to run: `done` resources have finished out of `total` known so far
    /// (child manifests add theirs when they are reached).
    virtual void resourceStarting(std::string_view resource, std::size_t done, std::size_t total);
    /// A resource finished; its event is final.
    virtual void resourceFinished(const TransactionEvent &event);
    /// A log message of a type or provider about a resource ("type#name").
    virtual void log(LogLevel level, std::string_view resource, std::string_view message);
};

/// How a run ended.
struct RunResult {
    RunSummary summary;
    /// The run stopped early because it was cancelled.
    bool cancelled = false;
    /// The run stopped early because a resource failed and fail_on_error is set, or because a
    /// control expression could not be evaluated.
    bool aborted = false;
};

/// How a run ended as the apply command's last line and the daemon's apply result carry it:
/// `{summary, cancelled, aborted, noop}`.
Json runResultToJson(const RunResult &result, bool noop);

/// Runs a resolved manifest (ENGINE-SPEC §2): resources in declaration order through the control
/// gate, deferred templates, requirements, the type's apply and health checks, with subscribe
/// refreshes, fail_on_error, pre/post messages and child manifests of apply resources run inline.
/// `inputs` are what the manifest was resolved with (facts, environ, external data, directory);
/// deferred templates and child manifests are resolved with them.
RunResult runManifest(const ResolvedManifest &manifest, const ResolveOptions &inputs, const RunOptions &options,
    CommandRunner &runner, RunObserver &observer, const Catalog &catalog = standardCatalog());

} // namespace ccm::engine
