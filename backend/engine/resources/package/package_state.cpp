// SPDX-License-Identifier: Apache-2.0
// The package type's answer to status: installed at a version or absent.
#include "engine/resource_status.h"
#include "engine/resources/package/package_type.h"
#include "engine/resources/resource_support.h"

namespace ccm::engine {

namespace {

/// What `ensure` asks for that the package does not have, as the difference's wanted value;
/// nullopt when the package is as asked. Versions compare the provider's way, as apply does.
Result<std::optional<std::string>> unmet(
    PackageProvider &packages, const std::string &name, const std::string &ensure, const PackageState &state)
{
    using Unmet = std::optional<std::string>;
    if (ensure == kPackageAbsent)
        return state.installed ? Unmet(ensure) : Unmet();
    if (!state.installed)
        return Unmet(ensure);
    if (ensure == kPackagePresent)
        return Unmet();
    if (ensure == kPackageLatest) {
        auto newest = packages.latestVersion(name);
        if (!newest)
            return newest.error();
        if (!*newest)
            return Unmet();
        auto order = packages.compareVersions(state.version, **newest, false);
        if (!order)
            return order.error();
        return *order >= 0 ? Unmet() : Unmet(std::string(kPackageLatest) + " (" + **newest + ")");
    }
    auto order = packages.compareVersions(state.version, ensure, false);
    if (!order)
        return order.error();
    return *order == 0 ? Unmet() : Unmet(ensure);
}

} // namespace

Result<ResourceState> PackageType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &) const
{
    auto *packages = dynamic_cast<PackageProvider *>(&provider);
    if (!packages)
        return wrongProvider(provider, "a package provider");
    // Checks the name (and a version) before either reaches the package manager.
    Json checked = properties;
    if (!isSet(checked, "ensure"))
        checked["ensure"] = std::string(kPackagePresent);
    auto wanted = PackageProperties::fromJson(name, checked);
    if (!wanted)
        return wanted.error();
    auto state = packages->status(name);
    if (!state)
        return state.error();
    ResourceState result;
    result.state = packageStateToJson(state.value(), packages->name());
    result.summary = state->installed ? "installed " + state->version : std::string("absent");
    if (state->installed && !state->arch.empty())
        result.summary += " (" + state->arch + ")";
    if (isSet(properties, "ensure")) {
        auto missing = unmet(*packages, name, wanted->ensure, state.value());
        if (!missing)
            return missing.error();
        if (*missing)
            addDifference(result, "ensure", state->ensure(), **missing);
    }
    return result;
}

} // namespace ccm::engine
