// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_registration.h"

#include "fleet/agent/agent_nats.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/registration/registration_store.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <nats/nats.h>

namespace ccm::fleet {
namespace {

bool allChecksOk(const TransactionEvent &event)
{
    return std::all_of(event.healthChecks.begin(), event.healthChecks.end(),
        [](const HealthCheckResult &check) { return check.status == HealthCheckResult::Status::Ok; });
}

} // namespace

std::vector<RegistrationMessage> registrationMessages(const TransactionEvent &event)
{
    std::vector<RegistrationMessage> messages;
    const auto entries = event.properties.find("register_when_stable");
    if (entries == event.properties.end() || !entries->is_array() || event.failed || !allChecksOk(event))
        return messages;
    for (const Json &entry : *entries) {
        if (!entry.is_object())
            continue;
        RegistrationEntry fields;
        fields.cluster = entry.value("cluster", "");
        fields.service = entry.value("service", "");
        fields.protocol = entry.value("protocol", "");
        fields.address = entry.value("address", "");
        fields.port = entry.value("port", Json());
        if (fields.cluster.empty() || fields.service.empty() || fields.protocol.empty() || fields.address.empty())
            continue;
        RegistrationMessage message;
        message.subject = registrationSubject(fields);
        message.data = entry.dump();
        if (entry.contains("ttl") && entry["ttl"].is_string())
            message.ttl = entry["ttl"].get<std::string>();
        messages.push_back(std::move(message));
    }
    return messages;
}

Result<void> publishRegistration(
    NatsLink &link, RegistrationDestination destination, const RegistrationMessage &message)
{
    auto connection = link.connection();
    if (!connection)
        return link.lastError();
    natsMsg *raw = nullptr;
    if (natsMsg_Create(
            &raw, message.subject.c_str(), nullptr, message.data.data(), static_cast<int>(message.data.size()))
        != NATS_OK)
        return makeError(NatsErrc::Nats, "cannot create the registration message for " + message.subject);
    const NatsMsgPtr owned(raw);
    natsStatus status = NATS_OK;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    if (destination == RegistrationDestination::JetStream) {
        natsMsgHeader_Set(raw, "Nats-Rollup", "sub");
        if (!message.ttl.empty())
            natsMsgHeader_Set(raw, "Nats-TTL", message.ttl.c_str());
        status = js_PublishMsg(nullptr, connection->jetStream(), raw, nullptr, &errorCode);
        if (status != NATS_OK)
            return jetStreamError(*connection, "publishing the registration " + message.subject, status, errorCode);
        return {};
    }
    status = natsConnection_PublishMsg(connection->connection(), raw);
    if (status != NATS_OK)
        return makeError(
            NatsErrc::Nats, "publishing the registration " + message.subject + ": " + natsStatus_GetText(status));
    return {};
}

} // namespace ccm::fleet
