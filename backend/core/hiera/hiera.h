// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/facts/lazy_facts.h"
#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "core/model/manifest.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// The data a manifest's templates see, and what went wrong while resolving it.
struct DataResolution {
    Json data = Json::object();
    Diagnostics diagnostics;
    /// Hierarchy entries that matched and had overrides, in the order they were applied.
    std::vector<std::string> appliedOverrides;

    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};

/// Which layer of the data a value came from.
struct DataLayer {
    enum class Kind { Data, Override, External };
    Kind kind = Kind::Data;
    int entry = -1; ///< Override: the index of its entry in hierarchy.order
    std::string name; ///< Override: the override's name (the entry's resolved name)
};

/// Where a value of the resolved data was set: its layer, and the pointer of the value in the
/// manifest that supplied it ("/data/web/port", "/overrides/node.web1/web/port"; "" for external).
struct DataOrigin {
    DataLayer layer;
    std::string source;
};

/// One entry of hierarchy.order as Hiera resolved it.
struct HierarchyEntryState {
    std::string source; ///< as written: "node.{{ Facts.host.info.hostname }}"
    std::string resolved; ///< its name with the expressions' values: "node.web1"
    bool matched = false; ///< whether it matches (ENGINE-SPEC §3), whatever the overrides are
    bool overrideExists = false; ///< whether overrides has a map for the resolved name
    bool applied = false; ///< whether its override was merged into the data
    std::string error; ///< why it could not be resolved; empty when it could
};

/// How the data came about, recorded while it is resolved: the hierarchy's entries, and for each
/// map and each other value under /data (lists are values: their items are not listed) the
/// origin of the layer that set it last. A map that deep merges keep stays where it was first set.
struct DataProvenance {
    std::string merge = "first";
    std::vector<HierarchyEntryState> entries;
    /// By pointer of the resolved value: "/data/web/port".
    std::map<std::string, DataOrigin> origins;
};

/// Resolves a manifest's data with Hiera (ENGINE-SPEC §3): templates in `data` and in each override
/// are expanded with the facts (types kept for values that are exactly one expression), hierarchy
/// entries are resolved and matched, and overrides are merged `first` or `deep`. `external` (data
/// given on the command line or by a parent manifest) is then merged over the result, maps
/// recursively and anything else replaced. Finally every value marked `# @require` in the text of
/// `data:` must be set; all missing ones are reported together. `text` is the manifest's text, for
/// the annotations. Errors carry the position of the value or entry that failed. With
/// `provenance`, records where each value came from; then every hierarchy entry is resolved, also
/// those after the one a `first` merge took, whose errors go into the entry and not the diagnostics.
DataResolution resolveData(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts,
    const Json &external = Json::object(), DataProvenance *provenance = nullptr);
/// resolveData() with facts already gathered.
inline DataResolution resolveData(const LoadedManifest &manifest, std::string_view text, const Json &facts,
    const Json &external = Json::object(), DataProvenance *provenance = nullptr)
{
    return resolveData(manifest, text, LazyFacts(facts), external, provenance);
}

/// Resolves a standalone Hiera document (upstream's `ccm hiera parse`) as resolveData() resolves a
/// manifest's data: `text` is a YAML or JSON map whose `data`, `hierarchy` and `overrides` are read
/// as a manifest's; other top-level keys (a whole manifest's `ccm`) are left alone. The
/// diagnostics are the text's and those of the three sections.
DataResolution resolveHieraDocument(
    std::string_view text, const LazyFacts &facts, const Json &external = Json::object());

/// A `# @validate EXPR` annotation of a data value.
struct DataValidation {
    std::string pointer; ///< of the value, under /data
    std::string expression;
    SourcePosition position; ///< of the expression in the text
};

/// The annotations in the comments of `data:` (ENGINE-SPEC §3): a comment sits on the lines right
/// above the key, or after the value on the key's own line.
struct DataAnnotations {
    /// Pointers of the values marked `# @require` (or its alias `# @required`).
    std::vector<std::string> required;
    /// The `# @validate` of each value that has one; the last one counts, as upstream.
    std::vector<DataValidation> validations;
    /// Unknown `# @word` directives, and a `@validate` without expression, at the '@'.
    Diagnostics warnings;
};
DataAnnotations dataAnnotations(const LoadedManifest &manifest, std::string_view text);

/// Pointers (under /data) of the values marked with a `# @require` comment.
std::vector<std::string> requiredDataPointers(const LoadedManifest &manifest, std::string_view text);

/// Why `value` fails its `@validate` ("fails @validate isInt(value)", with the expression's error
/// when it has one), or nullopt when it passes. The expression sees the value's text as `value`
/// (and `Value`), as upstream; null, maps and lists always pass.
std::optional<std::string> validationProblem(const DataValidation &validation, const Json &value);

/// What can be checked of the annotations without facts: unknown directives (warnings), @validate
/// expressions that do not parse (at the expression) and literal data values that no override
/// sets and that fail their @validate (at the key). For `ccm-backend validate`.
Diagnostics checkDataAnnotations(const LoadedManifest &manifest, std::string_view text);

} // namespace ccm
