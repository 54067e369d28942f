// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/capture_client.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <functional>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace ccm::designer {

class BackendClient;
class CaptureOptions;
class DocumentHost;
class ManifestDocument;

/// Edit ▸ Add ▸ From a Fleet Host…: the same for another host, through its agent (fleet.capture):
/// the host, the key that signs the request, where NATS is, and the selection typed as patterns
/// and paths. Add puts the capture into the open manifest as CaptureDialog does; Open as New
/// Manifest writes it (with its source files) to a file of its own and opens that.
class FleetCaptureDialog : public QDialog {
    Q_OBJECT

public:
    /// Hands a connected user backend (or why there is none) to `then`; the receiver deletes the
    /// client (deleteLater) once its call is answered.
    using ClientProvider = std::function<void(std::function<void(BackendClient *, const QString &)> then)>;

    FleetCaptureDialog(const QStringList &contexts, const QString &preferredContext, ClientProvider clients,
        ManifestDocument *document, DocumentHost *host, QWidget *parent = nullptr);

    /// The host, key and NATS connection as entered.
    [[nodiscard]] capture::FleetTarget target() const;
    [[nodiscard]] CaptureSelection selection() const;
    /// Asks the agent and adds its capture to the manifest.
    void captureIntoManifest();
    /// Asks the agent and writes its capture to `path` (source files beside it), then opens it in
    /// place of the current document (after settling unsaved changes).
    void captureAsNewManifest(const QString &path);
    [[nodiscard]] bool isBusy() const { return m_busy; }

    QLineEdit *hostEdit() const { return m_host; }
    QLineEdit *keyEdit() const { return m_key; }
    QComboBox *contextBox() const { return m_context; }
    QLineEdit *serverUrlEdit() const { return m_url; }
    QPlainTextEdit *packagesEdit() const { return m_packages; }
    QPlainTextEdit *servicesEdit() const { return m_services; }
    QPlainTextEdit *filesEdit() const { return m_files; }
    QPlainTextEdit *excludesEdit() const { return m_excludes; }
    QListWidget *willAddList() const { return m_willAdd; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *openButton() const { return m_open; }
    QLabel *messageLabel() const { return m_message; }
    QPlainTextEdit *reportView() const { return m_report; }

signals:
    void added(int added);

private:
    QFormLayout *createForm();
    void updateState();
    void request(std::function<void(const CaptureAnswer &answer)> then);
    void setMessage(const QString &text, bool error);
    [[nodiscard]] QString selectionProblem() const;

    ClientProvider m_clients;
    ManifestDocument *m_document;
    DocumentHost *m_documentHost;
    QLineEdit *m_host = nullptr;
    QLineEdit *m_key = nullptr;
    QComboBox *m_context = nullptr;
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_packages = nullptr;
    QPlainTextEdit *m_services = nullptr;
    QPlainTextEdit *m_files = nullptr;
    QPlainTextEdit *m_excludes = nullptr;
    CaptureOptions *m_options = nullptr;
    QListWidget *m_willAdd = nullptr;
    QLabel *m_message = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_close = nullptr;
    bool m_busy = false;
};

} // namespace ccm::designer
