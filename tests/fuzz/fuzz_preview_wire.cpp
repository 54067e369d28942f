// SPDX-License-Identifier: Apache-2.0
// Any bytes are what a network peer publishes: the first byte picks whether they arrive as a
// preview request envelope on ccm.preview.request (what every agent reads), as a request body
// signed with a key the fuzzer holds (so that the body's decoder is reached past the signature),
// or as answers on a requester's inbox (what the designer and the CLI read); the rest is the
// payload. A body that decodes (a preview's or a capture's) must decode to the same request once encoded and signed
// again, and a capture answer's capture that decodes must decode again once encoded. Refusals are expected;
// crashes, hangs, leaks and undefined behaviour are bugs, and so is an accepted answer that does
// not decode again from the text it would be forwarded as, or a reassembled message larger than
// the limits that were set.
#include "base/signing_key.h"
#include "core/capture/captured_manifest.h"
#include "fleet/preview/preview_wire.h"
#include "fleet/preview/seen_requests.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using namespace ccm;
using namespace ccm::fleet;

void request(std::string_view payload)
{
    auto verified = decodeSignedRequest(payload);
    if (!verified)
        return;
    const PreviewRequest &request = verified->request;
    if (request.id.empty() || request.reply.empty() || verified->publicKey.size() != 32)
        std::abort();
    // The rules are judged at several times, before, during and after the request's window.
    for (const Clock::time_point now : {request.issued, request.expires, Clock::now()})
        (void)checkRequestRules(request, now);
    // A request the rules admit is remembered once and refused the second time.
    if (!checkRequestRules(request, request.issued))
        return;
    SeenRequests seen(4);
    if (!seen.remember(request, request.issued))
        std::abort();
    if (seen.remember(request, request.issued))
        std::abort();
}

void signedBody(std::string_view body)
{
    static const SigningKey key = generateSigningKey().value();
    auto signature = signEd25519(key, body);
    if (!signature)
        std::abort();
    const ccm::Json envelope {
        {"request", encodeBase64(body)}, {"signature", encodeBase64(*signature)}, {"key", encodeBase64(key.publicKey)}};
    auto verified = decodeSignedRequest(envelope.dump());
    if (!verified)
        return;
    request(envelope.dump());
    auto again = encodeSignedRequest(verified->request, key);
    if (!again)
        std::abort();
    auto decoded = decodeSignedRequest(*again);
    if (!decoded || decoded->request.id != verified->request.id || decoded->request.reply != verified->request.reply
        || decoded->request.bundle.digest != verified->request.bundle.digest
        || decoded->request.select != verified->request.select || decoded->request.noop != verified->request.noop
        || decoded->request.capture != verified->request.capture)
        std::abort();
}

/// Answers separated by newlines; "part" answers go through one assembler with small limits.
void answers(std::string_view payloads)
{
    PartAssembler assembler(PartAssembler::Limits {16, 4096, 8192});
    while (!payloads.empty()) {
        const std::size_t end = std::min(payloads.find('\n'), payloads.size());
        const std::string_view payload = payloads.substr(0, end);
        payloads.remove_prefix(std::min(end + 1, payloads.size()));
        auto answer = decodeAnswer(payload);
        if (!answer)
            continue;
        if (!answer->message.is_object() || answer->id.empty() || answer->identity.empty())
            std::abort();
        const std::string again = answer->message.dump(-1, ' ', false, ccm::Json::error_handler_t::replace);
        if (!decodeAnswer(again))
            std::abort();
        if (answer->type == "capture") {
            // A capture that decodes is written again as it was read.
            auto capture = captureFromJson(answer->message["capture"]);
            if (capture && !captureFromJson(captureToJson(*capture)))
                std::abort();
        }
        if (answer->type != "part")
            continue;
        auto whole = assembler.add(*answer);
        if (whole && *whole && whole->value().size() > 4096)
            std::abort();
        if (assembler.pendingBytes() > 8192)
            std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view payload(reinterpret_cast<const char *>(bytes) + 1, size - 1);
    switch (bytes[0] % 3) {
    case 0:
        request(payload);
        break;
    case 1:
        signedBody(payload);
        break;
    default:
        answers(payload);
        break;
    }
    return 0;
}
