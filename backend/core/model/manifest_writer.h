// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "core/model/manifest.h"

#include <string>

namespace ccm {

/// Writes a manifest as YAML in the canonical layout: top-level keys in the order data,
/// hierarchy, overrides, ccm; ccm settings before resources; resource properties in schema
/// order (name, ensure, type properties, common properties), unknown ones after them; data and
/// overrides keep their own order. Multi-line strings become literal blocks, strings that would
/// read back as another type (modes like "0644", "yes", "1.0") are quoted. The output of a model
/// is always the same bytes, and loading it gives an equal model (an empty model is written "{}").
std::string saveManifest(const Manifest &manifest);

/// Writes any JSON-like value as block-style YAML with the same quoting rules, indented by
/// `indent` spaces (for embedding in larger documents). Maps and lists end with a newline.
std::string toYaml(const Json &value, int indent = 0);

} // namespace ccm
