// SPDX-License-Identifier: Apache-2.0
#include "engine/resource.h"
#include "engine/resources/registration.h"

namespace ccm::engine {

const Catalog &standardCatalog()
{
    static const Catalog catalog = [] {
        Catalog built;
        registerApplyResources(built);
        registerArchiveResources(built);
        registerExecResources(built);
        registerFileResources(built);
        registerPackageResources(built);
        registerScaffoldResources(built);
        registerServiceResources(built);
        return built;
    }();
    return catalog;
}

} // namespace ccm::engine
