// SPDX-License-Identifier: Apache-2.0
#include "core/model/resolve.h"

#include "core/hiera/hiera.h"
#include "core/model/manifest_writer.h"
#include "core/model/registry_warnings.h"
#include "core/model/schema_registry.h"
#include "core/model/validator.h"
#include "core/template/jet_template.h"
#include "core/template/template_scope.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <sstream>

namespace ccm {
namespace {

/// Lines the Jet output of resources_jet_file is shifted by when wrapped into a manifest.
constexpr int kJetWrapLines = 2;
constexpr int kJetWrapIndent = 4;

/// Wraps the YAML list rendered from resources_jet_file into a manifest so that the loader and the
/// validator see it exactly as if it had been written under ccm.resources.
std::string wrapJetResources(const std::string &rendered)
{
    std::string text = "ccm:\n  resources:\n";
    std::istringstream lines(rendered);
    for (std::string line; std::getline(lines, line);)
        text += (line.empty() ? std::string() : std::string(kJetWrapIndent, ' ') + line) + '\n';
    return text;
}

/// The template rule of a property schema (null for a property the type does not have).
PropertyTemplates templatesOf(const Json &schema)
{
    if (!schema.is_object())
        return PropertyTemplates::String;
    if (schema.value("x-ccm-deferred", false))
        return PropertyTemplates::Deferred;
    const std::string rule = schema.value("x-ccm-templates", std::string());
    if (rule == "none")
        return PropertyTemplates::None;
    if (rule == "typed")
        return PropertyTemplates::Typed;
    return PropertyTemplates::String;
}

class ManifestResolver
{
public:
    ManifestResolver(const LoadedManifest &manifest, std::string_view text, const ResolveOptions &options,
                     ResolvedManifest &out)
        : m_manifest(manifest)
        , m_text(text)
        , m_options(options)
        , m_out(out)
    {
    }

    void run()
    {
        if (hasErrors(m_manifest.diagnostics)) {
            m_out.diagnostics = m_manifest.diagnostics;
            return;
        }
        DataResolution data = resolveData(m_manifest, m_text, m_options.facts, m_options.externalData);
        m_out.diagnostics = std::move(data.diagnostics);
        if (!m_options.registrations) {
            for (Diagnostic &warning : registryWarnings(m_manifest, m_text))
                m_out.diagnostics.push_back(std::move(warning));
        }
        if (!m_out.ok())
            return;
        m_out.data = std::move(data.data);

        const TemplateScope scope(m_options.facts, m_out.data, m_options.environ, m_options.baseDirectory,
            m_options.kvGet, m_options.registrations);
        // A reference, not value_or(): a copy would duplicate every resource of the manifest.
        static const CcmSettings kNoSettings;
        const CcmSettings &settings = m_manifest.manifest.ccm ? *m_manifest.manifest.ccm : kNoSettings;
        m_out.preMessage = resolveMessage(settings.preMessage, "/ccm/pre_message", scope);
        m_out.postMessage = resolveMessage(settings.postMessage, "/ccm/post_message", scope);
        m_out.failOnError = settings.failOnError.value_or(false);

        if (settings.resourcesJetFile) {
            resolveJetResources(*settings.resourcesJetFile, scope);
        } else {
            const Origin origin{&m_manifest.sourceMap, m_text, {}, {}};
            resolveResources(m_manifest.manifest, &m_manifest.entryPointers, origin, scope);
        }
    }

private:
    /// Where resources were written: the manifest itself, or the output of resources_jet_file, whose
    /// positions are reported at the manifest's resources_jet_file entry.
    struct Origin {
        const SourceMap *sourceMap;
        std::string_view text;
        std::string jetFile; ///< empty for the manifest itself
        SourcePosition jetEntry;
    };

    void error(const Origin &origin, const std::string &pointer, std::string message, int column, bool atKey = false)
    {
        if (!origin.jetFile.empty()) {
            const SourcePosition inRendered = origin.sourceMap->valueAt(pointer);
            message += " (in the resources rendered from " + origin.jetFile + ", line "
                       + std::to_string(std::max(inRendered.line - kJetWrapLines, 1)) + ")";
            m_out.diagnostics.push_back({Severity::Error, std::move(message), "/ccm/resources_jet_file", origin.jetEntry});
            return;
        }
        const SourcePosition start = atKey ? origin.sourceMap->keyAt(pointer) : origin.sourceMap->valueAt(pointer);
        const SourcePosition position = atKey ? start : positionInScalar(origin.text, start, column);
        m_out.diagnostics.push_back({Severity::Error, std::move(message), pointer, position});
    }

    std::optional<std::string> resolveMessage(const std::optional<std::string> &message, const std::string &pointer,
                                              const TemplateScope &scope)
    {
        if (!message)
            return std::nullopt;
        auto resolved = resolveTemplate(*message, scope, TemplateValue::String);
        if (!resolved) {
            const Origin origin{&m_manifest.sourceMap, m_text, {}, {}};
            error(origin, pointer, "cannot resolve " + pointer.substr(5) + ": " + resolved.error().message,
                  resolved.error().column);
            return std::nullopt;
        }
        return resolved.value().get<std::string>();
    }

    void resolveJetResources(const std::string &file, const TemplateScope &scope)
    {
        const SourcePosition entry = m_manifest.sourceMap.valueAt("/ccm/resources_jet_file");
        const auto fail = [&](std::string message) {
            m_out.diagnostics.push_back({Severity::Error, std::move(message), "/ccm/resources_jet_file", entry});
        };
        auto source = readTemplateFile(file, m_options.baseDirectory);
        if (!source) {
            fail("resources_jet_file: " + source.error().message);
            return;
        }
        if (!m_options.registrations && !registrationsCalls(source.value()).empty()) {
            const LineIndex lines(source.value());
            for (const std::size_t call : registrationsCalls(source.value()))
                m_out.diagnostics.push_back(
                    {Severity::Warning, describeLocation(file, lines.at(call)) + ": " + std::string(kNoRegistryMessage),
                        "/ccm/resources_jet_file", entry});
        }
        JetOptions jetOptions;
        jetOptions.fileName = file;
        auto rendered = renderJet(source.value(), scope, jetOptions);
        if (!rendered) {
            fail("resources_jet_file: " + rendered.error().message);
            return;
        }

        m_jetText = wrapJetResources(rendered.value());
        m_jetManifest = loadManifest(m_jetText);
        const Origin origin{&m_jetManifest.sourceMap, m_jetText, file, entry};
        for (const Diagnostic &diagnostic : validateManifest(m_jetManifest)) {
            if (diagnostic.severity != Severity::Error)
                continue;
            fail(diagnostic.message + " (in the resources rendered from " + file + ", line "
                 + std::to_string(std::max(diagnostic.position.line - kJetWrapLines, 1)) + ":"
                 + std::to_string(std::max(diagnostic.position.column - kJetWrapIndent, 1)) + ")");
        }
        if (!m_out.ok())
            return;
        resolveResources(m_jetManifest.manifest, &m_jetManifest.entryPointers, origin, scope);
    }

    void resolveResources(const Manifest &manifest, const EntryPointers *pointers, const Origin &origin,
                          const TemplateScope &scope)
    {
        // One flat resource at a time, its properties moved on, rather than all of them copied at
        // once first: at 10,000 resources that copy held 8 of the 56 MiB peak.
        forEachFlatResource(
            manifest, pointers, [&](FlatResource &&flat) { resolveResource(std::move(flat), origin, scope); });
    }

    void resolveResource(FlatResource &&flat, const Origin &origin, const TemplateScope &scope)
    {
        ResolvedResource resource;
        resource.type = flat.type;
        resource.pointer = flat.pointer;
        resource.source = origin.jetFile;

        auto name = resolveTemplate(flat.name, scope, TemplateValue::String);
        if (!name) {
            // Looked up only for the error: one lookup per resource was 4 % of a noop run.
            const bool nameIsKey = !origin.sourceMap->contains(flat.pointer + "/name");
            error(origin, nameIsKey ? flat.pointer : flat.pointer + "/name",
                "cannot resolve the name of " + flat.label() + ": " + name.error().message, name.error().column,
                nameIsKey);
            return;
        }
        resource.name = name.value().get<std::string>();

        bool failed = false;
        for (auto member : flat.properties.items()) {
            const std::string &key = member.key();
            const PropertyTemplates rule = propertyTemplates(flat.type, key);
            if (rule == PropertyTemplates::Deferred || rule == PropertyTemplates::None) {
                appendMember(resource.properties, key, std::move(member.value()));
                continue;
            }
            const TemplateValue mode = rule == PropertyTemplates::Typed ? TemplateValue::Typed : TemplateValue::String;
            auto resolved = resolveTemplates(member.value(), scope, mode);
            if (!resolved) {
                const TemplateFailure &failure = resolved.error();
                error(origin, flat.propertyPointer(key) + failure.pointer,
                    "cannot resolve " + key + " of " + resource.label() + ": " + failure.error.message,
                    failure.error.column);
                failed = true;
                continue;
            }
            appendMember(resource.properties, key, std::move(resolved).value());
        }
        if (!failed)
            m_out.resources.push_back(std::move(resource));
    }

    const LoadedManifest &m_manifest;
    std::string_view m_text;
    const ResolveOptions &m_options;
    ResolvedManifest &m_out;
    /// The wrapped output of resources_jet_file; diagnostics point into it while resolving.
    std::string m_jetText;
    LoadedManifest m_jetManifest;
};

} // namespace

PropertyTemplates propertyTemplates(std::string_view type, std::string_view property)
{
    // Asked for every property of every resource; the rules never change, so each type's are read
    // from its schema once, when a resource of that type first asks (a run of file resources parses
    // no other type's schema).
    using TypeRules = std::map<std::string, PropertyTemplates, std::less<>>;
    static std::array<std::once_flag, kResourceTypes.size()> read;
    static std::array<TypeRules, kResourceTypes.size()> rules;
    const auto known = std::find(kResourceTypes.begin(), kResourceTypes.end(), type);
    if (known == kResourceTypes.end())
        return PropertyTemplates::String;
    const auto t = static_cast<std::size_t>(known - kResourceTypes.begin());
    std::call_once(read[t], [t] {
        const SchemaRegistry &registry = SchemaRegistry::instance();
        for (const std::string &name : registry.propertyOrder(kResourceTypes[t]))
            rules[t].emplace(name, templatesOf(registry.propertySchema(kResourceTypes[t], name)));
    });
    const auto rule = rules[t].find(property);
    return rule == rules[t].end() ? PropertyTemplates::String : rule->second;
}

ResolvedManifest resolveManifest(const LoadedManifest &manifest, std::string_view text, const ResolveOptions &options)
{
    ResolvedManifest out;
    ManifestResolver(manifest, text, options, out).run();
    sortByPosition(out.diagnostics);
    return out;
}

Result<Json, TemplateFailure> resolveDeferred(const ResolvedResource &resource, const ExpressionScope &scope)
{
    Json properties = resource.properties;
    for (auto &[key, value] : properties.items()) {
        if (propertyTemplates(resource.type, key) != PropertyTemplates::Deferred)
            continue;
        auto resolved = resolveTemplates(value, scope, TemplateValue::String, appendPointer("", key));
        if (!resolved)
            return resolved.error();
        value = std::move(resolved).value();
    }
    return properties;
}

std::string renderedManifestYaml(const ResolvedManifest &resolved)
{
    Manifest manifest;
    manifest.data = resolved.data;
    CcmSettings settings;
    settings.preMessage = resolved.preMessage;
    settings.postMessage = resolved.postMessage;
    if (resolved.failOnError)
        settings.failOnError = true;
    std::vector<ResourceBlock> blocks;
    blocks.reserve(resolved.resources.size());
    for (const ResolvedResource &resource : resolved.resources) {
        ResourceBlock block;
        block.type = resource.type;
        block.form = BodyForm::Single;
        block.entries.push_back(ResourceEntry{resource.name, resource.properties, false});
        blocks.push_back(std::move(block));
    }
    settings.resources = std::move(blocks);
    manifest.ccm = std::move(settings);
    return saveManifest(manifest);
}

} // namespace ccm
