// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "base/signing_key.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "fleet/preview/capture_wire.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccm::fleet {

// The fleet preview wire protocol (docs/fleet.md, "Fleet preview"): a signed request on
// ccm.preview.request, answers streamed by every agent to the request's reply subject.

using Clock = std::chrono::system_clock;

inline constexpr std::string_view kPreviewRequestSubject = "ccm.preview.request";
/// The largest request payload an agent reads; real ones are well under 2 KiB.
inline constexpr std::size_t kMaxRequestPayload = 64 * 1024;
/// The largest answer payload a requester reads (a server's max_payload is at most 64 MiB).
inline constexpr std::size_t kMaxAnswerPayload = 64ull * 1024 * 1024;
/// The longest a request may be valid, and how far its issue time may lie ahead of an agent's clock.
inline constexpr std::chrono::minutes kMaxRequestLifetime {15};
inline constexpr std::chrono::seconds kMaxClockSkew {60};
/// The highest answer format this side reads and writes (docs/fleet.md, "Answer formats"): 1 is
/// one progress and one event message per resource; 2 sends events only for resources that are
/// not stable and names the stable ones in `done`.
inline constexpr std::uint64_t kPreviewAnswersFormat = 2;

struct PreviewBundleRef {
    std::string bucket;
    std::string name;
    std::string digest; ///< "SHA-256=..." of the bundle's bytes
};

/// What a requester that reads resource classes asks for (the request's "compare" member): the
/// current bundle to compare the proposal with (docs/fleet.md, "Drift versus intent").
struct PreviewCompare {
    /// "obj://BUCKET/NAME": the agent source the proposal would replace; unset lets the agent take
    /// its only remote source.
    std::optional<std::string> target;
};

/// The signed part of a request (R in the contract).
struct PreviewRequest {
    std::string id; ///< [A-Za-z0-9_-]{16,64}
    Clock::time_point issued;
    Clock::time_point expires;
    std::string reply; ///< "_INBOX." subject
    PreviewBundleRef bundle;
    std::optional<std::string> select;
    bool noop = true;
    /// Set by requesters that read resource classes; an agent classes only then, so a requester
    /// that predates classes gets the answers it knows.
    std::optional<PreviewCompare> compare;
    /// Set for a fleet capture (capture_wire.h): the request then has no bundle (`bundle` is
    /// empty and not sent), no compare and no selector.
    std::optional<CaptureSelection> capture;
    /// The highest answer format the requester reads (the request's "answers" member, an integer
    /// of at least 1); 1 when the member is absent, as from a requester that predates formats. An
    /// agent answers in min(answers, kPreviewAnswersFormat). Sent only when above 1.
    std::uint64_t answers = 1;
};

/// The answer format an agent uses for `request`: min(request.answers, kPreviewAnswersFormat).
std::uint64_t answerFormatFor(const PreviewRequest &request);

/// What a resource's change is, comparing the proposed bundle with the host's current one:
/// unchanged (no change under the proposal), intended (only the proposal changes it), drift (the
/// current bundle would change it too: the host drifted from it), added (the current bundle does
/// not have it), failed (it fails under the proposal), uncompared (its run under the current
/// bundle failed, was skipped or did not happen).
enum class ChangeClass { Unchanged, Intended, Drift, Added, Failed, Uncompared };

std::string_view changeClassName(ChangeClass change);
std::optional<ChangeClass> changeClassFromName(std::string_view name);

/// A host's comparison, in its `done` answer as "compare".
struct PreviewComparison {
    /// Compared: `source` and `digest` name the current bundle. None: there was no current bundle
    /// to compare with (`reason` says why). Absent: the host sent no comparison (an agent that
    /// predates classes); requester side only, never on the wire.
    enum class State { Compared, None, Absent };
    State state = State::Absent;
    std::string source;
    std::string digest;
    std::string reason;
    /// The class of every resource that changed or failed under the proposal; the others are
    /// unchanged. Empty unless compared.
    std::map<std::string, ChangeClass> classes;
};

/// The most resources one comparison classes, and the longest resource name it carries.
inline constexpr std::size_t kMaxComparedResources = 1'000'000;
inline constexpr std::size_t kMaxComparedName = 4096;

Json comparisonToJson(const PreviewComparison &comparison);
/// Strict: the members of the state and no others, classes among those sent (not unchanged).
/// Error code "bad_answer".
Result<PreviewComparison> comparisonFromJson(const Json &json);
/// The class of `resource` in a host's comparison: from `classes`, else unchanged; nullopt when
/// the host did not compare.
std::optional<ChangeClass> classOf(const PreviewComparison &comparison, const std::string &resource);

/// Whether an answer in format 2 may leave the event of `event` out and name its resource in
/// `done`'s "stable" list: the resource did not change, fail, refresh or skip, and carries nothing
/// else to show (no diff, errors, unmet requirements, noop message or health checks).
bool isStableEvent(const TransactionEvent &event);

/// The same judged on an event as eventToJson writes it, from another host: members that say
/// otherwise (changed, failed, skipped, refreshed or health_check_only true; a diff, noop_message
/// or refreshed_by; non-empty error, unmet_requirements or health_check) make it not stable.
bool isStableEvent(const Json &event);

/// A `done` answer's "stable" member, read strictly: an array of at most kMaxComparedResources
/// non-empty strings of at most kMaxComparedName bytes. Error code "bad_answer".
Result<std::vector<std::string>> stableFromJson(const Json &json);

/// The most events one "events" answer carries (format 2 sends events in batches).
inline constexpr std::size_t kMaxEventsPerAnswer = 1000;

/// A fresh request id: 32 random characters of [A-Za-z0-9].
std::string newPreviewId();

/// RFC 3339 UTC with whole seconds ("2026-11-25T01:02:03Z"), and a parser for RFC 3339 times
/// with an optional fraction and a Z or ±hh:mm offset. Error code "bad_time".
std::string formatRfc3339(Clock::time_point time);
Result<Clock::time_point> parseRfc3339(std::string_view text);

/// The request body R as JSON text.
std::string encodeRequestBody(const PreviewRequest &request);
/// The payload published on ccm.preview.request: R signed with `key`.
Result<std::string> encodeSignedRequest(const PreviewRequest &request, const SigningKey &key);

/// A request whose signature verified against `publicKey`.
struct VerifiedRequest {
    PreviewRequest request;
    std::string publicKey; ///< raw 32 bytes, as the envelope named it
};

/// Decodes a request payload strictly and verifies its signature with the key it carries. Error
/// codes: "bad_request" (anything malformed: sizes, base64, JSON, a missing or mistyped field;
/// the message names the field), "bad_signature". Never trusts the key: callers check it.
Result<VerifiedRequest> decodeSignedRequest(std::string_view payload);

/// The contract's time and mode rules at `now`. Error codes "expired", "too_long", "not_yet_valid",
/// "not_noop".
Result<void> checkRequestRules(const PreviewRequest &request, Clock::time_point now);

/// One answer from one host. `message` is the whole JSON object as received.
struct PreviewAnswer {
    std::string id;
    std::string identity;
    std::uint64_t seq = 0;
    std::string type;
    Json message;
};

/// The common fields of an answer; the caller adds the type's own.
Json answerHeader(const std::string &id, const std::string &identity, std::uint64_t seq, std::string_view type);

/// Decodes one answer payload strictly: common fields, then the type's own (accepted, declined,
/// progress, event, events, done, failed, part, capture). "events" (format 2) carries 1 to
/// kMaxEventsPerAnswer event objects in the order they ran. A `done` in format 2 has "answers": 2
/// and "stable" (stableFromJson) together; one in format 1 has neither. Error code "bad_answer"
/// with the field at fault.
Result<PreviewAnswer> decodeAnswer(std::string_view payload);

/// The payloads that carry `message` within `maxPayload` bytes each: the message itself when it
/// fits, else "part" messages with slices of its JSON text (cut between UTF-8 characters).
std::vector<std::string> splitAnswer(const Json &message, std::size_t maxPayload);

/// Puts "part" answers back together, per (identity, seq), in any arrival order.
class PartAssembler {
public:
    struct Limits {
        std::size_t maxParts = 65536; ///< of one message
        std::size_t maxHostBytes = 64ull * 1024 * 1024; ///< pending bytes of one host
        std::size_t maxTotalBytes = 256ull * 1024 * 1024; ///< pending bytes of every host
    };
    explicit PartAssembler(Limits limits);

    /// Adds a part; the whole message's text once every part of it arrived, nullopt while some are
    /// missing. Error code "too_large" when a limit would be crossed (the host's pending parts are
    /// dropped), "bad_answer" for parts that disagree on their count or repeat.
    Result<std::optional<std::string>> add(const PreviewAnswer &part);
    /// Drops whatever is pending for `identity`.
    void forget(const std::string &identity);
    [[nodiscard]] std::size_t pendingBytes() const { return m_total; }

private:
    struct Pending {
        std::size_t parts = 0;
        std::size_t bytes = 0;
        std::map<std::size_t, std::string> data;
    };
    struct Host {
        std::size_t bytes = 0;
        std::map<std::uint64_t, Pending> messages;
    };
    Limits m_limits;
    std::size_t m_total = 0;
    std::unordered_map<std::string, Host> m_hosts;
};

} // namespace ccm::fleet
