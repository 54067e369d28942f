// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "core/yaml/source_map.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// The resource types of CCM v1, in palette order.
inline constexpr std::array<std::string_view, 7> kResourceTypes{"package", "service", "file", "exec",
                                                                "archive", "scaffold", "apply"};
bool isResourceType(std::string_view type);

/// The key that marks a block's defaults entry in the list form.
inline constexpr std::string_view kDefaultsKey = "defaults";

/// How a resource block writes its body: `- NAME: {props}` items, or one `{name: X, ...}` map.
enum class BodyForm { List, Single };

/// Equality of values where the order of map keys does not matter (it does for lists).
bool sameValue(const Json &a, const Json &b);

/// One item of a block: a resource, or the block's defaults.
struct ResourceEntry {
    std::string name; ///< empty for the defaults entry
    Json properties = Json::object(); ///< every property except the name
    bool isDefaults = false;

    /// Properties are a map: their order is not part of a resource's meaning.
    friend bool operator==(const ResourceEntry &a, const ResourceEntry &b)
    {
        return a.name == b.name && a.isDefaults == b.isDefaults && sameValue(a.properties, b.properties);
    }
};

/// One item of ccm.resources: a type and its entries, in declaration order.
struct ResourceBlock {
    std::string type;
    BodyForm form = BodyForm::List;
    std::vector<ResourceEntry> entries;

    friend bool operator==(const ResourceBlock &, const ResourceBlock &) = default;
};

struct Hierarchy {
    std::optional<std::vector<std::string>> order;
    std::optional<std::string> merge;

    friend bool operator==(const Hierarchy &, const Hierarchy &) = default;
};

struct CcmSettings {
    std::optional<std::string> preMessage;
    std::optional<std::string> postMessage;
    std::optional<bool> failOnError;
    std::optional<std::string> resourcesJetFile;
    std::optional<std::vector<ResourceBlock>> resources;

    friend bool operator==(const CcmSettings &, const CcmSettings &) = default;
};

/// A CCM v1 manifest as written: nothing is resolved or flattened. Absent sections stay absent
/// so that saving writes back what was there.
struct Manifest {
    std::optional<Json> data;
    std::optional<Hierarchy> hierarchy;
    std::optional<Json> overrides;
    std::optional<CcmSettings> ccm;

    friend bool operator==(const Manifest &, const Manifest &) = default;
};

/// JSON Pointer of block `block` in the document.
std::string blockPointer(std::size_t block);

/// One resource after flattening: defaults applied, one per entry, in execution order.
struct FlatResource {
    std::string type;
    std::string name;
    Json properties = Json::object(); ///< own properties over the block's defaults, without name
    std::size_t block = 0;
    std::size_t entry = 0;
    std::string pointer; ///< the entry's body in the document
    std::string defaultsPointer; ///< the block's defaults body, empty when the block has none
    std::vector<std::string> inherited; ///< properties whose value comes from the defaults

    /// "type#name", the form references use.
    [[nodiscard]] std::string label() const { return type + '#' + name; }
    /// Pointer to where a property's effective value is written: the entry, or its defaults.
    [[nodiscard]] std::string propertyPointer(std::string_view property) const;
};

/// Document pointers of each entry's body, per block and entry of the model. A loaded manifest
/// skips items it could not understand, so model indices and document indices can differ.
using EntryPointers = std::vector<std::vector<std::string>>;

/// JSON Pointer of the body (property map) of an entry in the document: from `pointers` when
/// given and covering the entry (a loaded document), else from the model's indices.
std::string entryPointer(const ResourceBlock &resourceBlock, std::size_t block, std::size_t entry,
                         const EntryPointers *pointers = nullptr);

/// Flattens the blocks to one resource per entry. Entry fields replace default fields whole.
/// Pointers come from `pointers` when given (a loaded document), else from the model's indices.
std::vector<FlatResource> flatten(const Manifest &manifest, const EntryPointers *pointers = nullptr);
/// Hands each resource flatten() returns to `visit`, in the same order, one at a time, so that a
/// caller that needs little of each does not hold a copy of every resource's properties at once.
void forEachFlatResource(
    const Manifest &manifest, const EntryPointers *pointers, const std::function<void(FlatResource &&)> &visit);

/// A manifest read from text, with the positions of its nodes and what was wrong with its shape.
struct LoadedManifest {
    Manifest manifest;
    SourceMap sourceMap;
    Diagnostics diagnostics;
    /// The raw document (empty when the text was not YAML); schema validation runs on it.
    Json document;
    /// Where each model entry sits in the document.
    EntryPointers entryPointers;
    /// False when the text could not be read as YAML at all.
    bool parsed = false;
};

/// Reads a manifest from YAML text. Structural problems (unknown top-level or ccm keys, a
/// resource item that is not a single-key map of a known type, two defaults in a block, ...) are
/// errors with positions; the model holds what could be understood.
LoadedManifest loadManifest(std::string_view text);

/// Manifests larger than this are refused before parsing.
inline constexpr std::size_t kMaxManifestBytes = 16 * 1024 * 1024;

/// Reads a manifest file's text, refusing directories, unreadable and oversized files.
struct FileText {
    std::string text;
    std::optional<Diagnostic> problem;
};
FileText readManifestFile(const std::string &path);

/// The closest of candidates to word by edit distance, when close enough to be a likely typo.
std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string> &candidates);

} // namespace ccm
