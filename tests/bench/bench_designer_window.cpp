// SPDX-License-Identifier: Apache-2.0
// The designer's targets measured through the whole window, every view updated: open a
// 5,000-resource manifest in under 1 s; a keystroke in a form or in the YAML view validated and
// shown in under 50 ms on a 1,000-resource manifest. Runs on the offscreen platform unless a
// display is given.
#include "bench_timing.h"
#include "main_window.h"
#include "manifest_document.h"

#include <QApplication>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstdio>

using ccm::designer::MainWindow;

namespace {

/// Files with their defaults, content, modes and requirements, in two blocks: what a real
/// manifest of that size looks like.
QByteArray manifestWith(int resources)
{
    QByteArray text = "ccm:\n  resources:\n    - package:\n        - nginx:\n            ensure: present\n"
                      "    - file:\n        - defaults:\n            owner: root\n            group: root\n";
    for (int i = 0; i < resources - 1; ++i) {
        const QByteArray n = QByteArray::number(i);
        text += "        - /srv/site/file-" + n
            + ".conf:\n            ensure: present\n            mode: \"0644\"\n            content: |\n"
              "              value "
            + n + "\n            require:\n              - package#nginx\n";
    }
    return text;
}

bool writeManifest(const QString &path, int resources)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(manifestWith(resources)) > 0;
}

/// Runs the events the change queued (repaints, deferred view updates) so they count too.
void settle()
{
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    const QString large = dir.filePath(QStringLiteral("large.yaml"));
    const QString medium = dir.filePath(QStringLiteral("medium.yaml"));
    if (!writeManifest(large, 5000) || !writeManifest(medium, 1000))
        return 1;

    const double open = ccm::bench::medianMilliseconds(
        [&] {
            MainWindow window;
            window.show();
            settle();
            if (!window.openFile(large))
                std::fprintf(stderr, "%s\n", qPrintable(window.errorString()));
            settle();
        },
        5);
    std::printf(
        "window open, 5000 resources:                 %8.1f ms (target 1000, includes creating the window)\n", open);

    MainWindow window;
    window.show();
    if (!window.openFile(medium))
        return 1;
    window.selectEntry({1, 500});
    settle();
    int step = 0;
    const double form = ccm::bench::medianMilliseconds(
        [&] {
            // What the mode field does on a keystroke; the document's change updates every view.
            window.document()->setProperty({1, 500}, "mode", ccm::Json(step++ % 2 ? "0644" : "0640"));
            settle();
        },
        15);
    std::printf("form keystroke to views shown, 1000 resources: %8.1f ms (target 50)\n", form);

    const QString base = window.document()->text();
    const double yaml = ccm::bench::medianMilliseconds(
        [&] {
            window.document()->setText(step++ % 2 ? base : base + QLatin1Char('#'));
            settle();
        },
        15);
    std::printf("YAML keystroke to views shown, 1000 resources: %8.1f ms (target 50, after the view's pause)\n", yaml);
    return 0;
}
