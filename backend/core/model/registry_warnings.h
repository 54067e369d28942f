// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/manifest.h"

#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// What is said where a template calls registrations() and nothing gives it a registration stream
/// to look in (validate, the designer): the list is empty there, while render and apply look in
/// the -R stream.
inline constexpr std::string_view kNoRegistryMessage
    = "registrations() finds nothing here: there is no registration stream to look in, so it gives an empty "
      "list (render and apply look in the -R stream, REGISTRATION by default)";

/// Byte offsets in `text` of each call of registrations(): the word followed by '(' (expressions,
/// Jet) or by a space (Go templates).
std::vector<std::size_t> registrationsCalls(std::string_view text);

/// A warning at each registrations() call in the templates of the manifest's own strings.
Diagnostics registryWarnings(const LoadedManifest &manifest, std::string_view text);

} // namespace ccm
