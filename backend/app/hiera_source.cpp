// SPDX-License-Identifier: Apache-2.0
#include "app/hiera_source.h"

#include "app/manifest_input.h"
#include "core/hiera/hiera.h"
#include "core/model/manifest.h"
#include "core/yaml/yaml_reader.h"
#include "fleet/nats/kv_reader.h"

#include <filesystem>
#include <system_error>

namespace ccm::cli {
namespace {

/// Data sources larger than this are refused.
constexpr std::uint64_t kMaxSourceBytes = 16 * 1024 * 1024;

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
    const YamlReadResult yaml = readYaml(read->text);
    if (!yaml.document) {
        if (yaml.diagnostics.empty())
            return Error {"data", read->shownName + ": not a YAML or JSON document"};
        return Error {"data", formatDiagnostic(read->shownName, yaml.diagnostics.front())};
    }
    if (!yaml.document->root.is_object())
        return Error {"data",
            read->shownName + ": Hiera data must be a map with hierarchy, data and overrides, not "
                + describeJsonType(yaml.document->root)};
    const LoadedManifest loaded = loadManifest(read->text);
    DataResolution resolution = resolveData(loaded, read->text, facts, overrides);
    for (const Diagnostic &diagnostic : resolution.diagnostics) {
        if (diagnostic.severity == Severity::Error)
            return Error {"data", formatDiagnostic(read->shownName, diagnostic)};
    }
    return std::move(resolution.data);
}

} // namespace ccm::cli
