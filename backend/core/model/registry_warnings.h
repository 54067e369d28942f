// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/manifest.h"

#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// What is said where a template calls registrations(): upstream looks services up in the
/// registration registry of a NATS stream; there is none here, so the list is always empty.
inline constexpr std::string_view kNoRegistryMessage
    = "registrations() finds nothing here: there is no registration registry, so it always gives an empty list";

/// Byte offsets in `text` of each call of registrations(): the word followed by '(' (expressions,
/// Jet) or by a space (Go templates).
std::vector<std::size_t> registrationsCalls(std::string_view text);

/// A warning at each registrations() call in the templates of the manifest's own strings.
Diagnostics registryWarnings(const LoadedManifest &manifest, std::string_view text);

} // namespace ccm
