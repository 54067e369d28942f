// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLabel>

class QAbstractItemView;

namespace ccm::designer {

/// A centred, muted, wrapped text for a place that has nothing to show yet: it says what will
/// appear there and how to get it.
QLabel *createEmptyStateLabel(const QString &text, QWidget *parent);

/// A hidden banner in the tooltip's colours, for a view whose content no longer matches the text
/// it came from: set its text to say why and show it; an empty text hides it again.
QLabel *createStaleBanner(QWidget *parent);

/// An empty-state text laid over an item view's viewport: visible while the view's model has no
/// rows under the view's root, hidden as soon as it has some. It follows the model the view has
/// when install() is called.
class EmptyState : public QLabel {
    Q_OBJECT

public:
    /// Puts @p text over @p view; the label belongs to the view's viewport.
    static EmptyState *install(QAbstractItemView *view, const QString &text);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    EmptyState(QAbstractItemView *view, const QString &text);
    void refresh();

    QAbstractItemView *m_view;
};

} // namespace ccm::designer
