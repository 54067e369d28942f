// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/mode_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ccm::designer {

ModeDialog::ModeDialog(unsigned mode, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Permissions"));
    auto *layout = new QVBoxLayout(this);
    auto *grid = new QGridLayout;
    layout->addLayout(grid);
    const QStringList columns {tr("Read"), tr("Write"), tr("Execute")};
    const QStringList rows {tr("Owner"), tr("Group"), tr("Others")};
    for (int column = 0; column < 3; ++column)
        grid->addWidget(new QLabel(columns[column], this), 0, column + 1, Qt::AlignCenter);
    for (int row = 0; row < 3; ++row) {
        grid->addWidget(new QLabel(rows[row], this), row + 1, 0);
        for (int column = 0; column < 3; ++column) {
            const unsigned bit = 1U << ((2 - row) * 3 + (2 - column));
            auto *box = new QCheckBox(this);
            //: Accessible name of a permission check box, e.g. "Owner, Write".
            box->setAccessibleName(tr("%1, %2").arg(rows[row], columns[column]));
            grid->addWidget(box, row + 1, column + 1, Qt::AlignCenter);
            m_boxes.emplace_back(bit, box);
        }
    }
    const std::pair<unsigned, QString> special[] {
        {04000U, tr("Set user ID")}, {02000U, tr("Set group ID")}, {01000U, tr("Sticky")}};
    auto *specials = new QHBoxLayout;
    for (const auto &[bit, text] : special) {
        auto *box = new QCheckBox(text, this);
        specials->addWidget(box);
        m_boxes.emplace_back(bit, box);
    }
    layout->addLayout(specials);
    auto *preview = new QLabel(this);
    preview->setObjectName(QStringLiteral("preview"));
    layout->addWidget(preview);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (auto &[bit, box] : m_boxes) {
        box->setChecked((mode & bit) != 0);
        connect(box, &QCheckBox::toggled, preview, [this, preview] { preview->setText(modeText()); });
    }
    preview->setText(modeText());
}

unsigned ModeDialog::mode() const
{
    unsigned out = 0;
    for (const auto &[bit, box] : m_boxes) {
        if (box->isChecked())
            out |= bit;
    }
    return out;
}

QString ModeDialog::modeText() const
{
    return QStringLiteral("%1").arg(mode(), 4, 8, QLatin1Char('0'));
}

QCheckBox *ModeDialog::bitBox(unsigned bit) const
{
    for (const auto &[candidate, box] : m_boxes) {
        if (candidate == bit)
            return box;
    }
    return nullptr;
}

} // namespace ccm::designer
