// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "engine/resource.h"

#include <string>
#include <string_view>

namespace ccm::engine {

/// The current state of resource `name` of `type` on this host (`ccm-backend status`, the daemon's
/// resource.status): the provider is chosen as apply chooses it (the `provider` property names one,
/// otherwise the manageable one with the highest priority), created on context.runner, and asked
/// through the type's currentState(). An Error for an unknown type (listing the types), a provider
/// that cannot be chosen, or a provider that could not look.
[[nodiscard]] Result<ResourceState> resourceStatus(const Catalog &catalog, std::string_view type,
    const std::string &name, const Json &properties, const StatusContext &context);

/// The names of the types status can be asked about, in the catalog's order.
[[nodiscard]] std::vector<std::string> statusTypeNames();

/// The state and differences as one JSON object: {"supported", "reason"?, "summary", "state",
/// "differences": [{"property", "current", "wanted"}], "notes"}.
[[nodiscard]] Json resourceStateToJson(const ResourceState &state);

/// Adds a difference to `state`.
void addDifference(ResourceState &state, std::string property, Json current, Json wanted);

/// The first `length` characters of a checksum followed by "…", for summaries.
[[nodiscard]] std::string shortChecksum(const std::string &checksum, std::size_t length = 12);

} // namespace ccm::engine
