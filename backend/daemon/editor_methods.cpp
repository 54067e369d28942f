// SPDX-License-Identifier: Apache-2.0
#include "daemon/editor_methods.h"

#include "core/hiera/hiera.h"
#include "core/model/registry_warnings.h"
#include "core/template/go_template.h"
#include "core/template/jet_template.h"
#include "core/template/output_line_map.h"
#include "core/template/template_scope.h"
#include "core/template/template_string.h"
#include "core/yaml/source_map.h"
#include "daemon/params.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace ccm::daemon {
namespace {

/// More items than an editor ever shows at once; bounds the work one request can ask for.
constexpr std::size_t kMaxItems = 1000;
/// The nodes the values of maps in data.resolve's `keys` may repeat in all.
constexpr std::size_t kMaxRepeatedNodes = 1000000;

RpcResult<void> checkTemplateParams(const Params &params)
{
    for (const char *name : {"text", "engine"}) {
        if (auto checked = params.string(name); !checked)
            return checked.error();
    }
    if (auto checked = params.optionalString("path"); !checked)
        return checked.error();
    const std::string_view engine = params.string("engine").value();
    if (engine != "jet" && engine != "go" && engine != "template")
        return Params::invalid(
            "engine", "must be \"jet\", \"go\" or \"template\", not \"" + std::string(engine.substr(0, 32)) + "\"");
    return {};
}

RpcResult<void> checkItems(const Params &params)
{
    auto found = params.optionalList("items");
    if (!found)
        return found.error();
    const Json *items = found.value();
    if (items == nullptr)
        return Params::invalid("items", "is required: a list of {kind, text}");
    if (items->size() > kMaxItems)
        return Params::invalid("items", "has more than " + std::to_string(kMaxItems) + " items");
    for (std::size_t i = 0; i < items->size(); ++i) {
        const Json &item = (*items)[i];
        const std::string path = "items/" + std::to_string(i);
        const std::string shown = "items[" + std::to_string(i) + "]";
        if (!item.is_object())
            return Params::invalidAt(path, shown, "must be a map {kind, text}, not " + describeJsonType(item));
        const auto kind = item.find("kind");
        if (kind == item.end() || !kind->is_string() || (*kind != "template" && *kind != "expression"))
            return Params::invalidAt(path + "/kind", shown + ".kind", "must be \"template\" or \"expression\"");
        const auto text = item.find("text");
        if (text == item.end() || !text->is_string())
            return Params::invalidAt(path + "/text", shown + ".text", "must be a string");
    }
    return {};
}

Json diagnosticJson(const Diagnostic &diagnostic, std::string_view source)
{
    return Json {{"severity", severityName(diagnostic.severity)}, {"message", diagnostic.message},
        {"path", diagnostic.path}, {"line", diagnostic.position.line}, {"column", diagnostic.position.column},
        {"source", source}};
}

/// The manifest's data as the engine resolves it, and the problems of resolving it: the manifest's
/// own structural errors about data, hierarchy and overrides (not those of resources being
/// edited), then Hiera's.
struct ManifestData {
    LoadedManifest loaded;
    DataResolution resolution;
    Json diagnostics = Json::array();
};

bool concernsData(const Diagnostic &diagnostic)
{
    const std::string &path = diagnostic.path;
    return path.empty() || path.starts_with("/data") || path.starts_with("/hierarchy")
        || path.starts_with("/overrides");
}

ManifestData resolveManifestData(
    std::string_view text, const ResolveOptions &inputs, DataProvenance *provenance = nullptr)
{
    ManifestData out;
    out.loaded = loadManifest(text);
    for (const Diagnostic &diagnostic : out.loaded.diagnostics) {
        if (diagnostic.severity == Severity::Error && concernsData(diagnostic))
            out.diagnostics.push_back(diagnosticJson(diagnostic, "manifest"));
    }
    if (!out.loaded.parsed)
        return out;
    out.resolution = resolveData(out.loaded, text, inputs.facts, inputs.externalData, provenance);
    for (const Diagnostic &diagnostic : out.resolution.diagnostics)
        out.diagnostics.push_back(diagnosticJson(diagnostic, "manifest"));
    return out;
}

/// A template error "LINE:COL: message" (the renderers' form without a file name) as a diagnostic.
Json templateDiagnostic(const Error &error, const std::string &path)
{
    std::string_view message = error.message;
    int numbers[2] = {0, 0};
    std::string_view rest = message;
    bool positioned = true;
    for (int &number : numbers) {
        const auto [end, problem] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
        if (problem != std::errc() || end == rest.data() + rest.size() || *end != ':') {
            positioned = false;
            break;
        }
        rest.remove_prefix(static_cast<std::size_t>(end - rest.data()) + 1);
    }
    if (positioned && rest.starts_with(' '))
        message = rest.substr(1);
    else
        numbers[0] = numbers[1] = 0;
    const std::string shown = path.empty() ? std::string(message) : path + ": " + std::string(message);
    return diagnosticJson(Diagnostic {Severity::Error, shown, "", {numbers[0], numbers[1]}}, "template");
}

/// Renders `text` as the engine renders Jet (resources_jet_file, jet()), a Go template (the
/// scaffold go engine, with `dot` as its root) or a template string (a `*.templ` file of template()).
Result<std::string> renderTemplate(
    const Json &params, const TemplateScope &scope, const Json &dot, OutputLineMap &lineMap)
{
    const std::string &text = params.at("text").get_ref<const std::string &>();
    if (params.at("engine") == "template") {
        auto resolved = resolveTemplate(text, scope, TemplateValue::String, &lineMap);
        if (!resolved) {
            // The renderers' "LINE:COL: message" form, from the byte column in the whole text.
            const SourcePosition at
                = LineIndex(text).at(static_cast<std::size_t>(std::max(resolved.error().column, 1) - 1));
            return Error {"template", describeLocation("", at) + ": " + resolved.error().message};
        }
        return resolved->get<std::string>();
    }
    if (params.at("engine") == "jet") {
        auto parsed = JetTemplate::parse(text);
        if (!parsed)
            return parsed.error();
        return parsed->render(scope, &lineMap);
    }
    GoTemplateOptions options;
    options.scopeFunctions = {"kvGet"};
    auto parsed = GoTemplate::parse(text, options);
    if (!parsed)
        return parsed.error();
    return parsed->execute(dot, &scope, &lineMap);
}

Json templateRender(const Json &params, std::string_view manifest, const ResolveOptions &inputs)
{
    ManifestData data = resolveManifestData(manifest, inputs);
    const TemplateScope scope(inputs.facts, data.resolution.data, inputs.environ, inputs.baseDirectory, inputs.kvGet);
    const Json dot {{"Data", data.resolution.data}, {"Facts", inputs.facts.get()}, {"Environ", inputs.environ}};
    OutputLineMap lineMap;
    auto output = renderTemplate(params, scope, dot, lineMap);
    Json result = Json::object();
    if (output) {
        result["output"] = std::move(output).value();
        result["line_map"] = lineMap.lines();
    } else {
        data.diagnostics.push_back(templateDiagnostic(output.error(), params.value("path", std::string())));
    }
    const std::string &text = params.at("text").get_ref<const std::string &>();
    if (const std::vector<std::size_t> calls = registrationsCalls(text); !calls.empty()) {
        const LineIndex lines(text);
        for (const std::size_t call : calls)
            data.diagnostics.push_back(
                diagnosticJson({Severity::Warning, std::string(kNoRegistryMessage), "", lines.at(call)}, "template"));
    }
    if (!data.diagnostics.empty())
        result["diagnostics"] = std::move(data.diagnostics);
    return result;
}

Json evaluationValue(const ExpressionResult<Json> &value)
{
    if (value)
        return Json {{"value", value.value()}};
    Json error {{"message", value.error().message}};
    if (value.error().column > 0)
        error["column"] = value.error().column;
    return Json {{"error", std::move(error)}};
}

Json expressionEvaluate(const Json &params, std::string_view manifest, const ResolveOptions &inputs)
{
    ManifestData data = resolveManifestData(manifest, inputs);
    const TemplateScope scope(inputs.facts, data.resolution.data, inputs.environ, inputs.baseDirectory, inputs.kvGet);
    Json values = Json::array();
    for (const Json &item : params.at("items")) {
        const std::string &text = item.at("text").get_ref<const std::string &>();
        if (item.at("kind") == "template")
            values.push_back(evaluationValue(resolveTemplate(text, scope, TemplateValue::Typed)));
        else
            values.push_back(evaluationValue(evaluateExpression(text, scope)));
    }
    Json result {{"values", std::move(values)}};
    if (!data.diagnostics.empty())
        result["diagnostics"] = std::move(data.diagnostics);
    return result;
}

Json layerJson(const DataLayer &layer)
{
    switch (layer.kind) {
    case DataLayer::Kind::Data:
        return Json {{"kind", "data"}};
    case DataLayer::Kind::Override:
        return Json {{"kind", "override"}, {"entry", layer.entry}, {"name", layer.name}};
    case DataLayer::Kind::External:
        break;
    }
    return Json {{"kind", "external"}};
}

/// The nodes of `value`, counted up to `limit`.
std::size_t countNodes(const Json &value, std::size_t limit)
{
    std::size_t count = 1;
    if (value.is_object() || value.is_array()) {
        for (const Json &item : value) {
            if (count > limit)
                break;
            count += countNodes(item, limit - count);
        }
    }
    return count;
}

/// One entry of `keys` per map and other value under `value` (at `pointer`), parents first. A
/// map's value repeats its members, so deep data would multiply the answer: maps are given their
/// value while `budget` (nodes) lasts, then null.
void collectKeys(const Json &value, const std::string &pointer, const DataProvenance &provenance,
    const SourceMap &sourceMap, std::size_t &budget, Json &keys)
{
    for (const auto &[key, item] : value.items()) {
        const std::string itemPointer = appendPointer(pointer, key);
        const auto found = provenance.origins.find(itemPointer);
        const DataOrigin origin = found == provenance.origins.end() ? DataOrigin {} : found->second;
        SourcePosition position;
        if (!origin.source.empty())
            position = item.is_object() ? sourceMap.keyAt(origin.source) : sourceMap.valueAt(origin.source);
        const std::size_t nodes = item.is_object() ? countNodes(item, budget) : 0;
        const bool shown = nodes <= budget;
        budget -= shown ? nodes : 0;
        keys.push_back(Json {{"pointer", itemPointer}, {"value", shown ? item : Json()},
            {"layer", layerJson(origin.layer)}, {"line", position.line}, {"column", position.column}});
        if (item.is_object())
            collectKeys(item, itemPointer, provenance, sourceMap, budget, keys);
    }
}

Json hierarchyJson(const DataProvenance &provenance, Json &suggestions)
{
    Json entries = Json::array();
    for (std::size_t i = 0; i < provenance.entries.size(); ++i) {
        const HierarchyEntryState &state = provenance.entries[i];
        Json entry {{"template", state.source}, {"resolved", state.resolved}, {"matched", state.matched},
            {"override_exists", state.overrideExists}, {"applied", state.applied}};
        if (!state.error.empty())
            entry["error"] = state.error;
        entries.push_back(std::move(entry));
        if (state.matched && !state.overrideExists)
            suggestions.push_back(Json {{"entry", i}, {"name", state.resolved}});
    }
    return Json {{"merge", provenance.merge}, {"entries", std::move(entries)}};
}

Json dataResolve(std::string_view manifest, const ResolveOptions &inputs)
{
    DataProvenance provenance;
    ManifestData data = resolveManifestData(manifest, inputs, &provenance);
    Json keys = Json::array();
    std::size_t budget = kMaxRepeatedNodes;
    collectKeys(data.resolution.data, "/data", provenance, data.loaded.sourceMap, budget, keys);
    Json suggestions = Json::array();
    Json hierarchy = hierarchyJson(provenance, suggestions);
    return Json {{"data", data.resolution.data}, {"keys", std::move(keys)}, {"hierarchy", std::move(hierarchy)},
        {"suggestions", std::move(suggestions)}, {"diagnostics", std::move(data.diagnostics)}};
}

} // namespace

RpcResult<void> checkEditorParams(std::string_view method, const Json &params)
{
    if (method == "template.render")
        return checkTemplateParams(Params(params));
    if (method == "expression.evaluate")
        return checkItems(Params(params));
    return {};
}

Json runEditorMethod(
    std::string_view method, const Json &params, std::string_view manifest, const ResolveOptions &inputs)
{
    if (method == "template.render")
        return templateRender(params, manifest, inputs);
    if (method == "data.resolve")
        return dataResolve(manifest, inputs);
    return expressionEvaluate(params, manifest, inputs);
}

} // namespace ccm::daemon
