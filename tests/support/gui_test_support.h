// SPDX-License-Identifier: Apache-2.0
// Helpers for tests that drive the designer's widgets.
#pragma once

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTest>
#include <QTimer>

namespace ccm::test {

/// How long a wait for a backend (started, connected, answering) may take before it counts as a
/// hang; generous because the tests share slow machines, and never the thing a test asserts.
inline constexpr int kPatienceMs = 30000;

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
