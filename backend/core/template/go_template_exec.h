// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"
#include "core/template/go_template_parser.h"
#include "core/template/output_line_map.h"
#include "core/yaml/source_map.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::gotmpl {

/// Where execute() records the template line of each output line: both set, or both null.
struct LineSink {
    OutputLineMap *map = nullptr;
    const LineIndex *lines = nullptr; ///< of `source`
};

/// What one execution may produce and do.
struct Limits {
    std::size_t maxOutput = 0; ///< bytes of output, and of any string a function builds
    std::uint64_t maxSteps = 0; ///< nodes walked and loop passes (kMaxTemplateSteps)
};

/// Runs the parse tree `root` of `source` with `dot` as data; going beyond `limits` fails.
Outcome<std::string> execute(std::string_view source, Limits limits, const ExpressionScope *scope,
    const std::vector<Node> &root, const Json &dot, LineSink sink = {});

} // namespace ccm::gotmpl
