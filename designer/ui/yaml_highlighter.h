// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QGuiApplication>
#include <QPalette>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>

namespace ccm::designer {

/// Colours a CCM manifest as YAML: comments, keys, quoted strings, block scalars, constants,
/// anchors, tags, list dashes, document markers, and the `{{ ... }}` / `${ ... }` templates inside
/// scalars. Colours come from a palette so that they stay readable on light and dark bases.
class YamlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

public:
    /// What a stretch of text is; each has one format.
    enum class Token {
        Comment,
        Key,
        String,
        BlockIndicator,
        BlockBody,
        Constant,
        Anchor,
        Tag,
        Dash,
        DocumentMarker,
        Template,
    };

    explicit YamlHighlighter(QTextDocument *document, const QPalette &palette = QGuiApplication::palette());

    /// Derives the formats from `palette` and highlights the document again.
    void setPalette(const QPalette &palette);

    /// The format used for `token` with the current palette.
    [[nodiscard]] QTextCharFormat tokenFormat(Token token) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    int highlightPlainLine(const QString &text);
    int highlightValue(const QString &text, int position, int lineIndent);
    int highlightFlowEntry(const QString &text, int position);
    void highlightScalar(const QString &text, int start, int length, bool quoted);
    void applyTemplates(const QString &text, int start, int length);

    std::array<QTextCharFormat, 11> m_formats;
};

/// The highlighter the YAML view uses: KDE's when the build found it, else YamlHighlighter.
QSyntaxHighlighter *createYamlHighlighter(QTextDocument *document, const QPalette &palette);

/// Makes a highlighter made by createYamlHighlighter() follow a palette change.
void updateYamlHighlighterPalette(QSyntaxHighlighter *highlighter, const QPalette &palette);

} // namespace ccm::designer
