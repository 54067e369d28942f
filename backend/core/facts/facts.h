// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/lazy_facts.h"
#include "core/facts/system_facts.h"
#include "core/model/json.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ccm {

/// /etc/choria/ccm, then $XDG_CONFIG_HOME/choria/ccm when XDG_CONFIG_HOME is an absolute path, else
/// $HOME/.config/choria/ccm (left out when HOME is not set either).
std::vector<std::filesystem::path> defaultCustomFactDirectories();

/// Where facts come from besides the system. Defaults reproduce ENGINE-SPEC §5.
struct FactSources {
    /// Directories searched for facts.json, facts.yaml and facts.d/*.json|*.yaml|*.yml, in order;
    /// each deep-merged over the previous. Default: defaultCustomFactDirectories(). Tests set their own.
    std::vector<std::filesystem::path> customDirectories = defaultCustomFactDirectories();
    std::vector<std::string> commandLineFacts; ///< "key=value" from --fact, flat string keys
    std::optional<std::filesystem::path> factsFile; ///< --facts FILE (JSON or YAML, must be a map)
    bool includeSystem = true; ///< false: skip the built-in gathering (tests, `--no-system-facts`)
};

/// System facts, then custom directories, then --fact, then --facts, each deep-merged over the
/// previous. In a directory, facts.json comes before facts.yaml, then the facts.d entries sorted
/// by name; symlinks and other names in facts.d are skipped, missing directories and files too.
/// Files ending in .json are read as JSON, all others as YAML; an empty file adds nothing.
/// A file that cannot be read or parsed, a facts file that is not a map, or a --fact without '='
/// (or with an empty key) is an error naming the file (file:line:col for syntax errors) or the
/// argument. A --fact is never split: "a.b=c" sets the key "a.b" to the string "c".
Result<Json> gatherFacts(const FactSources &sources = {});

/// The facts of gatherFacts(), with the system's gathered only when they are first read. The files
/// and arguments are read now, so their errors come at once, and the facts read later are the same.
Result<LazyFacts> prepareFacts(const FactSources &sources = {});

} // namespace ccm
