// SPDX-License-Identifier: Apache-2.0
// The YAML view's colouring: the lines a change or the view needs are coloured at once, the rest
// while idle, and once done every line looks as QSyntaxHighlighter would have coloured it, however
// the edits fell around the coloured part.
#include "designer/ui/editors/incremental_highlighter.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/editors/yaml_highlighter.h"
#include "gui_test_support.h"
#include "test_main.h"

#include <QPalette>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

using ccm::designer::IncrementalHighlighter;
using ccm::designer::YamlColours;
using ccm::designer::YamlEditor;
using ccm::designer::YamlHighlighter;

namespace {

/// What each character of `block` looks like: colours, weight and slant, one entry per character.
QStringList lookOfCharacters(const QTextBlock &block)
{
    QStringList looks(block.length() - 1, QStringLiteral("plain"));
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        const QTextCharFormat &format = range.format;
        const QString look = QStringLiteral("%1/%2/%3/%4")
                                 .arg(format.foreground().style() == Qt::NoBrush ? QStringLiteral("-")
                                                                                 : format.foreground().color().name(),
                                     format.background().style() == Qt::NoBrush ? QStringLiteral("-")
                                                                                : format.background().color().name())
                                 .arg(format.fontWeight())
                                 .arg(format.fontItalic());
        for (int i = range.start; i < range.start + range.length && i < looks.size(); ++i)
            looks[i] = look;
    }
    return looks;
}

/// The first line whose characters look different in the two documents, or -1.
int firstDifferentLine(const QTextDocument &expected, const QTextDocument &actual)
{
    if (expected.blockCount() != actual.blockCount())
        return std::min(expected.blockCount(), actual.blockCount());
    QTextBlock a = expected.begin();
    QTextBlock b = actual.begin();
    for (; a.isValid(); a = a.next(), b = b.next()) {
        if (a.text() != b.text() || lookOfCharacters(a) != lookOfCharacters(b))
            return a.blockNumber();
    }
    return -1;
}

/// A manifest of `resources` files, each with a block scalar, a template, a comment and a list.
QString manifestLines(int resources)
{
    QString text = QStringLiteral("ccm:\n  resources:\n    - file:\n");
    for (int i = 0; i < resources; ++i) {
        const QString n = QString::number(i);
        text += QStringLiteral("        - /srv/site/file-%1.conf:\n"
                               "            ensure: present # kept\n"
                               "            mode: \"0644\"\n"
                               "            content: |\n"
                               "              value %1 {{ lookup('data.port') }}\n"
                               "              port: 80\n"
                               "            require: [package#nginx, 'file#/etc/a']\n")
                    .arg(n);
    }
    return text;
}

IncrementalHighlighter::LineRule yamlRule(const YamlColours &colours)
{
    return [&colours](const QString &line, int previousState, IncrementalHighlighter::Formats &formats) {
        return colours.colourLine(line, previousState, formats);
    };
}

/// The same text coloured twice: by QSyntaxHighlighter (YamlHighlighter) in `expected` and by an
/// IncrementalHighlighter in `actual`; every edit goes to both.
struct SideBySide {
    QTextDocument expected;
    QTextDocument actual;
    const YamlColours colours;
    YamlHighlighter reference {&expected};
    IncrementalHighlighter highlighter {&actual, yamlRule(colours)};

    explicit SideBySide(const QString &text)
    {
        expected.documentLayout(); // without a layout, the document tells QSyntaxHighlighter of no change
        expected.setPlainText(text);
        actual.setPlainText(text);
    }

    /// Replaces `removedLines` lines from `line` (from 0) with `inserted`, in both documents.
    void edit(int line, int removedLines, const QString &inserted)
    {
        const int position = expected.findBlockByNumber(line).position();
        const int end = expected.findBlockByNumber(line + removedLines).position();
        for (QTextDocument *document : {&expected, &actual}) {
            QTextCursor cursor(document);
            cursor.setPosition(position);
            cursor.setPosition(end, QTextCursor::KeepAnchor);
            cursor.insertText(inserted);
        }
    }
};

} // namespace

class TestIncrementalHighlighter : public QObject {
    Q_OBJECT

private slots:
    void coloursTheStartAtOnceAndTheRestWhenIdle();
    void highlightThroughColoursUpToTheLineAskedFor();
    void looksAsQSyntaxHighlighterAfterEachEdit();
    void editsBeforeTheRestIsColouredEndTheSame();
    void aBlockScalarOpenedByAKeystrokeRecoloursTheLinesAfterIt();
    void theViewColoursTheLinesItShowsBeforeTheRest();
    void aNewPaletteRecoloursTheView();
};

void TestIncrementalHighlighter::coloursTheStartAtOnceAndTheRestWhenIdle()
{
    QTextDocument document;
    const YamlColours colours;
    IncrementalHighlighter highlighter(&document, yamlRule(colours));
    QSignalSpy completed(&highlighter, &IncrementalHighlighter::completed);
    // Fifteen times the lines coloured at once: enough to need the idle slices, few enough to
    // colour quickly under the sanitizers on a busy machine.
    document.setPlainText(manifestLines(1000));
    QVERIFY(document.blockCount() > 15 * IncrementalHighlighter::kEagerLines);

    // Without the event loop running, the first lines are coloured and the last is not yet.
    QVERIFY(highlighter.colouredBlocks() >= IncrementalHighlighter::kEagerLines);
    QVERIFY(!highlighter.isComplete());
    QCOMPARE(lookOfCharacters(document.lastBlock().previous()).at(12), QStringLiteral("plain"));
    const QTextBlock key = document.findBlockByNumber(4); // "            ensure: present # kept"
    QVERIFY(lookOfCharacters(key).at(12) != QStringLiteral("plain"));

    QVERIFY(completed.wait(ccm::test::kPatienceMs));
    QVERIFY(highlighter.isComplete());
    QCOMPARE(lookOfCharacters(document.lastBlock().previous()).at(12), lookOfCharacters(key).at(12));
}

void TestIncrementalHighlighter::highlightThroughColoursUpToTheLineAskedFor()
{
    QTextDocument document;
    const YamlColours colours;
    IncrementalHighlighter highlighter(&document, yamlRule(colours));
    document.setPlainText(manifestLines(5000));
    const QTextBlock far = document.findBlockByNumber(29999);
    QVERIFY(far.text().contains(QLatin1String("ensure")));
    QCOMPARE(lookOfCharacters(far).at(12), QStringLiteral("plain"));
    highlighter.highlightThrough(29999);
    QVERIFY(highlighter.colouredBlocks() > 29999);
    QCOMPARE(lookOfCharacters(far).at(12), lookOfCharacters(document.findBlockByNumber(4)).at(12));
}

void TestIncrementalHighlighter::looksAsQSyntaxHighlighterAfterEachEdit()
{
    SideBySide both(manifestLines(300));
    QTRY_VERIFY(both.highlighter.isComplete());
    QCOMPARE(firstDifferentLine(both.expected, both.actual), -1);

    struct Edit {
        const char *what;
        int line;
        int removedLines;
        QString inserted;
    };
    const Edit edits[] = {
        {"a key typed at the top", 1, 0, QStringLiteral("  data:\n")},
        {"a block scalar header in the middle", 1200, 0, QStringLiteral("        - /x: |\n")},
        {"that header removed", 1200, 1, QString()},
        {"lines removed across resources", 700, 40, QString()},
        {"a comment appended", 2000, 0, QStringLiteral("# end\n")},
        {"an unclosed quote", 15, 1, QStringLiteral("            mode: \"0644\n")},
    };
    for (const Edit &edit : edits) {
        both.edit(edit.line, edit.removedLines, edit.inserted);
        QTRY_VERIFY(both.highlighter.isComplete());
        QVERIFY2(firstDifferentLine(both.expected, both.actual) == -1,
            qPrintable(QStringLiteral("after %1: line %2 differs")
                           .arg(QLatin1String(edit.what))
                           .arg(firstDifferentLine(both.expected, both.actual) + 1)));
    }
}

void TestIncrementalHighlighter::editsBeforeTheRestIsColouredEndTheSame()
{
    // Edits land before, inside and after the coloured part while the rest is still waiting.
    SideBySide both(manifestLines(2000));
    QVERIFY(!both.highlighter.isComplete());
    const int coloured = both.highlighter.colouredBlocks();
    const int lines[] = {3, coloured - 2, coloured + 5000, 9000, 10};
    for (const int line : lines) {
        both.edit(line, 3, QStringLiteral("    - text: |\n      body\n"));
        QVERIFY(!both.highlighter.isComplete());
    }
    QTRY_VERIFY_WITH_TIMEOUT(both.highlighter.isComplete(), 10000);
    QCOMPARE(firstDifferentLine(both.expected, both.actual), -1);
}

void TestIncrementalHighlighter::aBlockScalarOpenedByAKeystrokeRecoloursTheLinesAfterIt()
{
    QTextDocument document;
    const YamlColours colours;
    IncrementalHighlighter highlighter(&document, yamlRule(colours));
    document.setPlainText(QStringLiteral("a:\n  b: 1\n  c: 2\nd: 3\n"));
    QVERIFY(highlighter.isComplete());
    const QString keyLook = lookOfCharacters(document.findBlockByNumber(1)).at(2);
    QTextCursor cursor(document.findBlockByNumber(0));
    cursor.movePosition(QTextCursor::EndOfBlock);
    cursor.insertText(QStringLiteral(" |"));
    // At once, without the event loop: the indented lines are now the scalar's body, "d" a key.
    const QString bodyLook = lookOfCharacters(document.findBlockByNumber(1)).at(2);
    QVERIFY(bodyLook != keyLook);
    QCOMPARE(lookOfCharacters(document.findBlockByNumber(2)).at(2), bodyLook);
    QCOMPARE(lookOfCharacters(document.findBlockByNumber(3)).at(0), keyLook);
    cursor.deletePreviousChar();
    QCOMPARE(lookOfCharacters(document.findBlockByNumber(2)).at(2), keyLook);
}

void TestIncrementalHighlighter::theViewColoursTheLinesItShowsBeforeTheRest()
{
    YamlEditor editor;
    editor.resize(600, 400);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.loadManifestText(manifestLines(5000));
    IncrementalHighlighter *colouring = editor.yamlColouring();
    QVERIFY(colouring != nullptr);
    QVERIFY(!colouring->isComplete());
    editor.verticalScrollBar()->setValue(editor.verticalScrollBar()->maximum());
    const QTextBlock shown = editor.document()->lastBlock().previous();
    QCOMPARE(lookOfCharacters(shown).at(12), QStringLiteral("plain"));
    editor.viewport()->repaint();
    // The paint coloured the lines at the end without waiting for the idle slices.
    QVERIFY(shown.text().contains(QLatin1String("require")));
    QVERIFY(lookOfCharacters(shown).at(12) != QStringLiteral("plain"));
}

void TestIncrementalHighlighter::aNewPaletteRecoloursTheView()
{
    YamlEditor editor;
    editor.loadManifestText(QStringLiteral("key: value\n"));
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    const QString before = lookOfCharacters(editor.document()->firstBlock()).at(0);
    editor.setPalette(dark);
    QTRY_VERIFY(editor.yamlColouring()->isComplete());
    const QString after = lookOfCharacters(editor.document()->firstBlock()).at(0);
    QVERIFY(after != before);
    const YamlColours darkColours(dark);
    QCOMPARE(after.section(QLatin1Char('/'), 0, 0),
        darkColours.tokenFormat(YamlColours::Token::Key).foreground().color().name());
}

CCM_TEST_MAIN(TestIncrementalHighlighter)
#include "tst_incremental_highlighter.moc"
