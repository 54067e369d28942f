// SPDX-License-Identifier: Apache-2.0
// The designer's targets measured through the whole window, every view updated: open a
// 5,000-resource manifest in under 150 ms; a keystroke in a form or in the YAML view validated and
// shown in under 16 ms (one frame) on a 1,000-resource manifest; and the memory the window holds
// with the 5,000 resources open. Runs on the offscreen platform unless a display is given.
// `--open-only` measures the open alone, 20 times, for a profiler to look at.
#include "bench_timing.h"
#include "designer/core/heap_retention.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/main_window.h"

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

/// A field of /proc/self/status in MiB ("VmRSS", "VmHWM"); 0 where there is none.
double statusMiB(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').front().toDouble() / 1024.0;
    }
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // As the designer's main() does.
    ccm::designer::retainFreedHeap();
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    const QString large = dir.filePath(QStringLiteral("large.yaml"));
    const QString medium = dir.filePath(QStringLiteral("medium.yaml"));
    if (!writeManifest(large, 5000) || !writeManifest(medium, 1000))
        return 1;
    const bool openOnly = app.arguments().contains(QStringLiteral("--open-only"));

    if (!openOnly) {
        // Memory first, before the timed runs leave freed pages behind: what the window holds with
        // the large manifest open, over what it holds empty.
        MainWindow window;
        window.show();
        settle();
        const double empty = statusMiB("VmRSS");
        if (!window.openFile(large))
            return 1;
        settle();
        std::printf("window memory, 5000 resources open:          %8.1f MiB resident (%.1f MiB over the empty "
                    "window, peak %.1f MiB)\n",
            statusMiB("VmRSS"), statusMiB("VmRSS") - empty, statusMiB("VmHWM"));
    }

    const double open = ccm::bench::medianMilliseconds(
        [&] {
            MainWindow window;
            window.show();
            settle();
            if (!window.openFile(large))
                std::fprintf(stderr, "%s\n", qPrintable(window.errorString()));
            settle();
        },
        openOnly ? 20 : 11);
    std::printf(
        "window open, 5000 resources:                 %8.1f ms (target 150, includes creating the window)\n", open);
    if (openOnly)
        return 0;

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
    std::printf("form keystroke to views shown, 1000 resources: %8.1f ms (target 16)\n", form);

    const QString base = window.document()->text();
    const double yaml = ccm::bench::medianMilliseconds(
        [&] {
            window.document()->setText(step++ % 2 ? base : base + QLatin1Char('#'));
            settle();
        },
        15);
    std::printf("YAML keystroke to views shown, 1000 resources: %8.1f ms (target 16, after the view's pause)\n", yaml);
    return 0;
}
