// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "resource.h"

namespace ccm::engine {

/// Each type adds itself and its providers to a catalog; standardCatalog() calls them all.
void registerApplyResources(Catalog &catalog);
void registerArchiveResources(Catalog &catalog);
void registerExecResources(Catalog &catalog);
void registerFileResources(Catalog &catalog);
void registerPackageResources(Catalog &catalog);
void registerScaffoldResources(Catalog &catalog);
void registerServiceResources(Catalog &catalog);

} // namespace ccm::engine
