// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/fleet_key_dialog.h"

#include "designer/core/fleet_client.h"
#include "designer/ui/controllers/fleet_controller.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

const char *const kKeySetting = "fleet/previewKey";
const char *const kAgentPublicKey = "/etc/choria/ccm/preview.pub.pem";

QString textOf(const Json &object, const char *key)
{
    const auto found = object.is_object() ? object.find(key) : object.end();
    if (!object.is_object() || found == object.end() || !found->is_string())
        return {};
    return QString::fromStdString(found->get<std::string>());
}

QPlainTextEdit *readOnlyText(QWidget *parent, int lines)
{
    auto *view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFixedHeight(view->fontMetrics().lineSpacing() * lines + 12);
    return view;
}

} // namespace

FleetKeyDialog::FleetKeyDialog(FleetController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("Fleet Key"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Fleet previews are signed. An agent runs a preview only when it is signed with a "
                                "key it trusts, so nobody else can make your hosts run manifests, even in noop "
                                "mode. The private key stays on this computer, readable by you alone; the agents "
                                "get the public key."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(createKeyRow());
    layout->addWidget(createResultArea());
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(640, sizeHint().height());
    if (QFileInfo::exists(m_path->text()))
        showKeyInfo();
    else
        showMessage(tr("There is no key at this place yet. Generate Key creates one."), false);
}

QWidget *FleetKeyDialog::createKeyRow()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Private key:"), row));
    m_path = new QLineEdit(keyPath(), row);
    m_path->setToolTip(tr("Where the private key is kept. Previews are signed with the key at this place."));
    connect(m_path, &QLineEdit::editingFinished, this, [this] {
        setKeyPath(m_path->text().trimmed());
        if (QFileInfo::exists(m_path->text()))
            showKeyInfo();
    });
    layout->addWidget(m_path, 1);
    auto *browse = new QPushButton(tr("Browse…"), row);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Private Key"), m_path->text(),
            tr("PEM keys (*.pem)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (path.isEmpty())
            return;
        m_path->setText(path);
        emit m_path->editingFinished();
    });
    layout->addWidget(browse);
    m_generate = new QPushButton(tr("Generate Key"), row);
    connect(m_generate, &QPushButton::clicked, this, &FleetKeyDialog::generateKey);
    layout->addWidget(m_generate);
    return row;
}

QWidget *FleetKeyDialog::createResultArea()
{
    auto *area = new QWidget(this);
    auto *layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    m_fingerprint = new QLabel(area);
    m_fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_fingerprint);
    m_publicKey = readOnlyText(area, 4);
    layout->addWidget(m_publicKey);
    m_copyKey = new QPushButton(tr("Copy Public Key"), area);
    m_copyKey->setEnabled(false);
    connect(m_copyKey, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_publicKey->toPlainText());
        showMessage(tr("The public key is on the clipboard."), false);
    });
    layout->addWidget(m_copyKey, 0, Qt::AlignLeft);
    m_where = new QLabel(area);
    m_where->setWordWrap(true);
    m_where->setText(tr("On every agent, put the public key at %1 and add this to the agent's configuration, "
                        "then restart the agent:")
                         .arg(QString::fromLatin1(kAgentPublicKey)));
    layout->addWidget(m_where);
    m_snippet = readOnlyText(area, 1);
    m_snippet->setPlainText(agentSnippet());
    layout->addWidget(m_snippet);
    auto *copySnippet = new QPushButton(tr("Copy Configuration"), area);
    connect(copySnippet, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_snippet->toPlainText());
        showMessage(tr("The configuration is on the clipboard."), false);
    });
    layout->addWidget(copySnippet, 0, Qt::AlignLeft);
    return area;
}

QString FleetKeyDialog::keyPath()
{
    const QString path = QSettings().value(QString::fromLatin1(kKeySetting)).toString();
    return path.isEmpty() ? fleet::defaultKeyPath() : path;
}

void FleetKeyDialog::setKeyPath(const QString &path)
{
    QSettings().setValue(QString::fromLatin1(kKeySetting), path);
}

QString FleetKeyDialog::agentSnippet()
{
    return QStringLiteral("preview: {enabled: true, trusted_keys: [%1], user: nobody}")
        .arg(QString::fromLatin1(kAgentPublicKey));
}

void FleetKeyDialog::showKeyInfo()
{
    const QString path = m_path->text().trimmed();
    const QPointer<FleetKeyDialog> guard(this);
    m_controller->withUserBackend([guard, path](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        fleet::keyinfo(client, path, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            if (!answer.ok) {
                guard->showMessage(tr("Cannot read the key: %1").arg(answer.message), true);
                return;
            }
            guard->showKey(textOf(answer.result, "public_pem"), textOf(answer.result, "fingerprint"), {});
        });
    });
}

void FleetKeyDialog::generateKey()
{
    const QString path = m_path->text().trimmed();
    if (path.isEmpty()) {
        showMessage(tr("Choose where the private key goes first."), true);
        return;
    }
    const bool exists = QFileInfo::exists(path);
    if (exists
        && QMessageBox::question(this, tr("Replace Key"),
               tr("%1 already holds a key. Agents that trust it will refuse previews signed with a new one until "
                  "they get its public key. Replace it?")
                   .arg(QDir::toNativeSeparators(path)))
            != QMessageBox::Yes)
        return;
    setKeyPath(path);
    m_generate->setEnabled(false);
    showMessage(tr("Generating the key…"), false);
    const QPointer<FleetKeyDialog> guard(this);
    m_controller->withUserBackend([guard, path, exists](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->m_generate->setEnabled(true);
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        fleet::keygen(client, path, exists, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            guard->m_generate->setEnabled(true);
            if (!answer.ok) {
                guard->showMessage(tr("The key was not created: %1").arg(answer.message), true);
                return;
            }
            guard->showKey(textOf(answer.result, "public_pem"), textOf(answer.result, "fingerprint"),
                textOf(answer.result, "public"));
        });
    });
}

void FleetKeyDialog::showKey(const QString &pem, const QString &fingerprint, const QString &publicPath)
{
    m_publicKey->setPlainText(pem);
    m_fingerprint->setText(tr("Fingerprint: %1").arg(fingerprint));
    m_copyKey->setEnabled(!pem.isEmpty());
    if (publicPath.isEmpty())
        showMessage(tr("Previews are signed with this key."), false);
    else
        showMessage(
            tr("The key pair was created. The public key is also in %1.").arg(QDir::toNativeSeparators(publicPath)),
            false);
}

void FleetKeyDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    QPalette palette = this->palette();
    if (error)
        palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_message->setPalette(palette);
    m_message->setProperty("error", error);
}

} // namespace ccm::designer
