// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/fleet_controller.h"

#include "core/bundle/bundle.h"
#include "designer/core/manifest_document.h"
#include "designer/core/nats_contexts.h"
#include "designer/ui/dialogs/export_bundle_dialog.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/dialogs/open_location_dialog.h"
#include "designer/ui/dialogs/publish_dialog.h"
#include "designer/ui/dialogs/releases_dialog.h"
#include "designer/ui/dialogs/rollout_dialog.h"
#include "designer/ui/icons.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <utility>

namespace ccm::designer {
namespace {

constexpr int kErrorInvalidBundle = -32007;

bool isRemote(const QString &location)
{
    return location.contains(QStringLiteral("://"));
}

bool hasBundleExtension(const QString &path)
{
    return isBundlePath(QFile::encodeName(path).toStdString());
}

QString stringOf(const Json &object, const char *key)
{
    if (!object.is_object() || !object.contains(key) || !object[key].is_string())
        return {};
    return QString::fromStdString(object[key].get<std::string>());
}

/// The error of an answer, with the findings of a manifest that cannot be bundled.
QString answerError(const BackendClient::Answer &answer)
{
    QString text = answer.message;
    if (answer.code == kErrorInvalidBundle && answer.data.is_object() && answer.data.contains("findings")) {
        for (const Json &finding : answer.data["findings"]) {
            if (stringOf(finding, "severity") == QLatin1String("error"))
                text += QLatin1Char('\n') + stringOf(finding, "text");
        }
    }
    return text;
}

} // namespace

FleetController::FleetController(
    ManifestDocument *document, BackendClient *previewClient, DocumentHost *host, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_document(document)
    , m_previewClient(previewClient)
    , m_host(host)
    , m_dialogParent(dialogParent)
{
    m_exportAction = new QAction(actionIcon(QStringLiteral("document-export")), tr("&Export Bundle…"), this);
    m_exportAction->setStatusTip(tr("Write the manifest and the files it reaches as a bundle"));
    connect(m_exportAction, &QAction::triggered, this, &FleetController::showExportDialog);
    m_publishAction = new QAction(actionIcon(QStringLiteral("document-send")), tr("&Publish to Fleet…"), this);
    m_publishAction->setStatusTip(tr("Put the manifest as a bundle into a NATS object store for the agents"));
    connect(m_publishAction, &QAction::triggered, this, &FleetController::showPublishDialog);
    m_openLocationAction = new QAction(tr("Open &Location…"), this);
    m_openLocationAction->setStatusTip(tr("Open the manifest of a bundle from a URL or a .tar.gz file"));
    connect(m_openLocationAction, &QAction::triggered, this, &FleetController::openLocationWithDialog);
    m_releasesAction = new QAction(tr("&Releases…"), this);
    m_releasesAction->setStatusTip(tr("The release history of an object: compare releases, roll back"));
    connect(m_releasesAction, &QAction::triggered, this, &FleetController::showReleasesDialog);
    m_rolloutAction = new QAction(tr("Roll &Out…"), this);
    m_rolloutAction->setStatusTip(tr("Publish the manifest ring by ring, each ring gated on the one before"));
    connect(m_rolloutAction, &QAction::triggered, this, &FleetController::showRolloutDialog);

    connect(m_previewClient, &BackendClient::notificationReceived, this, &FleetController::showProgress);
}

FleetController::~FleetController() = default;

BackendClient *FleetController::fleetClient() const
{
    BackendClient *preview = m_previewClient;
    if (preview->isConnected() && preview->info().socketPath != preview->systemSocket())
        return preview;
    return m_ownClient;
}

void FleetController::withUserBackend(ClientHandler then)
{
    BackendClient *preview = m_previewClient;
    if (preview->isConnected() && preview->info().socketPath != preview->systemSocket()) {
        then(preview, {});
        return;
    }
    if (!m_ownClient) {
        // The preview is connected to the system backend, which serves the fleet methods only to
        // root: the user's own backend does them, with the user's files and NATS credentials.
        m_ownClient = new BackendClient(this);
        m_ownClient->setUserOnly(true);
        m_ownClient->setUserSocket(preview->userSocket());
        if (!preview->backendProgram().isEmpty())
            m_ownClient->setBackendProgram(preview->backendProgram());
        connect(m_ownClient, &BackendClient::connected, this, [this] { flushWaiting(m_ownClient, {}); });
        connect(m_ownClient, &BackendClient::errorOccurred, this,
            [this](const QString &message) { flushWaiting(nullptr, message); });
        connect(m_ownClient, &BackendClient::notificationReceived, this, &FleetController::showProgress);
    }
    if (m_ownClient->isConnected()) {
        then(m_ownClient, {});
        return;
    }
    m_waiting.push_back(std::move(then));
    m_ownClient->connectToBackend();
}

void FleetController::withOwnConnection(ClientHandler then)
{
    BackendClient *preview = m_previewClient;
    auto *client = new BackendClient(this);
    client->setUserOnly(true);
    client->setUserSocket(preview->userSocket());
    if (!preview->backendProgram().isEmpty())
        client->setBackendProgram(preview->backendProgram());
    // Either signal settles it once; a later error belongs to the call, which gets it as its answer.
    auto pending = std::make_shared<ClientHandler>(std::move(then));
    connect(client, &BackendClient::connected, this, [client, pending] {
        if (const ClientHandler handler = std::exchange(*pending, {}))
            handler(client, {});
    });
    connect(client, &BackendClient::errorOccurred, this, [client, pending](const QString &message) {
        if (const ClientHandler handler = std::exchange(*pending, {})) {
            client->deleteLater();
            handler(nullptr, message);
        }
    });
    client->connectToBackend();
}

void FleetController::showProgress(const QString &method, const Json &params)
{
    if (method != QLatin1String("bundle.progress") || !m_publishing || !params.is_object())
        return;
    const auto number = [&](const char *key) {
        const auto found = params.find(key);
        return found != params.end() && found->is_number_integer() ? found->get<qint64>() : qint64(0);
    };
    m_publishing->setProgress(number("sent"), number("total"));
}

void FleetController::flushWaiting(BackendClient *client, const QString &error)
{
    std::vector<ClientHandler> waiting;
    waiting.swap(m_waiting);
    for (const ClientHandler &handler : waiting)
        handler(client, error);
}

Json FleetController::manifestParams() const
{
    const ManifestDocument *document = m_document;
    return Json {{"manifest", document->text().toStdString()},
        {"base_dir", QDir(document->baseDirectory()).absolutePath().toStdString()}};
}

Json FleetController::bundleParams() const
{
    const ManifestDocument *document = m_document;
    Json params = manifestParams();
    if (!document->filePath().isEmpty())
        params["name"] = QFileInfo(document->filePath()).fileName().toStdString();
    return params;
}

ExportBundleDialog *FleetController::showExportDialog()
{
    auto *dialog = new ExportBundleDialog(m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QPointer<ExportBundleDialog> guard(dialog);
    connect(dialog, &ExportBundleDialog::exportRequested, this, [this, guard] {
        const ManifestDocument *document = m_document;
        QString suggestion = document->bundleLocation();
        if (suggestion.isEmpty() || isRemote(suggestion)) {
            const QFileInfo file(
                document->filePath().isEmpty() ? QStringLiteral("manifest.yaml") : document->filePath());
            const QString directory
                = document->bundleDirectory().isEmpty() ? document->baseDirectory() : QDir::homePath();
            suggestion = QDir(directory).filePath(file.completeBaseName() + QStringLiteral(".tar.gz"));
        }
        QString path = QFileDialog::getSaveFileName(
            guard, tr("Export Bundle"), suggestion, tr("Manifest bundles (*.tar.gz *.tgz)"));
        if (path.isEmpty() || !guard)
            return;
        if (!hasBundleExtension(path))
            path += QStringLiteral(".tar.gz");
        exportTo(path, guard);
    });
    dialog->show();
    withUserBackend([this, guard](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->setMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        client->call(QStringLiteral("bundle.list"), bundleParams(), [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            if (!answer.ok) {
                guard->setMessage(answer.message, true);
                return;
            }
            QStringList members;
            for (const Json &member : answer.result.value("members", Json::array()))
                members << QString::fromStdString(member.is_string() ? member.get<std::string>() : std::string());
            QList<ExportBundleDialog::Finding> findings;
            for (const Json &finding : answer.result.value("findings", Json::array()))
                findings << ExportBundleDialog::Finding {stringOf(finding, "severity"), stringOf(finding, "text")};
            guard->setListing(members, findings, answer.result.value("ok", false));
        });
    });
    return dialog;
}

void FleetController::exportTo(const QString &path, ExportBundleDialog *dialog)
{
    const QPointer<ExportBundleDialog> guard(dialog);
    const QString output = QFileInfo(path).absoluteFilePath();
    if (guard)
        guard->setBusy(tr("Writing %1…").arg(QDir::toNativeSeparators(output)));
    withUserBackend([this, guard, output](BackendClient *client, const QString &error) {
        if (!client) {
            if (guard)
                guard->setMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        Json params = bundleParams();
        params["output"] = output.toStdString();
        client->call(
            QStringLiteral("bundle.export"), params, [this, guard, output](const BackendClient::Answer &answer) {
                if (!answer.ok) {
                    if (guard)
                        guard->setMessage(answerError(answer), true);
                    return;
                }
                const QString done = tr("The bundle was written to %1.").arg(QDir::toNativeSeparators(output));
                if (guard)
                    guard->setMessage(done, false);
                emit statusMessage(done);
            });
    });
}

PublishDialog *FleetController::showPublishDialog()
{
    auto *dialog = new PublishDialog(natsContextNames(), defaultNatsContext(), m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const ManifestDocument *document = m_document;
    const QString location = document->bundleLocation();
    if (location.startsWith(QStringLiteral("obj://"))) {
        const QString path = location.mid(6);
        dialog->setBucket(path.section(QLatin1Char('/'), 0, 0));
        dialog->setObjectName(path.section(QLatin1Char('/'), 1));
    } else if (!location.isEmpty()) {
        dialog->setObjectName(QFileInfo(location).fileName());
    } else {
        const QFileInfo file(document->filePath().isEmpty() ? QStringLiteral("manifest.yaml") : document->filePath());
        dialog->setObjectName(file.completeBaseName() + QStringLiteral(".tar.gz"));
    }
    const QString key = FleetKeyDialog::keyPath();
    dialog->setSigningKey(key, QFileInfo::exists(key));
    const QPointer<PublishDialog> guard(dialog);
    connect(dialog, &PublishDialog::publishRequested, this, [this, guard] {
        if (guard)
            publish(guard);
    });
    dialog->show();
    return dialog;
}

void FleetController::publish(PublishDialog *dialog)
{
    const QPointer<PublishDialog> guard(dialog);
    m_publishing = dialog;
    m_publishDirectory = std::make_unique<QTemporaryDir>();
    if (!m_publishDirectory->isValid()) {
        dialog->setFailed(
            tr("Cannot create a temporary directory for the bundle: %1").arg(m_publishDirectory->errorString()));
        return;
    }
    const QString file = m_publishDirectory->filePath(QStringLiteral("bundle.tar.gz"));
    Json publishParams {{"file", file.toStdString()}, {"bucket", dialog->bucket().toStdString()},
        {"name", dialog->objectName().toStdString()}};
    if (!dialog->serverUrl().isEmpty())
        publishParams["nats"] = dialog->serverUrl().toStdString();
    else if (!dialog->context().isEmpty())
        publishParams["context"] = dialog->context().toStdString();
    if (!dialog->signingKey().isEmpty())
        publishParams["key"] = dialog->signingKey().toStdString();
    if (!dialog->releaseMessage().isEmpty())
        publishParams["message"] = dialog->releaseMessage().toStdString();
    dialog->setBusy(tr("Exporting the bundle…"));
    withUserBackend([this, guard, file, publishParams](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->setFailed(tr("Your own backend cannot be reached: %1").arg(error));
            return;
        }
        Json params = bundleParams();
        params["output"] = file.toStdString();
        const QPointer<BackendClient> connection(client);
        client->call(QStringLiteral("bundle.export"), params,
            [this, guard, connection, publishParams](const BackendClient::Answer &exported) {
                if (!guard)
                    return;
                if (!exported.ok || !connection) {
                    guard->setFailed(answerError(exported));
                    return;
                }
                guard->setBusy(tr("Connecting to the NATS server…"));
                connection->call(QStringLiteral("bundle.publish"), publishParams,
                    [this, guard](const BackendClient::Answer &published) {
                        m_publishDirectory.reset();
                        if (!guard)
                            return;
                        if (!published.ok) {
                            guard->setFailed(published.message);
                            return;
                        }
                        const QString url = stringOf(published.result, "url");
                        guard->setPublished(url, stringOf(published.result, "signer"));
                        emit statusMessage(tr("Published %1").arg(url));
                    });
            });
    });
}

ReleasesDialog *FleetController::showReleasesDialog()
{
    auto *dialog = new ReleasesDialog(this, natsContextNames(), defaultNatsContext(), m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString location = m_document->bundleLocation();
    if (location.startsWith(QStringLiteral("obj://")))
        dialog->objectBox()->setCurrentText(location);
    dialog->show();
    dialog->loadObjects();
    return dialog;
}

RolloutDialog *FleetController::showRolloutDialog()
{
    auto *dialog = new RolloutDialog(this, natsContextNames(), defaultNatsContext(), m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    dialog->loadObjects();
    dialog->loadRollouts();
    return dialog;
}

void FleetController::openLocationWithDialog()
{
    if (!m_host->settleUnsavedChanges())
        return;
    OpenLocationDialog dialog(natsContextNames(), defaultNatsContext(), m_dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    openLocation(dialog.location(), dialog.context(), [this](bool ok, const QString &error) {
        if (!ok)
            QMessageBox::warning(m_dialogParent, tr("Open Location"), error);
    });
}

void FleetController::openLocation(
    const QString &location, const QString &context, std::function<void(bool ok, const QString &error)> done)
{
    const auto finish = [done](bool ok, const QString &error) {
        if (done)
            done(ok, error);
    };
    emit statusMessage(tr("Opening %1…").arg(location));
    withUserBackend([this, location, context, finish](BackendClient *client, const QString &error) {
        if (!client) {
            finish(false, tr("Your own backend cannot be reached: %1").arg(error));
            return;
        }
        Json params {{"location", location.toStdString()}};
        if (location.startsWith(QStringLiteral("obj://")) && !context.isEmpty())
            params["context"] = context.toStdString();
        client->call(
            QStringLiteral("bundle.open"), params, [this, location, finish](const BackendClient::Answer &answer) {
                if (!answer.ok) {
                    finish(false, tr("Cannot open %1: %2").arg(location, answer.message));
                    return;
                }
                const QString directory = stringOf(answer.result, "directory");
                const QString manifest = stringOf(answer.result, "manifest");
                QString openError;
                if (!m_host->openManifestFile(manifest, &openError)) {
                    QDir(directory).removeRecursively();
                    finish(false, openError);
                    return;
                }
                m_document->setBundleOrigin(location, directory);
                emit statusMessage(tr("Opened %1").arg(location));
                finish(true, {});
            });
    });
}

bool FleetController::exportAndWait(const QString &path, QString *error)
{
    QEventLoop loop;
    std::optional<QString> failure;
    bool finished = false;
    withUserBackend([&](BackendClient *client, const QString &why) {
        if (!client) {
            failure = tr("Your own backend cannot be reached: %1").arg(why);
            finished = true;
            loop.quit();
            return;
        }
        Json params = bundleParams();
        params["output"] = QFileInfo(path).absoluteFilePath().toStdString();
        client->call(QStringLiteral("bundle.export"), params, [&](const BackendClient::Answer &answer) {
            if (!answer.ok)
                failure = answerError(answer);
            finished = true;
            loop.quit();
        });
    });
    if (!finished)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    if (failure && error)
        *error = *failure;
    return !failure;
}

bool FleetController::saveToBundle()
{
    ManifestDocument *document = m_document;
    const QString location = document->bundleLocation();
    QString target = location;
    bool publishAfter = false;
    if (isRemote(location)) {
        QMessageBox box(QMessageBox::Question, tr("Save"),
            tr("%1 came from %2, which cannot be written here. Save it as a bundle on this computer, or publish it?")
                .arg(QFileInfo(document->filePath()).fileName(), location),
            QMessageBox::Cancel, m_dialogParent);
        QPushButton *local = box.addButton(tr("Save as &Local Bundle…"), QMessageBox::AcceptRole);
        QPushButton *publishButton = box.addButton(tr("&Publish…"), QMessageBox::ActionRole);
        box.setDefaultButton(local);
        box.exec();
        if (box.clickedButton() == publishButton) {
            publishAfter = true;
        } else if (box.clickedButton() == local) {
            const QString name = location.section(QLatin1Char('/'), -1);
            target = QFileDialog::getSaveFileName(m_dialogParent, tr("Save as Local Bundle"),
                QDir::home().filePath(hasBundleExtension(name) ? name : name + QStringLiteral(".tar.gz")),
                tr("Manifest bundles (*.tar.gz *.tgz)"));
            if (target.isEmpty())
                return false;
            if (!hasBundleExtension(target))
                target += QStringLiteral(".tar.gz");
        } else {
            return false;
        }
    }
    // manifest.yaml in the unpacked directory first: previews and the bundle read it from there.
    QString error;
    if (!document->save(document->filePath(), &error)) {
        QMessageBox::warning(m_dialogParent, tr("Save"), error);
        return false;
    }
    if (publishAfter) {
        showPublishDialog();
        return true;
    }
    if (!exportAndWait(target, &error)) {
        QMessageBox::warning(m_dialogParent, tr("Save"), tr("Cannot write the bundle %1: %2").arg(target, error));
        return false;
    }
    if (target != location)
        document->setBundleOrigin(target, document->bundleDirectory());
    emit statusMessage(tr("Saved to the bundle %1").arg(QDir::toNativeSeparators(target)));
    return true;
}

} // namespace ccm::designer
