// SPDX-License-Identifier: Apache-2.0
// What the two capture dialogs share: the options and the report of what was added. Only for
// capture_dialog.cpp and fleet_capture_dialog.cpp.
#pragma once

#include "designer/core/capture_client.h"
#include "designer/core/capture_insertion.h"
#include "designer/ui/dialogs/capture_dialog.h"

#include <QCheckBox>
#include <QVBoxLayout>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace ccm::designer {

/// The options every capture has: pin versions, move host values to data, include private files.
class CaptureOptions : public QWidget {
public:
    explicit CaptureOptions(QWidget *parent)
        : QWidget(parent)
    {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        pin = new QCheckBox(CaptureDialog::tr("&Pin versions"), this);
        pin->setObjectName(QStringLiteral("capturePin"));
        pin->setToolTip(CaptureDialog::tr("Packages get their installed version instead of ensure: present"));
        data = new QCheckBox(CaptureDialog::tr("Move host &values to data"), this);
        data->setObjectName(QStringLiteral("captureData"));
        data->setToolTip(
            CaptureDialog::tr("Pinned versions and this host's name in file content go into data: and are looked up, "
                              "so other hosts can override them"));
        includePrivate = new QCheckBox(CaptureDialog::tr("Include p&rivate files"), this);
        includePrivate->setObjectName(QStringLiteral("captureIncludePrivate"));
        includePrivate->setToolTip(CaptureDialog::tr(
            "Files only their owner may read are left out unless this is on; they become source files "
            "written with mode 0600"));
        for (QCheckBox *box : {pin, data, includePrivate})
            layout->addWidget(box);
    }

    void apply(CaptureSelection &selection) const
    {
        selection.pin = pin->isChecked();
        selection.data = data->isChecked();
        selection.includePrivate = includePrivate->isChecked();
    }

    QCheckBox *pin;
    QCheckBox *data;
    QCheckBox *includePrivate;
};

namespace captureui {

/// The read-only report of skipped items and warnings, hidden until there is one.
QPlainTextEdit *reportEdit(QWidget *parent);
/// Shows the outcome: the summary in `message`, the skipped items, warnings and data kept in
/// `report`. True when there was something to read in the report.
bool showReport(QPlainTextEdit *report, QLabel *message, const CaptureAnswer &answer, const CaptureAddOutcome &outcome);
/// A message under the form, marked when it is an error.
void styleMessage(QLabel *label, const QString &text, bool error);

} // namespace captureui

} // namespace ccm::designer
