// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/completion_model.h"
#include "designer/core/live_data.h"

#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QStringList>

#include <functional>

class QCompleter;
class QLineEdit;
class QPlainTextEdit;
class QStandardItemModel;
class QWidget;

namespace ccm::designer {

class FieldEditor;
class YamlEditor;

/// Completion and hover values for one text widget: a form field or the YAML view. Typing in an
/// expression context (or Ctrl+Space) opens a popup of what fits there (see completeField() and
/// completeYaml()); hovering over a `{{ … }}` or a control expression shows its value on this host
/// and on the What If host. Owned by the widget it serves.
class ExpressionCompleter : public QObject {
    Q_OBJECT

public:
    using SourcesProvider = std::function<const CompletionSources &()>;

    /// Serves a one-line field holding `mode` text.
    ExpressionCompleter(QLineEdit *edit, ExpressionMode mode, LiveData *data, SourcesProvider sources);
    /// Serves a multi-line field holding templates.
    ExpressionCompleter(QPlainTextEdit *edit, LiveData *data, SourcesProvider sources);
    /// Serves the YAML view.
    ExpressionCompleter(YamlEditor *edit, LiveData *data, SourcesProvider sources);

    /// Attaches completers to the fields of `editor` (and its sub-fields) that take templates or
    /// expressions.
    static void attachToField(FieldEditor *editor, LiveData *data, const SourcesProvider &sources);
    /// The completer serving `widget`, or null.
    static ExpressionCompleter *of(QWidget *widget);

    /// Opens the popup for the cursor's context; `explicitRequest` offers names before anything
    /// is typed. Closes it when nothing fits.
    void complete(bool explicitRequest = false);
    /// The texts the popup offers now, in order (empty while it is closed).
    [[nodiscard]] QStringList offered() const;
    /// Inserts the popup's entry `row` as choosing it does.
    void choose(int row);
    [[nodiscard]] QCompleter *completer() const { return m_completer; }

    /// Shows the value of the expression at `position` of the text (see hover()); false when there
    /// is none there.
    bool showValueAt(int position, const QPoint &globalPos);
    /// The last hover text shown.
    [[nodiscard]] QString lastHoverText() const { return m_lastHover; }

signals:
    /// The popup opened with offered().
    void popupShown();
    /// A hover value is shown as a tooltip.
    void hoverShown(const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    ExpressionCompleter(QWidget *widget, LiveData *data, SourcesProvider sources);
    void setUp();
    [[nodiscard]] QString text() const;
    [[nodiscard]] int cursorPosition() const;
    void replace(int start, int end, const QString &insert);
    void showPopup(const Completions &completions);
    /// Completes again when the popup is open, so that it closes once nothing fits.
    void refreshOpenPopup();
    bool handleToolTip(QEvent *event);
    [[nodiscard]] QString hoverPrefix(int position) const;

    QWidget *m_widget;
    QLineEdit *m_line = nullptr;
    QPlainTextEdit *m_plain = nullptr;
    YamlEditor *m_yaml = nullptr;
    ExpressionMode m_mode = ExpressionMode::Template;
    QPointer<LiveData> m_data;
    SourcesProvider m_sources;
    QCompleter *m_completer = nullptr;
    QStandardItemModel *m_model = nullptr;
    int m_start = -1;
    bool m_keyTyped = false;
    bool m_refreshing = false;
    int m_hoverRequest = 0;
    QString m_lastHover;
};

/// The text of a hover tooltip for `expression` with `value`.
QString hoverText(const QString &expression, const LiveValue &value);

} // namespace ccm::designer
