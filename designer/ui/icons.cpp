// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/icons.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeySequence>
#include <QToolBar>

namespace ccm::designer {

QIcon actionIcon(const QString &themeName)
{
    return QIcon::fromTheme(themeName, QIcon(QStringLiteral(":/icons/actions/%1.svg").arg(themeName)));
}

void showAsIcons(QToolBar *toolBar)
{
    toolBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    for (QAction *action : toolBar->actions()) {
        if (action->isSeparator())
            continue;
        QString tip = action->text().remove(u'&');
        if (tip.endsWith(u'…'))
            tip.chop(1);
        const QKeySequence shortcut = action->shortcut();
        if (!shortcut.isEmpty())
            //: Tooltip of a toolbar button; %1 is the action, %2 its keyboard shortcut.
            tip = QCoreApplication::translate("ccm::designer::Icons", "%1 (%2)")
                      .arg(tip, shortcut.toString(QKeySequence::NativeText));
        action->setToolTip(tip);
    }
}

} // namespace ccm::designer
