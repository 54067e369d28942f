// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "designer/core/resource_status.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

namespace ccm::designer {

class BackendClient;

/// What this host has now of the resource the form shows, from the backend's resource.status,
/// and which of the form's properties differ from it. It follows the form: another resource (or a
/// renamed one) is asked about after a short quiet time; an edit of the shown resource is compared
/// with the last answer at once, without asking again, so a property edited to what the host has
/// loses its marker. One request is in flight at a time; an answer about a resource no longer
/// shown, or about properties edited since, is dropped and the current ones are asked about.
class HostState : public QObject {
    Q_OBJECT

public:
    explicit HostState(BackendClient *client, QObject *parent = nullptr);

    /// Follows the form: the resource `type` `name` whose effective properties (its own over its
    /// block's defaults, templates unrendered) are `properties`, with relative paths from
    /// `baseDirectory` (the manifest's; empty for the backend's default). Nothing is shown for an
    /// empty type or name (no resource, a block's defaults). Another type, name or directory is
    /// another resource.
    void follow(
        const QString &type, const QString &name, const ccm::Json &properties, const QString &baseDirectory = {});
    /// Asks about the followed resource now; when requests are held, as soon as they are not.
    void refresh();
    /// While `hold` returns true, nothing is sent: a run holds the backend's connection, and the
    /// answer would describe the host as it was before the run.
    void setHold(std::function<bool()> hold);

    /// Milliseconds of quiet before asking about another resource (default 300).
    void setDelay(int milliseconds);
    [[nodiscard]] int delay() const;

    /// The last answer about the followed resource; unset while none has come.
    [[nodiscard]] const std::optional<ResourceStatus> &status() const { return m_status; }
    /// What the form shows now.
    [[nodiscard]] const HostStateView &view() const { return m_view; }
    /// Whether a request is waiting for its answer.
    [[nodiscard]] bool isChecking() const { return m_inFlight; }
    /// Whether a request will go once the selection has rested (the delay is running).
    [[nodiscard]] bool isScheduled() const { return m_timer.isActive(); }

    /// The view of `status` for a resource of `type` whose form holds `properties`: the summary
    /// line, the markers of the differences the form still has, and among the detail lines the
    /// backend's notes, the properties not compared because they hold templates, and the
    /// differences that have no field in the form (and so no marker).
    [[nodiscard]] static HostStateView describe(
        const QString &type, const ccm::Json &properties, const ResourceStatus &status);

signals:
    /// view() changed.
    void viewChanged();

private:
    void send();
    /// The view for a resource whose name holds a template: nothing on the host goes by that name.
    void showTemplatedName();
    void answered(quint64 generation, bool ok, const ccm::Json &result, int code, const QString &message);
    void setView(HostStateView view);
    [[nodiscard]] bool held() const;

    QPointer<BackendClient> m_client;
    QString m_type;
    QString m_name;
    QString m_baseDirectory;
    ccm::Json m_properties = ccm::Json::object();
    std::optional<ResourceStatus> m_status;
    HostStateView m_view;
    std::function<bool()> m_hold;
    QTimer m_timer;
    /// Counts changes of what the form shows; an answer to an older generation is dropped.
    quint64 m_generation = 0;
    bool m_inFlight = false;
    /// A refresh was asked for while a request was in flight or requests were held.
    bool m_wanted = false;
};

} // namespace ccm::designer
