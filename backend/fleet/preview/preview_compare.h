// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/resolve.h"
#include "core/model/transaction_event.h"
#include "fleet/preview/preview_wire.h"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ccm::fleet {

// Drift versus intent (docs/fleet.md): the resources a proposal changes, run again under the
// host's current bundle, each classed by what the two runs say of it.

/// What the proposal's run said of the resources it did not leave alone: "type#name" to failed
/// (true) or changed or refreshed (false).
class ProposalOutcome {
public:
    void add(const TransactionEvent &event);
    [[nodiscard]] const std::map<std::string, bool> &resources() const { return m_resources; }
    /// The changed (not failed) resources: what the current bundle is run for.
    [[nodiscard]] std::set<std::string> changed() const;

private:
    std::map<std::string, bool> m_resources;
};

/// What the current bundle's run said of each resource it ran: "type#name" to its event.
class CurrentOutcome {
public:
    void add(const TransactionEvent &event);
    [[nodiscard]] const TransactionEvent *find(const std::string &resource) const;

private:
    std::map<std::string, TransactionEvent> m_events;
};

/// The resources of `current` to run, in their order: those named in `changed`, what they
/// require or subscribe to (by "type#name" or "type#alias"), transitively, and, when some of
/// `changed` is not one of its top-level resources, its apply resources (a child manifest may
/// hold it; it runs whole).
std::vector<std::size_t> resourcesToCompare(const ResolvedManifest &current, const std::set<std::string> &changed);

/// `current` with only the resources at `indexes`.
ResolvedManifest subsetOf(const ResolvedManifest &current, const std::vector<std::size_t> &indexes);

/// The classes of the proposal's changed and failed resources. `declared` holds the labels of
/// the current manifest's top-level resources; a changed resource the current run has no event
/// for is added unless declared there (then uncompared: the run stopped before it).
std::map<std::string, ChangeClass> classify(
    const ProposalOutcome &proposal, const CurrentOutcome &current, const std::set<std::string> &declared);

} // namespace ccm::fleet
