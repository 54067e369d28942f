// SPDX-License-Identifier: Apache-2.0
// The main window's actions, menus and toolbar: what each offers and where, apart from what the
// window does when they are triggered (main_window.cpp).
#include "designer/ui/controllers/capture_controller.h"
#include "designer/ui/controllers/files_controller.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/controllers/host_state_controller.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/help_menu.h"
#include "designer/ui/icons.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/fleet_dock.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/resource_palette.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QIcon>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QUndoStack>

namespace ccm::designer {

void MainWindow::createActions()
{
    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    createFileMenu(toolBar);
    toolBar->addSeparator();
    createEditMenu(toolBar);
    createRunMenu(toolBar);
    createFleetMenu();
    createViewMenu(toolBar);
    createHelpMenu();
    showAsIcons(toolBar);

    // Every action's shortcut in its tooltip, so the keyboard way is discoverable.
    for (QAction *action : findChildren<QAction *>()) {
        if (!action->shortcut().isEmpty() && action->statusTip().isEmpty())
            action->setStatusTip(action->text().remove(u'&'));
    }
    updateRecentFilesMenu();
}

void MainWindow::createFileMenu(QToolBar *toolBar)
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *newAction
        = fileMenu->addAction(actionIcon(QStringLiteral("document-new")), tr("&New"), this, &MainWindow::newDocument);
    newAction->setShortcut(QKeySequence::New);
    newAction->setStatusTip(tr("Start a new, empty manifest"));

    QAction *openAction = fileMenu->addAction(
        actionIcon(QStringLiteral("document-open")), tr("&Open…"), this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    openAction->setStatusTip(tr("Open a CCM manifest or bundle"));

    fileMenu->addAction(m_fleet->openLocationAction());
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentFilesMenu"));

    fileMenu->addSeparator();
    m_saveAction = fileMenu->addAction(
        actionIcon(QStringLiteral("document-save")), tr("&Save"), this, &MainWindow::saveCurrentTab);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the manifest, or the file of the current tab"));
    QAction *saveAllAction = fileMenu->addAction(tr("Save A&ll"), this, &MainWindow::saveAll);
    saveAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    saveAllAction->setStatusTip(tr("Save the manifest and every modified file"));

    QAction *saveAsAction = fileMenu->addAction(
        actionIcon(QStringLiteral("document-save-as")), tr("Save &As…"), this, &MainWindow::saveAs);
    // QKeySequence::SaveAs is empty on some platforms.
    saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    saveAsAction->setStatusTip(tr("Save the manifest under another name"));

    m_revertAction
        = fileMenu->addAction(actionIcon(QStringLiteral("document-revert")), tr("Re&vert"), this, &MainWindow::revert);
    m_revertAction->setStatusTip(tr("Go back to the saved manifest"));

    fileMenu->addSeparator();
    fileMenu->addAction(m_fleet->exportAction());
    fileMenu->addAction(m_fleet->publishAction());

    fileMenu->addSeparator();
    QAction *quitAction
        = fileMenu->addAction(actionIcon(QStringLiteral("application-exit")), tr("&Quit"), this, &QWidget::close);
    // QKeySequence::Quit is empty where the platform has no quit convention (Windows, offscreen).
    quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quitAction->setMenuRole(QAction::QuitRole);
    quitAction->setStatusTip(tr("Quit CCM Designer"));

    for (QAction *action : {newAction, openAction, m_saveAction})
        toolBar->addAction(action);
}

void MainWindow::createEditMenu(QToolBar *toolBar)
{
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction *undoAction = m_undoAction = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undoAction->setIcon(actionIcon(QStringLiteral("edit-undo")));
    undoAction->setShortcut(QKeySequence::Undo);
    undoAction->setObjectName(QStringLiteral("undoAction"));
    QAction *redoAction = m_redoAction = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redoAction->setIcon(actionIcon(QStringLiteral("edit-redo")));
    redoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redoAction->setObjectName(QStringLiteral("redoAction"));
    editMenu->addAction(undoAction);
    editMenu->addAction(redoAction);
    editMenu->addSeparator();
    toolBar->addAction(undoAction);
    toolBar->addAction(redoAction);
    toolBar->addSeparator();

    editMenu->addMenu(m_capture->menu());
    // The palette adds resources too: its context menu offers the host's.
    m_palette->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_palette->addActions({m_capture->fromMachineAction(), m_capture->fromFleetAction()});
    editMenu->addSeparator();
    createResourceActions(editMenu, toolBar);
    editMenu->addSeparator();
    QAction *filterAction = editMenu->addAction(tr("&Filter Resources"), this, [this] {
        m_resourceList->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_resourceList->filterEdit()->selectAll();
    });
    filterAction->setShortcut(QKeySequence::Find);
}

void MainWindow::createResourceActions(QMenu *editMenu, QToolBar *toolBar)
{
    m_duplicateAction = editMenu->addAction(
        actionIcon(QStringLiteral("edit-copy")), tr("D&uplicate Resource"), this, &MainWindow::duplicateSelected);
    m_duplicateAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    m_deleteAction = editMenu->addAction(
        actionIcon(QStringLiteral("edit-delete")), tr("&Delete Resource"), this, &MainWindow::deleteSelected);
    m_deleteAction->setShortcut(QKeySequence::Delete);
    // Delete must not fire while typing in a field: it belongs to the resource list.
    m_deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_resourceList->view()->addAction(m_deleteAction);
    m_moveUpAction
        = editMenu->addAction(actionIcon(QStringLiteral("go-up")), tr("Move &Up"), this, [this] { moveSelected(-1); });
    m_moveUpAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    m_moveDownAction = editMenu->addAction(
        actionIcon(QStringLiteral("go-down")), tr("Move Do&wn"), this, [this] { moveSelected(1); });
    m_moveDownAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    m_addDefaultsAction = editMenu->addAction(actionIcon(QStringLiteral("list-add")), tr("Add Block &Defaults"), this,
        &MainWindow::addDefaultsToSelectedBlock);
    m_addDefaultsAction->setStatusTip(tr("Give the selected block a defaults entry shared by its resources"));

    editMenu->addSeparator();
    editMenu->addAction(m_files->moveContentAction());
    editMenu->addAction(m_files->openSourceAction());
    m_resourceList->view()->addAction(m_files->moveContentAction());
    m_resourceList->view()->addAction(m_files->openSourceAction());
    const QList<QAction *> listActions {
        m_duplicateAction, m_deleteAction, m_moveUpAction, m_moveDownAction, m_addDefaultsAction};
    m_resourceList->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
    for (QAction *action : listActions) {
        if (action != m_deleteAction)
            m_resourceList->view()->addAction(action);
        toolBar->addAction(action);
    }
    m_resourceList->view()->addAction(m_hostState->refreshAction());
}

void MainWindow::createRunMenu(QToolBar *toolBar)
{
    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_preview->previewAction());
    runMenu->addAction(m_preview->applyAction());
    runMenu->addAction(m_preview->cancelAction());
    runMenu->addSeparator();
    runMenu->addAction(m_hostState->refreshAction());
    runMenu->addSeparator();
    runMenu->addAction(m_preview->exportJsonAction());
    runMenu->addAction(m_preview->exportTextAction());

    toolBar->addSeparator();
    toolBar->addAction(m_preview->previewAction());
    toolBar->addAction(m_preview->cancelAction());
    toolBar->addAction(m_preview->applyAction());
}

void MainWindow::createFleetMenu()
{
    QMenu *fleetMenu = menuBar()->addMenu(tr("F&leet"));
    fleetMenu->addAction(m_fleetDock->previewAction());
    fleetMenu->addAction(m_fleet->publishAction());
    fleetMenu->addAction(m_fleet->releasesAction());
    fleetMenu->addAction(m_fleet->rolloutAction());
    fleetMenu->addSeparator();
    fleetMenu->addAction(m_fleetDock->keyAction());
    fleetMenu->addAction(m_fleetDock->toggleViewAction());
}

void MainWindow::createViewMenu(QToolBar *toolBar)
{
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *yamlAction
        = viewMenu->addAction(tr("Go to &YAML"), this, [this] { m_yamlEditor->setFocus(Qt::ShortcutFocusReason); });
    yamlAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction *formAction = viewMenu->addAction(tr("Go to &Properties"), this, [this] {
        m_editorTabs->setCurrentWidget(m_propertyEditor);
        m_propertyEditor->setFocus(Qt::ShortcutFocusReason);
    });
    formAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    QAction *listAction = viewMenu->addAction(
        tr("Go to &Resources"), this, [this] { m_resourceList->view()->setFocus(Qt::ShortcutFocusReason); });
    listAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    QAction *nextProblemAction = viewMenu->addAction(tr("&Next Problem"), this, &MainWindow::goToNextProblem);
    nextProblemAction->setShortcut(QKeySequence(Qt::Key_F8));
    viewMenu->addSeparator();
    // The docks can be closed; this menu is the way to bring them back.
    for (const QDockWidget *dock : findChildren<QDockWidget *>())
        viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addAction(toolBar->toggleViewAction());
}

void MainWindow::createHelpMenu()
{
    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *guideAction = helpMenu->addAction(tr("&User Guide"), this, &MainWindow::showUserGuide);
    guideAction->setObjectName(QStringLiteral("userGuideAction"));
    guideAction->setShortcut(QKeySequence::HelpContents);
    guideAction->setStatusTip(tr("Read the designer's guide, installed with it"));
    QAction *shortcutsAction = helpMenu->addAction(tr("&Keyboard Shortcuts"), this, [this] {
        if (auto *open = findChild<ShortcutsDialog *>()) {
            open->raise();
            open->activateWindow();
            return;
        }
        auto *dialog = new ShortcutsDialog(menuBar(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    shortcutsAction->setObjectName(QStringLiteral("shortcutsAction"));
    shortcutsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    shortcutsAction->setStatusTip(tr("List the keyboard shortcuts of every menu"));
    helpMenu->addSeparator();
    QAction *aboutAction = helpMenu->addAction(tr("&About CCM Designer"), this, &MainWindow::showAbout);
    aboutAction->setMenuRole(QAction::AboutRole);
    QAction *aboutQtAction = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQtAction->setMenuRole(QAction::AboutQtRole);
}

} // namespace ccm::designer
