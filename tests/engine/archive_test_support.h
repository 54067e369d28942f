// SPDX-License-Identifier: Apache-2.0
// What the archive tests share: the script that makes test archives of every kind.
#pragma once

#include <QString>

namespace ccm::test {

/// Makes archives (tar, zip, with hostile entries too): tests/engine/archive_test_helper.py.
inline const QString kArchiveHelper = QStringLiteral(CCM_SOURCE_DIR "/tests/engine/archive_test_helper.py");

} // namespace ccm::test
