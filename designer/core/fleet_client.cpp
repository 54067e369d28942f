// SPDX-License-Identifier: Apache-2.0
#include "designer/core/fleet_client.h"

#include "designer/core/json_members.h"

#include <QDir>
#include <QStandardPaths>

namespace ccm::designer {
namespace {

} // namespace

FleetPreview::FleetPreview(BackendClient *client, Json params, QObject *parent)
    : QObject(parent)
{
    connect(client, &BackendClient::notificationReceived, this, &FleetPreview::route);
    const QPointer<FleetPreview> guard(this);
    client->call(QStringLiteral("fleet.preview"), std::move(params), [guard](const BackendClient::Answer &answer) {
        if (!guard || guard->m_done)
            return;
        guard->m_done = true;
        if (!answer.ok) {
            emit guard->failed(answer.message);
            return;
        }
        if (guard->m_request.isEmpty() && answer.result.is_object())
            guard->m_request = stringOf(answer.result, "request");
        emit guard->finished(answer.result);
    });
}

void FleetPreview::route(const QString &method, const Json &params)
{
    if (m_done || !params.is_object())
        return;
    const bool host = method == QLatin1String("fleet.host");
    if (!host && method != QLatin1String("fleet.event"))
        return;
    const QString request = stringOf(params, "request");
    if (request.isEmpty())
        return;
    if (m_request.isEmpty())
        m_request = request;
    else if (request != m_request)
        return;
    if (host)
        emit hostReported(params);
    else
        emit eventReported(params);
}

namespace fleet {

void Target::addTo(Json &params) const
{
    if (!serverUrl.isEmpty())
        params["nats"] = serverUrl.toStdString();
    else if (!context.isEmpty())
        params["context"] = context.toStdString();
}

void status(BackendClient *client, const Target &target, Handler done)
{
    Json params = Json::object();
    target.addTo(params);
    client->call(QStringLiteral("fleet.status"), std::move(params), std::move(done));
}

void keygen(BackendClient *client, const QString &privatePath, bool overwrite, Handler done)
{
    const Json params {{"private", privatePath.toStdString()}, {"overwrite", overwrite}};
    client->call(QStringLiteral("fleet.keygen"), params, std::move(done));
}

void keyinfo(BackendClient *client, const QString &privatePath, Handler done)
{
    const Json params {{"private", privatePath.toStdString()}};
    client->call(QStringLiteral("fleet.keyinfo"), params, std::move(done));
}

QString defaultKeyPath()
{
    QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (config.isEmpty())
        config = QDir::home().filePath(QStringLiteral(".config"));
    return QDir(config).filePath(QStringLiteral("choria/ccm/preview.pem"));
}

} // namespace fleet

} // namespace ccm::designer
