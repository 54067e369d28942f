// SPDX-License-Identifier: Apache-2.0
#include "core/model/validator.h"

#include "base/shell_words.h"
#include "core/expr/expression.h"
#include "core/hiera/hiera.h"
#include "core/model/duration.h"
#include "core/model/registry_warnings.h"
#include "core/model/resource_checks.h"
#include "core/model/schema_registry.h"
#include "core/template/template_string.h"

#include <algorithm>
#include <regex>
#include <unordered_map>
#include <unordered_set>

namespace ccm {
namespace {

bool allowedNameCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
        || c == '+' || c == ':' || c == '~' || c == '-';
}

std::string describeCharacter(char c)
{
    if (c == ' ')
        return "a space";
    if (c == '\t')
        return "a tab";
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
        return "a non-printable or non-ASCII character";
    return std::string("'") + c + "'";
}

/// Problems with the embedded schemas of the types the manifest uses; none in a correct build.
void reportSchemaProblems(const Manifest &manifest, Diagnostics &out)
{
    if (!manifest.ccm || !manifest.ccm->resources)
        return;
    std::vector<std::string_view> types;
    for (const ResourceBlock &block : *manifest.ccm->resources) {
        if (std::find(types.begin(), types.end(), block.type) != types.end())
            continue;
        types.push_back(block.type);
        for (const std::string &problem : SchemaRegistry::instance().loadErrors(block.type))
            out.push_back({Severity::Error, "internal schema error: " + problem, "", {}});
    }
}

void checkSchemas(const LoadedManifest &loaded, Diagnostics &out)
{
    const Manifest &manifest = loaded.manifest;
    if (!manifest.ccm || !manifest.ccm->resources)
        return;
    const auto &registry = SchemaRegistry::instance();
    const auto &blocks = *manifest.ccm->resources;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const ResourceBlock &block = blocks[b];
        for (std::size_t e = 0; e < block.entries.size(); ++e) {
            const ResourceEntry &entry = block.entries[e];
            const std::string pointer = entryPointer(block, b, e, &loaded.entryPointers);
            const std::string label = entry.isDefaults ? block.type + " defaults" : block.type + "#" + entry.name;
            for (const SchemaViolation &violation : registry.validateBody(block.type, entry.properties)) {
                // An unquoted file mode gets its own, more helpful message from the file rules.
                if (block.type == "file" && violation.pointer == "/mode" && entry.properties["mode"].is_number())
                    continue;
                const std::string at = pointer + violation.pointer;
                std::string message = label + ": " + violation.message;
                // The most common slip: a number where the schema wants a string.
                if (message.ends_with("must be a string, not an integer")
                    || message.ends_with("must be a string, not a number"))
                    message += " (write it in quotes)";
                out.push_back({Severity::Error, std::move(message), at,
                    violation.atKey ? loaded.sourceMap.keyAt(at) : loaded.sourceMap.valueAt(at)});
            }
        }
    }
}

void checkDuplicates(const LoadedManifest &loaded, const std::vector<FlatResource> &resources, Diagnostics &out)
{
    // type#name and type#alias share one namespace: references resolve through either.
    std::unordered_map<std::string, std::string> seen;
    seen.reserve(resources.size());
    const auto claim = [&](const FlatResource &resource, const std::string &key, const std::string &pointer,
                           bool isAlias) {
        if (isTemplated(key))
            return;
        const auto [it, inserted] = seen.emplace(resource.type + '#' + key, pointer);
        if (inserted)
            return;
        const SourcePosition first = loaded.sourceMap.keyAt(it->second);
        out.push_back({Severity::Warning,
            resource.type + '#' + key + (isAlias ? " (alias)" : "") + " is declared more than once (first at line "
                + std::to_string(first.line) + "); references will see the latest one",
            pointer, isAlias ? loaded.sourceMap.valueAt(pointer) : loaded.sourceMap.keyAt(pointer)});
    };
    for (const FlatResource &resource : resources) {
        claim(resource, resource.name, resource.pointer, false);
        if (resource.properties.contains("alias") && resource.properties["alias"].is_string()) {
            const auto alias = resource.properties["alias"].get<std::string>();
            if (!alias.empty() && alias != resource.name)
                claim(resource, alias, resource.propertyPointer("alias"), true);
        }
    }
}

/// How deep childManifestDeclarations() follows apply resources: as deep as a run may nest them.
constexpr int kMaxChildDepth = 16;

/// Adds what the manifest at `path` declares, and its own children's, to `declared`. False when
/// something cannot be known before a run.
bool collectDeclarations(const std::filesystem::path &path, int depth, std::unordered_set<std::string> &visited,
    std::unordered_set<std::string> &declared);

/// Adds what the resources of `loaded` declare to `declared`, following its apply resources from
/// `baseDirectory`. False when something cannot be known before a run.
bool collectChildDeclarations(const LoadedManifest &loaded, const std::filesystem::path &baseDirectory, int depth,
    std::unordered_set<std::string> &visited, std::unordered_set<std::string> &declared)
{
    bool known = true;
    forEachFlatResource(loaded.manifest, &loaded.entryPointers, [&](FlatResource &&resource) {
        if (!known)
            return;
        const auto alias = resource.properties.find("alias");
        const bool hasAlias = alias != resource.properties.end() && alias->is_string();
        if (isTemplated(resource.name) || (hasAlias && isTemplated(alias->get<std::string>()))) {
            known = false;
            return;
        }
        declared.insert(resource.label());
        if (hasAlias)
            declared.insert(resource.type + '#' + alias->get<std::string>());
        if (resource.type == "apply") {
            std::filesystem::path child(resource.name);
            if (child.is_relative())
                child = baseDirectory / child;
            known = depth < kMaxChildDepth && collectDeclarations(child, depth + 1, visited, declared);
        }
    });
    return known;
}

bool collectDeclarations(const std::filesystem::path &path, int depth, std::unordered_set<std::string> &visited,
    std::unordered_set<std::string> &declared)
{
    std::error_code error;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
    // A manifest applied twice declares the same; one that applies itself is refused by the run.
    if (error || !visited.insert(canonical.string()).second)
        return !error;
    const FileText read = readManifestFile(canonical.string());
    if (read.problem)
        return false;
    const LoadedManifest child = loadManifest(read.text);
    if (!child.parsed || hasErrors(child.diagnostics))
        return false;
    return collectChildDeclarations(child, canonical.parent_path(), depth, visited, declared);
}

/// A reference no resource declares: an error naming the closest declared reference, or a warning
/// when a child manifest (an apply resource) may declare it.
Diagnostic unsatisfiedReference(const FlatResource &resource, const char *property, const std::string &reference,
    const std::unordered_map<std::string, std::size_t> &declared, const std::unordered_set<std::string> &childDeclared,
    bool mayBeElsewhere)
{
    std::string message = resource.label() + ": " + property + " refers to " + reference;
    if (mayBeElsewhere)
        return {Severity::Warning, message + ", which this manifest does not declare (a parent or child manifest may)",
            {}, {}};
    message += childDeclared.empty() ? ", which no resource of this manifest declares"
                                     : ", which neither this manifest nor its child manifests declare";
    std::vector<std::string> candidates;
    candidates.reserve(declared.size() + childDeclared.size());
    for (const auto &entry : declared)
        if (entry.first != resource.label())
            candidates.push_back(entry.first);
    candidates.insert(candidates.end(), childDeclared.begin(), childDeclared.end());
    std::sort(candidates.begin(), candidates.end());
    if (auto suggestion = closestMatch(reference, candidates))
        message += "; did you mean '" + *suggestion + "'?";
    return {Severity::Error, message, {}, {}};
}

void checkReferenceTargets(const LoadedManifest &loaded, const std::vector<FlatResource> &resources, bool standalone,
    const std::filesystem::path &baseDirectory, Diagnostics &out)
{
    const bool hasChildren = std::any_of(
        resources.begin(), resources.end(), [](const FlatResource &resource) { return resource.type == "apply"; });
    std::unordered_map<std::string, std::size_t> firstIndex;
    firstIndex.reserve(resources.size());
    for (std::size_t i = 0; i < resources.size(); ++i) {
        firstIndex.emplace(resources[i].label(), i);
        if (resources[i].properties.contains("alias") && resources[i].properties["alias"].is_string())
            firstIndex.emplace(resources[i].type + '#' + resources[i].properties["alias"].get<std::string>(), i);
    }
    // The children are read only when a reference is not declared here, so typing in a manifest
    // whose references all resolve reads no other file.
    bool childrenRead = false;
    bool mayBeElsewhere = !standalone || hasChildren;
    std::unordered_set<std::string> onlyInChildren;
    const auto readChildren = [&] {
        childrenRead = true;
        if (!standalone || !hasChildren || baseDirectory.empty())
            return;
        const auto childDeclared = childManifestDeclarations(loaded, baseDirectory);
        if (!childDeclared)
            return;
        mayBeElsewhere = false;
        for (const std::string &reference : *childDeclared)
            if (firstIndex.find(reference) == firstIndex.end())
                onlyInChildren.insert(reference);
    };
    for (std::size_t i = 0; i < resources.size(); ++i) {
        const FlatResource &resource = resources[i];
        for (const char *property : {"require", "subscribe"}) {
            if (!resource.properties.contains(property) || !resource.properties[property].is_array())
                continue;
            const Json &list = resource.properties[property];
            for (std::size_t k = 0; k < list.size(); ++k) {
                if (!list[k].is_string())
                    continue;
                const auto reference = list[k].get<std::string>();
                const auto hash = reference.find('#');
                if (hash == std::string::npos || !isResourceType(reference.substr(0, hash)) || isTemplated(reference))
                    continue;
                const std::string pointer = appendPointer(resource.propertyPointer(property), k);
                const auto found = firstIndex.find(reference);
                if (found == firstIndex.end() && !childrenRead)
                    readChildren();
                if (found == firstIndex.end() && onlyInChildren.count(reference) != 0)
                    continue;
                if (found == firstIndex.end()) {
                    out.push_back(unsatisfiedReference(
                        resource, property, reference, firstIndex, onlyInChildren, mayBeElsewhere));
                    out.back().path = pointer;
                    out.back().position = loaded.sourceMap.valueAt(pointer);
                } else if (found->second == i) {
                    out.push_back(
                        {Severity::Error, resource.label() + ": " + property + " refers to the resource itself",
                            pointer, loaded.sourceMap.valueAt(pointer)});
                } else if (found->second > i) {
                    out.push_back({Severity::Warning,
                        resource.label() + ": " + property + " refers to " + reference
                            + ", which is declared later; resources run in declaration order, so move it above",
                        pointer, loaded.sourceMap.valueAt(pointer)});
                }
            }
        }
    }
}

/// "file /etc/motd › content" for a resource's property, else the pointer's tokens joined by " › ".
std::string describeTemplatePlace(const std::string &pointer)
{
    const std::vector<std::string> tokens = splitPointer(pointer);
    const auto isIndex = [](const std::string &token) {
        return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::string place;
    std::size_t next = 0;
    if (tokens.size() > 3 && tokens[0] == "ccm" && tokens[1] == "resources" && isIndex(tokens[2])) {
        place = tokens[3];
        next = 4;
        if (tokens.size() > 5 && isIndex(tokens[4])) {
            place += ' ' + tokens[5];
            next = 6;
        }
    }
    for (; next < tokens.size(); ++next)
        place += (place.empty() ? "" : " › ") + tokens[next];
    return place;
}

/// Where a template string of the manifest starts: the key at `pointer`, or the value there.
enum class TemplatePlace { Key, Value };

/// An error for each expression of `value`, the template string at `pointer`, that does not parse.
/// The string's position is looked up only for an error: most strings have no template at all.
void checkTemplateSyntax(const std::string &pointer, const std::string &value, TemplatePlace place,
    const LoadedManifest &loaded, std::string_view text, Diagnostics &out)
{
    if (value.find("{{") == std::string::npos && value.find("${") == std::string::npos)
        return;
    for (const TemplateSegment &segment : scanTemplate(value)) {
        if (segment.kind != TemplateSegment::Kind::Expression)
            continue;
        const auto parsed = Expression::parse(segment.text);
        if (parsed)
            continue;
        const std::size_t column = static_cast<std::size_t>(std::max(parsed.error().column, 1)) - 1;
        const std::size_t offset = segment.offset + std::min(column, segment.text.size());
        const SourcePosition start
            = place == TemplatePlace::Key ? loaded.sourceMap.keyAt(pointer) : loaded.sourceMap.valueAt(pointer);
        out.push_back({Severity::Error, describeTemplatePlace(pointer) + ": " + parsed.error().message, pointer,
            positionInScalarValue(text, start, value, offset)});
    }
}

/// Every template of `value`: strings, and keys under ccm/resources (resource names).
void collectTemplateErrors(const Json &value, const std::string &pointer, const LoadedManifest &loaded,
    std::string_view text, Diagnostics &out)
{
    if (value.is_object()) {
        const bool control = pointer.ends_with("/control");
        for (const auto &[key, item] : value.items()) {
            if (control && (key == "if" || key == "unless"))
                continue; // raw expressions, checked with the resource
            const std::string itemPointer = appendPointer(pointer, key);
            if (pointer.starts_with("/ccm/resources/"))
                checkTemplateSyntax(itemPointer, key, TemplatePlace::Key, loaded, text, out);
            collectTemplateErrors(item, itemPointer, loaded, text, out);
        }
        return;
    }
    if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            collectTemplateErrors(value[i], appendPointer(pointer, i), loaded, text, out);
        return;
    }
    if (value.is_string())
        checkTemplateSyntax(pointer, value.get_ref<const std::string &>(), TemplatePlace::Value, loaded, text, out);
}

} // namespace

std::optional<std::string> nameCharacterProblem(std::string_view text)
{
    for (char c : text) {
        if (!allowedNameCharacter(c))
            return "contains " + describeCharacter(c) + "; allowed are letters, digits and . _ + : ~ -";
    }
    return std::nullopt;
}

Diagnostics templateSyntaxErrors(const LoadedManifest &loaded, std::string_view text)
{
    Diagnostics found;
    if (loaded.parsed)
        collectTemplateErrors(loaded.document, "", loaded, text, found);
    return found;
}

bool isTemplated(std::string_view value)
{
    return hasTemplateExpressions(value);
}

Result<unsigned> parseFileMode(std::string_view mode)
{
    const std::string original(mode);
    if (mode.size() > 2 && mode[0] == '0' && (mode[1] == 'o' || mode[1] == 'O'))
        mode.remove_prefix(2);
    if (mode.empty())
        return Error {"invalid_mode", "mode '" + original + "' is empty; use an octal mode such as \"0644\""};
    unsigned value = 0;
    for (char c : mode) {
        if (c < '0' || c > '7')
            return Error {"invalid_mode",
                "mode '" + original + "' is not octal: '" + std::string(1, c) + "' is not a digit from 0 to 7"};
        value = value * 8 + static_cast<unsigned>(c - '0');
        if (value > 07777)
            break;
    }
    if (value > 0777)
        return Error {"invalid_mode",
            "mode '" + original + "' is above 0777; setuid, setgid and sticky bits cannot be set through mode"};
    return value;
}

bool isAbsoluteCleanPath(std::string_view path)
{
    if (path.empty() || path.front() != '/')
        return false;
    if (path == "/")
        return true;
    if (path.back() == '/')
        return false;
    std::size_t start = 1;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        start = end + 1;
    }
    return true;
}

std::optional<std::unordered_set<std::string>> childManifestDeclarations(
    const LoadedManifest &loaded, const std::filesystem::path &baseDirectory)
{
    std::unordered_set<std::string> visited;
    std::unordered_set<std::string> declared;
    if (!collectChildDeclarations(loaded, baseDirectory, 0, visited, declared))
        return std::nullopt;
    return declared;
}

Diagnostics validateManifest(const LoadedManifest &loaded, bool standalone, const std::filesystem::path &baseDirectory)
{
    Diagnostics out = loaded.diagnostics;
    if (!loaded.parsed)
        return out;
    reportSchemaProblems(loaded.manifest, out);
    checkSchemas(loaded, out);
    // Each resource is checked as it is flattened; the checks across resources need only names,
    // pointers and the properties that name resources, so the others are not kept: holding every
    // flattened resource whole took the largest share of the memory a large manifest needs.
    std::vector<FlatResource> resources;
    forEachFlatResource(loaded.manifest, &loaded.entryPointers, [&](FlatResource &&resource) {
        checkResource(loaded, resource, out);
        Json kept = Json::object();
        for (const char *property : {"alias", "require", "subscribe"}) {
            if (const auto found = resource.properties.find(property); found != resource.properties.end())
                appendMember(kept, property, std::move(*found));
        }
        resource.properties = std::move(kept);
        resources.push_back(std::move(resource));
    });
    checkDuplicates(loaded, resources, out);
    checkReferenceTargets(loaded, resources, standalone, baseDirectory, out);
    sortByPosition(out);
    return out;
}

Diagnostics validateManifestText(std::string_view text, const std::filesystem::path &baseDirectory)
{
    const LoadedManifest loaded = loadManifest(text);
    Diagnostics diagnostics = validateManifest(loaded, true, baseDirectory);
    // Only the text has the comments of the data annotations and the positions inside templates.
    Diagnostics annotations = checkDataAnnotations(loaded, text);
    Diagnostics registry = registryWarnings(loaded, text);
    Diagnostics templates = templateSyntaxErrors(loaded, text);
    if (annotations.empty() && registry.empty() && templates.empty())
        return diagnostics;
    diagnostics.insert(diagnostics.end(), annotations.begin(), annotations.end());
    diagnostics.insert(diagnostics.end(), registry.begin(), registry.end());
    diagnostics.insert(diagnostics.end(), templates.begin(), templates.end());
    sortByPosition(diagnostics);
    return diagnostics;
}

} // namespace ccm
