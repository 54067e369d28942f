// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/backend_client.h"

#include <QDialog>
#include <QPointer>
#include <QString>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTreeView;

namespace ccm::designer {

class FleetController;
class RolloutListModel;
class RolloutModel;

/// Fleet ▸ Roll Out…: rolls the open manifest out ring by ring (fleet.rollout). The Set Up tab
/// chooses the rings in order from the obj:// objects agents watch (fleet.status), the gate (max
/// failed as a count or a share, ring timeout, settle time, roll back on failure) and a message;
/// Start sends the manifest signed with the fleet key. The Progress tab follows it live from the
/// fleet.rollout.progress notifications: each ring's hosts (waiting, applied, failed, silent, with
/// reasons), the gate's verdict per ring, the final state and report, with Pause, Abort (after a
/// confirmation; it rolls back) and Resume through fleet.rollout.control. The Rollouts tab lists
/// past and paused rollouts (fleet.rollouts) to reopen or resume. Nothing waits on the backend.
class RolloutDialog : public QDialog {
    Q_OBJECT

public:
    RolloutDialog(
        FleetController *controller, const QStringList &contexts, const QString &preferred, QWidget *parent = nullptr);

    /// Offers the obj:// objects agents watch as rings (fleet.status).
    void loadObjects();
    /// Adds `object` (obj://BUCKET/NAME) as the last ring.
    void addRing(const QString &object);
    /// Starts the rollout as set up.
    void start();
    /// Asks the running rollout to stop after its current ring.
    void pause();
    /// Asks whether to abort and roll back; aborts when the user agrees.
    void confirmAbort();
    /// Aborts and rolls back without asking.
    void abort();
    /// Goes on with a paused rollout, or one whose process went away.
    void resume();
    /// Reads the rollouts (fleet.rollouts) into the Rollouts tab.
    void loadRollouts();
    /// Shows the rollout in `row` of the Rollouts tab in the Progress tab.
    void openRollout(int row);

    /// The rings chosen, as object names in order, and their bucket; empty with *error set when
    /// they are not all obj:// objects of one bucket.
    QStringList ringNames(QString *bucket, QString *error) const;
    /// The max failed as fleet.rollout takes it: "2" or "10%".
    QString maxFailedText() const;

    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *contextBox() const { return m_context; }
    QComboBox *objectBox() const { return m_object; }
    QListWidget *ringList() const { return m_rings; }
    QSpinBox *maxFailedBox() const { return m_maxFailed; }
    QComboBox *maxFailedUnitBox() const { return m_maxFailedUnit; }
    QSpinBox *ringTimeoutBox() const { return m_ringTimeout; }
    QSpinBox *settleBox() const { return m_settle; }
    QCheckBox *rollbackBox() const { return m_rollback; }
    QLineEdit *messageEdit() const { return m_message; }
    QPushButton *startButton() const { return m_start; }
    QLabel *setupMessage() const { return m_setupMessage; }
    RolloutModel *model() const { return m_model; }
    QTreeView *progressView() const { return m_view; }
    QLabel *stateLabel() const { return m_stateLabel; }
    QLabel *reportLabel() const { return m_report; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *abortButton() const { return m_abort; }
    QPushButton *resumeButton() const { return m_resume; }
    RolloutListModel *rolloutsModel() const { return m_rollouts; }
    QTableView *rolloutsView() const { return m_rolloutsView; }
    QLabel *rolloutsMessage() const { return m_rolloutsMessage; }

private:
    QWidget *createSetupTab(const QStringList &contexts, const QString &preferred);
    QWidget *createRingEditor();
    QWidget *createGateForm();
    QWidget *createProgressTab();
    QWidget *createRolloutsTab();
    /// Runs a long call (fleet.rollout, or a resume) on a connection of its own and follows it.
    void runLong(const QString &method, ccm::Json params, const QString &failure);
    /// Sends fleet.rollout.control `action` on a connection of its own, so it is not held up
    /// behind a running rollout; `then` gets the answer.
    void control(const QString &action, std::function<void(const BackendClient::Answer &)> then);
    void onProgress(const QString &method, const ccm::Json &params);
    void showRecord(const ccm::Json &rollout);
    void updateProgress();
    void updateSetup();
    void addTarget(ccm::Json &params) const;
    static void showText(QLabel *label, const QString &text, bool error);

    FleetController *m_controller;
    QTabWidget *m_tabs = nullptr;
    QComboBox *m_context = nullptr;
    QComboBox *m_object = nullptr;
    QListWidget *m_rings = nullptr;
    QSpinBox *m_maxFailed = nullptr;
    QComboBox *m_maxFailedUnit = nullptr;
    QSpinBox *m_ringTimeout = nullptr;
    QSpinBox *m_settle = nullptr;
    QCheckBox *m_rollback = nullptr;
    QLineEdit *m_message = nullptr;
    QPushButton *m_start = nullptr;
    QLabel *m_setupMessage = nullptr;
    RolloutModel *m_model = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_stateLabel = nullptr;
    QLabel *m_report = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_abort = nullptr;
    QPushButton *m_resume = nullptr;
    RolloutListModel *m_rollouts = nullptr;
    QTableView *m_rolloutsView = nullptr;
    QLabel *m_rolloutsMessage = nullptr;
    /// Long calls of this dialog still running (a start, a resume, an abort).
    int m_running = 0;
    bool m_controlPending = false;
};

} // namespace ccm::designer
