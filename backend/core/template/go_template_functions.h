// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/expr/expression.h"
#include "core/template/go_template_value.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::gotmpl {

/// Why a function failed, without the position the caller adds.
struct Problem {
    std::string message;
};

template<typename T> using Checked = Result<T, Problem>;

using Args = std::vector<Value>;

struct Function {
    std::string_view name;
    std::size_t minArgs;
    std::size_t maxArgs;
    Checked<Value> (*call)(const Args &); ///< nullptr for and/or, which evaluate their arguments lazily
    /// Instead of `call` for functions that need the template's scope (registrations); the scope is
    /// null when the template is executed without one.
    Checked<Value> (*callWithScope)(const Args &, const ExpressionScope *) = nullptr;
};

/// The built-in function called `name`, or nullptr.
const Function *findFunction(std::string_view name);

} // namespace ccm::gotmpl
