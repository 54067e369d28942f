// SPDX-License-Identifier: Apache-2.0
#include "template_renderer.h"

#include "backend_client.h"
#include "protocol.h"

#include <QFileInfo>

#include <utility>

namespace ccm::designer {

TemplateRenderer::TemplateRenderer(BackendClient *client, ContextProvider context, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_context(std::move(context))
{
    if (!client)
        return;
    connect(client, &BackendClient::connected, this, [this] {
        if (m_waitingForConnection && m_dirty && !m_inFlight) {
            m_waitingForConnection = false;
            send();
        }
    });
    connect(client, &BackendClient::errorOccurred, this, [this](const QString &message) {
        if (m_waitingForConnection)
            emit unavailable(tr("Cannot render the template: %1").arg(message));
    });
}

QString TemplateRenderer::engineFor(const QString &path)
{
    return QFileInfo(path).suffix().compare(QLatin1String("jet"), Qt::CaseInsensitive) == 0 ? QStringLiteral("jet")
                                                                                            : QStringLiteral("go");
}

void TemplateRenderer::render(const QString &text, const QString &engine, const QString &path)
{
    m_text = text;
    m_engine = engine;
    m_path = path;
    m_hasText = true;
    rerender();
}

void TemplateRenderer::rerender()
{
    if (!m_hasText)
        return;
    ++m_generation;
    m_dirty = true;
    if (!m_inFlight)
        send();
}

void TemplateRenderer::send()
{
    if (!m_client) {
        emit unavailable(tr("Cannot render the template: there is no backend."));
        return;
    }
    if (!m_client->isConnected()) {
        // Sent once the connection is up; connecting twice is harmless.
        m_waitingForConnection = true;
        m_client->connectToBackend();
        return;
    }
    m_dirty = false;
    m_inFlight = true;
    Json params = m_context ? m_context() : Json::object();
    if (!params.is_object())
        params = Json::object();
    params["text"] = m_text.toStdString();
    params["engine"] = m_engine.toStdString();
    if (!m_path.isEmpty())
        params["path"] = m_path.toStdString();
    const quint64 generation = m_generation;
    QPointer<TemplateRenderer> self(this);
    m_client->call(
        QStringLiteral("template.render"), std::move(params), [self, generation](const BackendClient::Answer &answer) {
            if (self)
                self->answered(
                    generation, answer.ok, answer.ok ? answer.result : answer.data, answer.code, answer.message);
        });
}

void TemplateRenderer::answered(quint64 generation, bool ok, const ccm::Json &result, int code, const QString &message)
{
    m_inFlight = false;
    if (generation != m_generation) {
        // The text changed while this was rendered: only the latest one is worth showing.
        if (m_dirty)
            send();
        return;
    }
    if (!ok) {
        if (code == static_cast<int>(protocol::ErrorCode::MethodNotFound))
            emit unavailable(tr("This backend is too old to render templates (it has no template.render); "
                                "update ccm-backend to see the rendered output."));
        else
            emit unavailable(tr("Cannot render the template: %1").arg(BackendClient::errorText(code, message, result)));
        return;
    }
    if (result.contains("output") && result["output"].is_string()) {
        RenderedTemplate rendered;
        rendered.output = QString::fromStdString(result["output"].get<std::string>());
        if (result.contains("line_map") && result["line_map"].is_array()) {
            for (const Json &line : result["line_map"])
                rendered.lineMap.append(line.is_number_integer() ? line.get<int>() : 0);
        }
        emit this->rendered(rendered);
        return;
    }
    Diagnostics templateProblems;
    Diagnostics manifestProblems;
    const Json list = result.value("diagnostics", Json::array());
    for (const Json &item : list.is_array() ? list : Json::array()) {
        const Diagnostics one = diagnosticsFromJson(Json::array({item}));
        const bool fromManifest = item.is_object() && item.value("source", std::string()) == "manifest";
        (fromManifest ? manifestProblems : templateProblems)
            .insert(fromManifest ? manifestProblems.end() : templateProblems.end(), one.begin(), one.end());
    }
    if (templateProblems.empty() && manifestProblems.empty())
        templateProblems.push_back(
            {Severity::Error, tr("The backend sent neither output nor diagnostics.").toStdString(), {}, {}});
    emit failed(templateProblems, manifestProblems);
}

ccm::Diagnostics diagnosticsFromJson(const ccm::Json &array)
{
    Diagnostics out;
    if (!array.is_array())
        return out;
    for (const Json &item : array) {
        if (!item.is_object())
            continue;
        Diagnostic diagnostic;
        const std::string severity = item.value("severity", std::string("error"));
        diagnostic.severity = severity == "warning" ? Severity::Warning
            : severity == "info"                    ? Severity::Info
                                                    : Severity::Error;
        diagnostic.message = item.value("message", std::string());
        diagnostic.path = item.value("path", std::string());
        const Json line = item.value("line", Json());
        const Json column = item.value("column", Json());
        diagnostic.position.line = line.is_number_integer() ? line.get<int>() : 0;
        diagnostic.position.column = column.is_number_integer() ? column.get<int>() : 0;
        out.push_back(std::move(diagnostic));
    }
    return out;
}

} // namespace ccm::designer
