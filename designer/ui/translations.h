// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace ccm::designer {

/// The directory of the designer's compiled translations (ccm-designer_<language>.qm) for a program
/// in programDirectory: share/ccm-designer/translations beside it, where the build tree keeps them
/// as an install does.
QString translationsDirectory(const QString &programDirectory);

} // namespace ccm::designer
