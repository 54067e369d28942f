// SPDX-License-Identifier: Apache-2.0
// Riding out a JetStream election: a cluster that lost the server leading a stream elects another
// within seconds, and calls that need the leader time out meanwhile.
#pragma once

#include <algorithm>
#include <chrono>
#include <nats/nats.h>

namespace ccm::fleet {

/// How long a call that needs a stream's leader is asked again while it gets no answer.
inline constexpr std::chrono::seconds kElectionRetryFor {20};

/// Calls `attempt` (a JetStream call returning a natsStatus) again while it times out, for at
/// most kElectionRetryFor; its last status. `attempt` resets whatever a failed call left behind.
template<typename Attempt> natsStatus retryDuringElection(Attempt &&attempt)
{
    const auto deadline = std::chrono::steady_clock::now() + kElectionRetryFor;
    natsStatus status = attempt();
    while (status == NATS_TIMEOUT && std::chrono::steady_clock::now() < deadline)
        status = attempt();
    return status;
}

/// The first wait for a consumer to be made; each attempt that gets no answer doubles it, up to
/// kLongestConsumerWaitMs (or the connection's wait, when shorter).
inline constexpr int kFirstConsumerWaitMs = 500;
inline constexpr int kLongestConsumerWaitMs = 2000;

/// retryDuringElection() for a call that makes a consumer, with a short wait for each attempt:
/// `attempt` gets JetStream options whose wait starts at kFirstConsumerWaitMs and doubles. A
/// cluster makes a consumer within milliseconds, but nats-server 2.9 places a one-replica consumer
/// (an ordered one) on any peer of its stream, a peer that is down included, and then nobody
/// answers. Each attempt is placed anew, one in three on the dead peer of three: short waits give
/// ten attempts within kElectionRetryFor where the connection's whole wait would give four.
template<typename Attempt> natsStatus retryConsumerCreation(int connectionWaitMs, Attempt &&attempt)
{
    const auto deadline = std::chrono::steady_clock::now() + kElectionRetryFor;
    const int longest = std::min(kLongestConsumerWaitMs, connectionWaitMs);
    int waitMs = std::min(kFirstConsumerWaitMs, longest);
    for (;;) {
        jsOptions options;
        jsOptions_Init(&options);
        options.Wait = waitMs;
        const natsStatus status = attempt(&options);
        if (status != NATS_TIMEOUT || std::chrono::steady_clock::now() >= deadline)
            return status;
        waitMs = std::min(waitMs * 2, longest);
    }
}

} // namespace ccm::fleet
