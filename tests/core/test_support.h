// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "test_common.h"

#include <QFile>
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

/// Upstream's CCM v1 JSON Schema NAME in the team's shared directory (CCM_SHARED_DIR): present
/// beside the checkout in CI, absent from a clone of this repository alone.
inline QString referenceSchemaPath(const char *name)
{
    return QStringLiteral(CCM_SHARED_DIR "/reference/ccm-v1/") + QLatin1String(name);
}

/// Empty when the reference schema at path exists; otherwise why the comparison with it is skipped.
inline QByteArray missingReferenceSchema(const QString &path)
{
    if (QFile::exists(path))
        return {};
    return (QStringLiteral("upstream's reference schema %1 is missing; to compare with it, configure with "
                           "-DCCM_SHARED_DIR=DIR where DIR has reference/ccm-v1/")
                .arg(path))
        .toUtf8();
}

} // namespace ccm::test
