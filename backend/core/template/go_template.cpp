// SPDX-License-Identifier: Apache-2.0
#include "core/template/go_template.h"

#include "core/template/go_template_exec.h"
#include "core/template/go_template_lexer.h"
#include "core/template/go_template_parser.h"
#include "core/yaml/source_map.h"

#include <utility>

namespace ccm {

struct GoTemplate::Tree {
    std::string text;
    std::string fileName;
    LineIndex lines;
    gotmpl::Limits limits;
    std::vector<gotmpl::Node> root;
    std::vector<std::string> scopeFunctions;

    [[nodiscard]] Error error(const gotmpl::Failure &failure) const
    {
        return Error {"template", describeLocation(fileName, lines.at(failure.offset)) + ": " + failure.message};
    }
};

GoTemplate::GoTemplate(std::shared_ptr<const Tree> tree)
    : m_tree(std::move(tree))
{
}

Result<GoTemplate> GoTemplate::parse(std::string_view text, const GoTemplateOptions &options)
{
    auto tree = std::make_shared<Tree>();
    tree->text = std::string(text);
    tree->fileName = options.fileName;
    tree->limits = {options.maxOutputBytes, options.maxSteps};
    tree->lines = LineIndex(text);
    const std::string_view left
        = options.leftDelimiter.empty() ? std::string_view("{{") : std::string_view(options.leftDelimiter);
    const std::string_view right
        = options.rightDelimiter.empty() ? std::string_view("}}") : std::string_view(options.rightDelimiter);
    auto tokens = gotmpl::tokenize(tree->text, left, right);
    if (!tokens)
        return tree->error(tokens.error());
    tree->scopeFunctions = options.scopeFunctions;
    auto root = gotmpl::parseTemplate(tree->text, std::move(tokens).value(), options.maxDepth, tree->scopeFunctions);
    if (!root)
        return tree->error(root.error());
    tree->root = std::move(root).value();
    return GoTemplate(std::move(tree));
}

Result<std::string> GoTemplate::execute(const Json &dot, const ExpressionScope *scope, OutputLineMap *lineMap) const
{
    const gotmpl::LineSink sink {lineMap, lineMap ? &m_tree->lines : nullptr};
    auto output = gotmpl::execute(m_tree->text, m_tree->limits, scope, m_tree->root, dot, sink);
    if (!output)
        return m_tree->error(output.error());
    return std::move(output).value();
}

Result<std::string> renderGoTemplate(std::string_view text, const Json &dot, const GoTemplateOptions &options)
{
    auto parsed = GoTemplate::parse(text, options);
    if (!parsed)
        return parsed.error();
    return parsed.value().execute(dot);
}

} // namespace ccm
