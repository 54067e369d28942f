// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/expr/expression.h"
#include "core/template/template_steps.h"

#include <memory>
#include <string>
#include <string_view>

namespace ccm {

class OutputLineMap;

/// How a Jet template is written and where it came from.
struct JetOptions {
    std::string leftDelimiter = "[[";
    std::string rightDelimiter = "]]";
    std::string fileName; ///< for error messages; "" for inline text
    std::uint64_t maxSteps = kMaxTemplateSteps; ///< nodes rendered and loop passes, in one rendering
};

/// A parsed template of the Jet subset (ENGINE-SPEC §4) used by resources_jet_file, jet() and the
/// scaffold jet engine: output actions, range, if/else if/else, local variables, {* comments *} and
/// trim markers, with expressions in the CCM expression language. Parse once, render many times;
/// rendering never changes the template. Cheap to copy.
///
/// Errors have the code "template" and the message "FILE:LINE:COL: what is wrong" (without "FILE:"
/// when JetOptions::fileName is empty); lines and columns are 1-based, columns count bytes.
class JetTemplate {
public:
    /// Parses `text`. Fails on unclosed actions and comments, unbalanced blocks, bad range or
    /// assignment syntax, expression syntax errors and blocks nested deeper than 100.
    static Result<JetTemplate> parse(std::string_view text, const JetOptions &options = {});

    /// Renders with `scope` giving Facts/Data/Environ (and functions like readFile); Jet locals
    /// (range/assignment variables and ".") shadow it. Fails on expression errors, ranging over a
    /// scalar, assigning an undefined variable, output or a variable larger than 64 MiB, and more
    /// than JetOptions::maxSteps steps (each piece of text, action and block, and each pass of a
    /// loop).
    /// With `lineMap`, records which template line produced each output line.
    [[nodiscard]] Result<std::string> render(const ExpressionScope &scope, OutputLineMap *lineMap = nullptr) const;

    struct Compiled;

private:
    explicit JetTemplate(std::shared_ptr<const Compiled> compiled);

    std::shared_ptr<const Compiled> m_compiled;
};

/// Parse and render in one step.
Result<std::string> renderJet(std::string_view text, const ExpressionScope &scope, const JetOptions &options = {});

} // namespace ccm
