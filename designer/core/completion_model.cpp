// SPDX-License-Identifier: Apache-2.0
#include "designer/core/completion_model.h"

#include "designer/core/function_catalog.h"

#include <QRegularExpression>

namespace ccm::designer {

namespace {

constexpr qsizetype kMaxItems = 300;
constexpr int kMaxListIndices = 20;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

/// A short preview of a value for the popup.
QString preview(const Json &value)
{
    if (value.is_object())
        return QStringLiteral("{…}");
    if (value.is_array())
        return QStringLiteral("[%1]").arg(value.size());
    QString text = value.is_string() ? qs(value.get<std::string>()) : qs(value.dump());
    if (text.size() > 40)
        text = text.left(39) + QChar(0x2026);
    return text;
}

/// The value at the dotted path `segments` under `root`; null when there is none. List items are
/// named by their index.
const Json *descend(const Json &root, const QStringList &segments)
{
    const Json *node = &root;
    for (const QString &segment : segments) {
        const std::string key = segment.toStdString();
        if (node->is_object() && node->contains(key)) {
            node = &(*node)[key];
            continue;
        }
        bool isIndex = false;
        const int index = segment.toInt(&isIndex);
        if (!node->is_array() || !isIndex || index < 0 || index >= int(node->size()))
            return nullptr;
        node = &(*node)[std::size_t(index)];
    }
    return node;
}

/// Children of the value at `parentPath` whose name starts with `partial`, as `prefix.child`.
void addChildren(Completions &out, const Json *node, const QString &prefix, const QString &partial, bool indices)
{
    if (node == nullptr)
        return;
    const auto add = [&](const QString &name, const Json &child) {
        if (out.items.size() < kMaxItems && name.startsWith(partial, Qt::CaseInsensitive))
            out.items.append({prefix + name, name + QStringLiteral("  ") + preview(child), preview(child)});
    };
    if (node->is_object()) {
        for (const auto &[key, child] : node->items())
            add(qs(key), child);
    } else if (node->is_array() && indices) {
        for (int i = 0; i < int(node->size()) && i < kMaxListIndices; ++i)
            add(QString::number(i), (*node)[std::size_t(i)]);
        add(QStringLiteral("#"), Json(node->size()));
    }
}

/// `lookup('facts.host.` paths: facts, data and environ and their children.
void completeLookupPath(Completions &out, const QString &path, const CompletionSources &sources)
{
    QStringList segments = path.split(QLatin1Char('.'));
    const QString partial = segments.takeLast();
    if (segments.isEmpty()) {
        for (const char *root : {"facts", "data", "environ"}) {
            if (QLatin1String(root).startsWith(partial, Qt::CaseInsensitive))
                out.items.append({QLatin1String(root), QLatin1String(root), {}});
        }
        return;
    }
    const QString root = segments.takeFirst();
    const Json *base = root == QLatin1String("facts") ? &sources.facts
        : root == QLatin1String("data")               ? &sources.data
                                                      : nullptr;
    if (base == nullptr)
        return;
    const QString prefix = path.left(path.size() - partial.size());
    addChildren(out, descend(*base, segments), prefix, partial, true);
}

void completeNames(Completions &out, const QString &partial)
{
    for (const char *variable : {"Facts", "Data", "Environ"}) {
        if (QLatin1String(variable).startsWith(partial, Qt::CaseInsensitive))
            out.items.append({QLatin1String(variable), QLatin1String(variable), {}});
    }
    for (const FunctionInfo &function : functionCatalog()) {
        const QString name = QLatin1String(function.name);
        if (name.startsWith(partial, Qt::CaseInsensitive))
            out.items.append({name + QLatin1Char('('), QLatin1String(function.signature),
                QLatin1String(function.signature) + QStringLiteral(": ") + functionSummary(function)});
    }
}

/// Completions for an expression typed from `exprStart` to `cursor` of `text`.
Completions completeExpression(
    const QString &text, int exprStart, int cursor, const CompletionSources &sources, bool explicitRequest)
{
    Completions out;
    const QString typed = text.mid(exprStart, cursor - exprStart);
    static const QRegularExpression lookupPath(QStringLiteral(R"(lookup\(\s*(['"])([^'"]*)$)"));
    if (const auto match = lookupPath.match(typed); match.hasMatch()) {
        out.start = exprStart + int(match.capturedStart(2));
        completeLookupPath(out, match.captured(2), sources);
        return out;
    }
    static const QRegularExpression chain(QStringLiteral(R"((?<![\w.])[A-Za-z_]\w*(?:\.\w*)*$)"));
    const auto match = chain.match(typed);
    if (!match.hasMatch()) {
        if (explicitRequest) {
            out.start = cursor;
            completeNames(out, {});
        }
        return out;
    }
    const QString word = match.captured(0);
    out.start = exprStart + int(match.capturedStart(0));
    QStringList segments = word.split(QLatin1Char('.'));
    const QString partial = segments.takeLast();
    if (segments.isEmpty()) {
        completeNames(out, partial);
        return out;
    }
    const QString root = segments.takeFirst();
    const Json *base = root == QLatin1String("Facts") ? &sources.facts
        : root == QLatin1String("Data")               ? &sources.data
                                                      : nullptr;
    if (base != nullptr)
        addChildren(out, descend(*base, segments), word.left(word.size() - partial.size()), partial, false);
    return out;
}

/// Where the `{{` or `${` still open at `cursor` starts its expression; -1 when none is open.
int openExpressionStart(const QString &text, int from, int cursor)
{
    const QString before = text.mid(from, cursor - from);
    const int braces = int(before.lastIndexOf(QLatin1String("{{")));
    const int dollar = int(before.lastIndexOf(QLatin1String("${")));
    const int open = std::max(braces, dollar);
    if (open < 0)
        return -1;
    const QString inside = before.mid(open + 2);
    if (open == braces && inside.contains(QLatin1String("}}")))
        return -1;
    if (open == dollar && inside.contains(QLatin1Char('}')))
        return -1;
    return from + open + 2;
}

int indentation(const QString &line)
{
    int count = 0;
    while (count < line.size() && line[count] == QLatin1Char(' '))
        ++count;
    return count;
}

/// The key of the mapping that holds the line starting at `lineStart` with `indent` spaces: the
/// nearest line above that is less indented (or as indented without being a list item).
QString parentKey(const QString &text, int lineStart, int indent, bool isListItem)
{
    int end = lineStart - 1;
    while (end > 0) {
        const int start = int(text.lastIndexOf(QLatin1Char('\n'), end - 1)) + 1;
        const QString line = text.mid(start, end - start);
        end = start - 1;
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
            continue;
        const int lineIndent = indentation(line);
        const bool itemLine = trimmed.startsWith(QLatin1Char('-'));
        if (lineIndent < indent || (isListItem && lineIndent == indent && !itemLine)) {
            const int colon = int(trimmed.indexOf(QLatin1Char(':')));
            QString key = colon < 0 ? QString() : trimmed.left(colon);
            if (key.startsWith(QLatin1Char('-')))
                key = key.mid(1).trimmed();
            return key;
        }
        if (start == 0)
            break;
    }
    return {};
}

struct YamlLine {
    int start = 0;
    QString text;
};

YamlLine lineAround(const QString &text, int position)
{
    const int start = position > 0 ? int(text.lastIndexOf(QLatin1Char('\n'), position - 1)) + 1 : 0;
    int end = int(text.indexOf(QLatin1Char('\n'), position));
    if (end < 0)
        end = int(text.size());
    return {start, text.mid(start, end - start)};
}

/// The position where a control `if:`/`unless:` value starts on `line`, or -1.
int controlValueStart(const QString &text, const YamlLine &line)
{
    static const QRegularExpression key(QStringLiteral(R"(^(\s*)(?:-\s+)?(if|unless):\s*(['"]?))"));
    const auto match = key.match(line.text);
    if (!match.hasMatch())
        return -1;
    const int indent = int(match.capturedLength(1));
    if (parentKey(text, line.start, indent, false) != QLatin1String("control"))
        return -1;
    return line.start + int(match.capturedEnd(0));
}

} // namespace

Completions completeField(
    const QString &text, int cursor, ExpressionMode mode, const CompletionSources &sources, bool explicitRequest)
{
    cursor = std::clamp(cursor, 0, int(text.size()));
    const int start = mode == ExpressionMode::Expression ? 0 : openExpressionStart(text, 0, cursor);
    if (start < 0)
        return {};
    return completeExpression(text, start, cursor, sources, explicitRequest);
}

Completions completeYaml(const QString &text, int cursor, const CompletionSources &sources, bool explicitRequest)
{
    cursor = std::clamp(cursor, 0, int(text.size()));
    const YamlLine line = lineAround(text, cursor);
    const QString before = line.text.left(cursor - line.start);
    static const QRegularExpression item(QStringLiteral(R"(^(\s*)-\s+['"]?([^'"\s]*)$)"));
    if (const auto match = item.match(before); match.hasMatch()) {
        const QString key = parentKey(text, line.start, int(match.capturedLength(1)), true);
        if (key == QLatin1String("require") || key == QLatin1String("subscribe")) {
            Completions out;
            out.start = line.start + int(match.capturedStart(2));
            for (const QString &target : sources.references) {
                if (target.contains(match.captured(2), Qt::CaseInsensitive) && out.items.size() < kMaxItems)
                    out.items.append({target, target, {}});
            }
            return out;
        }
    }
    const int control = controlValueStart(text, line);
    if (control >= 0 && cursor >= control)
        return completeExpression(text, control, cursor, sources, explicitRequest);
    const int start = openExpressionStart(text, line.start, cursor);
    if (start < 0)
        return {};
    return completeExpression(text, start, cursor, sources, explicitRequest);
}

std::optional<ExpressionSpan> expressionAt(const QString &text, int position, ExpressionMode mode)
{
    if (mode == ExpressionMode::Expression) {
        const QString trimmed = text.trimmed();
        if (trimmed.isEmpty())
            return std::nullopt;
        return ExpressionSpan {QStringLiteral("expression"), trimmed, 0, int(text.size())};
    }
    int from = 0;
    while (from < text.size()) {
        const int braces = int(text.indexOf(QLatin1String("{{"), from));
        const int dollar = int(text.indexOf(QLatin1String("${"), from));
        if (braces < 0 && dollar < 0)
            break;
        const bool isBraces = dollar < 0 || (braces >= 0 && braces < dollar);
        const int open = isBraces ? braces : dollar;
        const int close = int(text.indexOf(isBraces ? QStringLiteral("}}") : QStringLiteral("}"), open + 2));
        if (close < 0)
            break;
        const int end = close + (isBraces ? 2 : 1);
        if (position >= open && position < end)
            return ExpressionSpan {QStringLiteral("template"), text.mid(open, end - open), open, end};
        from = end;
    }
    return std::nullopt;
}

std::optional<ExpressionSpan> yamlExpressionAt(const QString &text, int position)
{
    if (position < 0 || position > text.size())
        return std::nullopt;
    const YamlLine line = lineAround(text, position);
    const int control = controlValueStart(text, line);
    if (control >= 0 && position >= control) {
        QString value = text.mid(control, line.start + line.text.size() - control).trimmed();
        const QChar quote = text.at(control - 1);
        if ((quote == QLatin1Char('"') || quote == QLatin1Char('\'')) && value.endsWith(quote))
            value.chop(1);
        if (value.isEmpty())
            return std::nullopt;
        return ExpressionSpan {QStringLiteral("expression"), value, control, control + int(value.size())};
    }
    auto span = expressionAt(line.text, position - line.start, ExpressionMode::Template);
    if (span) {
        span->start += line.start;
        span->end += line.start;
    }
    return span;
}

} // namespace ccm::designer
