// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/template_highlighter.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace ccm::designer {
namespace {

/// Block states of a comment still open at the end of a line (plain base only: the YAML base
/// keeps its own block states).
constexpr int kInJetComment = 1;
constexpr int kInGoComment = 2;

const QStringList &keywords()
{
    static const QStringList words {QStringLiteral("if"), QStringLiteral("else"), QStringLiteral("range"),
        QStringLiteral("end"), QStringLiteral("with"), QStringLiteral("define"), QStringLiteral("block"),
        QStringLiteral("template"), QStringLiteral("include"), QStringLiteral("yield"), QStringLiteral("import"),
        QStringLiteral("return"), QStringLiteral("break"), QStringLiteral("continue"), QStringLiteral("try"),
        QStringLiteral("catch"), QStringLiteral("not"), QStringLiteral("and"), QStringLiteral("or"),
        QStringLiteral("in")};
    return words;
}

QString closerFor(const QString &opener)
{
    if (opener == QLatin1String("[["))
        return QStringLiteral("]]");
    if (opener == QLatin1String("${"))
        return QStringLiteral("}");
    return QStringLiteral("}}");
}

} // namespace

TemplateHighlighter::TemplateHighlighter(QTextDocument *document, Base base, const QPalette &palette)
    : YamlHighlighter(document, palette)
    , m_base(base)
{
}

TemplateHighlighter::Base TemplateHighlighter::baseFor(const QString &path)
{
    const QString name = QFileInfo(path).fileName().toLower();
    const bool yaml = name.endsWith(QLatin1String(".yaml")) || name.endsWith(QLatin1String(".yml"))
        || name.contains(QLatin1String(".yaml.")) || name.contains(QLatin1String(".yml."));
    return yaml ? Base::Yaml : Base::Plain;
}

void TemplateHighlighter::highlightBlock(const QString &text)
{
    int position = 0;
    if (m_base == Base::Yaml) {
        YamlHighlighter::highlightBlock(text);
    } else {
        setCurrentBlockState(-1);
        const int previous = previousBlockState();
        if (previous == kInJetComment)
            position = highlightComment(text, 0, QStringLiteral("*}"), kInJetComment);
        else if (previous == kInGoComment)
            position = highlightComment(text, 0, QStringLiteral("*/}}"), kInGoComment);
    }
    static const QRegularExpression opener(QStringLiteral(R"(\{\{|\[\[|\{\*|\$\{)"));
    while (position < text.size()) {
        const QRegularExpressionMatch match = opener.match(text, position);
        if (!match.hasMatch())
            break;
        const int start = static_cast<int>(match.capturedStart());
        if (match.captured() == QLatin1String("{*")) {
            position = highlightComment(text, start, QStringLiteral("*}"), kInJetComment);
            continue;
        }
        const QString rest = text.mid(start + 2).trimmed();
        if (match.captured() == QLatin1String("{{")
            && (rest.startsWith(QLatin1String("/*")) || rest.startsWith(QLatin1String("- /*")))) {
            position = highlightComment(text, start, QStringLiteral("*/}}"), kInGoComment);
            continue;
        }
        position = highlightAction(text, start);
    }
}

int TemplateHighlighter::highlightComment(const QString &text, int start, const QString &closer, int openState)
{
    const auto found = text.indexOf(closer, start);
    // A comment that does not close on this line: the rest of the line, and the following
    // lines too where the base language leaves the block state alone.
    const int end = found < 0 ? static_cast<int>(text.size()) : static_cast<int>(found + closer.size());
    setFormat(start, end - start, tokenFormat(Token::Comment));
    if (found < 0 && m_base == Base::Plain)
        setCurrentBlockState(openState);
    return end;
}

int TemplateHighlighter::highlightAction(const QString &text, int start)
{
    const QString opener = text.mid(start, 2);
    const QString closer = closerFor(opener);
    const auto size = static_cast<int>(text.size());
    int position = start + static_cast<int>(opener.size());
    int depth = 0;
    setFormat(start, static_cast<int>(opener.size()), tokenFormat(Token::Template));
    QTextCharFormat keyword = tokenFormat(Token::Template);
    keyword.setForeground(tokenFormat(Token::Key).foreground());
    while (position < size) {
        const QChar c = text.at(position);
        if (c == u'"' || c == u'\'' || c == u'`') {
            int end = position + 1;
            while (end < size && text.at(end) != c)
                end += text.at(end) == u'\\' ? 2 : 1;
            end = std::min(end + 1, size);
            setFormat(position, end - position, tokenFormat(Token::String));
            position = end;
            continue;
        }
        if (opener == QLatin1String("${") && c == u'{')
            ++depth;
        if (text.mid(position, closer.size()) == closer && depth-- == 0) {
            setFormat(position, static_cast<int>(closer.size()), tokenFormat(Token::Template));
            return position + static_cast<int>(closer.size());
        }
        if (c.isLetter()) {
            int end = position;
            while (end < size && (text.at(end).isLetterOrNumber() || text.at(end) == u'_'))
                ++end;
            const bool isKeyword = keywords().contains(text.mid(position, end - position));
            setFormat(position, end - position, isKeyword ? keyword : tokenFormat(Token::Template));
            position = end;
            continue;
        }
        setFormat(position, 1, tokenFormat(Token::Template));
        ++position;
    }
    return size;
}

} // namespace ccm::designer
