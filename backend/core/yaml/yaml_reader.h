// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "core/yaml/source_map.h"

#include <optional>
#include <string_view>

namespace ccm {

/// A YAML document as JSON-like data plus the text position of every node.
struct YamlDocument {
    Json root;
    SourceMap sourceMap;
};

/// Result of reading YAML text: a document when the text could be read, and the problems found.
struct YamlReadResult {
    std::optional<YamlDocument> document;
    Diagnostics diagnostics;
};

/// Nodes a document may hold, map keys included, once its aliases are expanded. A manifest of
/// 50,000 resources has about 500,000 and one that fills the 16 MiB size limit with resources
/// about 1,070,000; validating one of 100,000 resources, near the budget, peaks at about 230 MB.
inline constexpr std::size_t kDefaultMaxYamlNodes = 1'000'000;

/// Items (commas and nested collections) one outermost flow collection, [...] or {...}, may hold.
/// The parser keeps such a collection whole in memory, at about a hundred bytes an item, before
/// it reports any of it; lists that long belong in block style.
inline constexpr std::size_t kDefaultMaxFlowItems = 100'000;

/// Bytes of scalar text (map keys included) a document may hold once its aliases are expanded.
/// Without aliases a document holds less than its text; the limit stops aliases that repeat long
/// strings, which the node budget does not bound.
inline constexpr std::size_t kDefaultMaxYamlScalarBytes = 64 * 1024 * 1024;

/// Limits that keep hostile input from exhausting memory or time.
struct YamlLimits {
    /// Nodes (map keys included) after alias expansion, counted while parsing: the reader stops
    /// at the node or alias that goes past it, whatever the size of the text.
    std::size_t maxNodes = kDefaultMaxYamlNodes;
    /// Bytes of scalar text after alias expansion, counted while parsing like maxNodes.
    std::size_t maxScalarBytes = kDefaultMaxYamlScalarBytes;
    /// Items of one outermost flow collection, checked before parsing.
    std::size_t maxFlowItems = kDefaultMaxFlowItems;
};

/// Reads one YAML document. Plain scalars are typed the way CCM's own YAML reader types them
/// (null, true/false, integers in decimal, 0x, 0o and leading-zero octal, floats); quoted scalars
/// are strings. Text that is empty, binary, not UTF-8, malformed, holds several documents, has
/// duplicate or non-string keys, or expands past the limits gives diagnostics instead of a document.
YamlReadResult readYaml(std::string_view text, const YamlLimits &limits = {});

/// The value a plain (unquoted) YAML scalar stands for.
Json resolvePlainScalar(std::string_view text);

} // namespace ccm
