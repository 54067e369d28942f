// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "designer/ui/editors/yaml_highlighter.h"

#include <QPlainTextEdit>
#include <QPointer>
#include <QTextCursor>
#include <QTimer>

#include <optional>

class QSyntaxHighlighter;

namespace ccm::designer {

class IncrementalHighlighter;
class YamlEditorGutter;

/// The manifest's YAML text: highlighted, with line numbers, problem markers and wavy underlines.
/// It keeps no undo history of its own: the document's undo stack records YAML edits, so Ctrl+Z
/// and Ctrl+Shift+Z go to the window's actions rather than being consumed here.
class YamlEditor : public QPlainTextEdit {
    Q_OBJECT

public:
    explicit YamlEditor(QWidget *parent = nullptr);

    /// Replaces the text with `text`, changing only the part that differs so that the cursor,
    /// selection and scroll position stay where they were as far as possible. Emits nothing; a
    /// textEdited() still pending is dropped, as the new text supersedes it.
    void setManifestText(const QString &text);
    /// Shows a text just opened or created, the view at its top; setManifestText keeps the view's place.
    void loadManifestText(const QString &text);

    /// Underlines each positioned diagnostic from its line:col to the end of the token there (the
    /// rest of the line when the column is unknown or points at blanks), marks its line in the
    /// gutter and shows its message as a tooltip when hovered.
    void setDiagnostics(const ccm::Diagnostics &diagnostics);

    /// Moves the cursor to `line`:`column` (from 1, clamped to the text), centres it and focuses.
    void goToLine(int line, int column = 1);

    /// Gives lines `first` to `last` (from 1) a subtle background; `first` < 1 clears it.
    void highlightLines(int first, int last);

    /// Gives the editor an undo history of its own (for a file that is not the manifest): Ctrl+Z
    /// and Ctrl+Shift+Z then undo and redo typing here instead of going to the window.
    void setOwnUndoHistory(bool own);
    /// Highlights with `highlighter` (made for document(), taken over) instead of as YAML.
    void setHighlighter(QSyntaxHighlighter *highlighter);
    /// What colours the text as YAML: the lines in view at once, the rest while idle. Null once
    /// setHighlighter() gave the editor another highlighter.
    [[nodiscard]] IncrementalHighlighter *yamlColouring() const;

    /// The line (from 1) holding the cursor.
    [[nodiscard]] int currentLine() const;

    /// Milliseconds of quiet after a keystroke before textEdited() is emitted (default 300).
    [[nodiscard]] int editDelay() const;
    void setEditDelay(int milliseconds);

    /// The popup of a completer serving this editor: while it is shown, Return, Enter, Tab and
    /// Escape are left to it.
    void setCompletionPopup(QWidget *popup);

    /// Messages of the diagnostics whose underline covers `line`:`column` (from 1).
    [[nodiscard]] QStringList diagnosticMessagesAt(int line, int column) const;

signals:
    /// The user changed the text and then paused for editDelay() ms.
    void textEdited(const QString &text);
    /// The editor lost focus after the user changed the text.
    void editingFinished();
    /// The cursor moved to another line (from 1).
    void cursorLineChanged(int line);

protected:
    bool event(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    friend class YamlEditorGutter;

    // The selection follows later edits of the text until the next setDiagnostics().
    struct Underline {
        QTextCursor range;
        ccm::Diagnostic diagnostic;
    };

    /// The gutter's width for the document's lines, or those of the text being loaded.
    int gutterWidth() const;
    /// How many whole lines the view shows.
    int visibleLineCount() const;
    int lastVisibleBlockNumber() const;
    int gutterPadding() const;
    void paintGutter(QPaintEvent *event);
    void updateGutterGeometry();
    void rebuildExtraSelections();
    void flushPendingEdit();
    void onContentsChange();
    void onCursorPositionChanged();
    void indentNewLine();
    QColor severityColour(ccm::Severity severity) const;
    QString gutterToolTip(int line) const;

    YamlEditorGutter *m_gutter = nullptr;
    YamlColours m_colours;
    IncrementalHighlighter *m_colouring = nullptr;
    QSyntaxHighlighter *m_highlighter = nullptr;
    QTimer m_editTimer;
    bool m_ownUndo = false;
    std::vector<Underline> m_underlines;
    int m_highlightFirst = 0;
    int m_highlightLast = 0;
    int m_lastCursorLine = 1;
    int m_loadingLines = -1; ///< the lines of the text loadManifestText() is putting in, while it does
    bool m_settingText = false;
    /// The text loadManifestText() last put in, while the document still holds it unchanged.
    std::optional<QString> m_loadedText;
    bool m_editedSinceFocus = false;
    QPointer<QWidget> m_completionPopup;
};

} // namespace ccm::designer
