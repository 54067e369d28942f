// SPDX-License-Identifier: Apache-2.0
#include "engine/resource.h"

#include <algorithm>

namespace ccm::engine {

Logger::~Logger() = default;
Provider::~Provider() = default;
ProviderFactory::~ProviderFactory() = default;
ResourceType::~ResourceType() = default;

namespace {

/// The references of the causes whose change happened, then those whose change only would have.
std::pair<std::vector<std::string>, std::vector<std::string>> splitCauses(const std::vector<RefreshCause> &causes)
{
    std::pair<std::vector<std::string>, std::vector<std::string>> split;
    for (const RefreshCause &cause : causes)
        (cause.noop ? split.second : split.first).push_back(cause.reference);
    return split;
}

} // namespace

std::string ApplyContext::refreshCause() const
{
    const auto [changed, wouldChange] = splitCauses(refreshCauses);
    return subscriptionText(changed, wouldChange);
}

std::string ApplyContext::refreshMessage() const
{
    const auto [changed, wouldChange] = splitCauses(refreshCauses);
    return refreshText(noop, changed, wouldChange);
}

void ProviderRegistry::add(std::unique_ptr<ProviderFactory> factory)
{
    m_factories.push_back(std::move(factory));
}

std::vector<std::string> ProviderRegistry::providerNames(std::string_view type) const
{
    std::vector<std::string> names;
    for (const auto &factory : m_factories)
        if (factory->typeName() == type)
            names.emplace_back(factory->name());
    return names;
}

namespace {

std::string joinedNames(const std::vector<std::string> &names)
{
    std::string text;
    for (const std::string &name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? std::string("none") : text;
}

} // namespace

Result<const ProviderFactory *> ProviderRegistry::select(
    std::string_view type, const Json &properties, const LazyFacts &facts) const
{
    const auto forced = properties.find("provider");
    if (forced != properties.end() && forced->is_string() && !forced->get<std::string>().empty()) {
        const std::string wanted = forced->get<std::string>();
        const auto match = std::find_if(m_factories.begin(), m_factories.end(),
            [&](const auto &factory) { return factory->typeName() == type && factory->name() == wanted; });
        if (match == m_factories.end())
            return Error {"provider_not_found",
                "unknown " + std::string(type) + " provider '" + wanted
                    + "' (known: " + joinedNames(providerNames(type)) + ")"};
        auto manageable = (*match)->manageable(properties, facts);
        if (!manageable)
            return manageable.error().withContext("provider '" + wanted + "'");
        if (!manageable.value()) {
            std::string message = "provider '" + wanted + "' cannot manage this " + std::string(type) + " resource";
            if (const std::string reason = (*match)->unavailableReason(); !reason.empty())
                message += ": " + reason;
            return Error {"provider_unusable", message};
        }
        return match->get();
    }

    const ProviderFactory *best = nullptr;
    int bestPriority = 0;
    std::string reasons;
    for (const auto &factory : m_factories) {
        if (factory->typeName() != type)
            continue;
        auto manageable = factory->manageable(properties, facts);
        if (!manageable)
            return manageable.error().withContext("provider '" + std::string(factory->name()) + "'");
        if (!manageable.value()) {
            const std::string reason = factory->unavailableReason();
            reasons += (reasons.empty() ? "" : "; ") + std::string(factory->name()) + ": "
                + (reason.empty() ? "cannot manage this resource" : reason);
        } else if (!best || *manageable.value() > bestPriority) {
            best = factory.get();
            bestPriority = *manageable.value();
        }
    }
    if (!best)
        return Error {"no_suitable_provider",
            "no suitable provider for this " + std::string(type) + " resource on this host"
                + (reasons.empty() ? std::string(": no provider is known") : " (" + reasons + ")")};
    return best;
}

void Catalog::addType(std::unique_ptr<ResourceType> type)
{
    m_types.push_back(std::move(type));
}

const ResourceType *Catalog::type(std::string_view name) const
{
    for (const auto &type : m_types)
        if (type->name() == name)
            return type.get();
    return nullptr;
}

} // namespace ccm::engine
