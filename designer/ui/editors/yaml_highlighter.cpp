// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/yaml_highlighter.h"

#include "designer/ui/palette_tone.h"

#include <QRegularExpression>

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

using Token = YamlColours::Token;

/// One line being coloured: the scanning state and the formats found so far.
struct LineScan {
    const YamlColours &colours;
    const QString &text;
    YamlColours::Formats &formats;

    void set(int start, int length, Token token) { paintFormat(formats, start, length, colours.tokenFormat(token)); }
    int line(int previousState);
    int plainLine();
    int value(int position, int lineIndent);
    /// Colours the key or the scalar at `position` inside a flow collection; returns where it ends.
    int flowEntry(int position);
    void scalar(int start, int length, bool quoted);
    void templates(int start, int length);
};

int LineScan::line(int previousState)
{
    if (previousState > NormalState) {
        const int parentIndent = previousState - 1;
        if (isBlank(text))
            return previousState;
        if (indentation(text) > parentIndent) {
            set(0, static_cast<int>(text.size()), Token::BlockBody);
            templates(0, static_cast<int>(text.size()));
            return previousState;
        }
    }
    return plainLine();
}

int LineScan::plainLine()
{
    int position = 0;
    if ((text.startsWith(QLatin1String("---")) || text.startsWith(QLatin1String("..."))) && isSpaceAt(text, 3)) {
        set(0, 3, Token::DocumentMarker);
        position = 3;
    } else if (text.startsWith(QLatin1Char('%'))) {
        set(0, static_cast<int>(text.size()), Token::DocumentMarker);
        return NormalState;
    }
    const int lineIndent = indentation(text);
    while (position < text.size()) {
        while (position < text.size() && text.at(position).isSpace())
            ++position;
        if (position < text.size() && text.at(position) == QLatin1Char('-') && isSpaceAt(text, position + 1)) {
            set(position, 1, Token::Dash);
            ++position;
            continue;
        }
        break;
    }
    const int colon = keyColon(text, position);
    if (colon >= 0) {
        set(position, colon - position, Token::Key);
        position = colon + 1;
    }
    return value(position, lineIndent);
}

int LineScan::value(int position, int lineIndent)
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
            set(position, size - position, Token::Comment);
            break;
        }
        if (c == QLatin1Char('&') || c == QLatin1Char('*') || c == QLatin1Char('!')) {
            int end = position + 1;
            while (end < size && !text.at(end).isSpace() && !isFlowIndicator(text.at(end)))
                ++end;
            set(position, end - position, c == QLatin1Char('!') ? Token::Tag : Token::Anchor);
            position = end;
            continue;
        }
        if ((c == QLatin1Char('|') || c == QLatin1Char('>')) && flowDepth == 0) {
            if (const int end = blockScalarHeaderEnd(text, position); end >= 0) {
                set(position, end - position, Token::BlockIndicator);
                state = lineIndent + 1;
                position = end;
                continue;
            }
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const int end = quotedEnd(text, position);
            scalar(position, end - position, true);
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
            position = flowEntry(position);
            continue;
        }
        int end = position;
        while (end < size && !(text.at(end) == QLatin1Char('#') && text.at(end - 1).isSpace()))
            ++end;
        scalar(position, end - position, false);
        position = end;
    }
    return state;
}

int LineScan::flowEntry(int position)
{
    const int size = static_cast<int>(text.size());
    const int colon = keyColon(text, position);
    int end = position;
    while (end < size && !isFlowIndicator(text.at(end))
        && !(text.at(end) == QLatin1Char('#') && text.at(end - 1).isSpace()))
        ++end;
    if (colon >= 0 && colon < end) {
        set(position, colon - position, Token::Key);
        return colon + 1;
    }
    scalar(position, end - position, false);
    return end;
}

void LineScan::scalar(int start, int length, bool quoted)
{
    int trimmed = length;
    while (trimmed > 0 && text.at(start + trimmed - 1).isSpace())
        --trimmed;
    if (quoted)
        set(start, trimmed, Token::String);
    else if (isConstant(text.mid(start, trimmed)))
        set(start, trimmed, Token::Constant);
    templates(start, trimmed);
}

void LineScan::templates(int start, int length)
{
    const QStringView stretch = QStringView(text).mid(start, length);
    if (!stretch.contains(QLatin1String("{{")) && !stretch.contains(QLatin1String("${")))
        return;
    static const QRegularExpression templatePattern(QStringLiteral("\\{\\{.*?\\}\\}|\\$\\{.*?\\}"));
    const QString slice = stretch.toString();
    auto matches = templatePattern.globalMatch(slice);
    while (matches.hasNext()) {
        const auto match = matches.next();
        set(start + static_cast<int>(match.capturedStart()), static_cast<int>(match.capturedLength()), Token::Template);
    }
}

} // namespace

void paintFormat(YamlColours::Formats &formats, int start, int length, const QTextCharFormat &format)
{
    if (length <= 0)
        return;
    const int end = start + length;
    YamlColours::Formats painted;
    painted.reserve(formats.size() + 2);
    bool placed = false;
    for (const QTextLayout::FormatRange &range : formats) {
        const int rangeEnd = range.start + range.length;
        if (rangeEnd <= start || range.start >= end) {
            if (!placed && range.start >= end) {
                painted.append({start, length, format});
                placed = true;
            }
            painted.append(range);
            continue;
        }
        if (range.start < start)
            painted.append({range.start, start - range.start, range.format});
        if (!placed) {
            painted.append({start, length, format});
            placed = true;
        }
        if (rangeEnd > end)
            painted.append({end, rangeEnd - end, range.format});
    }
    if (!placed)
        painted.append({start, length, format});
    formats = std::move(painted);
}

YamlColours::YamlColours(const QPalette &palette)
{
    setPalette(palette);
}

void YamlColours::setPalette(const QPalette &palette)
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
}

QTextCharFormat YamlColours::tokenFormat(Token token) const
{
    return m_formats.at(static_cast<std::size_t>(token));
}

int YamlColours::colourLine(const QString &line, int previousState, Formats &formats) const
{
    LineScan scan {*this, line, formats};
    return scan.line(previousState);
}

YamlHighlighter::YamlHighlighter(QTextDocument *document, const QPalette &palette)
    : QSyntaxHighlighter(document)
    , m_colours(palette)
{
}

void YamlHighlighter::setPalette(const QPalette &palette)
{
    m_colours.setPalette(palette);
    rehighlight();
}

QTextCharFormat YamlHighlighter::tokenFormat(Token token) const
{
    return m_colours.tokenFormat(token);
}

void YamlHighlighter::highlightBlock(const QString &text)
{
    YamlColours::Formats formats;
    setCurrentBlockState(m_colours.colourLine(text, previousBlockState(), formats));
    for (const QTextLayout::FormatRange &range : formats)
        setFormat(range.start, range.length, range.format);
}

} // namespace ccm::designer
