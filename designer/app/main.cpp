// SPDX-License-Identifier: Apache-2.0
#include "designer/core/heap_retention.h"
#include "designer/ui/main_window.h"
#include "designer/ui/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDebug>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <cerrno>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/// Qt keeps per-user runtime files (and the designer its own backend's socket) in
/// XDG_RUNTIME_DIR. Where the session has none (root in a plain shell or a container), Qt warns at
/// every lookup and falls back to TMPDIR/runtime-USER. The designer makes that directory itself,
/// as the XDG specification wants it (a directory of its own, owned by the user, mode 0700), and
/// names it in XDG_RUNTIME_DIR for Qt and the backend it starts. When the directory is not fit
/// (someone else's, or not a directory) the variable stays unset and Qt says why.
void provideRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const uid_t uid = geteuid();
    const passwd *account = getpwuid(uid);
    const QString user = account ? QString::fromLocal8Bit(account->pw_name) : QString::number(uid);
    const QByteArray path = QFile::encodeName(QDir::tempPath() + QStringLiteral("/runtime-") + user);
    if (mkdir(path.constData(), S_IRWXU) != 0 && errno != EEXIST)
        return;
    struct stat status { };
    if (lstat(path.constData(), &status) != 0 || !S_ISDIR(status.st_mode) || status.st_uid != uid)
        return;
    if ((status.st_mode & 07777) != S_IRWXU && chmod(path.constData(), S_IRWXU) != 0)
        return;
    qputenv("XDG_RUNTIME_DIR", path);
}

} // namespace

int main(int argc, char *argv[])
{
    provideRuntimeDirectory();
    ccm::designer::retainFreedHeap();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CCM Designer"));
    QApplication::setApplicationName(QStringLiteral("ccm-designer"));
    QApplication::setApplicationDisplayName(QStringLiteral("CCM Designer"));
    QApplication::setApplicationVersion(QStringLiteral(CCM_DESIGNER_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.choria.CcmDesigner"));

    // Qt's own strings (standard dialogs and buttons) come from the system's Qt translations.
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    // The designer's own come from the .qm files installed with it.
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("ccm-designer"), QStringLiteral("_"),
            ccm::designer::translationsDirectory(QCoreApplication::applicationDirPath())))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Authoring and preview tool for CCM manifests."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("manifest"),
        QCoreApplication::translate("main", "The CCM manifest to open."), QStringLiteral("[manifest]"));
    parser.process(app);

    ccm::designer::MainWindow window;
    const QStringList arguments = parser.positionalArguments();
    // A file that cannot be opened is reported in the status bar and on stderr; the program
    // still starts so another file can be opened.
    if (!arguments.isEmpty() && !window.openFile(arguments.constFirst()))
        qWarning().noquote() << window.errorString();
    window.show();
    // After a crash the last unsaved changes wait in recovery copies; offer them once the window
    // is up, so the question has a parent and the restored document a place to show.
    QMetaObject::invokeMethod(&window, &ccm::designer::MainWindow::offerRecovery, Qt::QueuedConnection);
    QMetaObject::invokeMethod(&window, &ccm::designer::MainWindow::connectToBackend, Qt::QueuedConnection);
    return QApplication::exec();
}
