// SPDX-License-Identifier: Apache-2.0
// Helpers for tests that drive the designer's widgets.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

namespace ccm::test {

/// Answers the next modal message box with `button` once it shows (within about five seconds),
/// so a test can go through code that asks the user.
inline void answerNextMessageBox(QMessageBox::StandardButton button)
{
    QTimer::singleShot(0, [button] {
        for (int attempt = 0; attempt < 500; ++attempt) {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                box->button(button)->click();
                return;
            }
            QTest::qWait(10);
        }
    });
}

} // namespace ccm::test
