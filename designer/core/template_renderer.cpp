// SPDX-License-Identifier: Apache-2.0
#include "designer/core/template_renderer.h"

#include "designer/core/backend_client.h"
#include "designer/core/data_resolution.h"
#include "protocol/protocol.h"

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
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("jet"))
        return QStringLiteral("jet");
    if (suffix == QLatin1String("templ"))
        return QStringLiteral("template");
    return QStringLiteral("go");
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
    const bool resolved = m_engine == QLatin1String("template");
    if (resolved) {
        params["items"] = Json::array({Json {{"kind", "template"}, {"text", m_text.toStdString()}}});
    } else {
        params["text"] = m_text.toStdString();
        params["engine"] = m_engine.toStdString();
        if (!m_path.isEmpty())
            params["path"] = m_path.toStdString();
    }
    const QString method = resolved ? QStringLiteral("expression.evaluate") : QStringLiteral("template.render");
    const quint64 generation = m_generation;
    QPointer<TemplateRenderer> self(this);
    m_client->call(method, std::move(params), [self, generation, method](const BackendClient::Answer &answer) {
        if (self)
            self->answered(generation, method, answer);
    });
}

void TemplateRenderer::answered(quint64 generation, const QString &method, const BackendClient::Answer &answer)
{
    m_inFlight = false;
    if (generation != m_generation) {
        // The text changed while this was rendered: only the latest one is worth showing.
        if (m_dirty)
            send();
        return;
    }
    if (!answer.ok) {
        if (answer.code == static_cast<int>(protocol::ErrorCode::MethodNotFound))
            emit unavailable(tr("This backend is too old to render templates (it has no %1); update ccm-backend to "
                                "see the rendered output.")
                                 .arg(method));
        else
            emit unavailable(tr("Cannot render the template: %1")
                                 .arg(BackendClient::errorText(answer.code, answer.message, answer.data)));
        return;
    }
    RenderedTemplate result;
    const Json list = answer.result.value("diagnostics", Json::array());
    for (const Json &item : list.is_array() ? list : Json::array()) {
        const Diagnostics one = diagnosticsFromJson(Json::array({item}));
        Diagnostics &into = item.is_object() && item.value("source", std::string()) == "manifest"
            ? result.manifestProblems
            : result.templateProblems;
        into.insert(into.end(), one.begin(), one.end());
    }
    const bool rendered = method == QLatin1String("expression.evaluate") ? readResolved(answer.result, result)
                                                                         : readRendered(answer.result, result);
    if (rendered) {
        emit this->rendered(result);
        return;
    }
    if (result.templateProblems.empty() && result.manifestProblems.empty())
        result.templateProblems.push_back(
            {Severity::Error, tr("The backend sent neither output nor diagnostics.").toStdString(), {}, {}});
    emit failed(result.templateProblems, result.manifestProblems);
}

bool TemplateRenderer::readRendered(const ccm::Json &answer, RenderedTemplate &result) const
{
    if (!answer.contains("output") || !answer["output"].is_string())
        return false;
    result.output = QString::fromStdString(answer["output"].get<std::string>());
    for (const Json &line : answer.value("line_map", Json::array()))
        result.lineMap.append(line.is_number_integer() ? line.get<int>() : 0);
    return true;
}

bool TemplateRenderer::readResolved(const ccm::Json &answer, RenderedTemplate &result) const
{
    const Json values = answer.value("values", Json::array());
    const Json first = values.is_array() && !values.empty() ? values[0] : Json::object();
    if (first.contains("value")) {
        const Json &value = first["value"];
        result.output = QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
        return true;
    }
    const Json error = first.value("error", Json::object());
    if (!error.is_object() || !error.contains("message"))
        return false;
    // The column counts characters from the start of the whole text: make it a line and column.
    Diagnostic problem {Severity::Error, error.value("message", std::string()), {}, {}};
    const Json column = error.value("column", Json());
    if (column.is_number_integer() && column.get<int>() > 0) {
        const QString before = m_text.left(column.get<int>() - 1);
        const auto lineStart = before.lastIndexOf(u'\n') + 1;
        problem.position.line = static_cast<int>(before.count(u'\n')) + 1;
        problem.position.column = static_cast<int>(before.size() - lineStart) + 1;
    }
    result.templateProblems.insert(result.templateProblems.begin(), problem);
    return false;
}

} // namespace ccm::designer
