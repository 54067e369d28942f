// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/export_bundle_dialog.h"

#include <QDialogButtonBox>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ccm::designer {

ExportBundleDialog::ExportBundleDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export Bundle"));
    auto *layout = new QVBoxLayout(this);
    auto *membersTitle = new QLabel(tr("Files that go into the bundle:"), this);
    m_members = new QListWidget(this);
    m_members->setObjectName(QStringLiteral("bundleMembers"));
    membersTitle->setBuddy(m_members);
    m_findingsTitle = new QLabel(tr("Warnings:"), this);
    m_findings = new QListWidget(this);
    m_findings->setObjectName(QStringLiteral("bundleFindings"));
    m_findings->setWordWrap(true);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("bundleMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_export = buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    m_export->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_export, &QPushButton::clicked, this, &ExportBundleDialog::exportRequested);
    layout->addWidget(membersTitle);
    layout->addWidget(m_members, 2);
    layout->addWidget(m_findingsTitle);
    layout->addWidget(m_findings, 1);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(560, 420);
    setBusy(tr("Collecting the files the manifest reaches…"));
}

void ExportBundleDialog::setListing(const QStringList &members, const QList<Finding> &findings, bool ok)
{
    m_ok = ok;
    m_members->clear();
    m_members->addItems(members);
    m_findings->clear();
    for (const Finding &finding : findings) {
        const bool error = finding.severity == QLatin1String("error");
        auto *item = new QListWidgetItem(
            QIcon::fromTheme(error ? QStringLiteral("dialog-error") : QStringLiteral("dialog-warning")), finding.text);
        m_findings->addItem(item);
    }
    m_findingsTitle->setText(findings.isEmpty() ? tr("No warnings.") : tr("Warnings and errors:"));
    m_export->setEnabled(ok);
    setMessage(ok ? (members.size() == 1 ? tr("1 file will go into the bundle.")
                                         : tr("%1 files will go into the bundle.").arg(members.size()))
                  : tr("The manifest cannot be bundled until the errors above are fixed."),
        !ok);
}

void ExportBundleDialog::setBusy(const QString &text)
{
    m_export->setEnabled(false);
    m_message->setText(text);
}

void ExportBundleDialog::setMessage(const QString &text, bool failed)
{
    m_export->setEnabled(m_ok);
    m_message->setText(failed ? QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()) : text.toHtmlEscaped());
}

} // namespace ccm::designer
