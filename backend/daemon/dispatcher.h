// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json.h"
#include "peer.h"
#include "protocol.h"
#include "resolve.h"
#include "result.h"
#include "run.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::daemon {

/// Identifies a connection for as long as the daemon runs; never reused.
using ConnectionId = std::uint64_t;

/// A validated and resolved apply.start, ready to run.
struct ApplyJob {
    ConnectionId owner = 0;
    /// The id of the apply.start request, which the final response answers.
    Json requestId;
    ResolvedManifest manifest;
    ResolveOptions inputs;
    /// Everything but `cancel`, which belongs to the run.
    engine::RunOptions options;
};

/// Where applies go: the dispatcher starts and cancels runs through it.
class ApplyControl {
public:
    virtual ~ApplyControl();

    /// The outcome of start(): the id of the new run, or of the run that is in the way.
    struct Started {
        bool started = false;
        std::string run;
    };

    /// The run going now and the connection that started it.
    struct Running {
        std::string run;
        ConnectionId owner = 0;
    };

    /// Starts `job` unless a run is going.
    virtual Started start(ApplyJob job) = 0;
    /// The run going now, if any.
    [[nodiscard]] virtual std::optional<Running> running() const = 0;
    /// Asks the run `run` to stop before its next resource; false when no such run is going.
    virtual bool cancel(std::string_view run) = 0;
};

/// Who sent a line.
struct Caller {
    ConnectionId connection = 0;
    Peer peer;
    Role role = Role::None;
};

/// Parses request lines, checks them against the protocol and the caller's role, and answers
/// them: hello, validate, render and facts at once, apply.start through ApplyControl, whose run
/// answers later. Never throws for any input.
class Dispatcher {
public:
    /// `facts` gathers the facts of this host (called per request that needs them).
    Dispatcher(ApplyControl &applies, std::function<Result<Json>()> facts);

    /// Handles one line (newline removed). Returns the response line, or nullopt when nothing is
    /// due now: a notification from the client, or an apply.start whose run answers when it ends.
    std::optional<std::string> handleLine(const Caller &caller, std::string_view line);

private:
    ApplyControl &m_applies;
    std::function<Result<Json>()> m_facts;
};

} // namespace ccm::daemon
