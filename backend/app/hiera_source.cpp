// SPDX-License-Identifier: Apache-2.0
#include "app/hiera_source.h"

#include "app/manifest_input.h"
#include "base/file_reading.h"
#include "core/hiera/hiera.h"
#include "fleet/nats/kv_reader.h"

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
    auto text = readTextFile(source, kMaxSourceBytes);
    if (!text)
        return text.error();
    return SourceText {std::move(text).value(), source};
}

Result<Json> resolveHieraSource(
    const std::string &source, const LazyFacts &facts, const Json &overrides, const fleet::SourceOptions &sources)
{
    auto read = readDataSource(source, sources);
    if (!read)
        return read.error();
    DataResolution resolution = resolveHieraDocument(read->text, facts, overrides);
    for (const Diagnostic &diagnostic : resolution.diagnostics) {
        if (diagnostic.severity == Severity::Error)
            return Error {"data", formatDiagnostic(read->shownName, diagnostic)};
    }
    return std::move(resolution.data);
}

} // namespace ccm::cli
