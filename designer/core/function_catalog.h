// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <span>

namespace ccm::designer {

/// Where a function can be called.
enum class FunctionScope {
    Everywhere, ///< expressions, `{{ }}` templates and Jet
    Templates, ///< templates and Jet only (not during data resolution)
};

/// One function of the expression and template language, as the completion popup offers it.
struct FunctionInfo {
    const char *name;
    const char *signature; ///< "lookup(path[, default])"
    const char *summary; ///< one line, untranslated
    FunctionScope scope;
};

/// Every function expressions and templates know, in the order the popup lists them. The one
/// place the designer keeps them: completion, tooltips and the docs table read it.
std::span<const FunctionInfo> functionCatalog();

/// The entry named `name`, or null.
const FunctionInfo *findFunction(const QString &name);

} // namespace ccm::designer
