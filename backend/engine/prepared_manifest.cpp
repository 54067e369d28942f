// SPDX-License-Identifier: Apache-2.0
#include "engine/prepared_manifest.h"

#include "core/model/manifest.h"
#include "core/model/validator.h"

namespace ccm::engine {

std::string PreparedManifest::diagnosticText() const
{
    std::string text;
    for (const Diagnostic &diagnostic : diagnostics)
        text += formatDiagnostic(fileName, diagnostic) + '\n';
    return text;
}

PreparedManifest prepareManifestText(std::string_view text, std::string fileName, const ResolveOptions &options)
{
    PreparedManifest prepared;
    prepared.fileName = std::move(fileName);
    LoadedManifest loaded = loadManifest(text);
    // Validation and resolution read the model, never the raw document: dropped here, its memory
    // holds what they build.
    loaded.document = Json();
    prepared.diagnostics = validateManifest(loaded);
    if (hasErrors(prepared.diagnostics))
        return prepared;
    prepared.resolved = resolveManifest(loaded, text, options);
    prepared.diagnostics.insert(
        prepared.diagnostics.end(), prepared.resolved.diagnostics.begin(), prepared.resolved.diagnostics.end());
    return prepared;
}

PreparedManifest prepareManifestFile(const std::filesystem::path &path, ResolveOptions options)
{
    const FileText file = readManifestFile(path.string());
    if (file.problem) {
        PreparedManifest prepared;
        prepared.fileName = path.string();
        prepared.diagnostics.push_back(*file.problem);
        return prepared;
    }
    options.baseDirectory = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    return prepareManifestText(file.text, path.string(), options);
}

} // namespace ccm::engine
