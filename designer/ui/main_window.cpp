// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"

#include "resource_palette.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QIcon>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStatusBar>

namespace ccm::designer {

namespace {
// Bump when the dock layout changes so an old saved state is ignored rather than misapplied.
constexpr int kWindowStateVersion = 1;
constexpr int kStatusMessageTimeoutMs = 5000;
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_palette(new ResourcePalette(this))
    , m_manifestView(new QPlainTextEdit(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/ccm-designer.svg")));

    m_manifestView->setReadOnly(true);
    m_manifestView->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_manifestView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_manifestView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setCentralWidget(m_manifestView);

    auto *dock = new QDockWidget(tr("Resource Types"), this);
    dock->setObjectName(QStringLiteral("resourceTypesDock"));
    dock->setWidget(m_palette);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    createActions();
    updateTitle();
    // Created up front so the window does not change height when the first message arrives.
    statusBar();

    const QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        resize(1000, 680);
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray(), kWindowStateVersion);
}

bool MainWindow::openFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_errorString = tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        statusBar()->showMessage(m_errorString);
        return false;
    }
    const QByteArray content = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        m_errorString = tr("Could not read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        statusBar()->showMessage(m_errorString);
        return false;
    }

    m_errorString.clear();
    m_manifestView->setPlainText(QString::fromUtf8(content));
    setWindowFilePath(QFileInfo(path).absoluteFilePath());
    updateTitle();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), kStatusMessageTimeoutMs);
    return true;
}

QString MainWindow::errorString() const
{
    return m_errorString;
}

ResourcePalette *MainWindow::resourcePalette() const
{
    return m_palette;
}

QPlainTextEdit *MainWindow::manifestView() const
{
    return m_manifestView;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState(kWindowStateVersion));
    QMainWindow::closeEvent(event);
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));

    QAction *openAction = fileMenu->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"),
                                              this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    openAction->setStatusTip(tr("Open a CCM manifest"));

    fileMenu->addSeparator();

    QAction *quitAction = fileMenu->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"),
                                              this, &QWidget::close);
    // QKeySequence::Quit is empty where the platform has no quit convention (Windows, offscreen).
    quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quitAction->setMenuRole(QAction::QuitRole);
    quitAction->setStatusTip(tr("Quit CCM Designer"));

    // The dock can be closed; this menu is the way to bring it back.
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    for (const QDockWidget *dock : findChildren<QDockWidget *>())
        viewMenu->addAction(dock->toggleViewAction());

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));

    QAction *aboutAction = helpMenu->addAction(tr("&About CCM Designer"), this, &MainWindow::showAbout);
    aboutAction->setMenuRole(QAction::AboutRole);

    QAction *aboutQtAction = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQtAction->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::openWithDialog()
{
    const QString startDirectory = windowFilePath().isEmpty() ? QString() : QFileInfo(windowFilePath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Manifest"), startDirectory,
                                                      tr("CCM manifests (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty())
        return;
    if (!openFile(path))
        QMessageBox::warning(this, tr("Open Manifest"), m_errorString);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About CCM Designer"),
                       tr("<h3>CCM Designer %1</h3><p>Authoring and preview tool for CCM manifests.</p>")
                           .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
}

void MainWindow::updateTitle()
{
    if (windowFilePath().isEmpty()) {
        setWindowTitle(tr("CCM Designer"));
        return;
    }
    //: Window title while a manifest is open; %1 is the manifest's file name.
    setWindowTitle(tr("%1 — CCM Designer").arg(QFileInfo(windowFilePath()).fileName()));
}

} // namespace ccm::designer
