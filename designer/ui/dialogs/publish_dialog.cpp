// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/publish_dialog.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

/// The combo's last item, which stands for a server URL typed by hand.
constexpr int kServerUrlRole = Qt::UserRole + 1;

} // namespace

PublishDialog::PublishDialog(const QStringList &contexts, const QString &preferred, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Publish to Fleet"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Exports the manifest as a bundle and puts it into a NATS JetStream object store, "
                                "where agents fetch it by its obj:// URL."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    layout->addLayout(createTargetForm(contexts, preferred));

    m_progress = new QProgressBar(this);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("publishMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    layout->addWidget(createResultRow());
    layout->addStretch(1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_publish = buttons->addButton(tr("&Publish"), QDialogButtonBox::AcceptRole);
    layout->addWidget(buttons);
    connectSignals(buttons);
    resize(520, sizeHint().height());
    updateState();
}

QFormLayout *PublishDialog::createTargetForm(const QStringList &contexts, const QString &preferred)
{
    auto *form = new QFormLayout;
    m_context = new QComboBox(this);
    m_context->setObjectName(QStringLiteral("natsContext"));
    for (const QString &name : contexts)
        m_context->addItem(name);
    m_context->addItem(tr("Server URL…"));
    m_context->setItemData(m_context->count() - 1, true, kServerUrlRole);
    const int preferredIndex = m_context->findText(preferred);
    m_context->setCurrentIndex(preferredIndex >= 0 ? preferredIndex : 0);
    form->addRow(tr("&Connect with:"), m_context);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("natsUrl"));
    m_url->setPlaceholderText(QStringLiteral("nats://nats.example.org:4222"));
    form->addRow(tr("Server &URL:"), m_url);
    m_bucket = new QLineEdit(this);
    m_bucket->setObjectName(QStringLiteral("bucket"));
    m_bucket->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9_-]*")), m_bucket));
    m_bucket->setPlaceholderText(tr("letters, digits, - and _"));
    form->addRow(tr("&Bucket:"), m_bucket);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("objectName"));
    form->addRow(tr("Object &name:"), m_name);
    m_releaseMessage = new QLineEdit(this);
    m_releaseMessage->setObjectName(QStringLiteral("releaseMessage"));
    m_releaseMessage->setPlaceholderText(tr("what changes and why, for the release history"));
    form->addRow(tr("Release &message:"), m_releaseMessage);
    m_sign = new QCheckBox(this);
    m_sign->setObjectName(QStringLiteral("signRelease"));
    form->addRow(tr("&Sign:"), m_sign);
    setSigningKey(QString(), false);
    return form;
}

QWidget *PublishDialog::createResultRow()
{
    m_resultRow = new QWidget(this);
    auto *resultLayout = new QHBoxLayout(m_resultRow);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    m_result = new QLineEdit(m_resultRow);
    m_result->setObjectName(QStringLiteral("publishedUrl"));
    m_result->setReadOnly(true);
    m_copy = new QPushButton(tr("&Copy"), m_resultRow);
    m_copy->setObjectName(QStringLiteral("copyUrl"));
    resultLayout->addWidget(m_result, 1);
    resultLayout->addWidget(m_copy);
    m_signer = new QLabel(this);
    m_signer->setObjectName(QStringLiteral("publishedSigner"));
    m_signer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signer->setVisible(false);
    auto *column = new QWidget(this);
    auto *columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->addWidget(m_resultRow);
    columnLayout->addWidget(m_signer);
    m_resultRow->setVisible(false);
    return column;
}

void PublishDialog::connectSignals(QDialogButtonBox *buttons)
{
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_publish, &QPushButton::clicked, this, [this] {
        if (m_publish->isEnabled())
            emit publishRequested();
    });
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_result->text());
        m_message->setText(tr("The URL is on the clipboard."));
    });
    connect(m_context, &QComboBox::currentIndexChanged, this, &PublishDialog::updateState);
    for (QLineEdit *edit : {m_url, m_bucket, m_name})
        connect(edit, &QLineEdit::textChanged, this, &PublishDialog::updateState);
}

QString PublishDialog::context() const
{
    return m_context->currentData(kServerUrlRole).toBool() ? QString() : m_context->currentText();
}

QString PublishDialog::serverUrl() const
{
    return m_context->currentData(kServerUrlRole).toBool() ? m_url->text().trimmed() : QString();
}

QString PublishDialog::bucket() const
{
    return m_bucket->text().trimmed();
}

QString PublishDialog::objectName() const
{
    return m_name->text().trimmed();
}

void PublishDialog::setBucket(const QString &bucket)
{
    m_bucket->setText(bucket);
}

void PublishDialog::setObjectName(const QString &name)
{
    m_name->setText(name);
}

void PublishDialog::setSigningKey(const QString &path, bool exists)
{
    m_keyPath = path;
    m_keyExists = exists;
    if (exists) {
        m_sign->setText(tr("with the fleet key %1").arg(QDir::toNativeSeparators(path)));
        m_sign->setToolTip(tr("Agents with bundle_keys run only bundles signed by a key they list."));
    } else {
        m_sign->setText(tr("no fleet key yet: create one with Fleet ▸ Fleet Key… to sign releases"));
        m_sign->setToolTip(QString());
    }
    m_sign->setChecked(exists);
    m_sign->setEnabled(exists && !m_busy);
}

QString PublishDialog::signingKey() const
{
    return m_sign->isChecked() ? m_keyPath : QString();
}

QString PublishDialog::releaseMessage() const
{
    return m_releaseMessage->text().trimmed();
}

void PublishDialog::setBusy(const QString &text)
{
    m_busy = true;
    m_resultRow->setVisible(false);
    m_signer->setVisible(false);
    m_progress->setVisible(true);
    m_progress->setRange(0, 0);
    m_message->setText(text);
    updateState();
}

void PublishDialog::setProgress(qint64 sent, qint64 total)
{
    if (total <= 0)
        return;
    // Percent: a progress bar's int range cannot hold every file size in bytes.
    m_progress->setRange(0, 100);
    m_progress->setValue(int(sent * 100 / total));
    m_message->setText(tr("Sending: %1 of %2 KiB").arg((sent + 1023) / 1024).arg((total + 1023) / 1024));
}

void PublishDialog::setPublished(const QString &url, const QString &signer)
{
    m_busy = false;
    m_progress->setVisible(false);
    m_message->setText(tr("Published. Agents fetch the bundle from:"));
    m_result->setText(url);
    m_resultRow->setVisible(true);
    m_signer->setText(signer.isEmpty() ? tr("Not signed: agents that require a signature refuse it.")
                                       : tr("Signed by the key with fingerprint %1.").arg(signer));
    m_signer->setVisible(true);
    updateState();
}

void PublishDialog::setFailed(const QString &message)
{
    m_busy = false;
    m_progress->setVisible(false);
    m_message->setText(QStringLiteral("<b>%1</b>").arg(message.toHtmlEscaped()));
    updateState();
}

void PublishDialog::updateState()
{
    const bool byUrl = m_context->currentData(kServerUrlRole).toBool();
    m_url->setEnabled(byUrl && !m_busy);
    m_context->setEnabled(!m_busy);
    m_bucket->setEnabled(!m_busy);
    m_name->setEnabled(!m_busy);
    m_releaseMessage->setEnabled(!m_busy);
    m_sign->setEnabled(m_keyExists && !m_busy);
    const bool complete = !bucket().isEmpty() && !objectName().isEmpty() && (!byUrl || !serverUrl().isEmpty());
    m_publish->setEnabled(complete && !m_busy);
}

} // namespace ccm::designer
