// SPDX-License-Identifier: Apache-2.0
// The service type's answer to status: running or stopped, enabled or not.
#include "engine/resource_status.h"
#include "engine/resources/resource_support.h"
#include "engine/resources/service/service_type.h"

namespace ccm::engine {

Result<ResourceState> ServiceType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &) const
{
    auto *services = dynamic_cast<ServiceProvider *>(&provider);
    if (!services)
        return wrongProvider(provider, "a service provider");
    // Reads ensure and enable as apply does, and checks the name before it reaches the service manager.
    auto wanted = ServiceProperties::fromJson(name, properties);
    if (!wanted)
        return wanted.error();
    auto state = services->status(name);
    if (!state)
        return state.error();
    ResourceState result;
    result.state = serviceStateToJson(name, state.value(), services->name());
    std::string boot = state->enabledState;
    if (boot.empty())
        boot = state->enabled ? "enabled" : "disabled";
    result.summary = state->ensure() + ", " + boot;
    if (!state->activeState.empty() && state->activeState != "active" && state->activeState != "inactive")
        result.summary += " (" + state->activeState + ")";
    if (isSet(properties, "ensure") && wanted->running != state->running)
        addDifference(
            result, "ensure", state->ensure(), ensureText(wanted->running ? Ensure::Running : Ensure::Stopped));
    if (wanted->enable && *wanted->enable != state->enabled)
        addDifference(result, "enable", state->enabled, *wanted->enable);
    return result;
}

} // namespace ccm::engine
