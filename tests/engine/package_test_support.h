// SPDX-License-Identifier: Apache-2.0
// What the package type and package provider tests share: recorded tool output and argv in the
// words the test tables use.
#pragma once

#include "test_common.h"

#include <QFile>
#include <QString>
#include <QStringList>

#include <string>
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

} // namespace ccm::test
