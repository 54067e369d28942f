// SPDX-License-Identifier: Apache-2.0
#include "designer/core/host_state.h"

#include "designer/core/backend_client.h"
#include "designer/core/form_description.h"

#include <QDir>

namespace ccm::designer {

namespace {

constexpr int kStatusMethodMissing = int(protocol::ErrorCode::MethodNotFound);
constexpr int kHostStateDelayMs = 300;

} // namespace

HostState::HostState(BackendClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(kHostStateDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &HostState::refresh);
    if (client != nullptr)
        connect(client, &BackendClient::connected, this, &HostState::refresh);
}

void HostState::setHold(std::function<bool()> hold)
{
    m_hold = std::move(hold);
}

void HostState::setDelay(int milliseconds)
{
    m_timer.setInterval(milliseconds);
}

int HostState::delay() const
{
    return m_timer.interval();
}

bool HostState::held() const
{
    return m_hold && m_hold();
}

void HostState::follow(
    const QString &type, const QString &name, const ccm::Json &properties, const QString &baseDirectory)
{
    const ccm::Json normalised = properties.is_object() ? properties : ccm::Json::object();
    if (type.isEmpty() || name.isEmpty()) {
        if (m_type.isEmpty())
            return;
        m_type.clear();
        m_name.clear();
        m_baseDirectory.clear();
        m_properties = ccm::Json::object();
        ++m_generation;
        m_status.reset();
        m_timer.stop();
        m_wanted = false;
        setView({});
        return;
    }
    const bool another = type != m_type || name != m_name || baseDirectory != m_baseDirectory;
    if (!another && normalised == m_properties)
        return;
    m_type = type;
    m_name = name;
    m_baseDirectory = baseDirectory;
    m_properties = normalised;
    ++m_generation;
    if (another && holdsTemplate(ccm::Json(name.toStdString()))) {
        m_status.reset();
        m_timer.stop();
        showTemplatedName();
        return;
    }
    if (another) {
        // Another resource: nothing is known of it until the backend answers, which it is asked
        // once the selection (or the name being typed) has rested.
        m_status.reset();
        HostStateView checking;
        checking.kind = HostStateView::Kind::Checking;
        checking.text = tr("On this host: checking…");
        checking.checking = true;
        setView(std::move(checking));
        m_timer.start();
        return;
    }
    // An edit: the markers follow the form at once; an answer on its way describes the
    // properties as they were, so it is dropped and the edited ones are asked about.
    if (m_inFlight)
        m_wanted = true;
    if (m_status) {
        HostStateView view = describe(m_type, m_properties, *m_status);
        view.checking = m_inFlight;
        setView(std::move(view));
    }
}

void HostState::refresh()
{
    m_timer.stop();
    if (m_type.isEmpty())
        return;
    if (holdsTemplate(ccm::Json(m_name.toStdString()))) {
        showTemplatedName();
        return;
    }
    if (m_inFlight || held()) {
        m_wanted = true;
        return;
    }
    if (m_client == nullptr || !m_client->isConnected()) {
        HostStateView waiting;
        waiting.kind = HostStateView::Kind::Unknown;
        waiting.text = tr("On this host: not known until the designer is connected to a backend.");
        m_status.reset();
        setView(std::move(waiting));
        return;
    }
    send();
}

void HostState::showTemplatedName()
{
    HostStateView view;
    view.kind = HostStateView::Kind::Unknown;
    view.text = tr("On this host: not known; the name holds a template, which only a run resolves.");
    setView(std::move(view));
}

void HostState::send()
{
    m_inFlight = true;
    m_wanted = false;
    HostStateView view = m_view;
    view.checking = true;
    setView(std::move(view));
    // Templates are resolved by a run; the backend compares only what the form holds resolved.
    ccm::Json resolved = ccm::Json::object();
    for (const auto &[key, value] : m_properties.items()) {
        if (!holdsTemplate(value))
            resolved[key] = value;
    }
    ccm::Json params = {{"type", m_type.toStdString()}, {"name", m_name.toStdString()}, {"properties", resolved}};
    if (QDir::isAbsolutePath(m_baseDirectory))
        params["base_dir"] = m_baseDirectory.toStdString();
    m_client->call(QStringLiteral("resource.status"), params,
        [guard = QPointer<HostState>(this), generation = m_generation](const BackendClient::Answer &answer) {
            if (guard != nullptr)
                guard->answered(generation, answer.ok, answer.result, answer.code, answer.message);
        });
}

void HostState::answered(quint64 generation, bool ok, const ccm::Json &result, int code, const QString &message)
{
    m_inFlight = false;
    if (generation == m_generation) {
        HostStateView view;
        if (ok) {
            m_status = ResourceStatus::fromJson(result);
            view = describe(m_type, m_properties, *m_status);
        } else {
            m_status.reset();
            view.kind = code == kStatusMethodMissing ? HostStateView::Kind::Unknown : HostStateView::Kind::Failed;
            view.text = code == kStatusMethodMissing
                ? tr("On this host: not known; this backend cannot tell (update ccm-backend).")
                : tr("On this host: not known; asking the backend failed: %1").arg(message);
        }
        setView(std::move(view));
    }
    // A dropped answer was for a resource or properties no longer shown; the current ones were
    // asked for meanwhile (m_wanted), or will be once the selection rests (m_timer).
    if (m_wanted)
        refresh();
}

HostStateView HostState::describe(const QString &type, const ccm::Json &properties, const ResourceStatus &status)
{
    HostStateView view;
    view.kind = status.supported ? HostStateView::Kind::Known : HostStateView::Kind::Unknown;
    if (!status.summary.isEmpty())
        view.text = tr("On this host: %1").arg(status.summary);
    else
        view.text = status.supported ? tr("On this host: the backend gave no summary.")
                                     : tr("On this host: the state cannot be told.");
    QStringList detail;
    if (!status.reason.isEmpty())
        detail.append(status.reason);
    else if (!status.supported)
        detail.append(tr("The backend gave no reason."));
    detail.append(status.notes);
    QStringList templated;
    if (properties.is_object()) {
        for (const auto &[key, value] : properties.items()) {
            if (holdsTemplate(value))
                templated.append(QString::fromStdString(key));
        }
    }
    if (status.supported && !templated.isEmpty())
        detail.append(tr("Not compared, as they hold templates: %1").arg(templated.join(QStringLiteral(", "))));
    const FormDescription &form = formDescription(type.toStdString());
    for (const HostDifference &difference : status.differences) {
        const std::string key = difference.property.toStdString();
        const ccm::Json formValue = properties.is_object() && properties.contains(key) ? properties[key] : ccm::Json();
        if (!formValue.is_null() && sameHostValue(difference.property, formValue, difference.current))
            continue;
        const QString shown = hostValueText(difference.current);
        if (form.field(key) != nullptr)
            view.markers[difference.property] = tr("On this host: %1").arg(shown);
        else
            detail.append(tr("%1 on this host: %2").arg(difference.property, shown));
    }
    view.detail = detail.join(QLatin1Char('\n'));
    return view;
}

void HostState::setView(HostStateView view)
{
    if (view == m_view)
        return;
    m_view = std::move(view);
    emit viewChanged();
}

} // namespace ccm::designer
