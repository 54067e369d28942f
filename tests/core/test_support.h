// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnostic.h"
#include "test_common.h"

#include <QString>
#include <QStringList>

#include <string>

namespace ccm::test {

/// A manifest with one resource in the list form; props is a YAML flow map, on line 5.
inline std::string manifestWith(const QString &type, const QString &name, const QString &props)
{
    return QStringLiteral("ccm:\n  resources:\n    - %1:\n        - \"%2\":\n            %3\n")
        .arg(type, name, props)
        .toStdString();
}

/// Every diagnostic as "severity path: message", for failure output.
inline QString describe(const Diagnostics &diagnostics)
{
    QStringList lines;
    for (const Diagnostic &d : diagnostics) {
        lines << QStringLiteral("%1:%2 %3 %4: %5")
                     .arg(d.position.line)
                     .arg(d.position.column)
                     .arg(q(std::string(severityName(d.severity))), q(d.path), q(d.message));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace ccm::test
