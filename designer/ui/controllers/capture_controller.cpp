// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/capture_controller.h"

#include "designer/core/backend_client.h"
#include "designer/core/nats_contexts.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/capture_dialog.h"
#include "designer/ui/dialogs/fleet_capture_dialog.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

namespace ccm::designer {

CaptureController::CaptureController(ManifestDocument *document, BackendClient *client, FleetController *fleet,
    DocumentHost *host, QWidget *dialogParent)
    : QObject(dialogParent)
    , m_document(document)
    , m_client(client)
    , m_fleet(fleet)
    , m_host(host)
    , m_dialogParent(dialogParent)
{
    m_menu = new QMenu(tr("A&dd"), dialogParent);
    m_menu->setObjectName(QStringLiteral("addMenu"));
    m_fromMachine = m_menu->addAction(tr("From &This Machine…"), this, &CaptureController::showMachineDialog);
    m_fromMachine->setObjectName(QStringLiteral("addFromMachineAction"));
    m_fromMachine->setStatusTip(tr("Write packages, services and files of this host down as resources"));
    m_fromFleet = m_menu->addAction(tr("From a &Fleet Host…"), this, &CaptureController::showFleetDialog);
    m_fromFleet->setObjectName(QStringLiteral("addFromFleetAction"));
    m_fromFleet->setStatusTip(
        tr("Write packages, services and files of a fleet host down as resources, through its agent"));
}

CaptureDialog *CaptureController::showMachineDialog()
{
    auto *dialog = new CaptureDialog(m_client, m_document, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CaptureDialog::added, this,
        [this](int added) { emit statusMessage(tr("Added %n resource(s) from this machine.", nullptr, added)); });
    dialog->show();
    dialog->load();
    return dialog;
}

FleetCaptureDialog *CaptureController::showFleetDialog()
{
    auto *dialog = new FleetCaptureDialog(
        natsContextNames(), defaultNatsContext(),
        [this](std::function<void(BackendClient *, const QString &)> then) { withUserBackend(std::move(then)); },
        m_document, m_host, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->keyEdit()->setText(FleetKeyDialog::keyPath());
    connect(dialog, &FleetCaptureDialog::added, this,
        [this](int added) { emit statusMessage(tr("Added %n resource(s) from a fleet host.", nullptr, added)); });
    dialog->show();
    return dialog;
}

void CaptureController::withUserBackend(std::function<void(BackendClient *, const QString &)> then)
{
    // While the window's connection is still coming up, a connection of one's own could start a
    // second user backend beside the one being started: it waits for the first to settle.
    if (m_client->isConnected()) {
        m_fleet->withOwnConnection(std::move(then));
        return;
    }
    auto settled = std::make_shared<std::vector<QMetaObject::Connection>>();
    auto pending = std::make_shared<std::function<void(BackendClient *, const QString &)>>(std::move(then));
    const auto proceed = [this, settled, pending] {
        for (const QMetaObject::Connection &connection : *settled)
            disconnect(connection);
        if (auto handler = std::exchange(*pending, {}))
            m_fleet->withOwnConnection(std::move(handler));
    };
    settled->push_back(connect(m_client, &BackendClient::connected, this, proceed));
    settled->push_back(connect(m_client, &BackendClient::errorOccurred, this, proceed));
    m_client->connectToBackend();
}

} // namespace ccm::designer
