// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/first_start_layout.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

#include <algorithm>

namespace ccm::designer {

namespace {
constexpr double kScreenFraction = 0.85;
constexpr QSize kLargestSize(2400, 1500);
constexpr QSize kSmallestSize(960, 640);
constexpr double kBottomDockFraction = 0.2;
constexpr int kLeftDockWidth = 260;
constexpr double kResourceTypesFraction = 0.3;

void resizeDocks(QMainWindow *window)
{
    QList<QDockWidget *> bottom;
    QList<QDockWidget *> left;
    for (QDockWidget *dock : window->findChildren<QDockWidget *>()) {
        // Hidden docks have no place in the layout to size.
        if (dock->isHidden() || dock->isFloating())
            continue;
        const Qt::DockWidgetArea area = window->dockWidgetArea(dock);
        if (area == Qt::BottomDockWidgetArea)
            bottom.append(dock);
        else if (area == Qt::LeftDockWidgetArea)
            left.append(dock);
    }
    const int bottomHeight = static_cast<int>(window->height() * kBottomDockFraction);
    window->resizeDocks(bottom, QList<int>(bottom.size(), bottomHeight), Qt::Vertical);
    window->resizeDocks(left, QList<int>(left.size(), kLeftDockWidth), Qt::Horizontal);
    if (auto *types = window->findChild<QDockWidget *>(QStringLiteral("resourceTypesDock")); types)
        window->resizeDocks({types}, {static_cast<int>(window->height() * kResourceTypesFraction)}, Qt::Vertical);
}

/// Sizes the docks once, after the window's first show has laid it out.
class FirstShowFilter : public QObject {
public:
    explicit FirstShowFilter(QMainWindow *window)
        : QObject(window)
        , m_window(window)
    {
        window->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Show) {
            m_window->removeEventFilter(this);
            // The layout takes the window's size only when the show is processed.
            QTimer::singleShot(0, m_window, [window = m_window] { resizeDocks(window); });
            deleteLater();
        }
        return false;
    }

private:
    QMainWindow *m_window;
};
} // namespace

QRect firstStartGeometry(const QRect &available)
{
    QSize size = (QSizeF(available.size()) * kScreenFraction).toSize();
    size = size.boundedTo(kLargestSize).expandedTo(kSmallestSize).boundedTo(available.size());
    QRect geometry(QPoint(), size);
    geometry.moveCenter(available.center());
    return geometry;
}

void applyFirstStartDockSizes(QMainWindow *window)
{
    if (window->isVisible())
        resizeDocks(window);
    else
        new FirstShowFilter(window);
}

} // namespace ccm::designer
