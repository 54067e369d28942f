// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QIcon>

class QToolBar;

namespace ccm::designer {

/// The icon named @p themeName in the freedesktop icon naming specification (document-open,
/// edit-undo, …): the desktop's theme icon where there is one, else the designer's own drawing of
/// it (":/icons/actions/<themeName>.svg"), so actions have icons on every platform.
QIcon actionIcon(const QString &themeName);

/// Shows @p toolBar's actions as icons and gives each a tooltip with its text and shortcut, since
/// the text is no longer on the button.
void showAsIcons(QToolBar *toolBar);

} // namespace ccm::designer
