// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/signing_key.h"
#include "core/expr/expression.h"
#include "core/model/json.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/nats/bucket_replicas.h"
#include "fleet/preview/preview_wire.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccm::fleet {

class NatsConnection;

/// The object store bucket requests put their bundles in, as "preview-<id>"; the object is
/// removed when the preview ends.
inline constexpr std::string_view kPreviewBucket = "CCM_PREVIEW";

/// Where one host stands.
enum class HostState { Accepted, Running, Declined, Done, Failed, Silent };

/// "accepted", "running", "declined", "done", "failed", "silent".
std::string_view hostStateName(HostState state);

/// One host's answers, as collected.
struct HostPreview {
    std::string identity;
    HostState state = HostState::Silent;
    Json summary; ///< summaryToJson of a finished run, null otherwise
    bool cancelled = false;
    bool aborted = false;
    std::vector<std::string> diagnostics;
    std::string message; ///< why it failed or declined
    /// eventToJson objects in run order, when kept, but for stable ones; with "class" once compared
    std::vector<Json> events;
    std::size_t eventCount = 0; ///< events received, but for stable ones
    /// The resources that did not change and have nothing to show (isStableEvent), in run order:
    /// named in `done` by a host answering in format 2, taken from the events of one answering in
    /// format 1 (whose stable events are then neither kept nor passed on), so that they are the
    /// same whichever format a host answered in.
    std::vector<std::string> stable;
    std::uint64_t answers = 1; ///< the answer format of the host's `done`
    /// What the host compared the proposal with, and the classes; Absent until done, and from
    /// agents that predate classes.
    PreviewComparison comparison;
};

/// The host's resources in `change` (intended, drift, ...); 0 when it did not compare.
std::size_t classCount(const HostPreview &host, ChangeClass change);

/// The host's comparison for people: "no current bundle: ..." or "not compared: the agent
/// predates drift classes" when it did not compare, empty when it did or has not finished.
std::string comparisonNote(const HostPreview &host);

/// The host's comparison as the JSON of `fleet preview --json` and fleet.preview: {"state":
/// "compared", "source", "digest", "intended", "drift", "added", "failed", "uncompared"},
/// {"state": "none", "reason"} or {"state": "absent"}.
Json comparisonSummary(const HostPreview &host);

/// The whole fleet's answer.
struct FleetPreview {
    std::string id; ///< the request id
    std::vector<HostPreview> hosts; ///< sorted by identity
    bool cancelled = false; ///< the caller cancelled before every host finished
    /// Answers that could not be read (malformed, too large), one line each, at most 100.
    std::vector<std::string> problems;
    /// When no host answered at all: the likely reason (no agent trusts the signing key) and how
    /// to check and fix it, in a few sentences. Empty when some host answered or on a cancel.
    std::string notice;
};

/// The count `key` of a run summary (summaryToJson shape), 0 when the summary is not a map or
/// the member is not a count: summaries come from other hosts and are not trusted.
std::size_t summaryCount(const Json &summary, const char *key);

/// The contract's totals: hosts, answered, silent, declined, failed, changed, resources_failed,
/// and the classes: intended, drift, and uncompared_hosts (done hosts with no comparison), and
/// stable (the stable resources of every host, HostPreview::stable).
Json fleetPreviewTotals(const FleetPreview &preview);

/// Called as answers arrive, on the thread that runs runFleetPreview(), in each host's order.
/// Any may be empty.
struct PreviewCallbacks {
    /// The request went out with this id; no answer comes before it.
    std::function<void(const std::string &id)> published;
    std::function<void(const std::string &identity)> accepted;
    std::function<void(
        const std::string &identity, std::uint64_t done, std::uint64_t total, const std::string &current)>
        progress;
    std::function<void(const std::string &identity, const Json &event)> event;
    std::function<void(const HostPreview &host)> done;
    std::function<void(const std::string &identity, const std::string &message)> failed;
    std::function<void(const std::string &identity, const std::string &reason, const std::string &message)> declined;
};

struct PreviewRequestOptions {
    /// A manifest file, a local bundle (.tar.gz, .tgz), or an http(s):// or obj:// bundle URL.
    std::string source;
    /// The bytes of a bundle built already (a manifest sent as text); `source` is then not read.
    std::optional<std::string> bundle;
    SourceOptions sources; ///< how remote sources are fetched
    SigningKey key;
    /// A manifest expression over Facts; every host when unset. It must parse (selectorError):
    /// runFleetPreview() refuses one that does not before anything is sent.
    std::optional<std::string> select;
    /// The agent source ("obj://BUCKET/NAME") the proposal would replace: each agent compares the
    /// proposal with its cached bundle of it. Unset: each agent's only remote source.
    std::optional<std::string> target;
    /// Whether hosts are asked to class each change against their current bundle (the request's
    /// compare member); without it they answer as agents that predate classes do.
    bool compare = true;
    /// The file `key` was read from, named in the notice when no host answers; may be empty.
    std::string keyFile;
    std::chrono::milliseconds timeout {std::chrono::seconds(30)};
    /// With no CCM_STATUS host to wait for: how long after the last answer, once every host that
    /// accepted finished, the preview ends before the timeout.
    std::chrono::milliseconds quiet {std::chrono::seconds(2)};
    /// Pending answer bytes (parts not yet whole, messages not yet read) of all hosts together.
    std::size_t maxAnswerBytes = 256ull * 1024 * 1024;
    bool keepEvents = true; ///< keep every event in HostPreview::events
    /// Set from another thread to end the wait early; hosts not finished are then silent.
    const std::atomic<bool> *cancel = nullptr;
    /// The replicas of CCM_PREVIEW when it has to be created.
    BucketReplicas replicas;
};

/// Collects the answers to one request: orders each host's answers by seq, puts parts together,
/// and keeps per-host state in a hash map, so each answer costs the same however many came before.
/// Reads both answer formats; a host's stable resources end up in HostPreview::stable whichever
/// format it answered in.
class PreviewCollector {
public:
    /// `options` and `callbacks` must outlive the collector.
    PreviewCollector(std::string id, const PreviewRequestOptions &options, const PreviewCallbacks &callbacks);

    /// Hosts CCM_STATUS says are alive: the preview waits for them.
    void expect(const std::string &identity);
    /// One payload from the request's inbox; malformed ones are counted as problems.
    void receive(std::string_view payload);
    /// True once every expected host and every host that answered finished, and with none
    /// expected, once `quiet` passed since the last answer.
    [[nodiscard]] bool allFinished(std::chrono::steady_clock::time_point now, bool anyExpected) const;
    /// The hosts (sorted by identity), those not finished silent.
    FleetPreview finish(bool cancelled);
    /// Whether any answer to the request arrived, readable or not.
    [[nodiscard]] bool anyAnswer() const { return m_anyAnswer; }

private:
    struct Track {
        HostPreview host;
        bool finished = false;
        std::uint64_t nextSeq = 0;
        std::map<std::uint64_t, PreviewAnswer> early;
    };

    void problem(const std::string &text);
    Track &track(const std::string &identity);
    void deliver(PreviewAnswer answer);
    void apply(Track &track, PreviewAnswer &answer);
    void applyEvent(HostPreview &host, Json &event);
    void applyDone(Track &track, Json &message);
    void finishHost(Track &track, HostState state);

    std::string m_id;
    const PreviewRequestOptions &m_options;
    const PreviewCallbacks &m_callbacks;
    PartAssembler m_parts;
    std::unordered_map<std::string, Track> m_hosts;
    std::size_t m_open = 0;
    std::chrono::steady_clock::time_point m_lastAnswer;
    std::vector<std::string> m_problems;
    bool m_anyAnswer = false;
};

/// The syntax error of a selector, if any. Agents evaluate the selector on their own facts, so
/// one that does not parse would be declined by every host: requesters check it before sending.
std::optional<ExpressionError> selectorError(std::string_view select);

/// Whether `target` is a target requests may carry (an obj://BUCKET/NAME URL of at most 1024
/// bytes); error code "target" saying what is wrong. Requesters check it before sending.
Result<void> checkTarget(const std::optional<std::string> &target);

/// Reads the bytes of the bundle `source` names: a manifest file is bundled (planBundle) on the
/// way, a bundle file read, a URL fetched. Errors say what failed and where.
Result<std::string> previewBundleBytes(const std::string &source, const SourceOptions &sources);

/// Puts the bundle in CCM_PREVIEW, publishes the signed request, and collects the answers until
/// every host finished (each non-stale CCM_STATUS host and each that accepted) or the timeout.
/// Hosts in CCM_STATUS that are not stale and did not finish, and hosts that accepted and did not
/// finish, are silent. The bundle object is removed at the end.
Result<FleetPreview> runFleetPreview(
    NatsConnection &connection, const PreviewRequestOptions &options, const PreviewCallbacks &callbacks = {});

} // namespace ccm::fleet
