// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"
#include "json.h"
#include "lazy_facts.h"
#include "manifest.h"

#include <string_view>

namespace ccm {

/// The data a manifest's templates see, and what went wrong while resolving it.
struct DataResolution {
    Json data = Json::object();
    Diagnostics diagnostics;
    /// Hierarchy entries that matched and had overrides, in the order they were applied.
    std::vector<std::string> appliedOverrides;

    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};

/// Resolves a manifest's data with Hiera (ENGINE-SPEC §3): templates in `data` and in each override
/// are expanded with the facts (types kept for values that are exactly one expression), hierarchy
/// entries are resolved and matched, and overrides are merged `first` or `deep`. `external` (data
/// given on the command line or by a parent manifest) is then merged over the result, maps
/// recursively and anything else replaced. Finally every value marked `# @require` in the text of
/// `data:` must be set; all missing ones are reported together. `text` is the manifest's text, for
/// the annotations. Errors carry the position of the value or entry that failed.
DataResolution resolveData(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts,
    const Json &external = Json::object());
/// resolveData() with facts already gathered.
inline DataResolution resolveData(
    const LoadedManifest &manifest, std::string_view text, const Json &facts, const Json &external = Json::object())
{
    return resolveData(manifest, text, LazyFacts(facts), external);
}

/// Pointers (under /data) of the values marked with a `# @require` comment: the comment sits on the
/// lines right above the key, or after the value on the key's own line.
std::vector<std::string> requiredDataPointers(const LoadedManifest &manifest, std::string_view text);

} // namespace ccm
