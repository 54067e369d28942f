// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/expr/expression.h"
#include "core/model/json.h"
#include "core/template/template_steps.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

class OutputLineMap;

/// How a Go template is read, and the limits that keep hostile templates from exhausting the stack
/// or memory.
struct GoTemplateOptions {
    std::string leftDelimiter = "{{"; ///< "" stands for "{{", as in Go
    std::string rightDelimiter = "}}"; ///< "" stands for "}}", as in Go
    std::string fileName; ///< used in error messages; "" for an inline template
    int maxDepth = 100; ///< nesting of blocks and parenthesised pipelines
    std::size_t maxOutputBytes = 64 * 1024 * 1024; ///< rendered text, and any string a function builds
    std::uint64_t maxSteps = kMaxTemplateSteps; ///< nodes walked and loop passes, in one execution
    /// Functions beyond the built-in ones that the template may call (kvGet in scaffold templates);
    /// execute() calls them through its scope.
    std::vector<std::string> scopeFunctions;
};

/// A template of the Go text/template subset used by the scaffold `go` engine (ENGINE-SPEC §4):
/// text and actions, comments, trim markers, fields and variables, pipelines, if/with/range with
/// else, break and continue, and the functions and, or, not, len, index, slice, eq, ne, lt, le,
/// gt, ge, print, printf, println, html, js and urlquery. define, template and block are refused.
///
/// Values print as Go prints them (a missing key or null as "<no value>"), except that lists and
/// maps print as compact JSON and numbers as JSON numbers (3.0 prints "3"); numbers compare by
/// value whether integer or float; printf refuses what Go would print as a "%!d(...)" marker.
/// Errors are Error{"template", "FILE:LINE:COL: what is wrong"} with a 1-based line and a 1-based
/// byte column; FILE is left out when GoTemplateOptions::fileName is empty.
///
/// Parse once and execute many times; executing never changes the template. Cheap to copy.
class GoTemplate {
public:
    /// Parses `text`: syntax, unknown functions, undefined variables and misplaced keywords are
    /// found here, before any data is seen.
    static Result<GoTemplate> parse(std::string_view text, const GoTemplateOptions &options = {});

    /// Renders the template with `dot` as the root value (`.` and `$`); in CCM that is
    /// {"Data": ..., "Facts": ..., "Environ": ...}. GoTemplateOptions::scopeFunctions are called
    /// through `scope` with their arguments' values; without a scope they fail. With `lineMap`,
    /// records which template line produced each output line.
    [[nodiscard]] Result<std::string> execute(
        const Json &dot, const ExpressionScope *scope = nullptr, OutputLineMap *lineMap = nullptr) const;

    struct Tree;

private:
    explicit GoTemplate(std::shared_ptr<const Tree> tree);

    std::shared_ptr<const Tree> m_tree;
};

/// Parses and executes in one step.
Result<std::string> renderGoTemplate(std::string_view text, const Json &dot, const GoTemplateOptions &options = {});

} // namespace ccm
