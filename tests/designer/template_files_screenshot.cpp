// SPDX-License-Identifier: Apache-2.0
// Shows the designer editing a template for the screenshot in docs/designer.md. Not a test and
// not shipped: it copies the examples to a temporary directory, moves the front page of
// static-site.yaml into templates/index.html.templ there (as "Move Content to Template File"
// does), opens the template and lets a real user backend render it. Prints "ready" once the
// rendered output is on screen; quits after a minute.
//   Xvfb :58 -screen 0 1600x1000x24 & DISPLAY=:58 template_files_screenshot resources/examples
//   import -display :58 -window root x.png
#include "designer/core/backend_client.h"
#include "designer/ui/controllers/files_controller.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/template_editor.h"
#include "designer/ui/main_window.h"
#include "designer/ui/panels/files_dock.h"
#include "designer/ui/panels/problems_panel.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

using namespace ccm::designer;

namespace {

bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(source));
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(source, target))
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QCoreApplication::setApplicationName(QStringLiteral("template_files_screenshot"));
    QTemporaryDir dir;
    const QString examples = dir.filePath(QStringLiteral("examples"));
    if (argc < 2 || !copyTree(QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath(), examples)) {
        std::fputs("usage: template_files_screenshot EXAMPLES-DIRECTORY\n", stderr);
        return 1;
    }

    MainWindow window;
    BackendClient *client = window.previewController()->client();
    client->setSystemSocket(dir.filePath(QStringLiteral("no-system.sock")));
    client->setUserSocket(dir.filePath(QStringLiteral("run/backend.sock")));
    if (!window.openFile(QDir(examples).filePath(QStringLiteral("static-site.yaml")))) {
        std::fprintf(stderr, "%s\n", qPrintable(window.errorString()));
        return 1;
    }
    QString error;
    FilesController *files = window.filesController();
    if (!files->moveContentToTemplate({0, 2}, QStringLiteral("templates/index.html.templ"), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    window.selectEntry({0, 2});
    TemplateEditor *editor
        = files->openFile(QDir(examples).filePath(QStringLiteral("templates/index.html.templ")), &error);
    if (!editor) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    window.resize(1600, 1000);
    window.show();
    if (auto *dock = window.findChild<QDockWidget *>(QStringLiteral("filesDock")))
        dock->raise();
    const QString templatePath = editor->filePath();
    QObject::connect(editor, &TemplateEditor::renderFinished, &window, [&window, files, templatePath] {
        // The file system model lists the directory in the background; by now it has.
        QTimer::singleShot(500, &window, [&window, files, templatePath] {
            const QModelIndex index = files->dock()->indexOf(templatePath);
            files->dock()->view()->expand(index.parent());
            files->dock()->view()->setCurrentIndex(index);
            window.resizeDocks({window.findChild<QDockWidget *>(QStringLiteral("problemsDock"))}, {150}, Qt::Vertical);
            QTimer::singleShot(500, [] {
                std::puts("ready");
                std::fflush(stdout);
            });
        });
    });
    QTimer::singleShot(60000, &app, &QApplication::quit);
    return app.exec();
}
