// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"

#include <cstddef>
#include <optional>
#include <string_view>

namespace ccm {

/// Finds the first of the mistakes people make in block-style YAML, worded in plain terms at the
/// line and column at fault: a key indented unlike its siblings, a line where `key: value` was
/// expected, a tab in the indentation, a quoted string or a flow collection ([...], {...}) that is
/// never closed, a closing bracket that does not match. Called once the YAML parser refused the
/// text, whose own message often names a later line ("illegal map value"); nullopt when none of
/// these mistakes is found, or the text uses what this check does not follow (complex keys,
/// directives).
std::optional<Diagnostic> findYamlMistake(std::string_view text);

/// The offset of the quote that closes the YAML quoted scalar opening at `open` (a `'` or `"`) on
/// this text, or npos when it is not closed there.
std::size_t closingYamlQuote(std::string_view text, std::size_t open);

} // namespace ccm
