// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/capture_controller.h"

#include "designer/core/nats_contexts.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/capture_dialog.h"
#include "designer/ui/dialogs/fleet_capture_dialog.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

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
    FleetController *fleet = m_fleet;
    auto *dialog = new FleetCaptureDialog(
        natsContextNames(), defaultNatsContext(),
        [fleet](
            std::function<void(BackendClient *, const QString &)> then) { fleet->withOwnConnection(std::move(then)); },
        m_document, m_host, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->keyEdit()->setText(FleetKeyDialog::keyPath());
    connect(dialog, &FleetCaptureDialog::added, this,
        [this](int added) { emit statusMessage(tr("Added %n resource(s) from a fleet host.", nullptr, added)); });
    dialog->show();
    return dialog;
}

} // namespace ccm::designer
