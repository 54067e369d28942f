// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QObject>
#include <QString>

class QAction;

namespace ccm::designer {

class HostState;
class PreviewController;
class PropertyEditor;

/// Shows in the resource form what this host has of the selected resource: keeps a HostState
/// following the form, shows its view there, and refreshes it when a preview or apply has ended
/// (not while one runs: it holds the backend's connection) and when asked (the form's button, the
/// resource list's Refresh State on This Host).
class HostStateController : public QObject {
    Q_OBJECT

public:
    HostStateController(PreviewController *preview, PropertyEditor *form, QObject *parent);

    /// Follows the resource the form shows (see HostState::follow()); empty type or name for none.
    /// Relative paths in its properties start from `baseDirectory`.
    void follow(
        const QString &type, const QString &name, const ccm::Json &properties, const QString &baseDirectory = {});

    [[nodiscard]] HostState *hostState() const { return m_state; }
    /// Refresh State on This Host: asks again about the resource shown.
    [[nodiscard]] QAction *refreshAction() const { return m_refreshAction; }

private:
    PropertyEditor *m_form;
    HostState *m_state;
    QAction *m_refreshAction;
};

} // namespace ccm::designer
