// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resource.h"

namespace ccm::engine {

/// Each type adds itself and its providers to a catalog; standardCatalog() calls them all.
void registerApplyResources(Catalog &catalog);
void registerArchiveResources(Catalog &catalog);
void registerExecResources(Catalog &catalog);
void registerFileResources(Catalog &catalog);
void registerPackageResources(Catalog &catalog);
void registerScaffoldResources(Catalog &catalog);
void registerServiceResources(Catalog &catalog);

/// Each provider adds its factory, from next to the provider, so that a type never includes the
/// concrete providers it is paired with.
void registerCcmManifestApplyProvider(Catalog &catalog);
void registerHttpArchiveProvider(Catalog &catalog);
void registerPosixExecProvider(Catalog &catalog);
void registerShellExecProvider(Catalog &catalog);
void registerPosixFileProvider(Catalog &catalog);
void registerAptPackageProvider(Catalog &catalog);
void registerDnfPackageProvider(Catalog &catalog);
void registerChoriaScaffoldProvider(Catalog &catalog);
void registerSystemdServiceProvider(Catalog &catalog);

} // namespace ccm::engine
