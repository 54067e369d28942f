// SPDX-License-Identifier: Apache-2.0
// Riding out a JetStream election: a cluster that lost the server leading a stream elects another
// within seconds, and calls that need the leader time out meanwhile.
#pragma once

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

} // namespace ccm::fleet
