// SPDX-License-Identifier: Apache-2.0
#include "engine/resource_status.h"

#include <algorithm>

namespace ccm::engine {

Result<ResourceState> ResourceType::currentState(
    const std::string &, const Json &, Provider &, const StatusContext &) const
{
    ResourceState state;
    state.supported = false;
    state.reason = "the state of a " + std::string(name()) + " resource cannot be told";
    return state;
}

std::vector<std::string> statusTypeNames()
{
    return {"archive", "exec", "file", "package", "scaffold", "service"};
}

Result<ResourceState> resourceStatus(const Catalog &catalog, std::string_view type, const std::string &name,
    const Json &properties, const StatusContext &context)
{
    const std::vector<std::string> types = statusTypeNames();
    const ResourceType *resourceType = catalog.type(type);
    if (resourceType == nullptr || std::ranges::find(types, type) == types.end()) {
        std::string known;
        for (const std::string &each : types)
            known += (known.empty() ? "" : ", ") + each;
        return Error {"unknown_type", "unknown resource type '" + std::string(type) + "' (types: " + known + ")"};
    }
    if (!properties.is_object())
        return Error {"invalid_property", "the properties must be a map"};
    if (name.empty())
        return Error {"invalid_property", "the resource name is empty"};
    auto factory = catalog.providers().select(type, properties, context.facts);
    if (!factory)
        return factory.error();
    const std::unique_ptr<Provider> provider = factory.value()->create(context.runner);
    Json compared = properties;
    compared.erase("provider");
    return resourceType->currentState(name, compared, *provider, context);
}

Json resourceStateToJson(const ResourceState &state)
{
    Json differences = Json::array();
    for (const StateDifference &difference : state.differences)
        differences.push_back(
            {{"property", difference.property}, {"current", difference.current}, {"wanted", difference.wanted}});
    Json result = {{"supported", state.supported}, {"summary", state.summary}, {"state", state.state},
        {"differences", std::move(differences)}, {"notes", state.notes}};
    if (!state.supported)
        result["reason"] = state.reason;
    return result;
}

void addDifference(ResourceState &state, std::string property, Json current, Json wanted)
{
    state.differences.push_back({std::move(property), std::move(current), std::move(wanted)});
}

std::string shortChecksum(const std::string &checksum, std::size_t length)
{
    if (checksum.size() <= length)
        return checksum;
    return checksum.substr(0, length) + "\u2026";
}

} // namespace ccm::engine
