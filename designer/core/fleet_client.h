// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "designer/core/backend_client.h"

#include <QObject>
#include <QPointer>
#include <QString>

namespace ccm::designer {

/// One fleet.preview on a BackendClient's connection: the call's fleet.host and fleet.event
/// notifications, routed by their "request" id, then its result. The backend names the request in
/// its first notification; until then notifications of any request on the connection are taken as
/// this one's, so a connection carries one preview at a time. Exactly one of finished() or
/// failed() is emitted.
class FleetPreview : public QObject {
    Q_OBJECT

public:
    /// Sends fleet.preview with `params` on `client`; a connection that drops fails the preview.
    FleetPreview(BackendClient *client, ccm::Json params, QObject *parent = nullptr);

    /// The backend's id of the request; empty until its first notification or its result.
    [[nodiscard]] QString requestId() const { return m_request; }
    [[nodiscard]] bool isDone() const { return m_done; }

signals:
    /// The params of a fleet.host notification; a done host's may carry "stable", the names of
    /// the resources it sent no fleet.event for because they stay as they are (answer format 2).
    void hostReported(const ccm::Json &params);
    /// The params of a fleet.event notification: every resource's (answer format 1), or only those
    /// that are not stable (format 2).
    void eventReported(const ccm::Json &params);
    /// The result: request, hosts, totals.
    void finished(const ccm::Json &result);
    /// The preview did not run or ended without a result; `message` says why and what to do.
    void failed(const QString &message);

private:
    void route(const QString &method, const ccm::Json &params);

    QString m_request;
    bool m_done = false;
};

/// The fleet methods of the user's own backend (fleet.status, fleet.keygen, fleet.keyinfo) as
/// calls with answers in words for the user.
namespace fleet {

/// Where the NATS connection goes: a context name, or a server URL that wins over it.
struct Target {
    QString context;
    QString serverUrl;
    /// Adds "context" or "nats" to `params` when set.
    void addTo(ccm::Json &params) const;
};

using Handler = BackendClient::AnswerHandler;

/// fleet.status on `client`.
void status(BackendClient *client, const Target &target, Handler done);
/// fleet.keygen: a new key pair at `privatePath` (public key beside it as .pub.pem).
void keygen(BackendClient *client, const QString &privatePath, bool overwrite, Handler done);
/// fleet.keyinfo of the private key at `privatePath`.
void keyinfo(BackendClient *client, const QString &privatePath, Handler done);

/// The default place of the signing key: $XDG_CONFIG_HOME/choria/ccm/preview.pem, else
/// ~/.config/choria/ccm/preview.pem.
QString defaultKeyPath();

} // namespace fleet

} // namespace ccm::designer
