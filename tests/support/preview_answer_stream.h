// SPDX-License-Identifier: Apache-2.0
// The answers an agent sends to a fleet preview for one run, in either answer format: test data
// for requesters (the wire tests and the answers fuzzer). No Qt, so that fuzzers include it too.
#pragma once

#include "core/model/transaction_event.h"
#include "fleet/preview/preview_wire.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ccm::test {

/// The answers of host `identity` to preview `id` for a run of `events`, from accepted to done, as
/// JSON text: format 1 sends a progress and an event per resource; format 2 one progress, the
/// events of resources that are not stable in batches of at most `batchSize`, and names the
/// stable ones in done.
inline std::vector<std::string> answerStream(const std::string &id, const std::string &identity,
    const std::vector<TransactionEvent> &events, int format, std::size_t batchSize = 100)
{
    std::vector<std::string> lines;
    std::uint64_t seq = 0;
    lines.push_back(fleet::answerHeader(id, identity, seq++, "accepted").dump());
    Json stable = Json::array();
    Json batch = Json::array();
    const auto sendBatch = [&] {
        if (batch.empty())
            return;
        Json message = fleet::answerHeader(id, identity, seq++, "events");
        message["events"] = std::exchange(batch, Json::array());
        lines.push_back(message.dump());
    };
    RunSummary summary;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const TransactionEvent &event = events[i];
        summary.add(event);
        if (format == 1 || i == 0) {
            Json progress = fleet::answerHeader(id, identity, seq++, "progress");
            progress["done"] = i;
            progress["total"] = events.size();
            progress["current"] = event.resource();
            lines.push_back(progress.dump());
        }
        if (format == 1) {
            Json message = fleet::answerHeader(id, identity, seq++, "event");
            message["event"] = eventToJson(event);
            lines.push_back(message.dump());
        } else if (fleet::isStableEvent(event)) {
            stable.push_back(event.resource());
        } else {
            if (batch.size() == batchSize)
                sendBatch();
            batch.push_back(eventToJson(event));
        }
    }
    sendBatch();
    Json done = fleet::answerHeader(id, identity, seq++, "done");
    done["summary"] = summaryToJson(summary);
    done["cancelled"] = false;
    done["aborted"] = false;
    done["diagnostics"] = Json::array();
    if (format == 2) {
        done["answers"] = 2;
        done["stable"] = std::move(stable);
    }
    lines.push_back(done.dump());
    return lines;
}

} // namespace ccm::test
