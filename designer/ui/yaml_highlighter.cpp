// SPDX-License-Identifier: Apache-2.0
#include "yaml_highlighter.h"

#include "palette_tone.h"

#include <QRegularExpression>

#ifdef CCM_HAVE_KSYNTAXHIGHLIGHTING
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#endif

namespace ccm::designer {

namespace {

// Block states: 0 is ordinary YAML; a block scalar's body is (indentation of its parent + 1), so
// the next line knows how far it must be indented to still belong to the scalar.
constexpr int NormalState = 0;

// One hue per token; the lightness follows the base so that the text keeps its contrast.
QColor tone(const QPalette &palette, int hue, int saturation)
{
    return isDarkPalette(palette) ? QColor::fromHsl(hue, saturation, 175) : QColor::fromHsl(hue, saturation, 85);
}

QColor blend(const QColor &a, const QColor &b, qreal weight)
{
    return QColor::fromRgbF(a.redF() * (1 - weight) + b.redF() * weight,
        a.greenF() * (1 - weight) + b.greenF() * weight, a.blueF() * (1 - weight) + b.blueF() * weight);
}

int indentation(const QString &text)
{
    int column = 0;
    while (column < text.size() && text.at(column) == QLatin1Char(' '))
        ++column;
    return column;
}

bool isBlank(const QString &text)
{
    return text.trimmed().isEmpty();
}

bool isSpaceAt(const QString &text, int position)
{
    return position >= text.size() || text.at(position).isSpace();
}

bool isFlowIndicator(QChar c)
{
    return c == QLatin1Char(',') || c == QLatin1Char('[') || c == QLatin1Char(']') || c == QLatin1Char('{')
        || c == QLatin1Char('}');
}

// The end of a quoted scalar starting at `start` (exclusive), or the line's end when unclosed.
int quotedEnd(const QString &text, int start)
{
    const QChar quote = text.at(start);
    int position = start + 1;
    while (position < text.size()) {
        const QChar c = text.at(position);
        if (quote == QLatin1Char('"') && c == QLatin1Char('\\')) {
            position += 2;
            continue;
        }
        if (c == quote) {
            if (quote == QLatin1Char('\'') && position + 1 < text.size() && text.at(position + 1) == quote) {
                position += 2;
                continue;
            }
            return position + 1;
        }
        ++position;
    }
    return static_cast<int>(text.size());
}

// The position of the ':' ending a mapping key that starts at `start`, or -1.
int keyColon(const QString &text, int start)
{
    if (start >= text.size())
        return -1;
    const QChar first = text.at(start);
    if (first == QLatin1Char('"') || first == QLatin1Char('\'')) {
        int position = quotedEnd(text, start);
        while (position < text.size() && text.at(position) == QLatin1Char(' '))
            ++position;
        return position < text.size() && text.at(position) == QLatin1Char(':') && isSpaceAt(text, position + 1)
            ? position
            : -1;
    }
    static const QString notKeyStart = QStringLiteral("#[]{}|>&*!%@`,");
    if (notKeyStart.contains(first))
        return -1;
    for (int position = start; position < text.size(); ++position) {
        const QChar c = text.at(position);
        if (c == QLatin1Char('#') && position > start && text.at(position - 1).isSpace())
            return -1;
        if (c == QLatin1Char(':') && isSpaceAt(text, position + 1))
            return position;
    }
    return -1;
}

bool isConstant(const QString &scalar)
{
    static const QRegularExpression constant(QStringLiteral(
        "^(?:[-+]?(?:\\d[\\d_]*)(?:\\.\\d*)?(?:[eE][-+]?\\d+)?|[-+]?\\.\\d+(?:[eE][-+]?\\d+)?|0x[0-9a-fA-F]+|0o[0-7]+"
        "|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON"
        "|off|Off|OFF|null|Null|NULL|~)$"));
    return constant.match(scalar).hasMatch();
}

/// The end of the block scalar header ('|' or '>' with its chomping and indentation indicators)
/// at `position`, or -1 when more than a comment follows it on the line.
int blockScalarHeaderEnd(const QString &text, int position)
{
    const int size = static_cast<int>(text.size());
    int end = position + 1;
    while (
        end < size && (text.at(end) == QLatin1Char('+') || text.at(end) == QLatin1Char('-') || text.at(end).isDigit()))
        ++end;
    int rest = end;
    while (rest < size && text.at(rest).isSpace())
        ++rest;
    if (rest == size || (text.at(rest) == QLatin1Char('#') && rest > end))
        return end;
    return -1;
}

} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument *document, const QPalette &palette)
    : QSyntaxHighlighter(document)
{
    setPalette(palette);
}

void YamlHighlighter::setPalette(const QPalette &palette)
{
    const QColor text = palette.color(QPalette::Text);
    const QColor base = palette.color(QPalette::Base);
    const auto make = [](const QColor &colour, bool bold = false, bool italic = false) {
        QTextCharFormat format;
        format.setForeground(colour);
        if (bold)
            format.setFontWeight(QFont::Bold);
        format.setFontItalic(italic);
        return format;
    };
    const auto at = [this](Token token) -> QTextCharFormat & { return m_formats.at(static_cast<std::size_t>(token)); };
    at(Token::Comment) = make(blend(text, base, 0.4), false, true);
    at(Token::Key) = make(tone(palette, 212, 170), true);
    at(Token::String) = make(tone(palette, 120, 140));
    at(Token::BlockIndicator) = make(tone(palette, 30, 200), true);
    at(Token::BlockBody) = make(tone(palette, 150, 110));
    at(Token::Constant) = make(tone(palette, 28, 200));
    at(Token::Anchor) = make(tone(palette, 185, 170));
    at(Token::Tag) = make(tone(palette, 330, 150));
    at(Token::Dash) = make(tone(palette, 212, 170), true);
    at(Token::DocumentMarker) = make(blend(text, base, 0.3), true);
    QTextCharFormat templateFormat = make(tone(palette, 285, 170), true);
    templateFormat.setBackground(blend(base, tone(palette, 285, 170), 0.12));
    at(Token::Template) = templateFormat;
    rehighlight();
}

QTextCharFormat YamlHighlighter::tokenFormat(Token token) const
{
    return m_formats.at(static_cast<std::size_t>(token));
}

void YamlHighlighter::highlightBlock(const QString &text)
{
    const int previous = previousBlockState();
    if (previous > NormalState) {
        const int parentIndent = previous - 1;
        if (isBlank(text)) {
            setCurrentBlockState(previous);
            return;
        }
        if (indentation(text) > parentIndent) {
            setFormat(0, static_cast<int>(text.size()), tokenFormat(Token::BlockBody));
            applyTemplates(text, 0, static_cast<int>(text.size()));
            setCurrentBlockState(previous);
            return;
        }
    }
    setCurrentBlockState(highlightPlainLine(text));
}

int YamlHighlighter::highlightPlainLine(const QString &text)
{
    int position = 0;
    if ((text.startsWith(QLatin1String("---")) || text.startsWith(QLatin1String("..."))) && isSpaceAt(text, 3)) {
        setFormat(0, 3, tokenFormat(Token::DocumentMarker));
        position = 3;
    } else if (text.startsWith(QLatin1Char('%'))) {
        setFormat(0, static_cast<int>(text.size()), tokenFormat(Token::DocumentMarker));
        return NormalState;
    }
    const int lineIndent = indentation(text);
    while (position < text.size()) {
        while (position < text.size() && text.at(position).isSpace())
            ++position;
        if (position < text.size() && text.at(position) == QLatin1Char('-') && isSpaceAt(text, position + 1)) {
            setFormat(position, 1, tokenFormat(Token::Dash));
            ++position;
            continue;
        }
        break;
    }
    const int colon = keyColon(text, position);
    if (colon >= 0) {
        setFormat(position, colon - position, tokenFormat(Token::Key));
        position = colon + 1;
    }
    return highlightValue(text, position, lineIndent);
}

int YamlHighlighter::highlightValue(const QString &text, int position, int lineIndent)
{
    int state = NormalState;
    int flowDepth = 0;
    const int size = static_cast<int>(text.size());
    while (position < size) {
        const QChar c = text.at(position);
        if (c.isSpace()) {
            ++position;
            continue;
        }
        const bool afterSpace = position == 0 || text.at(position - 1).isSpace();
        if (c == QLatin1Char('#') && afterSpace) {
            setFormat(position, size - position, tokenFormat(Token::Comment));
            break;
        }
        if (c == QLatin1Char('&') || c == QLatin1Char('*') || c == QLatin1Char('!')) {
            int end = position + 1;
            while (end < size && !text.at(end).isSpace() && !isFlowIndicator(text.at(end)))
                ++end;
            setFormat(position, end - position, tokenFormat(c == QLatin1Char('!') ? Token::Tag : Token::Anchor));
            position = end;
            continue;
        }
        if ((c == QLatin1Char('|') || c == QLatin1Char('>')) && flowDepth == 0) {
            if (const int end = blockScalarHeaderEnd(text, position); end >= 0) {
                setFormat(position, end - position, tokenFormat(Token::BlockIndicator));
                state = lineIndent + 1;
                position = end;
                continue;
            }
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const int end = quotedEnd(text, position);
            highlightScalar(text, position, end - position, true);
            position = end;
            continue;
        }
        if (isFlowIndicator(c)) {
            if (c == QLatin1Char('[') || c == QLatin1Char('{'))
                ++flowDepth;
            else if ((c == QLatin1Char(']') || c == QLatin1Char('}')) && flowDepth > 0)
                --flowDepth;
            ++position;
            continue;
        }
        if (flowDepth > 0) {
            position = highlightFlowEntry(text, position);
            continue;
        }
        int end = position;
        while (end < size && !(text.at(end) == QLatin1Char('#') && text.at(end - 1).isSpace()))
            ++end;
        highlightScalar(text, position, end - position, false);
        position = end;
    }
    return state;
}

/// Highlights the key or the scalar at `position` inside a flow collection; returns where it ends.
int YamlHighlighter::highlightFlowEntry(const QString &text, int position)
{
    const int size = static_cast<int>(text.size());
    const int colon = keyColon(text, position);
    int end = position;
    while (end < size && !isFlowIndicator(text.at(end))
        && !(text.at(end) == QLatin1Char('#') && text.at(end - 1).isSpace()))
        ++end;
    if (colon >= 0 && colon < end) {
        setFormat(position, colon - position, tokenFormat(Token::Key));
        return colon + 1;
    }
    highlightScalar(text, position, end - position, false);
    return end;
}

void YamlHighlighter::highlightScalar(const QString &text, int start, int length, bool quoted)
{
    int trimmed = length;
    while (trimmed > 0 && text.at(start + trimmed - 1).isSpace())
        --trimmed;
    if (quoted)
        setFormat(start, trimmed, tokenFormat(Token::String));
    else if (isConstant(text.mid(start, trimmed)))
        setFormat(start, trimmed, tokenFormat(Token::Constant));
    applyTemplates(text, start, trimmed);
}

void YamlHighlighter::applyTemplates(const QString &text, int start, int length)
{
    static const QRegularExpression templatePattern(QStringLiteral("\\{\\{.*?\\}\\}|\\$\\{.*?\\}"));
    const QString slice = text.mid(start, length);
    auto matches = templatePattern.globalMatch(slice);
    while (matches.hasNext()) {
        const auto match = matches.next();
        setFormat(start + static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()),
            tokenFormat(Token::Template));
    }
}

#ifdef CCM_HAVE_KSYNTAXHIGHLIGHTING
namespace {

KSyntaxHighlighting::Repository &repository()
{
    static KSyntaxHighlighting::Repository instance;
    return instance;
}

KSyntaxHighlighting::Theme themeFor(const QPalette &palette)
{
    return repository().defaultTheme(isDarkPalette(palette) ? KSyntaxHighlighting::Repository::DarkTheme
                                                            : KSyntaxHighlighting::Repository::LightTheme);
}

} // namespace

QSyntaxHighlighter *createYamlHighlighter(QTextDocument *document, const QPalette &palette)
{
    const KSyntaxHighlighting::Definition definition = repository().definitionForName(QStringLiteral("YAML"));
    if (!definition.isValid())
        return new YamlHighlighter(document, palette);
    auto *highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document);
    highlighter->setDefinition(definition);
    highlighter->setTheme(themeFor(palette));
    return highlighter;
}

void updateYamlHighlighterPalette(QSyntaxHighlighter *highlighter, const QPalette &palette)
{
    if (auto *own = qobject_cast<YamlHighlighter *>(highlighter)) {
        own->setPalette(palette);
    } else if (auto *kde = qobject_cast<KSyntaxHighlighting::SyntaxHighlighter *>(highlighter)) {
        kde->setTheme(themeFor(palette));
        kde->rehighlight();
    }
}
#else
QSyntaxHighlighter *createYamlHighlighter(QTextDocument *document, const QPalette &palette)
{
    return new YamlHighlighter(document, palette);
}

void updateYamlHighlighterPalette(QSyntaxHighlighter *highlighter, const QPalette &palette)
{
    if (auto *own = qobject_cast<YamlHighlighter *>(highlighter))
        own->setPalette(palette);
}
#endif

} // namespace ccm::designer
