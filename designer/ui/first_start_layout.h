// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRect>

class QMainWindow;

namespace ccm::designer {

/// Where the main window opens when no geometry was saved: 85 % of @p available (the screen's
/// available geometry), no larger than 2400×1500 so it stays a window on 4K screens, no smaller
/// than 960×640 unless the screen itself is, and centred on it.
QRect firstStartGeometry(const QRect &available);

/// Gives the editors in the centre of @p window most of its height when no dock state was saved:
/// the bottom docks a fifth of the height, the left docks a narrow column. Sizes only take once
/// the window is laid out at its own size, so this waits for the window's first show.
void applyFirstStartDockSizes(QMainWindow *window);

} // namespace ccm::designer
