// SPDX-License-Identifier: Apache-2.0
#include "core/template/template_string.h"

#include "base/text.h"
#include "core/template/output_line_map.h"
#include "core/yaml/source_map.h"

#include <algorithm>
#include <optional>

namespace ccm {
namespace {

bool isQuote(char c)
{
    return c == '\'' || c == '"' || c == '`';
}

/// For an opener at `start` ("{{" or "${"), the index of the first character of its closer, or
/// nullopt when it has none.
std::optional<std::size_t> findCloser(std::string_view text, std::size_t start)
{
    const bool dollar = text[start] == '$';
    int depth = 1;
    std::size_t i = start + 2;
    while (i < text.size()) {
        const char c = text[i];
        if (isQuote(c)) {
            i = skipQuotedLiteral(text, i);
            if (i == std::string_view::npos)
                return std::nullopt;
            continue;
        }
        if (dollar) {
            if (c == '{') {
                ++depth;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        } else if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
            return i;
        }
        ++i;
    }
    return std::nullopt;
}

void appendText(std::vector<TemplateSegment> &segments, std::string_view text, std::size_t offset)
{
    if (text.empty())
        return;
    if (!segments.empty() && segments.back().kind == TemplateSegment::Kind::Text) {
        segments.back().text.append(text);
        return;
    }
    segments.push_back({TemplateSegment::Kind::Text, std::string(text), offset});
}

/// The one expression of a template that is nothing else once trimmed, or nullptr.
const TemplateSegment *soleExpression(const std::vector<TemplateSegment> &segments)
{
    const TemplateSegment *expression = nullptr;
    for (const TemplateSegment &segment : segments) {
        if (segment.kind == TemplateSegment::Kind::Text) {
            if (!trimAsciiSpace(segment.text).empty())
                return nullptr;
        } else if (expression) {
            return nullptr;
        } else {
            expression = &segment;
        }
    }
    return expression;
}

} // namespace

std::vector<TemplateSegment> scanTemplate(std::string_view text)
{
    std::vector<TemplateSegment> segments;
    std::size_t textStart = 0;
    std::size_t i = 0;
    while (i + 1 < text.size()) {
        const bool opener = (text[i] == '{' || text[i] == '$') && text[i + 1] == '{';
        if (!opener) {
            ++i;
            continue;
        }
        const auto closer = findCloser(text, i);
        if (!closer) {
            // A lone opener is text; what follows it may still hold expressions.
            i += 2;
            continue;
        }
        appendText(segments, text.substr(textStart, i - textStart), textStart);
        segments.push_back(
            {TemplateSegment::Kind::Expression, std::string(text.substr(i + 2, *closer - i - 2)), i + 2});
        i = *closer + (text[i] == '$' ? 1 : 2);
        textStart = i;
    }
    appendText(segments, text.substr(textStart), textStart);
    return segments;
}

bool hasTemplateExpressions(std::string_view text)
{
    if (text.find('{') == std::string_view::npos)
        return false;
    for (const TemplateSegment &segment : scanTemplate(text)) {
        if (segment.kind == TemplateSegment::Kind::Expression)
            return true;
    }
    return false;
}

ExpressionResult<Json> resolveTemplate(
    std::string_view text, const ExpressionScope &scope, TemplateValue mode, OutputLineMap *lineMap)
{
    if (text.find('{') == std::string_view::npos) {
        if (lineMap)
            lineMap->append(text, 1, OutputLineMap::Origin::Verbatim);
        return Json(std::string(text));
    }
    const std::vector<TemplateSegment> segments = scanTemplate(text);

    const auto evaluate = [&](const TemplateSegment &segment) -> ExpressionResult<Json> {
        auto value = evaluateExpression(segment.text, scope);
        if (!value) {
            ExpressionError error = value.error();
            // Columns of the expression become columns of the whole template string.
            error.column = static_cast<int>(segment.offset) + std::max(error.column, 1);
            return error;
        }
        return value;
    };

    if (mode == TemplateValue::Typed) {
        if (const TemplateSegment *only = soleExpression(segments))
            return evaluate(*only);
    }

    std::optional<LineIndex> lines;
    if (lineMap)
        lines.emplace(text);
    std::string out;
    out.reserve(text.size());
    for (const TemplateSegment &segment : segments) {
        if (segment.kind == TemplateSegment::Kind::Text) {
            out += segment.text;
            if (lineMap)
                lineMap->append(segment.text, lines->at(segment.offset).line, OutputLineMap::Origin::Verbatim);
            continue;
        }
        auto value = evaluate(segment);
        if (!value)
            return value.error();
        const std::string printed = formatValue(value.value());
        out += printed;
        if (lineMap)
            lineMap->append(printed, lines->at(segment.offset).line, OutputLineMap::Origin::Action);
    }
    return Json(std::move(out));
}

Result<Json, TemplateFailure> resolveTemplates(const Json &value, const ExpressionScope &scope, TemplateValue mode,
                                               const std::string &pointer)
{
    if (value.is_string()) {
        auto resolved = resolveTemplate(value.get_ref<const std::string &>(), scope, mode);
        if (!resolved)
            return TemplateFailure{pointer, resolved.error()};
        return std::move(resolved).value();
    }
    if (value.is_object()) {
        Json out = Json::object();
        for (const auto &[key, item] : value.items()) {
            auto resolved = resolveTemplates(item, scope, mode, appendPointer(pointer, key));
            if (!resolved)
                return resolved.error();
            appendMember(out, key, std::move(resolved).value());
        }
        return out;
    }
    if (value.is_array()) {
        Json out = Json::array();
        for (std::size_t i = 0; i < value.size(); ++i) {
            auto resolved = resolveTemplates(value[i], scope, mode, appendPointer(pointer, i));
            if (!resolved)
                return resolved.error();
            out.push_back(std::move(resolved).value());
        }
        return out;
    }
    return value;
}

} // namespace ccm
