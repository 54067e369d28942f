// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace ccm::designer {

/// How a text field holds expressions.
enum class ExpressionMode {
    Template, ///< a string with `{{ … }}` / `${ … }` parts (property values, data values)
    Expression, ///< the whole text is one expression (control if/unless)
};

/// What completion draws on; all of it is already in the designer, so completing costs no call to
/// the backend.
struct CompletionSources {
    ccm::Json facts; ///< the gathered facts (facts.get)
    ccm::Json data; ///< the resolved data (data.resolve)
    QStringList references; ///< "type#name" of the document's resources
};

/// One entry of the popup.
struct CompletionItem {
    QString insert; ///< replaces the text from Completions::start to the cursor
    QString display; ///< what the popup shows
    QString detail; ///< a short description (value, signature), for the tooltip
};

/// What may be completed at a cursor: the items and where the text they replace starts.
struct Completions {
    int start = -1;
    QList<CompletionItem> items;
};

/// Completions for a form field's text with the cursor at `cursor`: `Facts.` and `Data.` paths,
/// `lookup('…')` paths, function names and variables. `explicitRequest` (Ctrl+Space) offers names
/// before anything is typed.
Completions completeField(const QString &text, int cursor, ExpressionMode mode, const CompletionSources &sources,
    bool explicitRequest = false);

/// Completions in the manifest's YAML text: what completeField() offers inside `{{ … }}` and in
/// control `if:`/`unless:` values, and "type#name" references in `require:`/`subscribe:` lists.
Completions completeYaml(
    const QString &text, int cursor, const CompletionSources &sources, bool explicitRequest = false);

/// An expression in a text: what hovering over it evaluates.
struct ExpressionSpan {
    QString kind; ///< "template" (a `{{ … }}` with its delimiters) or "expression"
    QString text;
    int start = 0; ///< position of the first character in the searched text
    int end = 0; ///< one past the last character
};

/// The `{{ … }}` or `${ … }` around `position` (Template mode) or the whole trimmed text
/// (Expression mode), if any.
std::optional<ExpressionSpan> expressionAt(const QString &text, int position, ExpressionMode mode);

/// The expression at `position` of the manifest's YAML text: a `{{ … }}` on that line or the value
/// of a control `if:`/`unless:`. Positions are in the whole text.
std::optional<ExpressionSpan> yamlExpressionAt(const QString &text, int position);

} // namespace ccm::designer
