// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/yaml_editor.h"
#include "designer_test_support.h"
#include "test_main.h"

#include <QAction>
#include <QApplication>
#include <QHelpEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QToolTip>
#include <QVBoxLayout>

using ccm::designer::YamlEditor;
using ccm::test::diagnostic;

namespace {

QString numberedLines(int count)
{
    QStringList lines;
    for (int line = 1; line <= count; ++line)
        lines.append(QStringLiteral("key%1: value").arg(line));
    return lines.join(QLatin1Char('\n'));
}

QList<QTextEdit::ExtraSelection> underlines(const YamlEditor &editor)
{
    QList<QTextEdit::ExtraSelection> result;
    for (const QTextEdit::ExtraSelection &selection : editor.extraSelections()) {
        if (selection.format.underlineStyle() == QTextCharFormat::WaveUnderline)
            result.append(selection);
    }
    return result;
}

} // namespace

class TestYamlEditor : public QObject {
    Q_OBJECT

private slots:
    void textEditedIsDebounced();
    void setManifestTextEmitsNothing();
    void setManifestTextKeepsCursorLine();
    void setManifestTextKeepsSelection();
    void underlinesAtDiagnostics();
    void underlineColoursFollowPalette();
    void diagnosticOutsideTextIsClamped();
    void messagesAtPosition();
    void toolTipShowsMessages();
    void gutterMarksProblemLines();
    void goToLineMovesAndFocuses();
    void highlightLinesMarksWholeLines();
    void undoReachesWindowAction();
    void tabInsertsTwoSpaces();
    void enterKeepsAndDeepensIndent();
    void cursorLineChangedOnMove();
    void editingFinishedOnFocusLoss();
    void undoIsDisabled();
    void loadedTextShowsFromTheTopWithItsGutterAndScrollBar();
    void sameLoadedTextKeepsTheViewUntilEdited();
};

void TestYamlEditor::textEditedIsDebounced()
{
    YamlEditor editor;
    editor.setEditDelay(30);
    QCOMPARE(editor.editDelay(), 30);
    QSignalSpy spy(&editor, &YamlEditor::textEdited);
    QTest::keyClicks(&editor, QStringLiteral("data:"));
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("data:"));
    QVERIFY(!spy.wait(150));
    QCOMPARE(spy.count(), 1);
}

void TestYamlEditor::setManifestTextEmitsNothing()
{
    YamlEditor editor;
    editor.setEditDelay(10);
    QSignalSpy edited(&editor, &YamlEditor::textEdited);
    QSignalSpy line(&editor, &YamlEditor::cursorLineChanged);
    editor.setManifestText(numberedLines(5));
    QVERIFY(!edited.wait(100));
    QCOMPARE(line.count(), 0);
    QCOMPARE(editor.toPlainText(), numberedLines(5));
}

void TestYamlEditor::setManifestTextKeepsCursorLine()
{
    YamlEditor editor;
    editor.setManifestText(numberedLines(10));
    editor.goToLine(7, 3);
    QCOMPARE(editor.currentLine(), 7);

    QString changed = numberedLines(10);
    changed.replace(QStringLiteral("key2: value"), QStringLiteral("key2: other value"));
    editor.setManifestText(changed);
    QCOMPARE(editor.toPlainText(), changed);
    QCOMPARE(editor.currentLine(), 7);
    QCOMPARE(editor.textCursor().positionInBlock(), 2);

    editor.setManifestText(QStringLiteral("inserted: 1\n") + changed);
    QCOMPARE(editor.currentLine(), 8);

    QString below = changed + QStringLiteral("\ntail: 2");
    editor.setManifestText(QStringLiteral("inserted: 1\n") + below);
    QCOMPARE(editor.currentLine(), 8);
}

void TestYamlEditor::setManifestTextKeepsSelection()
{
    YamlEditor editor;
    editor.setManifestText(QStringLiteral("a: 1\nbb: 2\nc: 3"));
    QTextCursor cursor = editor.textCursor();
    cursor.setPosition(5);
    cursor.setPosition(7, QTextCursor::KeepAnchor);
    editor.setTextCursor(cursor);
    editor.setManifestText(QStringLiteral("a: 100\nbb: 2\nc: 3"));
    QCOMPARE(editor.textCursor().selectedText(), QStringLiteral("bb"));
}

void TestYamlEditor::underlinesAtDiagnostics()
{
    YamlEditor editor;
    editor.setManifestText(QStringLiteral("data:\n  port: eighty\n  name: web\n\n"));
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "not a number", 2, 9),
        diagnostic(ccm::Severity::Warning, "unused", 3, 0), diagnostic(ccm::Severity::Error, "no position", 0, 0)});
    const auto selections = underlines(editor);
    QCOMPARE(selections.size(), 2);
    QCOMPARE(selections.at(0).cursor.selectedText(), QStringLiteral("eighty"));
    QCOMPARE(selections.at(0).cursor.blockNumber(), 1);
    QCOMPARE(selections.at(1).cursor.selectedText(), QStringLiteral("name: web"));
    QVERIFY(selections.at(0).format.underlineColor() != selections.at(1).format.underlineColor());

    editor.setDiagnostics({});
    QVERIFY(underlines(editor).isEmpty());
}

void TestYamlEditor::underlineColoursFollowPalette()
{
    YamlEditor editor;
    editor.setManifestText(QStringLiteral("a: b"));
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "bad", 1, 1)});
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    editor.setPalette(light);
    const QColor onLight = underlines(editor).at(0).format.underlineColor();
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(20, 20, 20));
    dark.setColor(QPalette::Text, Qt::white);
    editor.setPalette(dark);
    const QColor onDark = underlines(editor).at(0).format.underlineColor();
    QVERIFY(onDark.lightness() > onLight.lightness());
}

void TestYamlEditor::diagnosticOutsideTextIsClamped()
{
    YamlEditor editor;
    editor.setManifestText(QStringLiteral("a: b\nc: d"));
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "past the end", 40, 99)});
    auto selections = underlines(editor);
    QCOMPARE(selections.size(), 1);
    QCOMPARE(selections.at(0).cursor.selectedText(), QStringLiteral("c: d"));

    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "negative", 1, -5)});
    selections = underlines(editor);
    QCOMPARE(selections.size(), 1);
    QCOMPARE(selections.at(0).cursor.selectedText(), QStringLiteral("a: b"));

    editor.setManifestText(QString());
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "empty text", 3, 3)});
    QCOMPARE(underlines(editor).size(), 1);
    QVERIFY(editor.diagnosticMessagesAt(1, 1).isEmpty());
}

void TestYamlEditor::messagesAtPosition()
{
    YamlEditor editor;
    editor.setManifestText(QStringLiteral("mode: 999\nname: x"));
    editor.setDiagnostics(
        {diagnostic(ccm::Severity::Error, "bad mode", 1, 7), diagnostic(ccm::Severity::Warning, "odd mode", 1, 7)});
    QCOMPARE(editor.diagnosticMessagesAt(1, 8), QStringList({QStringLiteral("bad mode"), QStringLiteral("odd mode")}));
    QVERIFY(editor.diagnosticMessagesAt(1, 2).isEmpty());
    QVERIFY(editor.diagnosticMessagesAt(2, 1).isEmpty());
    QVERIFY(editor.diagnosticMessagesAt(9, 1).isEmpty());
}

void TestYamlEditor::toolTipShowsMessages()
{
    YamlEditor editor;
    editor.resize(400, 200);
    editor.setManifestText(QStringLiteral("mode: 999\nname: x"));
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "bad mode", 1, 7)});
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QTextCursor cursor(editor.document());
    cursor.setPosition(7);
    const QPoint onError = editor.cursorRect(cursor).center();
    QHelpEvent help(QEvent::ToolTip, onError, editor.viewport()->mapToGlobal(onError));
    QApplication::sendEvent(editor.viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), QStringLiteral("bad mode"));

    cursor.setPosition(12);
    const QPoint elsewhere = editor.cursorRect(cursor).center();
    QHelpEvent away(QEvent::ToolTip, elsewhere, editor.viewport()->mapToGlobal(elsewhere));
    QApplication::sendEvent(editor.viewport(), &away);
    QTRY_VERIFY(!QToolTip::isVisible());
}

void TestYamlEditor::gutterMarksProblemLines()
{
    YamlEditor editor;
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    editor.setPalette(light);
    editor.resize(400, 200);
    editor.setManifestText(QStringLiteral("a: 1\nb: 2\nc: 3"));
    editor.setDiagnostics({diagnostic(ccm::Severity::Error, "broken", 2, 1)});
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    const QColor marker = underlines(editor).at(0).format.underlineColor();

    // The gutter is the strip left of the viewport; look for the marker's colour on each line.
    const QImage image = editor.grab().toImage();
    const auto lineHasMarker = [&](int line) {
        QTextCursor cursor(editor.document()->findBlockByNumber(line - 1));
        const QRect rect = editor.cursorRect(cursor).translated(editor.viewport()->pos());
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            for (int x = editor.contentsRect().left(); x < editor.viewport()->x(); ++x) {
                if (image.pixelColor(x * image.devicePixelRatio(), y * image.devicePixelRatio()) == marker)
                    return true;
            }
        }
        return false;
    };
    QVERIFY(lineHasMarker(2));
    QVERIFY(!lineHasMarker(1));
    QVERIFY(!lineHasMarker(3));

    QTextCursor second(editor.document()->findBlockByNumber(1));
    const QPoint inGutter(
        editor.contentsRect().left() + 2, editor.cursorRect(second).center().y() + editor.viewport()->y());
    QWidget *gutter = editor.childAt(inGutter);
    QVERIFY(gutter != nullptr && gutter != editor.viewport());
    const QPoint local = gutter->mapFrom(&editor, inGutter);
    QHelpEvent help(QEvent::ToolTip, local, gutter->mapToGlobal(local));
    QApplication::sendEvent(gutter, &help);
    QTRY_COMPARE(QToolTip::text(), QStringLiteral("broken"));
}

void TestYamlEditor::goToLineMovesAndFocuses()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *other = new QLineEdit(&window);
    auto *editor = new YamlEditor(&window);
    layout->addWidget(other);
    layout->addWidget(editor);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    other->setFocus();
    editor->setManifestText(numberedLines(200));
    editor->goToLine(150, 4);
    QCOMPARE(editor->currentLine(), 150);
    QCOMPARE(editor->textCursor().positionInBlock(), 3);
    QTRY_VERIFY(editor->hasFocus());
    QVERIFY(editor->verticalScrollBar()->value() > 100);
    editor->goToLine(9999);
    QCOMPARE(editor->currentLine(), 200);
    editor->goToLine(-3);
    QCOMPARE(editor->currentLine(), 1);
}

void TestYamlEditor::highlightLinesMarksWholeLines()
{
    YamlEditor editor;
    editor.setManifestText(numberedLines(6));
    editor.highlightLines(2, 4);
    QList<int> lines;
    for (const QTextEdit::ExtraSelection &selection : editor.extraSelections()) {
        if (selection.format.property(QTextFormat::FullWidthSelection).toBool())
            lines.append(selection.cursor.blockNumber() + 1);
    }
    QCOMPARE(lines, QList<int>({2, 3, 4}));
    editor.highlightLines(0, 0);
    QVERIFY(editor.extraSelections().isEmpty());
}

void TestYamlEditor::undoReachesWindowAction()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *editor = new YamlEditor(&window);
    layout->addWidget(editor);
    auto *undo = new QAction(&window);
    undo->setShortcut(QKeySequence::Undo);
    undo->setShortcutContext(Qt::WindowShortcut);
    window.addAction(undo);
    QSignalSpy triggered(undo, &QAction::triggered);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    editor->setFocus();
    QTest::keyClicks(editor, QStringLiteral("abc"));
    QTest::keySequence(editor, QKeySequence::Undo);
    QCOMPARE(triggered.count(), 1);
    QCOMPARE(editor->toPlainText(), QStringLiteral("abc"));

    auto *redo = new QAction(&window);
    redo->setShortcut(QKeySequence::Redo);
    window.addAction(redo);
    QSignalSpy redone(redo, &QAction::triggered);
    QTest::keySequence(editor, QKeySequence::Redo);
    QCOMPARE(redone.count(), 1);
}

void TestYamlEditor::tabInsertsTwoSpaces()
{
    YamlEditor editor;
    QTest::keyClick(&editor, Qt::Key_Tab);
    QTest::keyClicks(&editor, QStringLiteral("x"));
    QCOMPARE(editor.toPlainText(), QStringLiteral("  x"));
    QTest::keyClick(&editor, Qt::Key_Backtab);
    QCOMPARE(editor.toPlainText(), QStringLiteral("x"));
}

void TestYamlEditor::enterKeepsAndDeepensIndent()
{
    YamlEditor editor;
    QTest::keyClicks(&editor, QStringLiteral("data:"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("port: 1"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("name: x"));
    QCOMPARE(editor.toPlainText(), QStringLiteral("data:\n  port: 1\n  name: x"));

    editor.setManifestText(QString());
    QTest::keyClicks(&editor, QStringLiteral("- package:"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("- nginx:"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("ensure: present"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("content: |"));
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("text"));
    QCOMPARE(editor.toPlainText(),
        QStringLiteral("- package:\n    - nginx:\n        ensure: present\n        content: |\n"
                       "          text"));
}

void TestYamlEditor::cursorLineChangedOnMove()
{
    YamlEditor editor;
    editor.setManifestText(numberedLines(5));
    QSignalSpy spy(&editor, &YamlEditor::cursorLineChanged);
    QTest::keyClick(&editor, Qt::Key_Down);
    QTest::keyClick(&editor, Qt::Key_Down);
    QTest::keyClick(&editor, Qt::Key_Right);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).toInt(), 3);
}

void TestYamlEditor::editingFinishedOnFocusLoss()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *editor = new YamlEditor(&window);
    auto *other = new QLineEdit(&window);
    layout->addWidget(editor);
    layout->addWidget(other);
    editor->setEditDelay(60000);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    QSignalSpy finished(editor, &YamlEditor::editingFinished);
    QSignalSpy edited(editor, &YamlEditor::textEdited);
    other->setFocus();
    QTRY_VERIFY(other->hasFocus());
    QCOMPARE(finished.count(), 0);

    editor->setFocus();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClicks(editor, QStringLiteral("a: 1"));
    other->setFocus();
    QTRY_COMPARE(finished.count(), 1);
    // A pending edit is delivered before editing counts as finished.
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.at(0).at(0).toString(), QStringLiteral("a: 1"));
}

void TestYamlEditor::undoIsDisabled()
{
    YamlEditor editor;
    QVERIFY(!editor.isUndoRedoEnabled());
    QVERIFY(editor.font().fixedPitch() || QFontInfo(editor.font()).fixedPitch());
}

void TestYamlEditor::loadedTextShowsFromTheTopWithItsGutterAndScrollBar()
{
    YamlEditor editor;
    editor.resize(500, 300);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.loadManifestText(QStringLiteral("a: 1\n"));
    const int narrowGutter = editor.viewport()->x();
    QVERIFY(!editor.verticalScrollBar()->isVisible());

    // A long text: the gutter widens for five-digit numbers, the scroll bar shows, the view starts
    // at the top with the cursor there, and the scroll bar is left to come and go as needed.
    editor.loadManifestText(numberedLines(20000));
    QVERIFY(editor.viewport()->x() > narrowGutter);
    QVERIFY(editor.verticalScrollBar()->isVisible());
    QCOMPARE(editor.verticalScrollBarPolicy(), Qt::ScrollBarAsNeeded);
    QCOMPARE(editor.verticalScrollBar()->value(), 0);
    QCOMPARE(editor.textCursor().position(), 0);
    QCOMPARE(editor.cursorForPosition(QPoint(1, 1)).blockNumber(), 0);

    // A short one again: the gutter narrows and the scroll bar goes.
    editor.loadManifestText(QStringLiteral("b: 2\n"));
    QCOMPARE(editor.viewport()->x(), narrowGutter);
    QTRY_VERIFY(!editor.verticalScrollBar()->isVisible());
    QCOMPARE(editor.verticalScrollBarPolicy(), Qt::ScrollBarAsNeeded);
}

void TestYamlEditor::sameLoadedTextKeepsTheViewUntilEdited()
{
    YamlEditor editor;
    const QString text = numberedLines(50);
    editor.loadManifestText(text);
    QTextCursor cursor = editor.textCursor();
    cursor.setPosition(editor.document()->findBlockByNumber(30).position());
    editor.setTextCursor(cursor);

    // The same text again (the document's change after its loading signal) leaves the view as it is.
    editor.loadManifestText(text);
    QCOMPARE(editor.textCursor().blockNumber(), 30);

    // Once the view's text is edited, the loaded text replaces it again.
    editor.textCursor().insertText(QStringLiteral("edited "));
    QVERIFY(editor.toPlainText() != text);
    editor.loadManifestText(text);
    QCOMPARE(editor.toPlainText(), text);
    QCOMPARE(editor.textCursor().position(), 0);
}

CCM_TEST_MAIN(TestYamlEditor)
#include "tst_yaml_editor.moc"
