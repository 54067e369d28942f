// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/open_location_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ccm::designer {

OpenLocationDialog::OpenLocationDialog(const QStringList &contexts, const QString &preferred, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Open Location"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Open the manifest of a bundle: an obj://BUCKET/NAME or http(s):// URL, or a "
                                ".tar.gz file on this computer."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    auto *row = new QHBoxLayout;
    m_location = new QLineEdit(this);
    m_location->setObjectName(QStringLiteral("bundleLocation"));
    m_location->setPlaceholderText(QStringLiteral("obj://sites/web.tar.gz"));
    m_location->setMinimumWidth(320);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    row->addWidget(m_location, 1);
    row->addWidget(browse);
    auto *label = new QLabel(tr("&Location:"), this);
    label->setBuddy(m_location);
    form->addRow(label, row);
    m_context = new QComboBox(this);
    m_context->setObjectName(QStringLiteral("natsContext"));
    m_context->addItems(contexts);
    if (contexts.isEmpty())
        m_context->addItem(preferred);
    m_context->setCurrentIndex(std::max(0, m_context->findText(preferred)));
    form->addRow(tr("NATS &context:"), m_context);
    layout->addLayout(form);
    layout->addStretch(1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_open = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &OpenLocationDialog::browse);
    connect(m_location, &QLineEdit::textChanged, this, &OpenLocationDialog::updateState);
    updateState();
}

QString OpenLocationDialog::location() const
{
    const QString text = m_location->text().trimmed();
    if (text.contains(QStringLiteral("://")))
        return text;
    return QFileInfo(text).absoluteFilePath();
}

QString OpenLocationDialog::context() const
{
    return m_context->currentText();
}

void OpenLocationDialog::browse()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Bundle"), QString(), tr("Manifest bundles (*.tar.gz *.tgz);;All files (*)"));
    if (!path.isEmpty())
        m_location->setText(path);
}

void OpenLocationDialog::updateState()
{
    const QString text = m_location->text().trimmed();
    m_context->setEnabled(text.startsWith(QStringLiteral("obj://")));
    m_open->setEnabled(!text.isEmpty());
}

} // namespace ccm::designer
