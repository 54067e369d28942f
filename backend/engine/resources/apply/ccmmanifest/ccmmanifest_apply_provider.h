// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/apply/apply_type.h"

namespace ccm::engine {

/// Runs a local manifest file as the child: resolved with the run's facts and data, inline in the
/// run, so references and subscriptions cross into and out of it.
class CcmManifestApplyProvider : public ApplyProvider {
public:
    [[nodiscard]] std::string_view name() const override { return "ccmmanifest"; }
    [[nodiscard]] Result<ChildManifestOutcome> applyManifest(
        const ChildManifestRequest &request, ApplyContext &context) override;
};

/// The only apply provider: always manageable, priority 1.
class CcmManifestApplyProviderFactory : public ProviderFactory {
public:
    [[nodiscard]] std::string_view typeName() const override { return "apply"; }
    [[nodiscard]] std::string_view name() const override { return "ccmmanifest"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &, const LazyFacts &) const override
    {
        return std::optional<int>(1);
    }
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &) const override
    {
        return std::make_unique<CcmManifestApplyProvider>();
    }
};

} // namespace ccm::engine
