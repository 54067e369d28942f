// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/lazy_facts.h"
#include "core/model/json.h"
#include "fleet/agent/bundle_source.h"

#include <string>

namespace ccm::cli {

/// The text of a data source as upstream's --hiera, `hiera parse` and --data take one: a file, an
/// http(s):// URL or kv://BUCKET/KEY. `shownName` is how messages name it (a URL without its
/// credentials). A file that does not exist is ReadErrc::NotFound (base/file_reading.h).
struct SourceText {
    std::string text;
    std::string shownName;
};
Result<SourceText> readDataSource(const std::string &source, const fleet::SourceOptions &sources);

/// Resolves a Hiera document (a YAML or JSON map with `hierarchy`, `data` and `overrides`, as a
/// manifest has them) read from `source` against `facts`, with `overrides` merged over the result:
/// the data it gives. Errors say SOURCE:LINE:COL and what is wrong; a missing file is ReadErrc::NotFound.
Result<Json> resolveHieraSource(
    const std::string &source, const LazyFacts &facts, const Json &overrides, const fleet::SourceOptions &sources);

} // namespace ccm::cli
