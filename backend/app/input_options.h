// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "facts.h"
#include "json.h"
#include "resolve.h"
#include "result.h"

#include <optional>
#include <string>
#include <vector>

namespace ccm::cli {

/// What the facts, render and apply commands resolve against: --fact K=V (repeatable),
/// --facts FILE and --data FILE.
struct InputOptions {
    FactSources facts;
    std::optional<std::string> dataFile;
};

/// The usage lines of the options above, for the commands' help texts.
extern const char *const kInputOptionsUsage;

/// Consumes the input option at args[index] (and its value, advancing index) when it is one.
/// Returns false when args[index] is not an input option; an error when its value is missing.
Result<bool> takeInputOption(
    const std::vector<std::string> &args, std::size_t &index, InputOptions &options, bool withData);

/// Reads --data FILE: a YAML or JSON map. Errors say FILE:LINE:COL and what is wrong.
Result<Json> loadDataFile(const std::string &path);

/// What a manifest is resolved against: gathered facts with the options' overrides, the process
/// environment and --data. The base directory is left for the caller. Errors say which input failed.
Result<ResolveOptions> resolveInputs(const InputOptions &options);

} // namespace ccm::cli
