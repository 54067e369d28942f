// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace ccm::designer {

class BackendClient;
class CaptureDialog;
class DocumentHost;
class FleetCaptureDialog;
class FleetController;
class ManifestDocument;

/// Edit ▸ Add ▸ From This Machine… and From a Fleet Host…: resources written down from a running
/// host (docs/capture.md). This machine is asked through the window's backend (host.inventory,
/// host.capture), which reads with the user's rights when it is the system backend; a fleet host
/// through the user's own backend (fleet.capture), which signs the request with the fleet key.
class CaptureController : public QObject {
    Q_OBJECT

public:
    /// `client` is the window's backend connection; `fleet` provides the user's own backend;
    /// dialogs open over `dialogParent`, which owns the controller.
    CaptureController(ManifestDocument *document, BackendClient *client, FleetController *fleet, DocumentHost *host,
        QWidget *dialogParent);

    /// The Add submenu with both actions.
    QMenu *menu() const { return m_menu; }
    QAction *fromMachineAction() const { return m_fromMachine; }
    QAction *fromFleetAction() const { return m_fromFleet; }

    /// Opens the dialog for this machine and starts listing what it has.
    CaptureDialog *showMachineDialog();
    /// Opens the dialog for a fleet host.
    FleetCaptureDialog *showFleetDialog();

signals:
    /// Resources were added: a line for the status bar.
    void statusMessage(const QString &text);

private:
    /// Hands the fleet dialog a connection of its own to the user's backend, once the window's
    /// connection has settled.
    void withUserBackend(std::function<void(BackendClient *, const QString &)> then);

    ManifestDocument *m_document;
    BackendClient *m_client;
    FleetController *m_fleet;
    DocumentHost *m_host;
    QWidget *m_dialogParent;
    QMenu *m_menu = nullptr;
    QAction *m_fromMachine = nullptr;
    QAction *m_fromFleet = nullptr;
};

} // namespace ccm::designer
