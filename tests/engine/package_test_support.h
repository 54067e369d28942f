// SPDX-License-Identifier: Apache-2.0
// What the package type and package provider tests share: recorded tool output and argv in the
// words the test tables use, the status queries of apt and dnf, and a runner that watches the
// package lock.
#pragma once

#include "engine/resources/package/package_type.h"
#include "engine/util/command_runner.h"
#include "engine_test_support.h"
#include "test_common.h"

#include <QFile>
#include <QString>
#include <QStringList>

#include <functional>
#include <future>
#include <string>
#include <utility>
#include <vector>

namespace ccm::test {

/// The content of a file of recorded tool output in directory; a missing fixture stops the test.
inline std::string readRecorded(const QString &directory, const QString &file)
{
    QFile in(directory + file);
    if (!in.open(QIODevice::ReadOnly))
        qFatal("cannot read recorded output %s", qPrintable(in.fileName()));
    return in.readAll().toStdString();
}

/// The directories of recorded apt and dnf output.
inline const QString kAptRecordings = QStringLiteral(CCM_FIXTURES_DIR "/tool-output/apt/");
inline const QString kDnfRecordings = QStringLiteral(CCM_FIXTURES_DIR "/tool-output/dnf/");

/// A file of recorded apt (dpkg-query, apt-cache, apt-get) output.
inline std::string aptRecorded(const QString &file)
{
    return readRecorded(kAptRecordings, file);
}

/// A file of recorded dnf (rpm, dnf) output.
inline std::string dnfRecorded(const QString &file)
{
    return readRecorded(kDnfRecordings, file);
}

/// The dpkg-query command the apt provider asks a package's status with.
inline std::vector<std::string> dpkgStatusArgv(const std::string &package)
{
    return {"dpkg-query", "-W", "-f=${Package} ${Version} ${Architecture} ${db:Status-Status}\\n", package};
}

/// The rpm command the dnf provider asks a package's status with.
inline std::vector<std::string> rpmStatusArgv(const std::string &package)
{
    return {"rpm", "-q", package, "--queryformat", "%{NAME} %|EPOCH?{%{EPOCH}}:{0}| %{VERSION} %{RELEASE} %{ARCH}\\n"};
}

/// The argv of a command written as words separated by spaces.
inline std::vector<std::string> words(const QString &command)
{
    std::vector<std::string> argv;
    for (const QString &word : command.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        argv.push_back(word.toStdString());
    return argv;
}

/// argv as words separated by spaces, the inverse of words().
inline QString joined(const std::vector<std::string> &argv)
{
    QStringList parts;
    for (const std::string &word : argv)
        parts << q(word);
    return parts.join(QLatin1Char(' '));
}

/// Answers every command with `answer` and notes, for each, its argv and whether the package lock
/// was free meanwhile.
class LockProbe : public CommandRunner {
public:
    explicit LockProbe(std::function<CommandResult(const Command &)> answer)
        : m_answer(std::move(answer))
    {
    }

    Result<CommandResult> run(const Command &command) override
    {
        // Another thread, because trying a mutex the calling thread may hold is undefined.
        const bool free = std::async(std::launch::async, [] {
            if (!engine::packageLock().try_lock())
                return false;
            engine::packageLock().unlock();
            return true;
        }).get();
        lockFree.push_back(free);
        commands.push_back(command.argv);
        return m_answer(command);
    }

    std::vector<bool> lockFree;
    std::vector<std::vector<std::string>> commands;

private:
    std::function<CommandResult(const Command &)> m_answer;
};

} // namespace ccm::test
