// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/capture_requester.h"

#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/preview/preview_wire.h"

#include <algorithm>
#include <nats/nats.h>
#include <optional>

namespace ccm::fleet {
namespace {

/// Problems kept of one capture; the rest are counted out.
constexpr std::size_t kMaxCaptureProblems = 100;

/// The public key file beside `keyFile`, as `fleet keygen` names it.
std::string publicKeyFileOf(const std::string &keyFile)
{
    if (keyFile.empty())
        return "the public key 'ccm-backend fleet keygen' wrote beside the private key";
    return (keyFile.ends_with(".pem") ? keyFile.substr(0, keyFile.size() - 4) : keyFile) + ".pub.pem";
}

/// Why a host may not have answered at all: an agent answers none of these, by design.
std::string noAnswerMessage(const CaptureRequestOptions &options, const std::string &id)
{
    const std::string &host = options.selection.host;
    const std::string fingerprint = keyFingerprint(options.key.publicKey);
    return "no answer from " + host + " within " + durationText(options.timeout)
        + ". An agent does not answer a capture request it will not serve; the likely reasons:\n"
          "  - no agent with identity '"
        + host
        + "' is connected to this NATS server (ccm-backend fleet status lists the agents that report);\n"
          "  - its preview.capture is off, or preview.enabled (set both to true in its agent.yaml and run "
          "systemctl reload ccm-agent);\n"
          "  - it does not trust the key that signed the request (fingerprint "
        + fingerprint + "): list " + publicKeyFileOf(options.keyFile)
        + " under its preview.trusted_keys;\n"
          "  - its clock is more than 60 s behind or ahead of this one.\n"
          "The agent logs why it dropped the request: journalctl -u ccm-agent -p warning | grep "
        + id;
}

/// What has arrived from the host so far.
struct CaptureWait {
    bool accepted = false;
    std::optional<Result<CapturedManifest>> outcome;
    std::vector<std::string> problems;
    std::size_t dropped = 0;

    void problem(std::string text)
    {
        if (problems.size() < kMaxCaptureProblems)
            problems.push_back(std::move(text));
        else
            ++dropped;
    }
};

/// Takes one whole answer of the host.
void takeCaptureAnswer(const PreviewAnswer &answer, const std::string &host, CaptureWait &wait)
{
    if (answer.type == "accepted") {
        wait.accepted = true;
    } else if (answer.type == "failed") {
        wait.outcome = Result<CapturedManifest>(
            Error {"failed", host + " could not capture: " + answer.message["message"].get<std::string>()});
    } else if (answer.type == "declined") {
        wait.outcome = Result<CapturedManifest>(Error {"failed", host + " declined the capture"});
    } else if (answer.type == "capture") {
        auto capture = captureFromJson(answer.message["capture"]);
        if (!capture)
            wait.outcome = Result<CapturedManifest>(
                Error {"bad_answer", host + " sent a capture that cannot be read: " + capture.error().message});
        else
            wait.outcome = Result<CapturedManifest>(std::move(capture).value());
    } else {
        wait.problem(host + ": ignored an answer of type " + answer.type);
    }
}

/// Reads one payload from the inbox into `wait`.
void receiveCaptureAnswer(
    std::string_view payload, const std::string &id, const std::string &host, PartAssembler &parts, CaptureWait &wait)
{
    auto answer = decodeAnswer(payload);
    if (!answer)
        return wait.problem(answer.error().message);
    if (answer->id != id)
        return wait.problem("an answer to another request (" + answer->id + ") was ignored");
    if (answer->identity != host)
        return wait.problem("an answer from " + answer->identity + ", not " + host + ", was ignored");
    if (answer->type != "part")
        return takeCaptureAnswer(*answer, host, wait);
    auto whole = parts.add(*answer);
    if (!whole) {
        wait.outcome = Result<CapturedManifest>(whole.error());
        return;
    }
    if (!whole->has_value())
        return;
    auto joined = decodeAnswer(**whole);
    if (!joined || joined->type == "part" || joined->identity != host || joined->id != id)
        return wait.problem(host + ": message " + std::to_string(answer->seq) + " does not reassemble");
    takeCaptureAnswer(*joined, host, wait);
}

/// The signed request of `options`, answered on `inbox`.
Result<std::pair<std::string, std::string>> captureRequestPayload(
    const CaptureRequestOptions &options, const std::string &inbox)
{
    PreviewRequest request;
    request.id = newPreviewId();
    request.issued = Clock::now();
    request.expires
        = request.issued + std::min<Clock::duration>(kMaxRequestLifetime, options.timeout + std::chrono::minutes(1));
    request.reply = inbox;
    request.capture = options.selection;
    // What an agent would refuse is refused here, where the person can fix it.
    if (auto checked = captureSelectionFromJson(captureSelectionToJson(options.selection)); !checked)
        return checked.error();
    auto payload = encodeSignedRequest(request, options.key);
    if (!payload)
        return payload.error();
    if (payload->size() > kMaxRequestPayload)
        return Error {"bad_request",
            "the capture request is " + std::to_string(payload->size()) + " bytes signed, more than the "
                + std::to_string(kMaxRequestPayload) + " an agent reads; ask for fewer or shorter patterns and paths"};
    return std::pair {request.id, std::move(payload).value()};
}

} // namespace

std::string durationText(std::chrono::milliseconds timeout)
{
    const auto ms = timeout.count();
    if (ms % 60000 == 0 && ms >= 60000)
        return std::to_string(ms / 60000) + "m";
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
}

Result<FleetCapture> runFleetCapture(NatsConnection &connection, const CaptureRequestOptions &options)
{
    natsInbox *rawInbox = nullptr;
    natsInbox_Create(&rawInbox);
    const NatsInboxPtr inbox(rawInbox);
    if (rawInbox == nullptr)
        return makeError(NatsErrc::Nats, "cannot make an inbox for the answer");
    auto payload = captureRequestPayload(options, rawInbox);
    if (!payload)
        return payload.error();
    const std::string &id = payload->first;
    natsSubscription *rawSubscription = nullptr;
    if (natsConnection_SubscribeSync(&rawSubscription, connection.connection(), rawInbox) != NATS_OK)
        return makeError(NatsErrc::Nats, "cannot subscribe to an inbox for the answer");
    const NatsSubscriptionPtr subscription(rawSubscription);
    natsSubscription_SetPendingLimits(subscription.get(), -1, static_cast<int>(2 * kMaxAnswerPayload));
    const std::string subject(kPreviewRequestSubject);
    if (const natsStatus status = natsConnection_Publish(
            connection.connection(), subject.c_str(), payload->second.data(), static_cast<int>(payload->second.size()));
        status != NATS_OK)
        return makeError(
            NatsErrc::Nats, "cannot publish the capture request: " + std::string(natsStatus_GetText(status)));
    natsConnection_Flush(connection.connection());

    const std::string &host = options.selection.host;
    PartAssembler parts(PartAssembler::Limits {65536, kMaxAnswerPayload, kMaxAnswerPayload});
    CaptureWait wait;
    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    while (!wait.outcome) {
        if (options.cancel != nullptr && options.cancel->load())
            return Error {"cancelled", "the fleet capture was cancelled"};
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline)
            break;
        const auto left = std::min<std::chrono::steady_clock::duration>(deadline - now, std::chrono::milliseconds(100));
        natsMsg *raw = nullptr;
        const natsStatus status = natsSubscription_NextMsg(&raw, subscription.get(),
            std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(left).count()));
        const NatsMsgPtr message(raw);
        if (status != NATS_OK || !message)
            continue;
        const int length = natsMsg_GetDataLength(message.get());
        const char *data = natsMsg_GetData(message.get());
        receiveCaptureAnswer(
            std::string_view(data == nullptr ? "" : data, static_cast<std::size_t>(std::max(0, length))), id, host,
            parts, wait);
    }
    if (wait.dropped > 0)
        wait.problems.push_back(std::to_string(wait.dropped) + " more answers could not be read");
    if (!wait.outcome) {
        if (!wait.accepted)
            return Error {"no_answer", noAnswerMessage(options, id)};
        return Error {"timeout",
            host + " accepted the capture request but sent no capture within " + durationText(options.timeout)
                + "; a larger capture takes longer: try a longer --timeout or a narrower capture"};
    }
    if (!*wait.outcome)
        return wait.outcome->error();
    return FleetCapture {id, host, std::move(*wait.outcome).value(), std::move(wait.problems)};
}

} // namespace ccm::fleet
