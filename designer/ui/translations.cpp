// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/translations.h"

#include <QDir>

namespace ccm::designer {

QString translationsDirectory(const QString &programDirectory)
{
    return QDir::cleanPath(programDirectory + QLatin1Char('/') + QStringLiteral(CCM_TRANSLATIONS_FROM_BINDIR));
}

} // namespace ccm::designer
