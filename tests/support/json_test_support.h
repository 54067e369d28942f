// SPDX-License-Identifier: Apache-2.0
// ccm::Json in tests: as a QVariant type, for the data-driven tests whose columns are JSON values,
// and compared by COMPARE_JSON. Declared here once: the tests of a directory compile in batches,
// and a type is declared a metatype once per unit.
#pragma once

#include "core/model/json.h"

#include <QMetaType>
#include <QString>
#include <QTest>

Q_DECLARE_METATYPE(ccm::Json)

// QCOMPARE would try Qt's conversions on a Json; compare with == and print both as JSON.
#define COMPARE_JSON(actual, expected)                                                                                 \
    do {                                                                                                               \
        const ccm::Json actualValue = (actual);                                                                        \
        const ccm::Json expectedValue = (expected);                                                                    \
        QVERIFY2(actualValue == expectedValue,                                                                         \
            qPrintable(QString::fromStdString(actualValue.dump() + " != " + expectedValue.dump())));                   \
    } while (false)
