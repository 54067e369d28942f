// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_registration.h"

#include "base/hex.h"
#include "fleet/agent/agent_nats.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <nats/nats.h>

namespace ccm::fleet {
namespace {

constexpr const char *kSubjectPrefix = "choria.ccm.registration.v1";

/// FNV-1a 64 of the fields that identify an instance, in hex: upstream's instance id.
std::string instanceId(const std::string &text)
{
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    std::string out;
    appendHexDigits(out, hash, 16);
    return out;
}

std::string portText(const Json &port)
{
    if (port.is_number_integer())
        return std::to_string(port.get<long long>());
    if (port.is_string())
        return port.get<std::string>();
    return "0";
}

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
        const std::string cluster = entry.value("cluster", "");
        const std::string service = entry.value("service", "");
        const std::string protocol = entry.value("protocol", "");
        std::string address = entry.value("address", "");
        if (cluster.empty() || service.empty() || protocol.empty() || address.empty())
            continue;
        const std::string id
            = instanceId(cluster + service + protocol + address + portText(entry.value("port", Json())));
        std::replace(address.begin(), address.end(), '.', '_');
        RegistrationMessage message;
        message.subject
            = std::string(kSubjectPrefix) + '.' + cluster + '.' + protocol + '.' + service + '.' + address + '.' + id;
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
