// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/fleet_capture_dialog.h"

#include "designer/core/backend_client.h"
#include "designer/core/capture_insertion.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/dialogs/capture_dialog_parts.h"
#include "designer/ui/document_host.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

#include <utility>

namespace ccm::designer {

namespace {

QStringList linesOf(const QPlainTextEdit *edit)
{
    QStringList lines;
    for (const QString &line : edit->toPlainText().split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            lines.append(trimmed);
    }
    return lines;
}

QPlainTextEdit *patternEdit(const QString &objectName, const QString &placeholder, QWidget *parent)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setTabChangesFocus(true);
    edit->setMaximumHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
    return edit;
}

/// The combo's last item, which stands for a server URL typed by hand.
constexpr int kFleetServerUrlRole = Qt::UserRole + 5;

/// Writes `answer` as a manifest at `path` with its source files beside it; an error or empty.
QString writeNewManifest(const QString &path, const CaptureAnswer &answer)
{
    const SourceWriteOutcome sources = writeCaptureSources(QFileInfo(path).absolutePath(), answer.capture.sources);
    if (!sources.ok)
        return sources.error;
    const QByteArray yaml
        = answer.yaml.isEmpty() ? QByteArray::fromStdString(captureToYaml(answer.capture)) : answer.yaml.toUtf8();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(yaml) != yaml.size() || !file.commit())
        return FleetCaptureDialog::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

} // namespace

FleetCaptureDialog::FleetCaptureDialog(const QStringList &contexts, const QString &preferredContext,
    ClientProvider clients, ManifestDocument *document, DocumentHost *host, QWidget *parent)
    : QDialog(parent)
    , m_clients(std::move(clients))
    , m_document(document)
    , m_documentHost(host)
{
    setWindowTitle(tr("Add From a Fleet Host"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Asks one host's agent for a capture over the signed preview channel. The agent "
                                "answers only with preview.capture: true in its configuration and a trusted key, "
                                "and reads files as its preview user."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(createForm());
    for (const QString &name : contexts)
        m_context->addItem(name);
    m_context->addItem(tr("Server URL…"));
    m_context->setItemData(m_context->count() - 1, true, kFleetServerUrlRole);
    const int preferred = m_context->findText(preferredContext);
    m_context->setCurrentIndex(preferred >= 0 ? preferred : 0);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("captureMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    m_report = captureui::reportEdit(this);
    layout->addWidget(m_report, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_close = buttons->button(QDialogButtonBox::Cancel);
    m_open = buttons->addButton(tr("&Open as New Manifest…"), QDialogButtonBox::ActionRole);
    m_open->setObjectName(QStringLiteral("captureOpenNew"));
    m_add = buttons->addButton(tr("&Add to Manifest"), QDialogButtonBox::AcceptRole);
    m_add->setObjectName(QStringLiteral("captureAdd"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_add, &QPushButton::clicked, this, &FleetCaptureDialog::captureIntoManifest);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Open as New Manifest"),
            QDir::home().filePath(m_host->text().trimmed() + QStringLiteral(".yaml")), tr("Manifests (*.yaml *.yml)"));
        if (!path.isEmpty())
            captureAsNewManifest(path);
    });
    for (QLineEdit *edit : {m_host, m_key, m_url})
        connect(edit, &QLineEdit::textChanged, this, &FleetCaptureDialog::updateState);
    for (QPlainTextEdit *edit : {m_packages, m_services, m_files, m_excludes})
        connect(edit, &QPlainTextEdit::textChanged, this, &FleetCaptureDialog::updateState);
    connect(m_context, &QComboBox::currentIndexChanged, this, &FleetCaptureDialog::updateState);
    resize(760, 640);
    updateState();
}

QFormLayout *FleetCaptureDialog::createForm()
{
    auto *form = new QFormLayout;
    m_host = new QLineEdit(this);
    m_host->setObjectName(QStringLiteral("captureHost"));
    m_host->setPlaceholderText(tr("the agent's identity, for example web1.example.org"));
    form->addRow(tr("&Host:"), m_host);
    auto *keyRow = new QHBoxLayout;
    m_key = new QLineEdit(this);
    m_key->setObjectName(QStringLiteral("captureKey"));
    m_key->setPlaceholderText(tr("private key (PEM) the agents trust"));
    auto *browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path
            = QFileDialog::getOpenFileName(this, tr("Signing Key"), m_key->text(), tr("PEM keys (*.pem)"));
        if (!path.isEmpty())
            m_key->setText(path);
    });
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(browse);
    form->addRow(tr("Signing &key:"), keyRow);
    m_context = new QComboBox(this);
    m_context->setObjectName(QStringLiteral("natsContext"));
    form->addRow(tr("&Connect with:"), m_context);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("natsUrl"));
    m_url->setPlaceholderText(QStringLiteral("nats://nats.example.org:4222"));
    form->addRow(tr("Server &URL:"), m_url);
    m_packages = patternEdit(
        QStringLiteral("capturePackages"), tr("package names or patterns, one a line: nginx, lib*"), this);
    form->addRow(tr("&Packages:"), m_packages);
    m_services = patternEdit(QStringLiteral("captureServices"), tr("service names or patterns, one a line"), this);
    form->addRow(tr("&Services:"), m_services);
    m_files
        = patternEdit(QStringLiteral("captureFiles"), tr("absolute paths, one a line, each taken recursively"), this);
    form->addRow(tr("&Files:"), m_files);
    m_excludes
        = patternEdit(QStringLiteral("captureExcludes"), tr("path patterns to leave out: /etc/ssl/private*"), this);
    form->addRow(tr("E&xclude:"), m_excludes);
    m_options = new CaptureOptions(this);
    form->addRow(tr("Options:"), m_options);
    m_willAdd = new QListWidget(this);
    m_willAdd->setObjectName(QStringLiteral("captureWillAdd"));
    m_willAdd->setWordWrap(true);
    m_willAdd->setMaximumHeight(m_willAdd->fontMetrics().lineSpacing() * 6);
    form->addRow(tr("Will add:"), m_willAdd);
    return form;
}

capture::FleetTarget FleetCaptureDialog::target() const
{
    capture::FleetTarget target;
    target.host = m_host->text().trimmed();
    // The backend takes the key's absolute path.
    const QString key = m_key->text().trimmed();
    target.key = key.isEmpty() ? key : QFileInfo(key).absoluteFilePath();
    if (m_context->currentData(kFleetServerUrlRole).toBool())
        target.serverUrl = m_url->text().trimmed();
    else
        target.context = m_context->currentText();
    return target;
}

CaptureSelection FleetCaptureDialog::selection() const
{
    CaptureSelection selection;
    selection.packages = linesOf(m_packages);
    selection.services = linesOf(m_services);
    selection.files = linesOf(m_files);
    selection.excludes = linesOf(m_excludes);
    m_options->apply(selection);
    return selection;
}

QString FleetCaptureDialog::selectionProblem() const
{
    const capture::FleetTarget where = target();
    if (where.host.isEmpty())
        return tr("Name the host to capture.");
    if (where.key.isEmpty())
        return tr("Choose the signing key the agents trust.");
    if (m_context->currentData(kFleetServerUrlRole).toBool() && where.serverUrl.isEmpty())
        return tr("Type the NATS server's URL, or choose a context.");
    const CaptureSelection chosen = selection();
    if (chosen.isEmpty())
        return tr("Type at least one package, service or path.");
    for (const QString &path : chosen.files) {
        if (!path.startsWith(QLatin1Char('/')))
            return tr("%1 is not an absolute path.").arg(path);
    }
    return {};
}

void FleetCaptureDialog::updateState()
{
    const bool byUrl = m_context->currentData(kFleetServerUrlRole).toBool();
    m_url->setEnabled(byUrl);
    const CaptureSelection chosen = selection();
    m_willAdd->clear();
    for (const QString &pattern : chosen.packages)
        m_willAdd->addItem(tr("packages matching %1").arg(pattern));
    for (const QString &path : chosen.files)
        m_willAdd->addItem(tr("file %1 and everything below it").arg(path));
    for (const QString &pattern : chosen.services)
        m_willAdd->addItem(tr("services matching %1").arg(pattern));
    for (const QString &pattern : chosen.excludes)
        m_willAdd->addItem(tr("leaving out %1").arg(pattern));
    const QString problem = selectionProblem();
    m_add->setEnabled(problem.isEmpty() && !m_busy);
    m_open->setEnabled(problem.isEmpty() && !m_busy);
    m_add->setToolTip(problem);
    m_open->setToolTip(problem);
}

void FleetCaptureDialog::request(std::function<void(const CaptureAnswer &answer)> then)
{
    const QString problem = selectionProblem();
    if (!problem.isEmpty() || m_busy) {
        setMessage(problem, true);
        return;
    }
    m_busy = true;
    updateState();
    const capture::FleetTarget where = target();
    const CaptureSelection chosen = selection();
    setMessage(tr("Asking %1 for a capture…").arg(where.host), false);
    QPointer<FleetCaptureDialog> guard(this);
    m_clients([guard, where, chosen, then = std::move(then)](BackendClient *client, const QString &error) {
        if (guard == nullptr) {
            if (client != nullptr)
                client->deleteLater();
            return;
        }
        if (client == nullptr) {
            guard->m_busy = false;
            guard->setMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            guard->updateState();
            return;
        }
        capture::captureFleetHost(
            client, where, chosen, [guard, client, then](std::optional<CaptureAnswer> answer, const QString &failure) {
                client->deleteLater();
                if (guard == nullptr)
                    return;
                guard->m_busy = false;
                guard->updateState();
                if (!answer) {
                    guard->setMessage(tr("The capture failed: %1").arg(failure), true);
                    return;
                }
                then(*answer);
            });
    });
}

void FleetCaptureDialog::captureIntoManifest()
{
    request([this](const CaptureAnswer &answer) {
        const CaptureAddOutcome outcome = addCapture(
            *m_document, answer.capture, tr("Add from %1").arg(QString::fromStdString(answer.capture.host)));
        if (!outcome.ok) {
            setMessage(outcome.error, true);
            return;
        }
        emit added(static_cast<int>(outcome.plan.added.size()));
        if (!captureui::showReport(m_report, m_message, answer, outcome)) {
            accept();
            return;
        }
        m_add->setVisible(false);
        m_open->setVisible(false);
        m_close->setText(tr("Close"));
    });
}

void FleetCaptureDialog::captureAsNewManifest(const QString &path)
{
    request([this, path](const CaptureAnswer &answer) {
        if (m_documentHost != nullptr && !m_documentHost->settleUnsavedChanges()) {
            setMessage(tr("Nothing was opened: the current manifest's changes are still unsaved."), true);
            return;
        }
        if (const QString error = writeNewManifest(path, answer); !error.isEmpty()) {
            setMessage(error, true);
            return;
        }
        QString error;
        if (m_documentHost != nullptr && !m_documentHost->openManifestFile(path, &error)) {
            setMessage(error, true);
            return;
        }
        accept();
    });
}

void FleetCaptureDialog::setMessage(const QString &text, bool error)
{
    captureui::styleMessage(m_message, text, error);
}

} // namespace ccm::designer
