// SPDX-License-Identifier: Apache-2.0
// The designer's completion and hover targets at 1,000 resources: from a keystroke in a property
// field to the completion popup shown, and from hovering a `{{ … }}` to its value shown (this host
// and What If, from a real user backend), each under 30 ms. The backend is started and the data
// resolved before the clock runs, as they are by the time a user types.
#include "bench_timing.h"
#include "designer/core/backend_client.h"
#include "designer/core/live_data.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/expression_completer.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>

#include <cstdio>

using namespace ccm::designer;

namespace {

constexpr int kResources = 1000;
constexpr int kRuns = 21;

QByteArray manifest(const QTemporaryDir &dir)
{
    QByteArray text = "data:\n  port: 8080\n  web:\n    listen: \"{{ Facts.host.info.hostname }}\"\n"
                      "hierarchy:\n  order:\n    - \"family.{{ Facts.host.info.platformFamily }}\"\n    - common\n"
                      "overrides:\n  common:\n    port: 9090\n  family.plan9:\n    port: 7070\n"
                      "ccm:\n  resources:\n    - file:\n";
    for (int i = 0; i < kResources; ++i) {
        text += "        - " + dir.filePath(QStringLiteral("file-%1").arg(i)).toUtf8()
            + ":\n            ensure: present\n            owner: \"{{ Facts.host.info.hostname }}\"\n"
              "            content: \"port {{ Data.port }}\\n\"\n";
    }
    return text;
}

void report(const char *what, const std::vector<double> &samples)
{
    const double median = samples[samples.size() / 2];
    const double p95 = samples[std::min(samples.size() - 1, samples.size() * 95 / 100)];
    std::printf("%-44s median %7.2f ms  p95 %7.2f ms  (%zu runs, target 30)\n", what, median, p95, samples.size());
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("site.yaml"));
    QFile file(path);
    const QByteArray text = manifest(dir);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return 1;
    file.close();

    MainWindow window;
    window.show();
    BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
    window.whatIfPanel()->setFactRows({{QStringLiteral("host.info.platformFamily"), QStringLiteral("plan9")}});
    window.whatIfPanel()->setOverridesEnabled(true);
    window.connectToBackend();
    LiveData *live = window.liveValues()->liveData();
    if (!window.openFile(path)
        || !QTest::qWaitFor([&] { return live->whatIfResolution().has_value() && !live->facts().empty(); }, 30000)) {
        std::fprintf(stderr, "the backend did not start or did not resolve the data\n");
        return 1;
    }
    window.selectEntry({0, 500});
    auto *owner = window.propertyEditor()->findChild<FieldEditor *>(QStringLiteral("owner"));
    auto *edit = owner == nullptr ? nullptr : qobject_cast<QLineEdit *>(owner->focusTarget());
    ExpressionCompleter *completer = ExpressionCompleter::of(edit);
    if (completer == nullptr) {
        std::fprintf(stderr, "the owner field has no completer\n");
        return 1;
    }
    edit->setFocus();

    const auto keystroke = ccm::bench::sampleMilliseconds(
        [&] {
            edit->setText(QStringLiteral("{{ Facts.host.info."));
            completer->completer()->popup()->hide();
            QTest::keyClick(edit, Qt::Key_H);
            if (!completer->completer()->popup()->isVisible())
                std::fprintf(stderr, "no popup after the keystroke\n");
        },
        kRuns);
    report("keystroke to completion popup shown:", keystroke);

    YamlEditor *yaml = window.yamlEditor();
    ExpressionCompleter *yamlCompleter = ExpressionCompleter::of(yaml);
    yaml->setFocus();
    QTextCursor cursor = yaml->textCursor();
    cursor.setPosition(int(yaml->toPlainText().lastIndexOf(QStringLiteral("{{ Data.port }}"))) + 3);
    yaml->setTextCursor(cursor);
    const auto yamlKeystroke = ccm::bench::sampleMilliseconds(
        [&] {
            yamlCompleter->completer()->popup()->hide();
            QTest::keyClick(yaml, Qt::Key_D);
            if (!yamlCompleter->completer()->popup()->isVisible())
                std::fprintf(stderr, "no popup after the keystroke in the YAML view\n");
            QTest::keyClick(yaml, Qt::Key_Backspace);
        },
        kRuns);
    report("keystroke in the YAML view to popup shown:", yamlKeystroke);
    edit->setFocus();

    QSignalSpy shown(completer, &ExpressionCompleter::hoverShown);
    int run = 0;
    const auto hover = ccm::bench::sampleMilliseconds(
        [&] {
            // A new text each time: the cache would otherwise answer every run after the first.
            edit->setText(QStringLiteral("{{ Data.port + %1 }}").arg(run++));
            const qsizetype before = shown.size();
            completer->showValueAt(4, edit->mapToGlobal(QPoint(4, 4)));
            if (!QTest::qWaitFor([&] { return shown.size() > before; }, 30000))
                std::fprintf(stderr, "no hover value\n");
        },
        kRuns);
    report("hover to value shown (this host + What If):", hover);

    const auto cached = ccm::bench::sampleMilliseconds(
        [&] {
            const qsizetype before = shown.size();
            completer->showValueAt(4, edit->mapToGlobal(QPoint(4, 4)));
            if (!QTest::qWaitFor([&] { return shown.size() > before; }, 30000))
                std::fprintf(stderr, "no hover value\n");
        },
        kRuns);
    report("hover to value shown, cached:", cached);
    std::printf(
        "last hover: %s\n", qPrintable(completer->lastHoverText().replace(QLatin1Char('\n'), QLatin1String(" | "))));
    return 0;
}
