// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/manifest.h"

namespace ccm {

/// The semantic rules of one flattened resource's type, beyond what its schema says: paths that
/// must be absolute and clean, properties that exclude or need each other, names, modes, URLs and
/// checksums. Appends what it finds to `out`, each with the JSON Pointer of its property.
void checkResource(const LoadedManifest &loaded, const FlatResource &resource, Diagnostics &out);

} // namespace ccm
