// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"
#include "json.h"
#include "source_map.h"

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

/// Limits that keep hostile input from exhausting memory or time.
struct YamlLimits {
    /// Nodes after alias expansion. 0 means one node per byte of text (at least 100,000): a
    /// document without aliases never has more, while alias bombs stop early.
    std::size_t maxNodes = 0;
};

/// Reads one YAML document. Plain scalars are typed the way CCM's own YAML reader types them
/// (null, true/false, integers in decimal, 0x, 0o and leading-zero octal, floats); quoted scalars
/// are strings. Text that is empty, binary, not UTF-8, malformed, holds several documents, has
/// duplicate or non-string keys, or expands past the limits gives diagnostics instead of a document.
YamlReadResult readYaml(std::string_view text, const YamlLimits &limits = {});

/// The value a plain (unquoted) YAML scalar stands for.
Json resolvePlainScalar(std::string_view text);

} // namespace ccm
