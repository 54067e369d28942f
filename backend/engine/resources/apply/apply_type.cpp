// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/apply/apply_type.h"

#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

namespace ccm::engine {
namespace {

Result<bool> flag(const Json &properties, const char *key, bool fallback)
{
    const auto found = properties.find(key);
    if (found == properties.end() || found->is_null())
        return fallback;
    if (!found->is_boolean())
        return invalidProperty(std::string(key) + " must be true or false, not " + describeJsonType(*found));
    return found->get<bool>();
}

std::string plural(std::size_t count, const char *word)
{
    return std::to_string(count) + ' ' + word + (count == 1 ? "" : "s");
}

} // namespace

Result<void> ApplyType::apply(const std::string &name, const Json &properties, Provider &provider,
    ApplyContext &context, TransactionEvent &event) const
{
    const std::string ensure = properties.value("ensure", ensureText(Ensure::Present));
    if (parseEnsure(ensure) != Ensure::Present)
        return invalidProperty("ensure must be \"present\" for apply resources, not \"" + ensure + "\"");
    if (name.empty())
        return invalidProperty("the child manifest path (name) is empty");

    ChildManifestRequest request;
    request.path = name;
    for (auto [key, target] :
        {std::pair {"noop", &request.noop}, std::pair {"health_check_only", &request.healthCheckOnly}}) {
        auto value = flag(properties, key, false);
        if (!value)
            return value.error();
        *target = value.value();
    }
    auto allowApply = flag(properties, "allow_apply", true);
    if (!allowApply)
        return allowApply.error();
    request.allowApply = allowApply.value();
    if (const auto data = properties.find("data"); data != properties.end() && !data->is_null()) {
        if (!data->is_object())
            return invalidProperty("data must be a map, not " + describeJsonType(*data));
        request.data = *data;
    }
    if (context.noop && properties.contains("noop") && !request.noop)
        context.log.warning("noop: false has no effect: this run is in noop mode, so the child manifest is too");

    auto outcome = static_cast<ApplyProvider &>(provider).applyManifest(request, context);
    if (!outcome)
        return outcome.error();
    const ChildManifestOutcome &child = outcome.value();
    event.finalEnsure = ensureText(Ensure::Present);
    // A child run in noop makes this resource's outcome a noop one, whatever the parent's mode.
    event.noop = event.noop || child.noop;
    event.healthCheckOnly = event.healthCheckOnly || child.healthCheckOnly;
    event.status = {{"ensure", ensureText(Ensure::Present)}, {"resource_count", child.resources},
        {"changed", child.changed}, {"failed", child.failed}, {"skipped", child.skipped}, {"noop", child.noop},
        {"health_check_only", child.healthCheckOnly}};
    if (child.failed > 0)
        return Error {"child_failed",
            plural(child.failed, "resource") + " of " + std::to_string(child.resources) + " failed in child manifest "
                + name};
    if (child.changed > 0) {
        event.changed = true;
        if (child.noop)
            event.noopMessage = "Would have changed " + plural(child.changed, "resource") + " of the child manifest";
        context.log.warning(plural(child.changed, "resource") + " of " + std::to_string(child.resources)
            + (child.noop ? " would change" : " changed") + " in child manifest " + name);
    } else {
        context.log.info("child manifest " + name + ": " + plural(child.resources, "resource") + ", none changed");
    }
    return {};
}

void registerApplyResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<ApplyType>());
    registerCcmManifestApplyProvider(catalog);
}

} // namespace ccm::engine
