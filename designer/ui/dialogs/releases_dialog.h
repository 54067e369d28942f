// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/backend_client.h"

#include <QDialog>
#include <QString>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace ccm::designer {

class DiffView;
class FleetController;
class ReleaseListModel;
struct ReleaseEntry;

/// Fleet ▸ Releases…: the release history of one object (fleet.releases), newest first, with time,
/// publisher, signer, size and message. Diff opens two selected releases by their kept copies
/// (bundle.open) and shows how their manifest.yaml differ; Roll Back… puts the selected earlier
/// release back (fleet.rollback), signed with the fleet key, after a confirmation that names the
/// object, the digest and its signer. Everything runs on the user's own backend.
class ReleasesDialog : public QDialog {
    Q_OBJECT

public:
    ReleasesDialog(
        FleetController *controller, const QStringList &contexts, const QString &preferred, QWidget *parent = nullptr);

    /// Fills the object list with the obj:// objects agents watch (fleet.status).
    void loadObjects();
    /// Reads the history of the chosen object (fleet.releases); shows `doneText`, when given, once read.
    void loadReleases(const QString &doneText = {});
    /// Shows how the manifests of the two selected releases differ.
    void diffSelected();
    /// Asks whether to roll back to the selected release; rolls back when the user agrees.
    void confirmRollBack();
    /// Rolls the object back to the release in `row` (fleet.rollback) without asking.
    void rollBackTo(int row);

    QComboBox *contextBox() const { return m_context; }
    QComboBox *objectBox() const { return m_object; }
    QPushButton *showButton() const { return m_show; }
    QTableView *releasesView() const { return m_view; }
    ReleaseListModel *releasesModel() const { return m_model; }
    QPushButton *diffButton() const { return m_diffButton; }
    QPushButton *rollBackButton() const { return m_rollBack; }
    QLineEdit *rollBackMessageEdit() const { return m_rollBackMessage; }
    QLabel *messageLabel() const { return m_message; }
    DiffView *diffView() const { return m_diff; }

private:
    QWidget *createObjectRow(const QStringList &contexts, const QString &preferred);
    QWidget *createActionRow();
    /// The selected rows, in order.
    QList<int> selectedRows() const;
    void updateButtons();
    void showMessage(const QString &text, bool error);
    void addTarget(ccm::Json &params) const;
    /// Opens the kept copy of `release` and reads its manifest.yaml; `done` gets the text or why not.
    void readManifest(BackendClient *client, const ReleaseEntry &release,
        std::function<void(bool ok, const QString &textOrError)> done);
    void showDiff(
        const ReleaseEntry &older, const QString &olderText, const ReleaseEntry &newer, const QString &newerText);

    FleetController *m_controller;
    QComboBox *m_context = nullptr;
    QComboBox *m_object = nullptr;
    QPushButton *m_show = nullptr;
    QTableView *m_view = nullptr;
    ReleaseListModel *m_model = nullptr;
    QPushButton *m_diffButton = nullptr;
    QPushButton *m_rollBack = nullptr;
    QLineEdit *m_rollBackMessage = nullptr;
    QLabel *m_message = nullptr;
    DiffView *m_diff = nullptr;
    QString m_bucket;
    QString m_name;
    bool m_busy = false;
};

} // namespace ccm::designer
