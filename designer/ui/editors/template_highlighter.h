// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/ui/editors/yaml_highlighter.h"

namespace ccm::designer {

/// Colours a template file: the file's own language underneath (YAML for `.yaml`/`.yml` files
/// and resource lists, nothing otherwise) and over it the template actions: Go-template and
/// expression `{{ … }}` with `{{- … -}}` trimming, Jet's `[[ … ]]`, `${ … }`, the keywords
/// (`if`, `else`, `range`, `end`, `with`, …), strings inside actions, and the comments
/// `{{/* … */}}` and `{* … *}`.
class TemplateHighlighter : public YamlHighlighter {
    Q_OBJECT

public:
    enum class Base { Plain, Yaml };

    TemplateHighlighter(QTextDocument *document, Base base, const QPalette &palette = QGuiApplication::palette());

    /// YAML for `*.yaml`, `*.yml` and names such as `resources.yaml.jet`; Plain otherwise.
    [[nodiscard]] static Base baseFor(const QString &path);

protected:
    void highlightBlock(const QString &text) override;

private:
    /// Colours the action that opens at `start`; returns where it ends (text.size() when open).
    int highlightAction(const QString &text, int start);
    /// Colours a comment from `start` up to and including `closer`; returns where it ends.
    int highlightComment(const QString &text, int start, const QString &closer, int openState);

    Base m_base;
};

} // namespace ccm::designer
