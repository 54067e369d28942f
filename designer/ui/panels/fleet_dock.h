// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QDockWidget>
#include <QPointer>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace ccm::designer {

class DiffView;
class FleetController;
class FleetKeyDialog;
class FleetPreview;
class FleetPreviewFilter;
class FleetPreviewModel;
class FleetStatusModel;

/// The Fleet dock: the status of every agent (fleet.status) and Preview on Fleet (fleet.preview)
/// as a host × resource matrix with totals, filters and the diff of the selected cell; after a
/// preview without failures, Publish… opens the publish dialog. Everything runs on the user's own
/// backend through the FleetController.
class FleetDock : public QDockWidget {
    Q_OBJECT

public:
    explicit FleetDock(FleetController *controller, QWidget *parent = nullptr);
    ~FleetDock() override;

    /// Fleet ▸ Preview on Fleet: shows the preview tab and starts a preview.
    QAction *previewAction() const { return m_previewAction; }
    /// Fleet ▸ Fleet Key…
    QAction *keyAction() const { return m_keyAction; }

    /// Reads fleet.status with the chosen context and fills the status table.
    void refreshStatus();
    /// Sends the document to the fleet (fleet.preview) with the selector and timeout given.
    void startPreview();
    /// Opens the key dialog.
    FleetKeyDialog *showKeyDialog();

    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *contextBox() const { return m_context; }
    QPushButton *refreshButton() const { return m_refresh; }
    QLabel *statusMessage() const { return m_statusMessage; }
    QTableView *statusView() const { return m_statusView; }
    FleetStatusModel *statusModel() const { return m_statusModel; }
    QLineEdit *selectorEdit() const { return m_selector; }
    QSpinBox *timeoutBox() const { return m_timeout; }
    QPushButton *previewButton() const { return m_previewButton; }
    QLabel *progressLabel() const { return m_progress; }
    QComboBox *filterBox() const { return m_filterMode; }
    QLineEdit *hostFilterEdit() const { return m_hostFilter; }
    QTableView *matrixView() const { return m_matrix; }
    FleetPreviewModel *previewModel() const { return m_previewModel; }
    FleetPreviewFilter *previewFilter() const { return m_filter; }
    DiffView *diffView() const { return m_diff; }
    QPushButton *publishButton() const { return m_publish; }
    /// The matrix legend: what each colour and symbol means, drift apart from intended changes.
    QLabel *legendLabel() const { return m_legend; }
    static QString legendText();

private:
    QWidget *createStatusTab();
    QWidget *createPreviewTab();
    QWidget *createPreviewControls();
    QWidget *createMatrixPage();
    QWidget *createContextRow();
    void setupMatrixView();
    void previewFinished(const ccm::Json &result);
    void previewFailed(const QString &message);
    void updateProgress();
    void showCell(const QModelIndex &proxyIndex);
    void showError(QLabel *label, const QString &text);
    void showInfo(QLabel *label, const QString &text);

    FleetController *m_controller;
    QAction *m_previewAction = nullptr;
    QAction *m_keyAction = nullptr;
    QTabWidget *m_tabs = nullptr;
    QComboBox *m_context = nullptr;

    QPushButton *m_refresh = nullptr;
    QLabel *m_statusMessage = nullptr;
    QStackedWidget *m_statusStack = nullptr;
    QTableView *m_statusView = nullptr;
    FleetStatusModel *m_statusModel = nullptr;

    QLineEdit *m_selector = nullptr;
    QSpinBox *m_timeout = nullptr;
    QPushButton *m_previewButton = nullptr;
    QLabel *m_progress = nullptr;
    QComboBox *m_filterMode = nullptr;
    QLineEdit *m_hostFilter = nullptr;
    QPushButton *m_publish = nullptr;
    QLabel *m_legend = nullptr;
    QStackedWidget *m_previewStack = nullptr;
    QTableView *m_matrix = nullptr;
    FleetPreviewModel *m_previewModel = nullptr;
    FleetPreviewFilter *m_filter = nullptr;
    DiffView *m_diff = nullptr;
    QPointer<FleetPreview> m_running;
    ccm::Json m_totals;
};

} // namespace ccm::designer
