// SPDX-License-Identifier: Apache-2.0
// Shows the designer's data provenance, a completion popup and a hover value on a manifest, for
// the screenshots in docs/designer.md. Not a test and not shipped. It starts a user backend of
// its own and prints "provenance", "completion" and "hover" as each is on screen, five seconds
// apart, then quits.
//   Xvfb :59 -screen 0 1600x1000x24 & DISPLAY=:59 live_values_screenshot resources/examples/hiera.yaml
//   import -display :59 -window root shot.png
#include "designer/core/backend_client.h"
#include "designer/core/live_data.h"
#include "designer/ui/controllers/live_values_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/expression_completer.h"
#include "designer/ui/editors/field_editors.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QHelpEvent>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <cstdio>

using namespace ccm::designer;

namespace {

constexpr int kPauseMs = 8000;

void announce(const char *stage)
{
    QTest::qWait(1000);
    std::printf("%s\n", stage);
    std::fflush(stdout);
    QTest::qWait(kPauseMs);
}

void showCompletion(MainWindow &window)
{
    window.selectEntry({1, 0});
    auto *owner = window.propertyEditor()->findChild<FieldEditor *>(QStringLiteral("owner"));
    auto *edit = owner == nullptr ? nullptr : qobject_cast<QLineEdit *>(owner->focusTarget());
    if (edit == nullptr)
        return;
    edit->setFocus();
    edit->clear();
    QTest::keyClicks(edit, QStringLiteral("{{ Facts.host.info.p"));
}

void showHover(MainWindow &window)
{
    YamlEditor *yaml = window.yamlEditor();
    const int position = int(yaml->toPlainText().indexOf(QStringLiteral("Facts.host.info.platformFamily ==")));
    const QTextBlock block = yaml->document()->findBlock(position);
    yaml->goToLine(block.blockNumber() + 1, position - block.position() + 1);
    QTextCursor cursor = yaml->textCursor();
    cursor.setPosition(position + 6);
    const QPoint point = yaml->cursorRect(cursor).center();
    QHelpEvent help(QEvent::ToolTip, point, yaml->viewport()->mapToGlobal(point));
    QApplication::sendEvent(yaml->viewport(), &help);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    if (argc < 2) {
        std::fprintf(stderr, "usage: live_values_screenshot MANIFEST\n");
        return 2;
    }
    QTemporaryDir dir;
    MainWindow window;
    BackendClient *client = window.previewController()->client();
    client->setBackendProgram(QStringLiteral(CCM_BACKEND_BIN));
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
    window.whatIfPanel()->setFactRows({{QStringLiteral("host.info.platformFamily"), QStringLiteral("rhel")}});
    window.whatIfPanel()->setOverridesEnabled(true);
    window.resize(1600, 1000);
    window.move(0, 0);
    window.show();
    window.connectToBackend();
    LiveData *live = window.liveValues()->liveData();
    if (!window.openFile(QString::fromLocal8Bit(argv[1]))
        || !QTest::qWaitFor([live] { return live->whatIfResolution().has_value() && !live->facts().empty(); }, 30000)) {
        std::fprintf(stderr, "the backend did not resolve the data\n");
        return 1;
    }
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("editorTabs"));
    tabs->setCurrentWidget(window.settingsEditor());
    window.settingsEditor()->tabs()->setCurrentIndex(0);
    announce("provenance");
    tabs->setCurrentWidget(window.propertyEditor());
    showCompletion(window);
    announce("completion");
    showHover(window);
    QTest::qWait(500);
    announce("hover");
    return 0;
}
