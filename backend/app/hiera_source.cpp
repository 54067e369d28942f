// SPDX-License-Identifier: Apache-2.0
#include "app/hiera_source.h"

#include "app/manifest_input.h"
#include "core/hiera/hiera.h"
#include "core/model/manifest.h"
#include "fleet/nats/kv_reader.h"

#include <filesystem>
#include <system_error>

namespace ccm::cli {
namespace {

/// Data sources larger than this are refused.
constexpr std::uint64_t kMaxSourceBytes = 16 * 1024 * 1024;

/// Upstream's Hiera reads hierarchy, data and overrides and ignores other keys; the manifest
/// loader calls those errors, and the lack of a ccm section a warning.
bool hieraDiagnosticMatters(const Diagnostic &diagnostic)
{
    if (diagnostic.severity != Severity::Error)
        return false;
    const bool topLevel = diagnostic.path.size() > 1 && diagnostic.path.find('/', 1) == std::string::npos;
    return !(topLevel && diagnostic.message.starts_with("unknown top-level key"));
}

} // namespace

Result<SourceText> readDataSource(const std::string &source, const fleet::SourceOptions &sources)
{
    if (fleet::isHttpUrl(source)) {
        auto text = fetchText(source, sources, kMaxSourceBytes);
        if (!text)
            return text.error();
        return SourceText {std::move(text).value(), fleet::redactUrl(source)};
    }
    if (fleet::isKvUrl(source)) {
        auto url = fleet::parseKvUrl(source);
        if (!url)
            return url.error();
        fleet::KvReader reader(sources.nats, sources.environment);
        auto text = reader.get(url->bucket, url->key);
        if (!text)
            return text.error().withContext(source);
        return SourceText {std::move(text).value(), source};
    }
    std::error_code error;
    if (!std::filesystem::exists(source, error) && !error)
        return Error {"not_found", source + ": no such file"};
    const FileText file = readManifestFile(source);
    if (file.problem)
        return Error {"io", source + ": " + file.problem->message};
    return SourceText {file.text, source};
}

Result<Json> resolveHieraSource(
    const std::string &source, const LazyFacts &facts, const Json &overrides, const fleet::SourceOptions &sources)
{
    auto read = readDataSource(source, sources);
    if (!read)
        return read.error();
    const LoadedManifest loaded = loadManifest(read->text);
    for (const Diagnostic &diagnostic : loaded.diagnostics) {
        if (hieraDiagnosticMatters(diagnostic))
            return Error {"data", formatDiagnostic(read->shownName, diagnostic)};
    }
    if (!loaded.parsed || !loaded.document.is_object())
        return Error {
            "data", read->shownName + ": Hiera data must be a YAML or JSON map with hierarchy, data and overrides"};
    DataResolution resolution = resolveData(loaded, read->text, facts, overrides);
    for (const Diagnostic &diagnostic : resolution.diagnostics) {
        if (diagnostic.severity == Severity::Error)
            return Error {"data", formatDiagnostic(read->shownName, diagnostic)};
    }
    return std::move(resolution.data);
}

} // namespace ccm::cli
