// SPDX-License-Identifier: Apache-2.0
#include "designer/core/nats_contexts.h"

#include <QDir>
#include <QFileInfo>

namespace ccm::designer {

QString natsContextDirectory(const QProcessEnvironment &environment)
{
    const QString config = environment.value(QStringLiteral("XDG_CONFIG_HOME"));
    if (!config.isEmpty())
        return config + QStringLiteral("/nats/context");
    return environment.value(QStringLiteral("HOME"), QDir::homePath()) + QStringLiteral("/.config/nats/context");
}

QStringList natsContextNames(const QProcessEnvironment &environment)
{
    QStringList names;
    const QDir directory(natsContextDirectory(environment));
    const QFileInfoList files
        = directory.entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name);
    for (const QFileInfo &file : files)
        names << file.completeBaseName();
    return names;
}

QString defaultNatsContext(const QProcessEnvironment &environment)
{
    const QString named = environment.value(QStringLiteral("NATS_CONTEXT"));
    return named.isEmpty() ? QStringLiteral("CCM") : named;
}

} // namespace ccm::designer
