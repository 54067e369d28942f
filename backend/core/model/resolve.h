// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"
#include "core/facts/lazy_facts.h"
#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "core/model/manifest.h"
#include "core/template/template_scope.h"
#include "core/template/template_string.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccm {

/// Everything a manifest is resolved against.
struct ResolveOptions {
    /// Gathered when a template, an expression or the hierarchy first reads them.
    LazyFacts facts;
    Json environ = Json::object();
    /// Data merged over the Hiera result (--data FILE, a parent manifest's apply `data`).
    Json externalData = Json::object();
    /// The manifest's directory: relative files of templates and resources_jet_file live there.
    std::filesystem::path baseDirectory = ".";
    /// kvGet()'s source of NATS key-value entries; empty when there is none (kvGet then fails).
    KvGetFunction kvGet;
    /// registrations()' lookup in the registration stream; empty when there is none (it then gives
    /// an empty list, and the manifest's calls are warned about).
    RegistrationsFunction registrations;
};

/// How templates in a property are resolved.
enum class PropertyTemplates {
    String, ///< every string is a template giving a string
    Typed, ///< free data maps: a value that is exactly one expression keeps its type
    Deferred, ///< resolved by the engine just before the resource is applied
    None, ///< taken literally (require, subscribe, control)
};

/// The template rule of a property, from its schema's x-ccm-deferred and x-ccm-templates.
PropertyTemplates propertyTemplates(std::string_view type, std::string_view property);

/// A resource with defaults applied and templates resolved, except deferred fields.
struct ResolvedResource {
    std::string type;
    std::string name;
    Json properties = Json::object(); ///< without name; deferred fields still hold templates
    std::string pointer; ///< the entry's body in the document it came from
    std::string source; ///< the file the resource was declared in when not the manifest (Jet)

    [[nodiscard]] std::string label() const { return type + '#' + name; }
};

/// A manifest ready to run: data resolved, resources flattened and resolved.
struct ResolvedManifest {
    Json data = Json::object();
    std::optional<std::string> preMessage;
    std::optional<std::string> postMessage;
    bool failOnError = false;
    std::vector<ResolvedResource> resources;
    Diagnostics diagnostics;

    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }
};

/// Resolves a loaded manifest (ENGINE-SPEC §3): Hiera data, then resources (from `resources` or by
/// rendering `resources_jet_file` with Jet), flattened, with templates resolved by the rule of each
/// property. `text` is the manifest's text (for positions and annotations). A manifest whose
/// loading gave errors is not resolved; its diagnostics are returned. Errors point at the value
/// that failed, with the column inside the template where the text allows.
ResolvedManifest resolveManifest(const LoadedManifest &manifest, std::string_view text, const ResolveOptions &options);

/// Resolves the deferred fields of a resource, as the engine does after the control gate. The
/// scope is the run's (data, facts, environ, files relative to the manifest).
Result<Json, TemplateFailure> resolveDeferred(const ResolvedResource &resource, const ExpressionScope &scope);

/// The resolved manifest as YAML, as `ccm-backend render` prints it: `data`, then `ccm` with the
/// messages, `fail_on_error` and one resource per item in single-map form.
std::string renderedManifestYaml(const ResolvedManifest &manifest);

} // namespace ccm
