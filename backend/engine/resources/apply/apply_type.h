// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resource.h"

namespace ccm::engine {

/// What an apply provider does: run a child manifest in the current run.
class ApplyProvider : public Provider {
public:
    /// Resolves and runs the child manifest; the outcome counts its resources.
    [[nodiscard]] virtual Result<ChildManifestOutcome> applyManifest(
        const ChildManifestRequest &request, ApplyContext &context)
        = 0;
};

/// The apply type: composes a manifest from child manifests (seed "Apply Type"). Noop and
/// health-check-only modes can only be strengthened for the child; the child's failures fail the
/// apply resource and its changes make it changed.
class ApplyType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "apply"; }
    [[nodiscard]] std::string defaultEnsure() const override { return ensureText(Ensure::Present); }
    /// The child manifest runs health-check-only as well, so that its resources' checks run.
    [[nodiscard]] bool appliesWhenCheckingHealthOnly() const override { return true; }
    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;
};

} // namespace ccm::engine
