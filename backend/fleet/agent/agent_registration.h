// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "fleet/agent/agent_config.h"

#include <string>
#include <vector>

namespace ccm::fleet {

class NatsLink;

/// One registration entry to publish, as upstream's registration publishers send it.
struct RegistrationMessage {
    std::string subject; ///< choria.ccm.registration.v1.CLUSTER.PROTOCOL.SERVICE.ADDRESS.INSTANCE
    std::string data; ///< the entry as JSON
    std::string ttl; ///< the entry's ttl, for the Nats-TTL header; empty when none
};

/// The messages for the register_when_stable entries of a finished resource: none when it failed
/// or a health check is not OK, as upstream publishes only stable resources. Entries without the
/// fields a subject needs are left out.
std::vector<RegistrationMessage> registrationMessages(const TransactionEvent &event);

/// Publishes `message` to `destination`: a core NATS message, or a JetStream publish with a
/// subject rollup (and Nats-TTL) so the registration stream keeps the latest entry per instance.
Result<void> publishRegistration(
    NatsLink &link, RegistrationDestination destination, const RegistrationMessage &message);

} // namespace ccm::fleet
