// SPDX-License-Identifier: Apache-2.0
#include "main_window.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDebug>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

int main(int argc, char *argv[])
{
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
