// SPDX-License-Identifier: Apache-2.0
// A fleet preview requester's aggregation (PreviewCollector) fed what hosts may send on its inbox.
// The first byte picks the mode:
// - raw: the rest is answer payloads separated by newlines, as hostile hosts may publish them, in
//   both answer formats; whatever is accepted, each finished host's resources are exactly the
//   events passed on plus the stable names, its totals add up, nothing is held beyond the limits;
// - paired: the rest describes one run (per resource a name and whether it changed, failed or has
//   nothing to show), sent as an agent answers it in format 1 and in format 2 (events in batches),
//   in an order the input shuffles; both collectors must end with the same host (stable names,
//   events, summary).
// Crashes, hangs, leaks, undefined behaviour and a broken invariant (abort) are bugs.
#include "../support/preview_answer_stream.h"
#include "core/model/transaction_event.h"
#include "fleet/preview/preview_requester.h"
#include "fleet/preview/preview_wire.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace ccm;
using namespace ccm::fleet;

const std::string kFuzzPreviewId = "abcdefghijklmnop0123";

/// Events passed on per identity, counted by the callback.
struct Seen {
    std::map<std::string, std::size_t> events;
    std::map<std::string, std::size_t> done;
};

PreviewCallbacks countingCallbacks(Seen &seen)
{
    PreviewCallbacks callbacks;
    callbacks.event = [&seen](const std::string &identity, const Json &event) {
        if (!event.is_object())
            std::abort();
        ++seen.events[identity];
    };
    callbacks.done = [&seen](const HostPreview &host) { ++seen.done[host.identity]; };
    return callbacks;
}

void checkHosts(const FleetPreview &preview, const Seen &seen, const PreviewRequestOptions &options)
{
    std::size_t stable = 0;
    for (const HostPreview &host : preview.hosts) {
        stable += host.stable.size();
        const auto events = seen.events.find(host.identity);
        const std::size_t passed = events == seen.events.end() ? 0 : events->second;
        // Every event counted was passed on, and kept when events are kept.
        if (host.eventCount != passed || (options.keepEvents && host.events.size() != passed))
            std::abort();
        if (host.stable.size() > kMaxComparedResources)
            std::abort();
        for (const std::string &name : host.stable)
            if (name.empty() || name.size() > kMaxComparedName)
                std::abort();
        const auto done = seen.done.find(host.identity);
        if (host.state == HostState::Done && (done == seen.done.end() || done->second != 1))
            std::abort();
        if (host.answers != 1 && host.answers != 2)
            std::abort();
    }
    const Json totals = fleetPreviewTotals(preview);
    if (totals["stable"] != stable || totals["hosts"] != preview.hosts.size())
        std::abort();
}

/// The requester's options, made once: they read the process environment.
const PreviewRequestOptions &fuzzOptions(bool keepEvents)
{
    static const auto make = [](bool keep) {
        PreviewRequestOptions options;
        options.keepEvents = keep;
        options.maxAnswerBytes = 16384;
        return options;
    };
    static const PreviewRequestOptions kept = make(true);
    static const PreviewRequestOptions counted = make(false);
    return keepEvents ? kept : counted;
}

void raw(std::string_view payloads, bool keepEvents)
{
    const PreviewRequestOptions &options = fuzzOptions(keepEvents);
    Seen seen;
    const PreviewCallbacks callbacks = countingCallbacks(seen);
    PreviewCollector collector(kFuzzPreviewId, options, callbacks);
    while (!payloads.empty()) {
        const std::size_t end = std::min(payloads.find('\n'), payloads.size());
        collector.receive(payloads.substr(0, end));
        payloads.remove_prefix(std::min(end + 1, payloads.size()));
    }
    checkHosts(collector.finish(false), seen, options);
}

/// The run the bytes describe: a resource per two bytes (its name's number and its kind).
std::vector<TransactionEvent> describedRun(std::string_view bytes)
{
    std::vector<TransactionEvent> events;
    for (std::size_t i = 0; i + 1 < bytes.size() && events.size() < 64; i += 2) {
        TransactionEvent event;
        event.type = "file";
        event.name = "/etc/f" + std::to_string(static_cast<unsigned char>(bytes[i]));
        switch (static_cast<unsigned char>(bytes[i + 1]) % 5) {
        case 0:
            event.changed = true;
            event.diff = "--- a\n+++ b\n";
            break;
        case 1:
            event.fail("boom");
            break;
        case 2:
            event.noopMessage = "Would have changed";
            break;
        default:
            break; // stable
        }
        events.push_back(std::move(event));
    }
    return events;
}

void paired(std::string_view bytes)
{
    const std::vector<TransactionEvent> events = describedRun(bytes);
    std::vector<HostPreview> hosts;
    for (const int format : {1, 2}) {
        // Batches of at most three, so that a run has several.
        std::vector<std::string> lines = test::answerStream(kFuzzPreviewId, "h", events, format, 3);
        // Answers may arrive in any order: the input's last byte rotates them.
        if (!bytes.empty() && lines.size() > 1) {
            const std::size_t by = static_cast<unsigned char>(bytes.back()) % lines.size();
            std::rotate(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(by), lines.end());
        }
        const PreviewRequestOptions &options = fuzzOptions(true);
        Seen seen;
        const PreviewCallbacks callbacks = countingCallbacks(seen);
        PreviewCollector collector(kFuzzPreviewId, options, callbacks);
        for (const std::string &line : lines)
            collector.receive(line);
        FleetPreview preview = collector.finish(false);
        checkHosts(preview, seen, options);
        if (preview.hosts.size() != 1 || preview.hosts[0].state != HostState::Done)
            std::abort();
        hosts.push_back(std::move(preview.hosts[0]));
    }
    std::size_t stable = 0;
    for (const TransactionEvent &event : events)
        stable += isStableEvent(event);
    if (hosts[0].stable != hosts[1].stable || hosts[0].events != hosts[1].events || hosts[0].summary != hosts[1].summary
        || hosts[1].stable.size() != stable || hosts[1].events.size() + stable != events.size())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view rest(reinterpret_cast<const char *>(bytes) + 1, size - 1);
    switch (bytes[0] % 3) {
    case 0:
        raw(rest, true);
        break;
    case 1:
        raw(rest, false);
        break;
    default:
        paired(rest);
        break;
    }
    return 0;
}
