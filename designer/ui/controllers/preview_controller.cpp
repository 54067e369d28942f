// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/preview_controller.h"

#include "designer/core/manifest_document.h"
#include "designer/core/resource_list_model.h"
#include "designer/core/run_results.h"
#include "designer/ui/icons.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/resource_list_panel.h"
#include "designer/ui/panels/results_panel.h"
#include "designer/ui/panels/what_if_panel.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QKeySequence>
#include <QLabel>
#include <QMessageBox>
#include <QSaveFile>
#include <QTimer>

#include <utility>

namespace ccm::designer {

namespace {

/// The summary counts of ENGINE-SPEC §6 in words.
QString summaryText(const Json &summary, bool noop)
{
    const auto count = [&summary](const char *key) {
        const auto found = summary.is_object() ? summary.find(key) : summary.end();
        return summary.is_object() && found != summary.end() && found->is_number_integer() ? found->get<int>() : 0;
    };
    //: Preview summary; the counts of ENGINE-SPEC: total, then what would change, fail, ...
    return (noop ? PreviewController::tr("%1 resources: %2 would change, %3 stable, %4 would fail, %5 skipped, "
                                         "%6 unmet requirements, %7 would refresh")
                 : PreviewController::tr("%1 resources: %2 changed, %3 stable, %4 failed, %5 skipped, "
                                         "%6 unmet requirements, %7 refreshed"))
        .arg(count("total"))
        .arg(count("changed"))
        .arg(count("stable"))
        .arg(count("failed"))
        .arg(count("skipped"))
        .arg(count("unmet_requirements"))
        .arg(count("refreshed"));
}

} // namespace

PreviewController::PreviewController(ManifestDocument *document, ResourceListPanel *resources, ResultsPanel *results,
    WhatIfPanel *whatIf, QWidget *window)
    : QObject(window)
    , m_document(document)
    , m_resources(resources)
    , m_panel(results)
    , m_whatIf(whatIf)
    , m_window(window)
    , m_client(new BackendClient(this))
    , m_results(new RunResults(this))
    , m_status(new QLabel(window))
{
    m_status->setObjectName(QStringLiteral("backendStatus"));
    m_status->setText(tr("Backend: not connected"));
    m_panel->setModel(m_results);

    m_previewAction = new QAction(actionIcon(QStringLiteral("media-playback-start")), tr("&Preview"), this);
    m_previewAction->setObjectName(QStringLiteral("previewAction"));
    m_previewAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_previewAction->setStatusTip(tr("Show what applying the manifest would change on this machine, changing nothing"));
    connect(m_previewAction, &QAction::triggered, this, &PreviewController::preview);

    m_applyAction = new QAction(actionIcon(QStringLiteral("system-run")), tr("&Apply…"), this);
    m_applyAction->setObjectName(QStringLiteral("applyAction"));
    m_applyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    m_applyAction->setStatusTip(tr("Apply the manifest to this machine for real"));
    connect(m_applyAction, &QAction::triggered, this, [this] { apply(); });

    m_cancelAction = new QAction(actionIcon(QStringLiteral("process-stop")), tr("&Cancel Run"), this);
    m_cancelAction->setObjectName(QStringLiteral("cancelRunAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_cancelAction->setStatusTip(tr("Stop the running preview or apply before its next resource"));
    connect(m_cancelAction, &QAction::triggered, this, &PreviewController::cancel);

    m_exportJsonAction = new QAction(tr("Export Results as &JSON…"), this);
    connect(m_exportJsonAction, &QAction::triggered, this, [this] { exportWithDialog(true); });
    m_exportTextAction = new QAction(tr("Export Results as &Text…"), this);
    connect(m_exportTextAction, &QAction::triggered, this, [this] { exportWithDialog(false); });

    connect(m_panel, &ResultsPanel::cancelRequested, this, &PreviewController::cancel);
    connect(m_panel, &ResultsPanel::exportJsonRequested, this, [this] { exportWithDialog(true); });
    connect(m_panel, &ResultsPanel::exportTextRequested, this, [this] { exportWithDialog(false); });
    connect(m_panel, &ResultsPanel::resourceSelected, this, &PreviewController::resultSelected);

    connect(m_client, &BackendClient::connected, this, &PreviewController::backendConnected);
    connect(m_client, &BackendClient::disconnected, this, [this] {
        m_status->setText(tr("Backend: disconnected, reconnecting…"));
        updateActions();
    });
    connect(m_client, &BackendClient::errorOccurred, this, &PreviewController::backendError);
    m_pendingTimer.setSingleShot(true);
    m_pendingTimer.setInterval(16);
    connect(&m_pendingTimer, &QTimer::timeout, this, &PreviewController::showPending);
    connect(m_document, &ManifestDocument::changed, this, &PreviewController::documentChanged);
    connect(m_resources, &ResourceListPanel::currentEntryChanged, this, &PreviewController::selectedEntryChanged);
    updateActions();
}

PreviewController::~PreviewController() = default;

void PreviewController::connectToBackend()
{
    m_status->setText(tr("Backend: connecting…"));
    m_client->connectToBackend();
}

void PreviewController::preview()
{
    startRun(true);
}

void PreviewController::apply(bool confirmed)
{
    if (isRunning())
        return;
    if (!m_client->isConnected()) {
        m_queuedRun = false;
        connectToBackend();
        return;
    }
    const BackendInfo info = m_client->info();
    if (info.role != QStringLiteral("apply")) {
        QMessageBox::warning(m_window, tr("Apply"),
            tr("This backend lets %1 preview only: applying for real needs membership of the "
               "group ccm-apply (log in again after joining it).")
                .arg(info.user));
        return;
    }
    if (!confirmed) {
        const bool current = m_pendingChanges >= 0 && m_resultsText == m_document->text() && m_lastRunNoop;
        const QString changes = current
            ? tr("The last preview found %n resource(s) that would change.", nullptr, m_pendingChanges)
            : tr("There is no preview of the manifest as it is now, so what would change is not known.");
        const QString where = info.embedded ? tr("your own backend") : tr("the system backend");
        const auto answer = QMessageBox::question(m_window, tr("Apply"),
            tr("Apply the manifest to this machine through %1, as user %2?\n\n%3").arg(where, info.user, changes),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return;
    }
    startRun(false);
}

void PreviewController::cancel()
{
    if (m_run)
        m_run->cancel();
    m_queuedRun.reset();
}

void PreviewController::startRun(bool noop)
{
    if (isRunning())
        return;
    if (!m_client->isConnected()) {
        // The run starts once the backend answers.
        m_queuedRun = noop;
        connectToBackend();
        return;
    }
    RunRequest request;
    request.manifest = m_document->text();
    request.baseDirectory = m_document->baseDirectory();
    request.noop = noop;
    request.facts = m_whatIf->facts();
    request.data = m_whatIf->data();

    const QString title = m_document->filePath().isEmpty() ? m_document->loadedFrom() : m_document->filePath();
    m_results->startRun(title.isEmpty() ? tr("untitled manifest") : QDir::toNativeSeparators(title), noop);
    m_resources->model()->clearOutcomes();
    m_resources->setOutcomesStale(false);
    m_panel->setStale(false);
    m_panel->diffView()->clear();
    m_panel->setSummary(noop ? tr("Previewing…") : tr("Applying…"));
    m_panel->setRunning(true);
    m_resultsText = request.manifest;
    m_lastRunNoop = noop;
    m_pendingChanges = -1;

    m_pendingEvents.clear();
    m_progress.reset();
    m_run = m_client->startRun(request);
    connect(m_run, &Run::progress, this, &PreviewController::queueProgress);
    connect(m_run, &Run::transactionEvent, this, &PreviewController::queueEvent);
    connect(m_run, &Run::message, this, [this](const QString &text) { emit statusMessage(text); });
    connect(m_run, &Run::finished, this, [this, noop](const Json &result) {
        m_run.clear();
        showPending();
        m_results->setFinished(result);
        m_panel->setRunning(false);
        m_panel->setSummary(summaryText(m_results->summary(), noop));
        const Json summary = m_results->summary();
        if (noop && summary.is_object() && summary.contains("changed") && summary["changed"].is_number_integer())
            m_pendingChanges = summary["changed"].get<int>();
        const bool cancelled = result.is_object() && result.value("cancelled", false);
        emit statusMessage(cancelled ? tr("The run was cancelled before all resources ran.")
                                     : (noop ? tr("Preview finished") : tr("Apply finished")));
        updateActions();
        emit runEnded();
    });
    connect(m_run, &Run::failed, this, [this](const QString &message, const Json &) {
        m_run.clear();
        showPending();
        m_panel->setRunning(false);
        m_panel->setSummary(message);
        emit statusMessage(message);
        updateActions();
        emit runEnded();
    });
    updateActions();
}

bool PreviewController::exportResults(const QString &path, bool asJson, QString *error) const
{
    QSaveFile file(path);
    const QByteArray bytes = asJson ? m_results->toJson() : m_results->toText().toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void PreviewController::exportWithDialog(bool asJson)
{
    if (m_results->rowCount() == 0)
        return;
    const QString base = QFileInfo(m_document->baseDirectory(), QStringLiteral("results")).absoluteFilePath();
    const QString path
        = QFileDialog::getSaveFileName(m_window, asJson ? tr("Export Results as JSON") : tr("Export Results as Text"),
            base + (asJson ? QStringLiteral(".jsonl") : QStringLiteral(".txt")),
            asJson ? tr("JSON lines (*.jsonl *.json);;All files (*)") : tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportResults(path, asJson, &error))
        QMessageBox::warning(m_window, tr("Export Results"), error);
    else
        emit statusMessage(tr("Results written to %1").arg(QDir::toNativeSeparators(path)));
}

void PreviewController::backendConnected(const BackendInfo &info)
{
    const QString which = info.embedded ? tr("your own backend") : tr("system backend");
    const QString role = info.role == QStringLiteral("apply") ? tr("preview and apply")
        : info.role == QStringLiteral("preview")              ? tr("preview only")
                                                              : tr("no access");
    //: Status bar: %1 which backend, %2 what it allows, %3 the user it acts for.
    m_status->setText(tr("Backend: %1 · %2 · %3").arg(which, role, info.user));
    m_status->setToolTip(tr("%1 %2 on %3").arg(info.server, info.version, QDir::toNativeSeparators(info.socketPath)));
    updateActions();
    if (m_queuedRun) {
        const bool noop = *m_queuedRun;
        m_queuedRun.reset();
        if (noop)
            preview();
        else
            apply();
    }
}

void PreviewController::backendError(const QString &message)
{
    m_status->setText(tr("Backend: %1").arg(message));
    m_status->setToolTip(message);
    emit statusMessage(message);
    updateActions();
}

void PreviewController::documentChanged()
{
    const bool stale = m_results->rowCount() > 0 && m_document->text() != m_resultsText;
    m_results->setStale(stale);
    m_panel->setStale(stale);
    m_resources->setOutcomesStale(stale);
}

void PreviewController::queueProgress(int done, int total, const QString &current)
{
    m_progress = Progress {done, total, current};
    if (!m_pendingTimer.isActive())
        m_pendingTimer.start();
}

void PreviewController::queueEvent(const Json &event)
{
    m_pendingEvents.push_back(event);
    if (!m_pendingTimer.isActive())
        m_pendingTimer.start();
}

void PreviewController::showPending()
{
    m_pendingTimer.stop();
    for (const Json &event : std::exchange(m_pendingEvents, {})) {
        m_results->addEvent(event);
        const auto label = event.find("resource");
        if (label != event.end() && label->is_string())
            m_resources->model()->setOutcome(
                QString::fromStdString(label->get<std::string>()), outcomeKey(outcomeOf(event)));
    }
    if (const std::optional<Progress> progress = std::exchange(m_progress, std::nullopt))
        m_panel->setProgress(progress->done, progress->total, progress->current);
}

void PreviewController::showResourceChange(int row)
{
    if (row < 0 || row >= m_results->rowCount()) {
        m_panel->diffView()->clear();
        return;
    }
    const FileChanges change = m_results->fileChanges(row);
    const QString resource = m_results->index(row, RunResults::ResourceColumn).data().toString();
    // A change without a diff or attributes is content the backend would not show this user.
    const bool withheld = m_results->outcomeAt(row) == Outcome::Changed && change.diff.isEmpty()
        && change.attributes.isEmpty() && resource.startsWith(QStringLiteral("file#"));
    m_panel->diffView()->setChange(resource, change.diff, change.attributes, withheld);
}

void PreviewController::resultSelected(int row)
{
    showResourceChange(row);
    if (row < 0 || row >= m_results->rowCount())
        return;
    // The resource the row names becomes the selected one, so the form and the YAML view follow;
    // a resource of a child manifest has no entry here.
    const QString label = m_results->index(row, RunResults::ResourceColumn).data().toString();
    const EntryRef entry = m_resources->model()->entryAt(m_resources->model()->indexForLabel(label));
    if (entry.valid() && !(entry == m_resources->currentEntry()))
        m_resources->setCurrentEntry(entry);
}

void PreviewController::selectedEntryChanged()
{
    const EntryRef entry = m_resources->currentEntry();
    if (!entry.valid() || m_results->rowCount() == 0)
        return;
    const QString label = m_resources->model()->indexFor(entry).data(Qt::DisplayRole).toString();
    const int row = m_results->rowOf(label);
    m_panel->selectRow(row);
    if (row >= 0)
        showResourceChange(row);
}

void PreviewController::updateActions()
{
    const bool running = isRunning();
    m_previewAction->setEnabled(!running);
    m_applyAction->setEnabled(!running);
    m_cancelAction->setEnabled(running);
    m_exportJsonAction->setEnabled(!running && m_results->rowCount() > 0);
    m_exportTextAction->setEnabled(!running && m_results->rowCount() > 0);
}

} // namespace ccm::designer
