// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "designer/core/backend_client.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace ccm::designer {

/// What a template rendered to: `output` and, for each of its lines, the 1-based template line
/// that produced it (empty for a resolved `.templ`), with the warnings that came along.
struct RenderedTemplate {
    QString output;
    QList<int> lineMap;
    ccm::Diagnostics templateProblems; ///< positioned in the template's text
    ccm::Diagnostics manifestProblems; ///< positioned in the manifest's text (its data)
};

/// Renders one template through the backend as the user types: Jet (`*.jet`) and Go templates
/// with template.render; a `*.templ` file, which the engine's template() resolves as a property
/// value (`{{ expression }}` parts), with expression.evaluate, which resolves text that way. Requests are
/// coalesced: one is in flight at a time, edits made meanwhile are sent once it is answered, and
/// an answer to anything but the latest text is dropped. Rendering itself is the backend's:
/// nothing here interprets the template.
class TemplateRenderer : public QObject {
    Q_OBJECT

public:
    /// The params every request shares (manifest, base_dir, facts), asked for at send time so
    /// that they are current.
    using ContextProvider = std::function<ccm::Json()>;

    TemplateRenderer(BackendClient *client, ContextProvider context, QObject *parent = nullptr);

    /// "jet" for `.jet` files, "template" for `.templ` files (resolved as template() does) and
    /// "go" for other templates.
    [[nodiscard]] static QString engineFor(const QString &path);

    /// Renders `text` as `engine` ("jet", "go" or "template"); `path` (relative to base_dir) names it in
    /// messages. Supersedes anything not yet answered.
    void render(const QString &text, const QString &engine, const QString &path);
    /// Sends the last text again (the manifest or the What If facts changed).
    void rerender();
    /// Whether a request is waiting for its answer.
    [[nodiscard]] bool isBusy() const { return m_inFlight; }

signals:
    /// The latest text rendered.
    void rendered(const ccm::designer::RenderedTemplate &result);
    /// The latest text did not render. `templateProblems` are positioned in the template's text,
    /// `manifestProblems` in the manifest's (its data did not resolve).
    void failed(const ccm::Diagnostics &templateProblems, const ccm::Diagnostics &manifestProblems);
    /// The backend cannot render (not reachable, or too old); `message` says so to the user.
    void unavailable(const QString &message);

private:
    void send();
    void answered(quint64 generation, const QString &method, const BackendClient::Answer &answer);
    /// template.render's answer; false when it has no output.
    bool readRendered(const ccm::Json &answer, RenderedTemplate &result) const;
    /// expression.evaluate's answer for the one item; false (with the problem added) on error.
    bool readResolved(const ccm::Json &answer, RenderedTemplate &result) const;

    QPointer<BackendClient> m_client;
    ContextProvider m_context;
    QString m_text;
    QString m_engine;
    QString m_path;
    bool m_hasText = false;
    bool m_inFlight = false;
    bool m_dirty = false;
    bool m_waitingForConnection = false;
    quint64 m_generation = 0;
};

} // namespace ccm::designer
