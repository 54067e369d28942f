// SPDX-License-Identifier: Apache-2.0
#include "core/model/manifest.h"

#include "base/file_reading.h"
#include "core/yaml/yaml_reader.h"

#include <algorithm>
#include <cstring>

namespace ccm {
namespace {

std::vector<std::string> typeNames()
{
    return {kResourceTypes.begin(), kResourceTypes.end()};
}

std::string quotedList(const std::vector<std::string> &items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += i + 1 == items.size() ? " or " : ", ";
        out += items[i];
    }
    return out;
}

class Loader
{
public:
    explicit Loader(LoadedManifest &out)
        : m_out(out)
    {
    }

    void load()
    {
        const Json &root = m_out.document;
        if (!root.is_object()) {
            error("", "a manifest is a map with the keys data, hierarchy, overrides and ccm, but this document is "
                          + describeJsonType(root),
                  false);
            return;
        }
        for (const auto &[key, value] : root.items()) {
            const std::string pointer = appendPointer("", key);
            if (key == "data")
                loadData(value, pointer);
            else if (key == "hierarchy")
                loadHierarchy(value, pointer);
            else if (key == "overrides")
                loadOverrides(value, pointer);
            else if (key == "ccm")
                loadCcm(value, pointer);
            else
                unknownKey(key, pointer, {"data", "hierarchy", "overrides", "ccm"}, "top-level key");
        }
        if (!m_out.manifest.ccm)
            warning("", "the manifest has no ccm section, so it manages no resources");
    }

private:
    void error(const std::string &pointer, std::string message, bool atKey = true)
    {
        add(Severity::Error, pointer, std::move(message), atKey);
    }
    void warning(const std::string &pointer, std::string message, bool atKey = true)
    {
        add(Severity::Warning, pointer, std::move(message), atKey);
    }
    void add(Severity severity, const std::string &pointer, std::string message, bool atKey)
    {
        const SourcePosition pos = atKey ? m_out.sourceMap.keyAt(pointer) : m_out.sourceMap.valueAt(pointer);
        m_out.diagnostics.push_back({severity, std::move(message), pointer, pos});
    }

    void unknownKey(const std::string &key, const std::string &pointer, const std::vector<std::string> &known,
                    const std::string &what)
    {
        std::string message = "unknown " + what + " '" + key + "'";
        if (auto suggestion = closestMatch(key, known))
            message += "; did you mean '" + *suggestion + "'?";
        else
            message += "; expected " + quotedList(known);
        error(pointer, std::move(message));
    }

    bool expectString(const Json &value, const std::string &pointer, const std::string &what)
    {
        if (value.is_string())
            return true;
        error(pointer, what + " must be a string, not " + describeJsonType(value), false);
        return false;
    }

    void loadData(const Json &value, const std::string &pointer)
    {
        if (value.is_null())
            return;
        if (!value.is_object()) {
            error(pointer, "data must be a map of names to values, not " + describeJsonType(value), false);
            return;
        }
        m_out.manifest.data = value;
    }

    void loadHierarchy(const Json &value, const std::string &pointer)
    {
        if (value.is_null())
            return;
        if (!value.is_object()) {
            error(pointer, "hierarchy must be a map with 'order' and 'merge', not " + describeJsonType(value), false);
            return;
        }
        Hierarchy hierarchy;
        for (const auto &[key, item] : value.items()) {
            const std::string itemPointer = appendPointer(pointer, key);
            if (key == "order") {
                if (!item.is_array()) {
                    error(itemPointer, "hierarchy order must be a list of strings, not " + describeJsonType(item), false);
                    continue;
                }
                std::vector<std::string> order;
                for (std::size_t i = 0; i < item.size(); ++i) {
                    if (expectString(item[i], appendPointer(itemPointer, i), "hierarchy order entry"))
                        order.push_back(item[i].get<std::string>());
                }
                hierarchy.order = std::move(order);
            } else if (key == "merge") {
                if (!expectString(item, itemPointer, "hierarchy merge"))
                    continue;
                const auto merge = item.get<std::string>();
                if (merge != "first" && merge != "deep")
                    error(itemPointer, "unknown hierarchy merge mode '" + merge + "'; expected first or deep", false);
                hierarchy.merge = merge;
            } else {
                unknownKey(key, itemPointer, {"order", "merge"}, "hierarchy key");
            }
        }
        m_out.manifest.hierarchy = std::move(hierarchy);
    }

    void loadOverrides(const Json &value, const std::string &pointer)
    {
        if (value.is_null())
            return;
        if (!value.is_object()) {
            error(pointer, "overrides must be a map of hierarchy entries to data maps, not " + describeJsonType(value), false);
            return;
        }
        Json overrides = Json::object();
        for (const auto &[key, item] : value.items()) {
            if (!item.is_object()) {
                error(appendPointer(pointer, key),
                      "override '" + key + "' must be a map of data values, not " + describeJsonType(item), false);
                continue;
            }
            appendMember(overrides, key, item);
        }
        m_out.manifest.overrides = std::move(overrides);
    }

    void loadCcm(const Json &value, const std::string &pointer)
    {
        CcmSettings ccm;
        if (!value.is_null() && !value.is_object()) {
            error(pointer, "ccm must be a map with resources and settings, not " + describeJsonType(value), false);
            return;
        }
        if (value.is_object()) {
            for (const auto &[key, item] : value.items()) {
                const std::string itemPointer = appendPointer(pointer, key);
                if (key == "pre_message" || key == "post_message") {
                    if (item.is_null() || !expectString(item, itemPointer, key))
                        continue;
                    (key == "pre_message" ? ccm.preMessage : ccm.postMessage) = item.get<std::string>();
                } else if (key == "fail_on_error") {
                    if (item.is_boolean())
                        ccm.failOnError = item.get<bool>();
                    else if (!item.is_null())
                        error(itemPointer, "fail_on_error must be true or false, not " + describeJsonType(item), false);
                } else if (key == "resources_jet_file") {
                    if (expectString(item, itemPointer, key))
                        ccm.resourcesJetFile = item.get<std::string>();
                } else if (key == "resources") {
                    loadResources(item, itemPointer, ccm);
                } else {
                    unknownKey(key, itemPointer,
                               {"pre_message", "post_message", "fail_on_error", "resources", "resources_jet_file"},
                               "ccm key");
                }
            }
        }
        if (ccm.resources && ccm.resourcesJetFile) {
            error(appendPointer(pointer, "resources_jet_file"),
                  "ccm has both resources and resources_jet_file; use one of them");
        }
        if (!ccm.resources && !ccm.resourcesJetFile)
            warning(pointer, "ccm has neither resources nor resources_jet_file, so nothing will be managed");
        m_out.manifest.ccm = std::move(ccm);
    }

    void loadResources(const Json &value, const std::string &pointer, CcmSettings &ccm)
    {
        std::vector<ResourceBlock> blocks;
        if (value.is_null()) {
            ccm.resources = std::move(blocks);
            return;
        }
        if (!value.is_array()) {
            error(pointer, "resources must be a list of resource blocks such as '- file: [...]', not " + describeJsonType(value),
                  false);
            return;
        }
        for (std::size_t i = 0; i < value.size(); ++i) {
            const Json &item = value[i];
            const std::string itemPointer = appendPointer(pointer, i);
            if (!item.is_object() || item.size() != 1) {
                error(itemPointer,
                      item.is_object() ? "a resource block has exactly one key, the resource type; this one has "
                                             + std::to_string(item.size())
                                       : "a resource block is a map like '- package: [...]', not " + describeJsonType(item),
                      false);
                continue;
            }
            const std::string type = item.begin().key();
            const Json &body = item.begin().value();
            const std::string typePointer = appendPointer(itemPointer, type);
            if (!isResourceType(type)) {
                unknownKey(type, typePointer, typeNames(), "resource type");
                continue;
            }
            ResourceBlock block;
            block.type = type;
            m_entryPointers.clear();
            if (body.is_array())
                loadListBody(body, typePointer, block);
            else if (body.is_object())
                loadSingleBody(body, typePointer, block);
            else {
                error(typePointer,
                      "the body of a " + type + " block is a list of '- NAME: {properties}' items or a map with name, not "
                          + describeJsonType(body),
                      false);
                continue;
            }
            blocks.push_back(std::move(block));
            m_out.entryPointers.push_back(std::move(m_entryPointers));
        }
        ccm.resources = std::move(blocks);
    }

    void loadListBody(const Json &body, const std::string &pointer, ResourceBlock &block)
    {
        block.form = BodyForm::List;
        std::string defaultsAt;
        for (std::size_t i = 0; i < body.size(); ++i) {
            const Json &item = body[i];
            const std::string itemPointer = appendPointer(pointer, i);
            if (!item.is_object() || item.size() != 1) {
                error(itemPointer,
                      "each item of a " + block.type + " list is a single '- NAME: {properties}' map, not "
                          + (item.is_object() ? "a map with " + std::to_string(item.size()) + " keys" : describeJsonType(item)),
                      false);
                continue;
            }
            const std::string name = item.begin().key();
            const Json &properties = item.begin().value();
            const std::string entryAt = appendPointer(itemPointer, name);
            ResourceEntry entry;
            entry.isDefaults = name == kDefaultsKey;
            if (!entry.isDefaults)
                entry.name = name;
            if (name.empty()) {
                error(entryAt, "a " + block.type + " resource needs a non-empty name");
                continue;
            }
            if (!properties.is_null() && !properties.is_object()) {
                error(entryAt, "the properties of " + block.type + "#" + name + " must be a map, not " + describeJsonType(properties),
                      false);
                continue;
            }
            if (properties.is_object()) {
                for (const auto &[key, propertyValue] : properties.items()) {
                    if (key == "name") {
                        error(appendPointer(entryAt, "name"),
                              "in the list form the key is the name; remove 'name' from " + block.type + "#" + name);
                        continue;
                    }
                    appendMember(entry.properties, key, propertyValue);
                }
            }
            if (entry.isDefaults) {
                if (!defaultsAt.empty()) {
                    error(entryAt, "a " + block.type + " block has two defaults entries (the first is at line "
                                       + std::to_string(m_out.sourceMap.keyAt(defaultsAt).line) + ")");
                    continue;
                }
                defaultsAt = entryAt;
            }
            block.entries.push_back(std::move(entry));
            m_entryPointers.push_back(entryAt);
        }
    }

    void loadSingleBody(const Json &body, const std::string &pointer, ResourceBlock &block)
    {
        block.form = BodyForm::Single;
        ResourceEntry entry;
        for (const auto &[key, value] : body.items()) {
            if (key == "name") {
                if (!value.is_string()) {
                    error(appendPointer(pointer, key),
                          "the name of a " + block.type + " resource must be a string, not " + describeJsonType(value)
                              + (value.is_number() ? " (quote it)" : ""),
                          false);
                    continue;
                }
                entry.name = value.get<std::string>();
                if (entry.name.empty())
                    error(appendPointer(pointer, key), "a " + block.type + " resource needs a non-empty name", false);
                continue;
            }
            appendMember(entry.properties, key, value);
        }
        if (!body.contains("name"))
            error(pointer, "a " + block.type + " resource written as a single map needs a 'name' property");
        block.entries.push_back(std::move(entry));
        m_entryPointers.push_back(pointer);
    }

    LoadedManifest &m_out;
    std::vector<std::string> m_entryPointers;
};

/// Edit distance where swapping two neighbouring letters counts as one edit, as typos do.
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

} // namespace

bool sameValue(const Json &a, const Json &b)
{
    if (a.is_object() && b.is_object()) {
        if (a.size() != b.size())
            return false;
        for (const auto &[key, value] : a.items()) {
            const auto other = b.find(key);
            if (other == b.end() || !sameValue(value, *other))
                return false;
        }
        return true;
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!sameValue(a[i], b[i]))
                return false;
        }
        return true;
    }
    return a == b;
}

bool isResourceType(std::string_view type)
{
    return std::find(kResourceTypes.begin(), kResourceTypes.end(), type) != kResourceTypes.end();
}

std::string blockPointer(std::size_t block)
{
    return appendPointer("/ccm/resources", block);
}

std::string entryPointer(const ResourceBlock &resourceBlock, std::size_t block, std::size_t entry,
                         const EntryPointers *pointers)
{
    if (pointers && block < pointers->size() && entry < (*pointers)[block].size())
        return (*pointers)[block][entry];
    const std::string typePointer = appendPointer(blockPointer(block), resourceBlock.type);
    if (resourceBlock.form == BodyForm::Single)
        return typePointer;
    const ResourceEntry &e = resourceBlock.entries.at(entry);
    return appendPointer(appendPointer(typePointer, entry), e.isDefaults ? std::string(kDefaultsKey) : e.name);
}

std::string FlatResource::propertyPointer(std::string_view property) const
{
    const bool fromDefaults = std::find(inherited.begin(), inherited.end(), property) != inherited.end();
    return appendPointer(fromDefaults ? defaultsPointer : pointer, property);
}

std::vector<FlatResource> flatten(const Manifest &manifest, const EntryPointers *pointers)
{
    std::vector<FlatResource> out;
    if (!manifest.ccm || !manifest.ccm->resources)
        return out;
    std::size_t entries = 0;
    for (const ResourceBlock &block : *manifest.ccm->resources)
        entries += block.entries.size();
    out.reserve(entries);
    forEachFlatResource(manifest, pointers, [&](FlatResource &&resource) { out.push_back(std::move(resource)); });
    return out;
}

void forEachFlatResource(
    const Manifest &manifest, const EntryPointers *pointers, const std::function<void(FlatResource &&)> &visit)
{
    if (!manifest.ccm || !manifest.ccm->resources)
        return;
    const auto &blocks = *manifest.ccm->resources;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const ResourceBlock &block = blocks[b];
        const ResourceEntry *defaults = nullptr;
        std::string defaultsPointer;
        for (std::size_t e = 0; e < block.entries.size(); ++e) {
            if (block.entries[e].isDefaults) {
                defaults = &block.entries[e];
                defaultsPointer = entryPointer(block, b, e, pointers);
                break;
            }
        }
        for (std::size_t e = 0; e < block.entries.size(); ++e) {
            const ResourceEntry &entry = block.entries[e];
            if (entry.isDefaults)
                continue;
            FlatResource resource;
            resource.type = block.type;
            resource.name = entry.name;
            resource.block = b;
            resource.entry = e;
            resource.pointer = entryPointer(block, b, e, pointers);
            resource.defaultsPointer = defaultsPointer;
            if (defaults) {
                // Defaults first, each replaced by the entry's own value, then the entry's others.
                for (const auto &[key, value] : defaults->properties.items()) {
                    const auto own = entry.properties.find(key);
                    if (own == entry.properties.end())
                        resource.inherited.push_back(key);
                    appendMember(resource.properties, key, own == entry.properties.end() ? value : *own);
                }
                for (const auto &[key, value] : entry.properties.items()) {
                    if (!defaults->properties.contains(key))
                        appendMember(resource.properties, key, value);
                }
            } else if (entry.properties.is_object()) {
                resource.properties = entry.properties;
            }
            visit(std::move(resource));
        }
    }
}

LoadedManifest loadManifest(std::string_view text)
{
    LoadedManifest out;
    YamlReadResult read = readYaml(text);
    out.diagnostics = std::move(read.diagnostics);
    if (!read.document)
        return out;
    out.parsed = true;
    out.document = std::move(read.document->root);
    out.sourceMap = std::move(read.document->sourceMap);
    Loader(out).load();
    return out;
}

FileText readManifestFile(const std::string &path)
{
    FileText result;
    const auto fail = [&](std::string message) {
        result.problem = Diagnostic{Severity::Error, std::move(message), "", {}};
        return result;
    };
    auto text = readRegularFile(path, kMaxManifestBytes);
    if (text) {
        result.text = std::move(text).value();
        return result;
    }
    const FileReadFailure &failure = text.error();
    switch (failure.kind) {
    case FileReadFailure::Kind::Directory:
        return fail("is a directory, not a manifest file");
    case FileReadFailure::Kind::NotRegular:
        return fail("is not a regular file");
    case FileReadFailure::Kind::TooLarge:
        return fail("the file is " + std::to_string(failure.size / (1024 * 1024)) + " MiB; manifests are limited to "
                    + std::to_string(kMaxManifestBytes / (1024 * 1024)) + " MiB");
    case FileReadFailure::Kind::Missing:
    case FileReadFailure::Kind::Unreadable:
        break;
    }
    return fail(std::string("cannot read the file: ") + std::strerror(failure.error));
}

std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string> &candidates)
{
    std::optional<std::string> best;
    std::size_t bestDistance = std::max<std::size_t>(1, word.size() / 3) + 1;
    for (const std::string &candidate : candidates) {
        const std::size_t distance = editDistance(word, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    return best;
}

} // namespace ccm
