// SPDX-License-Identifier: Apache-2.0
// Small helpers the designer's widget tests share: diagnostics to show, the format a highlighter
// gave a character, an item of a JSON tree.
#pragma once

#include "core/model/diagnostic.h"
#include "designer/ui/editors/json_tree_editor.h"

#include <QString>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextDocument>
#include <QTextLayout>
#include <QTreeWidget>

#include <string>

namespace ccm::test {

/// A diagnostic at `line`:`column` (and at property `path` when given).
inline Diagnostic diagnostic(
    Severity severity, const std::string &message, int line, int column, const std::string &path = {})
{
    Diagnostic result;
    result.severity = severity;
    result.message = message;
    result.path = path;
    result.position = {line, column};
    return result;
}

/// The format a highlighter gave the character at `column` of line `line` (both from 0).
inline QTextCharFormat formatAt(const QTextDocument &document, int line, int column)
{
    const QTextBlock block = document.findBlockByNumber(line);
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (column >= range.start && column < range.start + range.length)
            return range.format;
    }
    return {};
}

/// The item of the tree whose key is `key`, at any depth; null when there is none.
inline QTreeWidgetItem *find(const designer::JsonTreeEditor &editor, const QString &key)
{
    const auto items
        = editor.tree()->findItems(key, Qt::MatchExactly | Qt::MatchRecursive, designer::JsonTreeEditor::KeyColumn);
    return items.isEmpty() ? nullptr : items.first();
}

} // namespace ccm::test
