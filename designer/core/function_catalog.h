// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include <span>

namespace ccm::designer {

/// One function of the expression and template language, as the completion popup offers it.
struct FunctionInfo {
    const char *name;
    const char *signature; ///< "lookup(path[, default])"
    const char *summary; ///< one line, untranslated: functionSummary() translates it
};

/// Every function expressions and templates know, in the order the popup lists them. The one
/// place the designer keeps them: completion, tooltips and the docs table read it.
std::span<const FunctionInfo> functionCatalog();

/// The summary of `function` in the user's language.
QString functionSummary(const FunctionInfo &function);

/// The entry named `name`, or null.
const FunctionInfo *findFunction(const QString &name);

} // namespace ccm::designer
