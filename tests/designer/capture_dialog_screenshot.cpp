// SPDX-License-Identifier: Apache-2.0
// Shows Edit ▸ Add ▸ From This Machine… with a few packages and a directory of /etc checked, for
// the screenshot in docs/designer.md. Not a test and not shipped. It starts a user backend of its
// own, prints "ready" once the dialog shows the Files tab, waits, then quits.
//   xvfb-run -s "-screen 0 1400x900x24" sh -c 'capture_dialog_screenshot MANIFEST > ready.txt &
//     until grep -q ready ready.txt; do sleep 1; done; import -window root shot.png'
#include "designer/ui/controllers/capture_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/dialogs/capture_dialog.h"
#include "designer/ui/main_window.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QStandardItem>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <cstdio>
#include <functional>

using namespace ccm::designer;

namespace {

constexpr int kPatienceMs = 30000;
constexpr int kPauseMs = 8000;

/// Waits until `find` gives a row, then checks it.
bool checkWhenListed(const std::function<QStandardItem *()> &find)
{
    if (!QTest::qWaitFor([&] { return find() != nullptr; }, kPatienceMs))
        return false;
    find()->setCheckState(Qt::Checked);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir runtime;
    MainWindow window;
    BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(runtime.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(runtime.filePath(QStringLiteral("backend.sock")));
    if (argc > 1 && !window.openFile(QString::fromLocal8Bit(argv[1])))
        return 1;
    window.setGeometry(0, 0, 1400, 900);
    window.show();
    window.connectToBackend();
    CaptureDialog *dialog = window.captureController()->showMachineDialog();
    dialog->setGeometry(110, 110, 1180, 660);
    for (const char *name : {"git", "openssl"}) {
        const QString package = QString::fromLatin1(name);
        if (!checkWhenListed([&] { return dialog->packageItem(package); }))
            return 1;
    }
    dialog->revealPath(QStringLiteral("/etc/ssh"));
    if (!checkWhenListed([&] { return dialog->fileItem(QStringLiteral("/etc/ssh/ssh_config.d")); })
        || !checkWhenListed([&] { return dialog->fileItem(QStringLiteral("/etc/ssh/ssh_config")); }))
        return 1;
    dialog->tabs()->setCurrentIndex(2);
    dialog->fileView()->scrollTo(
        dialog->fileItem(QStringLiteral("/etc/ssh/ssh_config"))->index(), QAbstractItemView::PositionAtCenter);
    QTest::qWait(1000);
    std::printf("ready\n");
    std::fflush(stdout);
    QTest::qWait(kPauseMs);
    return 0;
}
