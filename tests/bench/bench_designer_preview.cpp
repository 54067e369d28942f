// SPDX-License-Identifier: Apache-2.0
// The designer's preview target: a noop preview of a 100-resource manifest, from the click to the
// last result shown, under 30 ms with the user backend. The backend is started and connected
// before the clock runs, as it is by the time a user clicks.
#include "bench_timing.h"
#include "designer/core/backend_client.h"
#include "designer/core/run_results.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/main_window.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

using namespace ccm::designer;

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    const passwd *user = ::getpwuid(::getuid());
    const group *primary = ::getgrgid(::getgid());
    QByteArray manifest = "ccm:\n  resources:\n    - file:\n        - defaults:\n            owner: "
        + QByteArray(user ? user->pw_name : "root")
        + "\n            group: " + QByteArray(primary ? primary->gr_name : "root") + "\n            mode: \"0644\"\n";
    for (int i = 0; i < 100; ++i) {
        const QString path = dir.filePath(QStringLiteral("file-%1").arg(i));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write("content\n") < 0)
            return 1;
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        manifest
            += "        - " + path.toUtf8() + ":\n            ensure: present\n            content: \"content\\n\"\n";
    }
    const QString path = dir.filePath(QStringLiteral("site.yaml"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(manifest) < 0)
        return 1;
    file.close();

    MainWindow window;
    window.show();
    BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
    window.connectToBackend();
    if (!QTest::qWaitFor([client] { return client->isConnected(); }, 10000) || !window.openFile(path)) {
        std::fprintf(stderr, "the backend did not start\n");
        return 1;
    }
    QSignalSpy ended(window.previewController(), &PreviewController::runEnded);
    int runs = 0;
    const double clickToLast = ccm::bench::medianMilliseconds(
        [&] {
            window.previewController()->previewAction()->trigger();
            if (!QTest::qWaitFor([&] { return ended.size() > runs; }, 30000))
                std::fprintf(stderr, "a preview did not end\n");
            ++runs;
        },
        11);
    const int rows = window.previewController()->results()->rowCount();
    std::printf("preview click to last result, %d resources: %8.1f ms (target 30)\n", rows, clickToLast);
    return rows == 100 ? 0 : 1;
}
