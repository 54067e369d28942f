// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/preview_compare.h"

#include <unordered_map>

namespace ccm::fleet {
namespace {

void addReferences(const Json &properties, const char *key, std::vector<std::string> &into)
{
    const auto found = properties.find(key);
    if (found == properties.end() || !found->is_array())
        return;
    for (const Json &item : *found)
        if (item.is_string())
            into.push_back(item.get<std::string>());
}

/// "type#name" and, with an alias, "type#alias" of each resource, to its index.
std::unordered_multimap<std::string, std::size_t> referenceIndex(const ResolvedManifest &manifest)
{
    std::unordered_multimap<std::string, std::size_t> index;
    for (std::size_t i = 0; i < manifest.resources.size(); ++i) {
        const ResolvedResource &resource = manifest.resources[i];
        index.emplace(resource.label(), i);
        const auto alias = resource.properties.find("alias");
        if (alias != resource.properties.end() && alias->is_string())
            index.emplace(resource.type + '#' + alias->get<std::string>(), i);
    }
    return index;
}

} // namespace

void ProposalOutcome::add(const TransactionEvent &event)
{
    if (!event.failed && !event.changed && !event.refreshed)
        return;
    bool &failed = m_resources[event.resource()];
    failed = failed || event.failed;
}

std::set<std::string> ProposalOutcome::changed() const
{
    std::set<std::string> names;
    for (const auto &[resource, failed] : m_resources)
        if (!failed)
            names.insert(resource);
    return names;
}

void CurrentOutcome::add(const TransactionEvent &event)
{
    const auto [found, added] = m_events.try_emplace(event.resource(), event);
    // A resource met twice (a child manifest's too) counts as failed or changed if it ever was.
    if (!added) {
        found->second.failed = found->second.failed || event.failed;
        found->second.skipped = found->second.skipped || event.skipped;
        found->second.changed = found->second.changed || event.changed;
        found->second.refreshed = found->second.refreshed || event.refreshed;
    }
}

const TransactionEvent *CurrentOutcome::find(const std::string &resource) const
{
    const auto found = m_events.find(resource);
    return found == m_events.end() ? nullptr : &found->second;
}

std::vector<std::size_t> resourcesToCompare(const ResolvedManifest &current, const std::set<std::string> &changed)
{
    const auto index = referenceIndex(current);
    std::vector<bool> keep(current.resources.size(), false);
    std::vector<std::size_t> work;
    bool missing = false;
    for (const std::string &resource : changed) {
        bool found = false;
        for (auto [at, end] = index.equal_range(resource); at != end; ++at)
            if (current.resources[at->second].label() == resource) {
                found = true;
                work.push_back(at->second);
            }
        missing = missing || !found;
    }
    for (std::size_t i = 0; missing && i < current.resources.size(); ++i)
        if (current.resources[i].type == "apply")
            work.push_back(i);
    while (!work.empty()) {
        const std::size_t next = work.back();
        work.pop_back();
        if (keep[next])
            continue;
        keep[next] = true;
        std::vector<std::string> needs;
        addReferences(current.resources[next].properties, "require", needs);
        addReferences(current.resources[next].properties, "subscribe", needs);
        for (const std::string &reference : needs)
            for (auto [at, end] = index.equal_range(reference); at != end; ++at)
                work.push_back(at->second);
    }
    std::vector<std::size_t> indexes;
    for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i])
            indexes.push_back(i);
    return indexes;
}

ResolvedManifest subsetOf(const ResolvedManifest &current, const std::vector<std::size_t> &indexes)
{
    ResolvedManifest subset;
    subset.data = current.data;
    subset.failOnError = current.failOnError;
    subset.diagnostics = current.diagnostics;
    subset.resources.reserve(indexes.size());
    for (const std::size_t i : indexes)
        subset.resources.push_back(current.resources[i]);
    return subset;
}

std::map<std::string, ChangeClass> classify(
    const ProposalOutcome &proposal, const CurrentOutcome &current, const std::set<std::string> &declared)
{
    std::map<std::string, ChangeClass> classes;
    for (const auto &[resource, failed] : proposal.resources()) {
        ChangeClass change = ChangeClass::Failed;
        if (!failed) {
            const TransactionEvent *event = current.find(resource);
            if (event == nullptr)
                change = declared.contains(resource) ? ChangeClass::Uncompared : ChangeClass::Added;
            else if (event->failed || event->skipped)
                change = ChangeClass::Uncompared;
            else
                change = event->changed || event->refreshed ? ChangeClass::Drift : ChangeClass::Intended;
        }
        classes.emplace(resource, change);
    }
    return classes;
}

} // namespace ccm::fleet
