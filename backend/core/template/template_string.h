// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/expr/expression.h"

#include <string>
#include <string_view>
#include <vector>

namespace ccm {

class OutputLineMap;

/// One piece of a template string: literal text, or the source of an embedded expression.
struct TemplateSegment {
    enum class Kind { Text, Expression };

    Kind kind = Kind::Text;
    std::string text; ///< the literal text, or the expression between its delimiters
    std::size_t offset = 0; ///< byte offset of `text` in the template string

    friend bool operator==(const TemplateSegment &, const TemplateSegment &) = default;
};

/// Splits a template string by the scanner rules of ENGINE-SPEC §4: `{{ e }}` and `${ e }` are
/// equivalent and may be mixed; quotes (' " `) with backslash escapes hide delimiters; `{{` closes
/// at the first `}}` outside quotes; `${` tracks nested braces; an opener without a closer stays
/// literal text, and so does a `$` not followed by `{`. Adjacent text is merged into one segment.
std::vector<TemplateSegment> scanTemplate(std::string_view text);

/// True when the text holds at least one complete expression.
bool hasTemplateExpressions(std::string_view text);

/// How a resolved template gives its value.
enum class TemplateValue {
    String, ///< always a string (resource properties, messages)
    Typed, ///< the expression's own value when the trimmed text is exactly one expression (data)
};

/// Evaluates each expression of `text` with `scope` and joins the pieces, printing values with
/// formatValue(). Errors carry the column in `text` (1-based, bytes) of the failing part. With
/// `lineMap` (String mode), records which line of `text` produced each line of the result.
ExpressionResult<Json> resolveTemplate(std::string_view text, const ExpressionScope &scope,
    TemplateValue mode = TemplateValue::String, OutputLineMap *lineMap = nullptr);

/// Resolves every string inside `value` (map values and list items, recursively; keys stay as
/// they are). `pointer` names `value` and is extended to say where a failure happened.
struct TemplateFailure {
    std::string pointer; ///< JSON Pointer of the string that failed, relative to the caller's root
    ExpressionError error;
};
Result<Json, TemplateFailure> resolveTemplates(const Json &value, const ExpressionScope &scope, TemplateValue mode,
                                               const std::string &pointer = {});

} // namespace ccm
