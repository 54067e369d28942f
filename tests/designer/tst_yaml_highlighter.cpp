// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/yaml_highlighter.h"
#include "designer_test_support.h"
#include "test_main.h"

#include <QPalette>
#include <QRandomGenerator>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using ccm::designer::YamlHighlighter;
using Token = YamlHighlighter::Token;
using ccm::test::formatAt;

Q_DECLARE_METATYPE(YamlHighlighter::Token)

namespace {

// Layouts merge formats, so compare what the eye sees rather than the format objects.
QString look(const QTextCharFormat &format)
{
    return QStringLiteral("%1 %2 %3 %4")
        .arg(format.foreground().style() == Qt::NoBrush ? QStringLiteral("none") : format.foreground().color().name(),
            format.background().style() == Qt::NoBrush ? QStringLiteral("none") : format.background().color().name())
        .arg(format.fontWeight())
        .arg(format.fontItalic());
}

QPalette darkPalette()
{
    QPalette palette;
    palette.setColor(QPalette::Base, QColor(30, 30, 30));
    palette.setColor(QPalette::Text, QColor(230, 230, 230));
    palette.setColor(QPalette::Window, QColor(40, 40, 40));
    palette.setColor(QPalette::WindowText, QColor(230, 230, 230));
    return palette;
}

QPalette lightPalette()
{
    QPalette palette;
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::Text, Qt::black);
    return palette;
}

} // namespace

class TestYamlHighlighter : public QObject {
    Q_OBJECT

private slots:
    void formats_data();
    void formats();
    void plainTextHasNoFormat();
    void blockScalarEndsAtDedent();
    void darkPaletteGivesLightColours();
    void lightPaletteGivesDarkColours();
    void tokensAreDistinct();
    void garbageDoesNotCrash();
    void randomTextDoesNotCrash();
};

void TestYamlHighlighter::formats_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<Token>("token");

    QTest::newRow("comment") << QStringLiteral("# hello") << 0 << 3 << Token::Comment;
    QTest::newRow("trailing comment") << QStringLiteral("a: 1 # note") << 0 << 8 << Token::Comment;
    QTest::newRow("key") << QStringLiteral("data:\n  name: web") << 1 << 3 << Token::Key;
    QTest::newRow("key after dash") << QStringLiteral("- package:\n    - name: x") << 1 << 7 << Token::Key;
    QTest::newRow("dash") << QStringLiteral("- package:") << 0 << 0 << Token::Dash;
    QTest::newRow("nested dash") << QStringLiteral("  - - a") << 0 << 4 << Token::Dash;
    QTest::newRow("double quoted") << QStringLiteral("a: \"x y\"") << 0 << 5 << Token::String;
    QTest::newRow("single quoted") << QStringLiteral("a: 'it''s'") << 0 << 7 << Token::String;
    QTest::newRow("quoted key") << QStringLiteral("\"a b\": 1") << 0 << 1 << Token::Key;
    QTest::newRow("integer") << QStringLiteral("port: 8080") << 0 << 7 << Token::Constant;
    QTest::newRow("float") << QStringLiteral("ratio: -1.5e3") << 0 << 8 << Token::Constant;
    QTest::newRow("boolean") << QStringLiteral("enabled: true") << 0 << 10 << Token::Constant;
    QTest::newRow("null") << QStringLiteral("x: ~") << 0 << 3 << Token::Constant;
    QTest::newRow("block indicator") << QStringLiteral("content: |\n  line one\nnext: 1") << 0 << 9
                                     << Token::BlockIndicator;
    QTest::newRow("folded indicator") << QStringLiteral("content: >-\n  text") << 0 << 10 << Token::BlockIndicator;
    QTest::newRow("block body") << QStringLiteral("content: |\n  line one\n\n  line: two") << 3 << 4
                                << Token::BlockBody;
    QTest::newRow("anchor") << QStringLiteral("base: &web") << 0 << 7 << Token::Anchor;
    QTest::newRow("alias") << QStringLiteral("copy: *web") << 0 << 7 << Token::Anchor;
    QTest::newRow("tag") << QStringLiteral("n: !!str 12") << 0 << 4 << Token::Tag;
    QTest::newRow("document start") << QStringLiteral("---\ndata: 1") << 0 << 1 << Token::DocumentMarker;
    QTest::newRow("document end") << QStringLiteral("a: 1\n...") << 1 << 2 << Token::DocumentMarker;
    QTest::newRow("template in double quotes")
        << QStringLiteral("name: \"{{ lookup('data.x') }}\"") << 0 << 10 << Token::Template;
    QTest::newRow("string around template") << QStringLiteral("name: \"a {{ x }}\"") << 0 << 7 << Token::String;
    QTest::newRow("dollar template plain")
        << QStringLiteral("path: /etc/${ Facts.host }") << 0 << 12 << Token::Template;
    QTest::newRow("template in block body")
        << QStringLiteral("content: |\n  port {{ data.port }}") << 1 << 9 << Token::Template;
    QTest::newRow("flow key") << QStringLiteral("m: {a: 1, b: 2}") << 0 << 4 << Token::Key;
    QTest::newRow("flow quoted") << QStringLiteral("l: ['a b', c]") << 0 << 5 << Token::String;
    QTest::newRow("flow template") << QStringLiteral("l: ['os:${ x }', c]") << 0 << 9 << Token::Template;
    QTest::newRow("flow number") << QStringLiteral("l: [1, 2]") << 0 << 4 << Token::Constant;
}

void TestYamlHighlighter::formats()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(Token, token);

    QTextDocument document;
    YamlHighlighter highlighter(&document, lightPalette());
    document.setPlainText(text);
    highlighter.rehighlight();
    QCOMPARE(look(formatAt(document, line, column)), look(highlighter.tokenFormat(token)));
}

void TestYamlHighlighter::plainTextHasNoFormat()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, lightPalette());
    document.setPlainText(QStringLiteral("name: nginx"));
    highlighter.rehighlight();
    QCOMPARE(look(formatAt(document, 0, 8)), look(QTextCharFormat()));
    QCOMPARE(look(formatAt(document, 0, 4)), look(QTextCharFormat()));
}

void TestYamlHighlighter::blockScalarEndsAtDedent()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, lightPalette());
    document.setPlainText(QStringLiteral("- file:\n    content: |\n      # not a comment\n    mode: \"0644\""));
    highlighter.rehighlight();
    QCOMPARE(look(formatAt(document, 2, 8)), look(highlighter.tokenFormat(Token::BlockBody)));
    QCOMPARE(look(formatAt(document, 3, 5)), look(highlighter.tokenFormat(Token::Key)));
    QCOMPARE(look(formatAt(document, 3, 11)), look(highlighter.tokenFormat(Token::String)));
}

void TestYamlHighlighter::darkPaletteGivesLightColours()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, darkPalette());
    for (Token token : {Token::Key, Token::String, Token::Constant, Token::Comment, Token::Template, Token::Tag}) {
        const QColor colour = highlighter.tokenFormat(token).foreground().color();
        QVERIFY2(colour.lightness() > 140, qPrintable(colour.name()));
    }
}

void TestYamlHighlighter::lightPaletteGivesDarkColours()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, darkPalette());
    highlighter.setPalette(lightPalette());
    for (Token token : {Token::Key, Token::String, Token::Constant, Token::Comment, Token::Template, Token::Tag}) {
        const QColor colour = highlighter.tokenFormat(token).foreground().color();
        QVERIFY2(colour.lightness() < 128, qPrintable(colour.name()));
    }
}

void TestYamlHighlighter::tokensAreDistinct()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, lightPalette());
    QVERIFY(highlighter.tokenFormat(Token::Template) != highlighter.tokenFormat(Token::String));
    QVERIFY(highlighter.tokenFormat(Token::Key) != highlighter.tokenFormat(Token::String));
    QVERIFY(highlighter.tokenFormat(Token::Constant) != highlighter.tokenFormat(Token::String));
}

void TestYamlHighlighter::garbageDoesNotCrash()
{
    QTextDocument document;
    YamlHighlighter highlighter(&document, lightPalette());
    document.setPlainText(QStringLiteral("\"unclosed\n'also: \n{{ x\n${\n: :\n- - -\n|\n>+9 #\n&\n!\n#\n\t- \"\\"));
    highlighter.rehighlight();
    QCOMPARE(document.blockCount(), 12);
}

void TestYamlHighlighter::randomTextDoesNotCrash()
{
    // Text made of the characters the highlighter reacts to, in every order a seeded generator picks.
    const QString alphabet = QStringLiteral("  -:#'\"\\|>+&*!%{}[],$~.0123456789abcnulltrue\n\t");
    QRandomGenerator generator(7);
    QTextDocument document;
    YamlHighlighter highlighter(&document, darkPalette());
    for (int round = 0; round < 200; ++round) {
        QString text;
        const int length = static_cast<int>(generator.bounded(200));
        for (int index = 0; index < length; ++index)
            text.append(alphabet.at(static_cast<qsizetype>(generator.bounded(static_cast<int>(alphabet.size())))));
        document.setPlainText(text);
        highlighter.rehighlight();
        QCOMPARE(document.toPlainText(), text);
    }
}

CCM_TEST_MAIN(TestYamlHighlighter)
#include "tst_yaml_highlighter.moc"
