// SPDX-License-Identifier: Apache-2.0
// Runs the real ccm-backend binary, as a user or a script would.
#pragma once

#include "test_common.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace ccm::test {

struct BackendRun {
    int exitCode = -1; ///< -1: did not finish in time; -2: crashed
    QString out;
    QString err;
};

/// The test's own environment with XDG_CONFIG_HOME inside `dir`, so that custom fact files of the
/// machine running the tests (~/.config/choria/ccm) cannot change the results.
inline QProcessEnvironment isolatedEnvironment(const QTemporaryDir &dir)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    return environment;
}

/// Runs ccm-backend with `arguments` in `workingDirectory` (the test's own when empty), `input` on
/// its standard input.
inline BackendRun runBackendWithInput(const QStringList &arguments, const QByteArray &input,
    const QString &workingDirectory = {},
    const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(), int timeoutMs = 60000)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(QStringLiteral(CCM_BACKEND_BIN), arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    BackendRun run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

/// Runs ccm-backend with `arguments` in `workingDirectory` (the test's own when empty).
inline BackendRun runBackend(const QStringList &arguments, const QString &workingDirectory = {},
    const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment(), int timeoutMs = 60000)
{
    return runBackendWithInput(arguments, {}, workingDirectory, environment, timeoutMs);
}

inline QString examplePath(const QString &name)
{
    return QStringLiteral(CCM_SOURCE_DIR "/resources/examples/") + name;
}

/// Writes `content` to `name` inside `dir` and returns the path; aborts the test run when it cannot.
inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFileInfo(path).dir().mkpath(QStringLiteral("."));
    if (!writeFile(path, content))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace ccm::test
