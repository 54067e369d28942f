// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/run_results.h"

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace ccm::designer {

/// Shows the change a preview found for one file resource: its owner, group and mode changes above
/// the content diff, either unified or side by side (old left, new right, both panes scrolling
/// together). The chosen mode is remembered in QSettings under "preview/diffMode".
class DiffView : public QWidget {
    Q_OBJECT

public:
    enum class Mode { Unified, SideBySide };

    explicit DiffView(QWidget *parent = nullptr);

    /// Shows `resource`'s change. An empty `unifiedDiff` reads "No content change", or, when
    /// `contentWithheld` says the content does change but no diff came with it, that the content is
    /// not shown. Lines the diff parser could not read are listed under the diff.
    void setChange(const QString &resource, const QString &unifiedDiff, const QList<AttributeChange> &attributes,
        bool contentWithheld = false);
    /// Shows nothing.
    void clear();

    [[nodiscard]] Mode mode() const;
    /// Switches the mode and remembers it.
    void setMode(Mode mode);

    /// Background of added and removed lines and foreground of hunk headers: tints of green, red
    /// and blue mixed into `palette`'s base colour, so the text colour stays readable on light and
    /// dark themes alike.
    [[nodiscard]] static QColor addedBackground(const QPalette &palette);
    [[nodiscard]] static QColor removedBackground(const QPalette &palette);
    [[nodiscard]] static QColor fillerBackground(const QPalette &palette);
    [[nodiscard]] static QColor hunkForeground(const QPalette &palette);

    [[nodiscard]] QLabel *titleLabel() const;
    [[nodiscard]] QLabel *attributesLabel() const;
    /// The "No content change" or "Content not shown" hint, and parse problems; hidden when empty.
    [[nodiscard]] QLabel *hintLabel() const;
    [[nodiscard]] QPlainTextEdit *unifiedView() const;
    [[nodiscard]] QPlainTextEdit *leftView() const;
    [[nodiscard]] QPlainTextEdit *rightView() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    void renderUnified();
    void renderSideBySide();

    QLabel *m_title = nullptr;
    QLabel *m_attributes = nullptr;
    QLabel *m_hint = nullptr;
    QTabWidget *m_tabs = nullptr;
    QPlainTextEdit *m_unified = nullptr;
    QPlainTextEdit *m_left = nullptr;
    QPlainTextEdit *m_right = nullptr;
    QString m_diffText;
    bool m_contentWithheld = false;
    bool m_hasChange = false;
};

} // namespace ccm::designer
