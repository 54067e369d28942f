// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/backend_client.h"
#include "designer/ui/document_host.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QWidget;
class QTemporaryDir;

namespace ccm::designer {

class ExportBundleDialog;
class ManifestDocument;
class PublishDialog;
class ReleasesDialog;
class RolloutDialog;

/// The designer's fleet features: File ▸ Export Bundle…, Publish to Fleet… and Open Location…,
/// Fleet ▸ Releases… and Roll Out…, and saving a document that came from a bundle back into it. They run on a user
/// backend, which serves them with the user's own files and NATS credentials: the preview's connection when it is one,
/// else a connection of its own to the user's backend, started when none runs.
class FleetController : public QObject {
    Q_OBJECT

public:
    /// Works on `document`; `previewClient` is the preview's connection, used when it is to a user
    /// backend; `host` settles and replaces the document; dialogs open over `dialogParent`, which
    /// owns the controller.
    FleetController(
        ManifestDocument *document, BackendClient *previewClient, DocumentHost *host, QWidget *dialogParent);
    ~FleetController() override;

    QAction *exportAction() const { return m_exportAction; }
    QAction *publishAction() const { return m_publishAction; }
    QAction *openLocationAction() const { return m_openLocationAction; }
    QAction *releasesAction() const { return m_releasesAction; }
    QAction *rolloutAction() const { return m_rolloutAction; }

    /// Opens the export dialog and lists what goes into the bundle.
    ExportBundleDialog *showExportDialog();
    /// Writes the document as a bundle to `path` and shows the outcome in `dialog` (may be null).
    void exportTo(const QString &path, ExportBundleDialog *dialog);
    /// Opens the publish dialog.
    PublishDialog *showPublishDialog();
    /// Exports the document to a temporary bundle and publishes it as the dialog says, signed
    /// with the fleet key when the dialog says so, with its release message.
    void publish(PublishDialog *dialog);
    /// Opens the release history dialog and offers the objects agents watch.
    ReleasesDialog *showReleasesDialog();
    /// Opens the rollout dialog, offers the objects agents watch as rings and lists the rollouts.
    RolloutDialog *showRolloutDialog();
    /// Asks for a location, then opens it.
    void openLocationWithDialog();
    /// Fetches and unpacks the bundle at `location` (`context` for obj://) and opens its
    /// manifest; `done` gets whether it worked and, if not, why (also shown to the user).
    void openLocation(
        const QString &location, const QString &context, std::function<void(bool ok, const QString &error)> done = {});
    /// Saves a document that came from a bundle: manifest.yaml in its directory, then the bundle
    /// again when it came from a local file; for a remote location asks whether to save a local
    /// bundle or publish. Returns false when nothing was saved.
    bool saveToBundle();
    /// Re-exports the document to `path` and waits for it. Returns false with *error set on failure.
    bool exportAndWait(const QString &path, QString *error);

    /// The connection the fleet methods use once one is up (for tests); may be null.
    BackendClient *fleetClient() const;

    using ClientHandler = std::function<void(BackendClient *client, const QString &error)>;
    /// Calls `then` with a connected user backend, or with the reason there is none.
    void withUserBackend(ClientHandler then);
    /// Calls `then` with a new connection of its own to the user's backend, or with the reason
    /// there is none. For calls that run long (a rollout, an abort): the backend serves one
    /// request of a connection at a time, so on the shared connection such a call would hold up
    /// every other until it ends. The connection belongs to the controller, so a call goes on when
    /// its dialog closes; whoever gets it deletes it (deleteLater) once its call is answered.
    void withOwnConnection(ClientHandler then);
    /// The document's text and absolute base directory, as apply.start and fleet.preview take them.
    ccm::Json manifestParams() const;

signals:
    /// A bundle was written, published or opened: a line for the status bar.
    void statusMessage(const QString &text);

private:
    void flushWaiting(BackendClient *client, const QString &error);
    void showProgress(const QString &method, const ccm::Json &params);
    /// The document's text and base directory as bundle.list and bundle.export want them.
    ccm::Json bundleParams() const;

    ManifestDocument *m_document;
    BackendClient *m_previewClient;
    DocumentHost *m_host;
    QWidget *m_dialogParent;
    BackendClient *m_ownClient = nullptr;
    std::vector<ClientHandler> m_waiting;
    std::unique_ptr<QTemporaryDir> m_publishDirectory;
    QPointer<PublishDialog> m_publishing;
    QAction *m_exportAction = nullptr;
    QAction *m_publishAction = nullptr;
    QAction *m_openLocationAction = nullptr;
    QAction *m_releasesAction = nullptr;
    QAction *m_rolloutAction = nullptr;
};

} // namespace ccm::designer
