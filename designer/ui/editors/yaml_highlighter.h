// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QGuiApplication>
#include <QList>
#include <QPalette>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QTextLayout>

#include <array>

namespace ccm::designer {

/// The colours of a CCM manifest as YAML, one line at a time: comments, keys, quoted strings, block
/// scalars, constants, anchors, tags, list dashes, document markers, and the `{{ ... }}` /
/// `${ ... }` templates inside scalars. Colours come from a palette so that they stay readable on
/// light and dark bases. YamlHighlighter applies them to a document through QSyntaxHighlighter, the
/// YAML view through an IncrementalHighlighter.
class YamlColours {
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

    /// Stretches of one line and their formats, in order and not overlapping.
    using Formats = QList<QTextLayout::FormatRange>;

    explicit YamlColours(const QPalette &palette = QGuiApplication::palette());

    /// Derives the formats from `palette`.
    void setPalette(const QPalette &palette);

    /// The format used for `token` with the current palette.
    [[nodiscard]] QTextCharFormat tokenFormat(Token token) const;

    /// Colours `line` (without its line break) into `formats`, given the state the line before
    /// ended in (-1 before the first line); returns the state this line ends in.
    int colourLine(const QString &line, int previousState, Formats &formats) const;

private:
    std::array<QTextCharFormat, 11> m_formats;
};

/// Paints `format` over `start`..`start + length` of a line's `formats`: the parts of earlier
/// stretches under it give way, as with QSyntaxHighlighter::setFormat.
void paintFormat(YamlColours::Formats &formats, int start, int length, const QTextCharFormat &format);

/// YamlColours as a QSyntaxHighlighter, for small documents and for highlighters built on it.
class YamlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT

public:
    using Token = YamlColours::Token;

    explicit YamlHighlighter(QTextDocument *document, const QPalette &palette = QGuiApplication::palette());

    /// Derives the formats from `palette` and highlights the document again.
    void setPalette(const QPalette &palette);

    /// The format used for `token` with the current palette.
    [[nodiscard]] QTextCharFormat tokenFormat(Token token) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    YamlColours m_colours;
};

} // namespace ccm::designer
