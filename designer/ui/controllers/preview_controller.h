// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"
#include "designer/core/backend_client.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

class QAction;
class QLabel;
class QWidget;

namespace ccm::designer {

class ManifestDocument;
class ResourceListPanel;
class ResultsPanel;
class RunResults;
class WhatIfPanel;

/// Runs the document through the backend, noop or for real, and shows what happens: outcome
/// markers on the resource list, the results panel with its diffs, progress, the backend in the
/// status bar. Owns the backend connection (the embedded user backend it may start ends with it).
class PreviewController : public QObject {
    Q_OBJECT

public:
    PreviewController(ManifestDocument *document, ResourceListPanel *resources, ResultsPanel *results,
        WhatIfPanel *whatIf, QWidget *window);
    ~PreviewController() override;

    /// Connects to the system backend, or starts the user's own (see BackendClient).
    void connectToBackend();

    [[nodiscard]] BackendClient *client() const { return m_client; }
    [[nodiscard]] RunResults *results() const { return m_results; }
    /// The status bar label naming the backend, its role and user.
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }

    QAction *previewAction() const { return m_previewAction; }
    QAction *applyAction() const { return m_applyAction; }
    QAction *cancelAction() const { return m_cancelAction; }
    QAction *exportJsonAction() const { return m_exportJsonAction; }
    QAction *exportTextAction() const { return m_exportTextAction; }

    /// Whether a run is going on.
    [[nodiscard]] bool isRunning() const { return !m_run.isNull(); }

    /// Starts a noop preview of the document as it is now, unsaved edits included.
    void preview();
    /// Asks for confirmation, then applies the document for real. With `confirmed` the question
    /// is skipped (for callers that asked already).
    void apply(bool confirmed = false);
    /// Stops the running preview or apply before its next resource.
    void cancel();
    /// Writes the last run's event stream (JSON lines) or its text report to a file.
    bool exportResults(const QString &path, bool asJson, QString *error) const;

signals:
    /// A run ended (finished, failed or cancelled) and its results are shown.
    void runEnded();
    /// Something the user should read in the status bar.
    void statusMessage(const QString &text);

private:
    void startRun(bool noop);
    void backendConnected(const BackendInfo &info);
    void backendError(const QString &message);
    void documentChanged();
    /// A row of the results was selected: shows its change and selects its resource.
    void resultSelected(int row);
    void showResourceChange(int row);
    void selectedEntryChanged();
    void updateActions();
    void exportWithDialog(bool asJson);
    void queueProgress(int done, int total, const QString &current);
    void queueEvent(const Json &event);
    /// Shows the events and the progress a run reported since the last call.
    void showPending();

    ManifestDocument *m_document;
    ResourceListPanel *m_resources;
    ResultsPanel *m_panel;
    WhatIfPanel *m_whatIf;
    QWidget *m_window;
    BackendClient *m_client;
    RunResults *m_results;
    QLabel *m_status;
    QPointer<Run> m_run;
    /// The document text the shown results were made from; they are stale once it differs.
    QString m_resultsText;
    bool m_lastRunNoop = true;
    /// Resources the last current preview said would change; -1 when there is none.
    int m_pendingChanges = -1;
    /// A run asked for before the backend was connected, started once it is.
    std::optional<bool> m_queuedRun;
    /// What a run reported and is not shown yet. A run reports once per resource, each report in
    /// an event-loop turn of its own: shown as they came, every one laid out the results (sized to
    /// their contents) and repainted the progress bar at once. They are shown at most once a
    /// frame, and all of them when the run ends.
    QTimer m_pendingTimer;
    std::vector<Json> m_pendingEvents;
    struct Progress {
        int done = 0;
        int total = 0;
        QString current;
    };
    std::optional<Progress> m_progress;

    QAction *m_previewAction = nullptr;
    QAction *m_applyAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_exportJsonAction = nullptr;
    QAction *m_exportTextAction = nullptr;
};

} // namespace ccm::designer
