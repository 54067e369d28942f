// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/host_state_controller.h"

#include "designer/core/host_state.h"
#include "designer/ui/controllers/preview_controller.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/icons.h"

#include <QAction>
#include <QPointer>

namespace ccm::designer {

HostStateController::HostStateController(PreviewController *preview, PropertyEditor *form, QObject *parent)
    : QObject(parent)
    , m_form(form)
    , m_state(new HostState(preview->client(), this))
    , m_refreshAction(new QAction(actionIcon(QStringLiteral("view-refresh")), tr("Refresh State on This &Host"), this))
{
    m_refreshAction->setObjectName(QStringLiteral("hostStateRefreshAction"));
    m_refreshAction->setStatusTip(tr("Look again at what this host has of the selected resource"));
    m_refreshAction->setEnabled(false);
    m_state->setHold([guard = QPointer<PreviewController>(preview)] { return guard != nullptr && guard->isRunning(); });
    connect(m_refreshAction, &QAction::triggered, m_state, &HostState::refresh);
    connect(m_form, &PropertyEditor::hostStateRefreshRequested, m_state, &HostState::refresh);
    // The run may have changed the host; an apply certainly meant to.
    connect(preview, &PreviewController::runEnded, m_state, &HostState::refresh);
    connect(m_state, &HostState::viewChanged, this, [this] {
        const HostStateView &view = m_state->view();
        m_form->setHostState(view);
        m_refreshAction->setEnabled(view.kind != HostStateView::Kind::Hidden && !view.checking);
    });
}

void HostStateController::follow(
    const QString &type, const QString &name, const ccm::Json &properties, const QString &baseDirectory)
{
    m_state->follow(type, name, properties, baseDirectory);
}

} // namespace ccm::designer
