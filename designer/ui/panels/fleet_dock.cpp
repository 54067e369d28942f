// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/fleet_dock.h"

#include "designer/core/fleet_client.h"
#include "designer/core/fleet_preview_model.h"
#include "designer/core/fleet_status_model.h"
#include "designer/core/nats_contexts.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/panels/diff_view.h"
#include "designer/ui/panels/empty_state.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

constexpr int kDefaultTimeoutSeconds = 30;
constexpr int kResourceColumnWidth = 34;
constexpr int kResourceColumnMaxWidth = 130;

/// Paints a matrix cell as a tile in its outcome's colour with the outcome's symbol; other cells
/// as usual. One delegate for the whole view: no widget per cell.
class OutcomeDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QVariant outcome = index.data(FleetPreviewModel::OutcomeRole);
        if (!outcome.isValid()) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        painter->save();
        const bool selected = option.state.testFlag(QStyle::State_Selected);
        const QColor colour = index.data(FleetPreviewModel::TileColourRole).value<QColor>();
        QColor tile = colour;
        tile.setAlpha(selected ? 255 : 70);
        if (outcome.toInt() >= 0)
            painter->fillRect(option.rect.adjusted(1, 1, -1, -1), tile);
        painter->setPen(selected ? option.palette.color(QPalette::HighlightedText) : colour.darker(130));
        painter->drawText(option.rect, Qt::AlignCenter, index.data().toString());
        if (selected) {
            painter->setPen(QPen(option.palette.color(QPalette::Highlight), 2));
            painter->drawRect(option.rect.adjusted(1, 1, -1, -1));
        }
        painter->restore();
    }
};

/// One entry of the matrix legend: a tile of the cell's colour with its symbol, and its name.
QString legendEntry(int outcome, int change, const QString &symbol, const QString &name, const QString &tip)
{
    const QColor colour = FleetPreviewModel::tileColour(outcome, change);
    return QStringLiteral(
        "<span title=\"%5\" style=\"background-color:rgba(%1,%2,%3,70);color:%4\">&nbsp;%6&nbsp;</span>"
        "&nbsp;%7&nbsp;&nbsp;")
        .arg(colour.red())
        .arg(colour.green())
        .arg(colour.blue())
        .arg(colour.darker(130).name(), tip.toHtmlEscaped(), symbol, name.toHtmlEscaped());
}

} // namespace

FleetDock::FleetDock(FleetController *controller, QWidget *parent)
    : QDockWidget(tr("Fleet"), parent)
    , m_controller(controller)
    , m_statusModel(new FleetStatusModel(this))
    , m_previewModel(new FleetPreviewModel(this))
    , m_filter(new FleetPreviewFilter(this))
{
    setObjectName(QStringLiteral("fleetDock"));
    m_filter->setSourceModel(m_previewModel);
    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(createContextRow());
    m_tabs = new QTabWidget(content);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(createStatusTab(), tr("Status"));
    m_tabs->addTab(createPreviewTab(), tr("Preview"));
    layout->addWidget(m_tabs, 1);
    setWidget(content);

    m_previewAction = new QAction(QIcon::fromTheme(QStringLiteral("system-run")), tr("Preview on &Fleet"), this);
    m_previewAction->setStatusTip(tr("Run the manifest in noop mode on the agents and show what it would change"));
    connect(m_previewAction, &QAction::triggered, this, [this] {
        show();
        raise();
        m_tabs->setCurrentIndex(1);
        startPreview();
    });
    m_keyAction = new QAction(tr("Fleet &Key…"), this);
    m_keyAction->setStatusTip(tr("Set up the key that signs fleet previews and the agents that trust it"));
    connect(m_keyAction, &QAction::triggered, this, &FleetDock::showKeyDialog);
    connect(m_previewModel, &FleetPreviewModel::updated, this, &FleetDock::updateProgress);
}

FleetDock::~FleetDock() = default;

QWidget *FleetDock::createContextRow()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("NATS context:"), row));
    m_context = new QComboBox(row);
    m_context->setEditable(true);
    m_context->addItems(natsContextNames());
    m_context->setCurrentText(defaultNatsContext());
    m_context->setToolTip(tr("The NATS CLI context (under %1) your backend connects with")
                              .arg(QDir::toNativeSeparators(natsContextDirectory())));
    layout->addWidget(m_context);
    layout->addStretch(1);
    return row;
}

QWidget *FleetDock::createStatusTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    auto *row = new QHBoxLayout;
    m_refresh = new QPushButton(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Refresh"), tab);
    connect(m_refresh, &QPushButton::clicked, this, &FleetDock::refreshStatus);
    row->addWidget(m_refresh);
    m_statusMessage = new QLabel(tab);
    m_statusMessage->setWordWrap(true);
    m_statusMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(m_statusMessage, 1);
    layout->addLayout(row);
    m_statusStack = new QStackedWidget(tab);
    m_statusStack->addWidget(createEmptyStateLabel(
        tr("The hosts running ccm-backend agent appear here: when each last ran, what it changed and what "
           "failed, and which have gone quiet. Press Refresh to read their status from the NATS server of the "
           "context above."),
        tab));
    m_statusView = new QTableView(tab);
    m_statusView->setModel(m_statusModel);
    m_statusView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_statusView->verticalHeader()->hide();
    m_statusView->horizontalHeader()->setSectionResizeMode(FleetStatusModel::HostColumn, QHeaderView::Stretch);
    m_statusStack->addWidget(m_statusView);
    layout->addWidget(m_statusStack, 1);
    return tab;
}

QWidget *FleetDock::createPreviewTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    layout->addWidget(createPreviewControls());
    m_progress = new QLabel(tab);
    m_progress->setWordWrap(true);
    m_progress->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_progress);
    m_previewStack = new QStackedWidget(tab);
    m_previewStack->addWidget(createEmptyStateLabel(
        tr("Preview on Fleet runs this manifest in noop mode on the agents that take previews and shows here "
           "what it would change on each host: a row per host, a column per resource, with totals. Nothing "
           "changes on the hosts. Previews are signed: set up your key with Fleet ▸ Fleet Key… first."),
        tab));
    m_previewStack->addWidget(createMatrixPage());
    layout->addWidget(m_previewStack, 1);
    return tab;
}

QWidget *FleetDock::createPreviewControls()
{
    auto *controls = new QWidget(this);
    auto *row = new QHBoxLayout(controls);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Hosts where:"), controls));
    m_selector = new QLineEdit(controls);
    m_selector->setPlaceholderText(tr("every host (or a fact expression, e.g. Facts.host.info.os == \"linux\")"));
    m_selector->setToolTip(tr("Only hosts whose facts make this expression true run the preview"));
    row->addWidget(m_selector, 1);
    row->addWidget(new QLabel(tr("Wait:"), controls));
    m_timeout = new QSpinBox(controls);
    m_timeout->setRange(1, 3600);
    m_timeout->setValue(kDefaultTimeoutSeconds);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("How long to wait for the hosts; those that have not answered by then count as silent"));
    row->addWidget(m_timeout);
    m_previewButton = new QPushButton(QIcon::fromTheme(QStringLiteral("system-run")), tr("Preview on Fleet"), controls);
    connect(m_previewButton, &QPushButton::clicked, this, &FleetDock::startPreview);
    row->addWidget(m_previewButton);
    return controls;
}

QWidget *FleetDock::createMatrixPage()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *filters = new QHBoxLayout;
    m_filterMode = new QComboBox(page);
    m_filterMode->addItems(
        {tr("All resources"), tr("Changes only"), tr("Failures only"), tr("Drift only"), tr("Intended only")});
    m_filterMode->setItemData(int(FleetPreviewFilter::Mode::DriftOnly),
        tr("Changes the hosts' current bundles would make too: the hosts drifted from them"), Qt::ToolTipRole);
    m_filterMode->setItemData(
        int(FleetPreviewFilter::Mode::IntendedOnly), tr("Changes only this proposal makes"), Qt::ToolTipRole);
    connect(m_filterMode, &QComboBox::currentIndexChanged, this,
        [this](int mode) { m_filter->setMode(FleetPreviewFilter::Mode(mode)); });
    filters->addWidget(m_filterMode);
    m_hostFilter = new QLineEdit(page);
    m_hostFilter->setPlaceholderText(tr("Host"));
    m_hostFilter->setClearButtonEnabled(true);
    m_hostFilter->setToolTip(tr("A host's name shows that host alone; part of a name, every host containing it"));
    connect(m_hostFilter, &QLineEdit::textChanged, this,
        [this](const QString &text) { m_filter->setHost(text.trimmed()); });
    filters->addWidget(m_hostFilter, 1);
    m_publish = new QPushButton(QIcon::fromTheme(QStringLiteral("document-send")), tr("&Publish…"), page);
    m_publish->setToolTip(tr("No host would fail: publish the manifest for the agents to apply"));
    m_publish->hide();
    connect(m_publish, &QPushButton::clicked, m_controller, &FleetController::showPublishDialog);
    filters->addWidget(m_publish);
    layout->addLayout(filters);
    m_legend = new QLabel(legendText(), page);
    m_legend->setObjectName(QStringLiteral("fleetLegend"));
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setToolTip(tr("Each host compares the proposal with its current bundle: a drift change would be made "
                            "by that bundle too, since the host no longer matches it"));
    layout->addWidget(m_legend);
    auto *splitter = new QSplitter(Qt::Vertical, page);
    m_matrix = new QTableView(splitter);
    setupMatrixView();
    m_diff = new DiffView(splitter);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    return page;
}

QString FleetDock::legendText()
{
    const int changed = int(Outcome::Changed);
    return legendEntry(changed, int(FleetChange::Intended), QStringLiteral("●"), tr("intended"),
               tr("only this proposal changes it"))
        + legendEntry(changed, int(FleetChange::Drift), QStringLiteral("≈"), tr("drift"),
            tr("the host's current bundle would change it too: the host drifted"))
        + legendEntry(changed, int(FleetChange::Added), QStringLiteral("+"), tr("added"),
            tr("the host's current bundle does not have it"))
        + legendEntry(changed, int(FleetChange::Uncompared), QStringLiteral("?"), tr("uncompared"),
            tr("its run under the current bundle failed or did not happen"))
        + legendEntry(int(Outcome::Failed), -1, QStringLiteral("✗"), tr("failed"), tr("it would fail"))
        + legendEntry(int(Outcome::Stable), -1, QStringLiteral("✓"), tr("unchanged"), tr("nothing would change"));
}

void FleetDock::setupMatrixView()
{
    m_matrix->setModel(m_filter);
    m_matrix->setItemDelegate(new OutcomeDelegate(m_matrix));
    m_matrix->setSelectionMode(QAbstractItemView::SingleSelection);
    m_matrix->verticalHeader()->hide();
    // Fixed sizes: the view never measures 10,000 rows or a hundred columns.
    m_matrix->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_matrix->verticalHeader()->setDefaultSectionSize(m_matrix->fontMetrics().height() + 8);
    m_matrix->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_matrix->horizontalHeader()->setDefaultSectionSize(kResourceColumnWidth);
    m_matrix->horizontalHeader()->setTextElideMode(Qt::ElideLeft);
    m_matrix->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    const auto widenHostColumns = [this] {
        m_matrix->setColumnWidth(FleetPreviewModel::HostColumn, 180);
        m_matrix->setColumnWidth(FleetPreviewModel::StateColumn, 180);
        m_matrix->setColumnWidth(FleetPreviewModel::ChangedColumn, 70);
        m_matrix->setColumnWidth(FleetPreviewModel::FailedColumn, 70);
    };
    widenHostColumns();
    connect(m_filter, &QAbstractItemModel::modelReset, this, widenHostColumns);
    connect(m_filter, &QAbstractItemModel::columnsInserted, this, [this](const QModelIndex &, int first, int last) {
        const QFontMetrics metrics(m_matrix->horizontalHeader()->font());
        for (int column = std::max(first, int(FleetPreviewModel::FirstResourceColumn)); column <= last; ++column) {
            const int text = metrics.horizontalAdvance(m_filter->headerData(column, Qt::Horizontal).toString());
            m_matrix->setColumnWidth(column, std::clamp(text + 16, kResourceColumnWidth, kResourceColumnMaxWidth));
        }
    });
    connect(m_matrix->selectionModel(), &QItemSelectionModel::currentChanged, this, &FleetDock::showCell);
}

void FleetDock::refreshStatus()
{
    m_refresh->setEnabled(false);
    showInfo(m_statusMessage, tr("Reading the status of the fleet…"));
    const fleet::Target target {m_context->currentText().trimmed(), {}};
    const QPointer<FleetDock> guard(this);
    m_controller->withUserBackend([guard, target](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->m_refresh->setEnabled(true);
            guard->showError(guard->m_statusMessage, tr("Your own backend cannot be reached: %1").arg(error));
            return;
        }
        fleet::status(client, target, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            guard->m_refresh->setEnabled(true);
            if (!answer.ok) {
                guard->showError(guard->m_statusMessage, tr("The status could not be read: %1").arg(answer.message));
                return;
            }
            guard->m_statusModel->setStatus(answer.result);
            const int hosts = guard->m_statusModel->rowCount();
            guard->showInfo(guard->m_statusMessage,
                hosts == 0 ? tr("No agent has reported yet. Agents write their status after each run.")
                           : tr("Hosts: %1, stale: %2").arg(hosts).arg(guard->m_statusModel->staleCount()));
            guard->m_statusStack->setCurrentIndex(hosts == 0 ? 0 : 1);
        });
    });
}

void FleetDock::startPreview()
{
    if (m_running)
        return;
    const QString key = FleetKeyDialog::keyPath();
    if (!QFileInfo::exists(key)) {
        showError(m_progress,
            tr("There is no signing key at %1. Create one with Fleet ▸ Fleet Key… and give the agents its public key.")
                .arg(QDir::toNativeSeparators(key)));
        return;
    }
    Json params = m_controller->manifestParams();
    params["key"] = key.toStdString();
    if (!m_selector->text().trimmed().isEmpty())
        params["select"] = m_selector->text().trimmed().toStdString();
    params["timeout_ms"] = qint64(m_timeout->value()) * 1000;
    fleet::Target {m_context->currentText().trimmed(), {}}.addTo(params);

    m_previewModel->clear();
    m_diff->clear();
    m_totals = Json();
    m_publish->hide();
    m_previewButton->setEnabled(false);
    m_previewStack->setCurrentIndex(1);
    showInfo(m_progress, tr("Sending the preview to the fleet…"));
    const QPointer<FleetDock> guard(this);
    m_controller->withUserBackend([guard, params](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->previewFailed(tr("Your own backend cannot be reached: %1").arg(error));
            return;
        }
        auto *preview = new FleetPreview(client, params, guard);
        guard->m_running = preview;
        connect(preview, &FleetPreview::hostReported, guard->m_previewModel, &FleetPreviewModel::addHostReport);
        connect(preview, &FleetPreview::eventReported, guard->m_previewModel, &FleetPreviewModel::addEventReport);
        connect(preview, &FleetPreview::finished, guard, &FleetDock::previewFinished);
        connect(preview, &FleetPreview::failed, guard, &FleetDock::previewFailed);
    });
}

void FleetDock::previewFinished(const Json &result)
{
    if (m_running)
        m_running->deleteLater();
    m_previewButton->setEnabled(true);
    m_totals = result.is_object() ? result.value("totals", Json::object()) : Json::object();
    m_previewModel->setResult(result);
    m_previewModel->flush();
    const bool clean = !m_previewModel->hasFailures() && m_previewModel->countIn(FleetHostState::Done) > 0;
    m_publish->setVisible(clean);
}

void FleetDock::previewFailed(const QString &message)
{
    if (m_running)
        m_running->deleteLater();
    m_previewButton->setEnabled(true);
    if (m_previewModel->hostCount() == 0)
        m_previewStack->setCurrentIndex(0);
    showError(m_progress, tr("The fleet preview did not run: %1").arg(message));
}

void FleetDock::updateProgress()
{
    if (!m_previewModel->isFinished()) {
        showInfo(m_progress,
            tr("%1 of %2 hosts answered…").arg(m_previewModel->answeredCount()).arg(m_previewModel->hostCount()));
        return;
    }
    const auto total = [this](const char *key, int fallback) {
        const auto found = m_totals.is_object() ? m_totals.find(key) : m_totals.end();
        return m_totals.is_object() && found != m_totals.end() && found->is_number_integer() ? found->get<int>()
                                                                                             : fallback;
    };
    const int hosts = total("hosts", m_previewModel->hostCount());
    const int answered = total("answered", m_previewModel->answeredCount());
    const int silent = total("silent", m_previewModel->countIn(FleetHostState::Silent));
    // No host answered at all: the backend's notice names the likely reason, the key no agent
    // trusts, and how to check.
    if (!m_previewModel->notice().isEmpty()) {
        showError(m_progress, m_previewModel->notice());
        return;
    }
    if (hosts == 0) {
        showError(m_progress,
            tr("No host answered. Check the selector, that the agents have previews enabled and that they trust "
               "your key (Fleet ▸ Fleet Key…)."));
        return;
    }
    QString text = tr("%1 of %2 hosts answered, %3 silent").arg(answered).arg(hosts).arg(silent);
    if (m_previewModel->hasFailures())
        text += tr("; there are failures: fix them before publishing");
    showInfo(m_progress, text);
}

void FleetDock::showCell(const QModelIndex &proxyIndex)
{
    const QModelIndex index = m_filter->mapToSource(proxyIndex);
    const int outcome = m_previewModel->outcomeAt(index.row(), index.column());
    if (outcome < 0) {
        m_diff->clear();
        return;
    }
    QString title
        = tr("%1 on %2").arg(m_previewModel->resourceAt(index.column()), m_previewModel->identityAt(index.row()));
    // What the host says of the cell: why it would refresh, what it would do, why it failed.
    if (const QString message = m_previewModel->messageAt(index.row(), index.column()); !message.isEmpty())
        title += QLatin1Char('\n') + message;
    const Json event = m_previewModel->eventAt(index.row(), index.column());
    const FileChanges change = fileChangesOf(event);
    // A file that would change without a diff or attributes is content the agent would not show.
    const bool withheld = outcome == int(Outcome::Changed) && change.diff.isEmpty() && change.attributes.isEmpty()
        && m_previewModel->resourceAt(index.column()).startsWith(QStringLiteral("file#"));
    m_diff->setChange(title, change.diff, change.attributes, withheld);
}

FleetKeyDialog *FleetDock::showKeyDialog()
{
    auto *dialog = new FleetKeyDialog(m_controller, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void FleetDock::showError(QLabel *label, const QString &text)
{
    label->setText(text);
    QPalette palette = label->parentWidget()->palette();
    palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    label->setPalette(palette);
    label->setProperty("error", true);
}

void FleetDock::showInfo(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setPalette(label->parentWidget()->palette());
    label->setProperty("error", false);
}

} // namespace ccm::designer
