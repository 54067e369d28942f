// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/apply/ccmmanifest/ccmmanifest_apply_provider.h"

#include "engine/resources/registration.h"

namespace ccm::engine {

Result<ChildManifestOutcome> CcmManifestApplyProvider::applyManifest(
    const ChildManifestRequest &request, ApplyContext &context)
{
    if (!context.runChildManifest)
        return Error {"no_child_runs", "child manifests cannot be run here"};
    return context.runChildManifest(request);
}

void registerCcmManifestApplyProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<CcmManifestApplyProviderFactory>());
}

} // namespace ccm::engine
