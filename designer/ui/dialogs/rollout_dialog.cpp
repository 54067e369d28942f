// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/rollout_dialog.h"

#include "designer/core/fleet_client.h"
#include "designer/core/fleet_history_models.h"
#include "designer/core/json_members.h"
#include "designer/core/rollout_model.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

const QString kProgressMethod = QStringLiteral("fleet.rollout.progress");

enum Tab { SetupTab, ProgressTab, RolloutsTab };

QPushButton *smallButton(const QString &text, QWidget *parent)
{
    auto *button = new QPushButton(text, parent);
    button->setAutoDefault(false);
    return button;
}

} // namespace

RolloutDialog::RolloutDialog(
    FleetController *controller, const QStringList &contexts, const QString &preferred, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_model(new RolloutModel(this))
    , m_rollouts(new RolloutListModel(this))
{
    setWindowTitle(tr("Roll Out"));
    auto *layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(createSetupTab(contexts, preferred), tr("&Set Up"));
    m_tabs->addTab(createProgressTab(), tr("&Progress"));
    m_tabs->addTab(createRolloutsTab(), tr("Roll&outs"));
    layout->addWidget(m_tabs, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_model, &RolloutModel::summaryChanged, this, &RolloutDialog::updateProgress);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &parentIndex) {
        if (!parentIndex.isValid())
            m_view->expandAll();
    });
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTreeView::expandAll);
    resize(820, 620);
    updateSetup();
    updateProgress();
}

QWidget *RolloutDialog::createSetupTab(const QStringList &contexts, const QString &preferred)
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    auto *intro = new QLabel(tr("Publishes the manifest as it is in the editor to one ring after the other. Each "
                                "ring is an object a group of agents watches; after publishing to a ring the "
                                "rollout waits for its hosts, and its gate decides whether the next ring gets it."),
        tab);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *contextRow = new QFormLayout;
    m_context = new QComboBox(tab);
    m_context->setEditable(true);
    m_context->addItems(contexts);
    m_context->setCurrentText(preferred);
    contextRow->addRow(tr("NATS &context:"), m_context);
    layout->addLayout(contextRow);
    layout->addWidget(createRingEditor(), 1);
    layout->addWidget(createGateForm());
    m_setupMessage = new QLabel(tab);
    m_setupMessage->setObjectName(QStringLiteral("rolloutSetupMessage"));
    m_setupMessage->setWordWrap(true);
    m_setupMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_setupMessage);
    m_start = new QPushButton(tr("&Start Rollout"), tab);
    m_start->setObjectName(QStringLiteral("startRollout"));
    connect(m_start, &QPushButton::clicked, this, &RolloutDialog::start);
    layout->addWidget(m_start, 0, Qt::AlignRight);
    connect(m_context, &QComboBox::currentTextChanged, this, &RolloutDialog::loadObjects);
    return tab;
}

QWidget *RolloutDialog::createRingEditor()
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *addRow = new QHBoxLayout;
    auto *ringsLabel = new QLabel(tr("&Rings, in order:"), box);
    addRow->addWidget(ringsLabel);
    m_object = new QComboBox(box);
    ringsLabel->setBuddy(m_object);
    m_object->setEditable(true);
    m_object->setMinimumContentsLength(36);
    m_object->lineEdit()->setPlaceholderText(QStringLiteral("obj://BUCKET/NAME"));
    m_object->setToolTip(tr("The objects agents watch, as they report them; or type one"));
    addRow->addWidget(m_object, 1);
    QPushButton *add = smallButton(tr("&Add"), box);
    addRow->addWidget(add);
    layout->addLayout(addRow);
    auto *listRow = new QHBoxLayout;
    m_rings = new QListWidget(box);
    m_rings->setObjectName(QStringLiteral("rolloutRings"));
    m_rings->setDragDropMode(QAbstractItemView::InternalMove);
    m_rings->setToolTip(tr("The first ring gets the release first; drag to reorder"));
    listRow->addWidget(m_rings, 1);
    auto *moves = new QVBoxLayout;
    QPushButton *up = smallButton(tr("Move &Up"), box);
    QPushButton *down = smallButton(tr("Move &Down"), box);
    QPushButton *remove = smallButton(tr("Re&move"), box);
    for (QPushButton *button : {up, down, remove})
        moves->addWidget(button);
    moves->addStretch(1);
    listRow->addLayout(moves);
    layout->addLayout(listRow);
    connect(add, &QPushButton::clicked, this, [this] { addRing(m_object->currentText().trimmed()); });
    const auto move = [this](int by) {
        const int row = m_rings->currentRow();
        if (row < 0 || row + by < 0 || row + by >= m_rings->count())
            return;
        m_rings->insertItem(row + by, m_rings->takeItem(row));
        m_rings->setCurrentRow(row + by);
    };
    connect(up, &QPushButton::clicked, this, [move] { move(-1); });
    connect(down, &QPushButton::clicked, this, [move] { move(1); });
    connect(remove, &QPushButton::clicked, this, [this] {
        delete m_rings->takeItem(m_rings->currentRow());
        updateSetup();
    });
    connect(m_rings->model(), &QAbstractItemModel::rowsMoved, this, &RolloutDialog::updateSetup);
    return box;
}

QWidget *RolloutDialog::createGateForm()
{
    auto *box = new QWidget(this);
    auto *form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    auto *failedRow = new QHBoxLayout;
    m_maxFailed = new QSpinBox(box);
    m_maxFailed->setRange(0, 100000);
    m_maxFailedUnit = new QComboBox(box);
    m_maxFailedUnit->addItems({tr("hosts"), tr("% of the ring's hosts")});
    connect(m_maxFailedUnit, &QComboBox::currentIndexChanged, this,
        [this](int index) { m_maxFailed->setMaximum(index == 1 ? 100 : 100000); });
    failedRow->addWidget(m_maxFailed);
    failedRow->addWidget(m_maxFailedUnit, 1);
    form->addRow(tr("Gate: at most failed:"), failedRow);
    m_ringTimeout = new QSpinBox(box);
    m_ringTimeout->setRange(1, 24 * 60);
    m_ringTimeout->setValue(10);
    m_ringTimeout->setSuffix(tr(" min"));
    m_ringTimeout->setToolTip(tr("How long to wait for a ring's hosts to report the release; silent hosts count as "
                                 "failed"));
    form->addRow(tr("Ring &timeout:"), m_ringTimeout);
    m_settle = new QSpinBox(box);
    m_settle->setRange(0, 24 * 3600);
    m_settle->setSuffix(tr(" s"));
    m_settle->setToolTip(tr("How long a ring must stay healthy after its hosts reported before the next ring"));
    form->addRow(tr("S&ettle:"), m_settle);
    m_rollback = new QCheckBox(tr("Roll the rings back to their previous release when a gate closes"), box);
    m_rollback->setChecked(true);
    form->addRow(tr("On failure:"), m_rollback);
    m_message = new QLineEdit(box);
    m_message->setPlaceholderText(tr("what changes and why, for the release history"));
    form->addRow(tr("&Message:"), m_message);
    auto *key = new QLabel(tr("signed with the fleet key %1 (Fleet ▸ Fleet Key…)")
                               .arg(QDir::toNativeSeparators(FleetKeyDialog::keyPath())),
        box);
    key->setWordWrap(true);
    form->addRow(tr("Key:"), key);
    return box;
}

QWidget *RolloutDialog::createProgressTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_stateLabel = new QLabel(tab);
    m_stateLabel->setObjectName(QStringLiteral("rolloutState"));
    m_stateLabel->setWordWrap(true);
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_stateLabel);
    m_view = new QTreeView(tab);
    m_view->setObjectName(QStringLiteral("rolloutProgress"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(RolloutModel::NameColumn, 260);
    m_view->setColumnWidth(RolloutModel::StateColumn, 140);
    layout->addWidget(m_view, 1);
    m_report = new QLabel(tab);
    m_report->setObjectName(QStringLiteral("rolloutReport"));
    m_report->setWordWrap(true);
    m_report->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_report);
    auto *buttons = new QHBoxLayout;
    m_pause = smallButton(tr("&Pause"), tab);
    m_pause->setToolTip(tr("Stop after the current ring; Resume goes on"));
    m_abort = smallButton(tr("A&bort…"), tab);
    m_abort->setToolTip(tr("Stop now and put every changed ring back on its previous release"));
    m_resume = smallButton(tr("&Resume"), tab);
    m_resume->setToolTip(tr("Go on with a paused rollout, or one whose process went away"));
    buttons->addStretch(1);
    for (QPushButton *button : {m_pause, m_abort, m_resume})
        buttons->addWidget(button);
    layout->addLayout(buttons);
    connect(m_pause, &QPushButton::clicked, this, &RolloutDialog::pause);
    connect(m_abort, &QPushButton::clicked, this, &RolloutDialog::confirmAbort);
    connect(m_resume, &QPushButton::clicked, this, &RolloutDialog::resume);
    return tab;
}

QWidget *RolloutDialog::createRolloutsTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    m_rolloutsView = new QTableView(tab);
    m_rolloutsView->setObjectName(QStringLiteral("rolloutsView"));
    m_rolloutsView->setModel(m_rollouts);
    m_rolloutsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rolloutsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_rolloutsView->verticalHeader()->hide();
    m_rolloutsView->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_rolloutsView, 1);
    m_rolloutsMessage = new QLabel(tab);
    m_rolloutsMessage->setWordWrap(true);
    layout->addWidget(m_rolloutsMessage);
    auto *buttons = new QHBoxLayout;
    QPushButton *refresh = smallButton(tr("Re&fresh"), tab);
    QPushButton *open = smallButton(tr("&Open"), tab);
    open->setToolTip(tr("Show the selected rollout in the Progress tab, to follow, pause, abort or resume it"));
    buttons->addStretch(1);
    buttons->addWidget(refresh);
    buttons->addWidget(open);
    layout->addLayout(buttons);
    connect(refresh, &QPushButton::clicked, this, &RolloutDialog::loadRollouts);
    connect(open, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_rolloutsView->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            openRollout(rows.first().row());
    });
    connect(m_rolloutsView, &QTableView::doubleClicked, this,
        [this](const QModelIndex &index) { openRollout(index.row()); });
    return tab;
}

void RolloutDialog::addTarget(Json &params) const
{
    fleet::Target {m_context->currentText().trimmed(), {}}.addTo(params);
}

void RolloutDialog::loadObjects()
{
    const QPointer<RolloutDialog> guard(this);
    const fleet::Target target {m_context->currentText().trimmed(), {}};
    m_controller->withUserBackend([guard, target](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            showText(guard->m_setupMessage, tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        fleet::status(client, target, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            if (!answer.ok) {
                showText(guard->m_setupMessage,
                    tr("The objects agents watch could not be read: %1. Type the rings as obj://BUCKET/NAME.")
                        .arg(answer.message),
                    true);
                return;
            }
            const QString typed = guard->m_object->currentText();
            guard->m_object->clear();
            guard->m_object->addItems(watchedObjects(answer.result));
            guard->m_object->setCurrentText(typed);
        });
    });
}

void RolloutDialog::addRing(const QString &object)
{
    QString bucket;
    QString name;
    if (!splitObjectUrl(object, &bucket, &name)) {
        showText(m_setupMessage, tr("A ring is an object agents watch, as obj://BUCKET/NAME."), true);
        return;
    }
    if (!m_rings->findItems(object, Qt::MatchExactly).isEmpty()) {
        showText(m_setupMessage, tr("%1 is a ring already.").arg(object), true);
        return;
    }
    m_rings->addItem(object);
    m_object->setCurrentText(QString());
    updateSetup();
}

QStringList RolloutDialog::ringNames(QString *bucket, QString *error) const
{
    QStringList names;
    bucket->clear();
    for (int row = 0; row < m_rings->count(); ++row) {
        QString ringBucket;
        QString name;
        const QString object = m_rings->item(row)->text();
        if (!splitObjectUrl(object, &ringBucket, &name)) {
            *error = tr("%1 is not an obj://BUCKET/NAME object.").arg(object);
            return {};
        }
        if (!bucket->isEmpty() && ringBucket != *bucket) {
            *error = tr("Every ring must be in one bucket: %1 is in %2, the first ring in %3.")
                         .arg(object, ringBucket, *bucket);
            return {};
        }
        *bucket = ringBucket;
        names << name;
    }
    if (names.isEmpty())
        *error = tr("Add at least one ring.");
    return names;
}

QString RolloutDialog::maxFailedText() const
{
    return QString::number(m_maxFailed->value())
        + (m_maxFailedUnit->currentIndex() == 1 ? QStringLiteral("%") : QString());
}

void RolloutDialog::updateSetup()
{
    QString bucket;
    QString error;
    const bool ready = !ringNames(&bucket, &error).isEmpty();
    m_start->setEnabled(ready && m_running == 0);
    if (!ready && m_rings->count() > 0)
        showText(m_setupMessage, error, true);
    else if (ready)
        showText(m_setupMessage, tr("%n ring(s) in bucket %1.", nullptr, m_rings->count()).arg(bucket), false);
}

void RolloutDialog::start()
{
    QString bucket;
    QString error;
    const QStringList rings = ringNames(&bucket, &error);
    if (rings.isEmpty()) {
        showText(m_setupMessage, error, true);
        return;
    }
    const QString key = FleetKeyDialog::keyPath();
    if (!QFileInfo::exists(key)) {
        showText(m_setupMessage,
            tr("A rollout is signed with your fleet key, and there is none at %1. Create one with Fleet ▸ Fleet "
               "Key… and give the agents its public key.")
                .arg(QDir::toNativeSeparators(key)),
            true);
        return;
    }
    Json params = m_controller->manifestParams();
    Json names = Json::array();
    for (const QString &ring : rings)
        names.push_back(ring.toStdString());
    params["bucket"] = bucket.toStdString();
    params["rings"] = names;
    params["key"] = key.toStdString();
    params["max_failed"] = maxFailedText().toStdString();
    params["ring_timeout_ms"] = qint64(m_ringTimeout->value()) * 60 * 1000;
    params["settle_ms"] = qint64(m_settle->value()) * 1000;
    params["rollback"] = m_rollback->isChecked();
    if (!m_message->text().trimmed().isEmpty())
        params["message"] = m_message->text().trimmed().toStdString();
    addTarget(params);
    m_model->clear();
    m_report->clear();
    m_tabs->setCurrentIndex(ProgressTab);
    runLong(QStringLiteral("fleet.rollout"), params, tr("The rollout did not start: %1"));
}

void RolloutDialog::runLong(const QString &method, Json params, const QString &failure)
{
    ++m_running;
    updateSetup();
    updateProgress();
    const QPointer<RolloutDialog> guard(this);
    m_controller->withOwnConnection([guard, method, params, failure](BackendClient *client, const QString &error) {
        if (!guard) {
            if (client)
                client->deleteLater();
            return;
        }
        if (!client) {
            --guard->m_running;
            guard->updateSetup();
            guard->updateProgress();
            showText(guard->m_report, tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        connect(client, &BackendClient::notificationReceived, guard, &RolloutDialog::onProgress);
        const QPointer<BackendClient> connection(client);
        client->call(method, params, [guard, connection, failure](const BackendClient::Answer &answer) {
            // The rollout's own connection ends with its call, whether or not the dialog is still open.
            if (connection)
                connection->deleteLater();
            if (!guard)
                return;
            --guard->m_running;
            if (answer.ok)
                guard->showRecord(answer.result);
            guard->updateSetup();
            guard->updateProgress();
            if (!answer.ok)
                showText(guard->m_report, failure.arg(answer.message), true);
        });
    });
}

void RolloutDialog::onProgress(const QString &method, const Json &params)
{
    if (method == kProgressMethod)
        m_model->applyEvent(params);
}

void RolloutDialog::showRecord(const Json &rollout)
{
    if (rollout.is_object() && !stringOf(rollout, "id").isEmpty())
        m_model->setRecord(rollout);
}

void RolloutDialog::control(const QString &action, std::function<void(const BackendClient::Answer &)> then)
{
    Json params {{"id", m_model->id().toStdString()}, {"action", action.toStdString()}};
    addTarget(params);
    m_controlPending = true;
    updateProgress();
    const QPointer<RolloutDialog> guard(this);
    m_controller->withOwnConnection([guard, params, then](BackendClient *client, const QString &error) {
        if (!guard) {
            if (client)
                client->deleteLater();
            return;
        }
        if (!client) {
            guard->m_controlPending = false;
            guard->updateProgress();
            showText(guard->m_report, tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        connect(client, &BackendClient::notificationReceived, guard, &RolloutDialog::onProgress);
        const QPointer<BackendClient> connection(client);
        client->call(QStringLiteral("fleet.rollout.control"), params,
            [guard, connection, then](const BackendClient::Answer &answer) {
                if (connection)
                    connection->deleteLater();
                if (!guard)
                    return;
                guard->m_controlPending = false;
                then(answer);
                guard->updateProgress();
            });
    });
}

void RolloutDialog::pause()
{
    const QPointer<RolloutDialog> guard(this);
    control(QStringLiteral("pause"), [guard](const BackendClient::Answer &answer) {
        if (!answer.ok) {
            showText(guard->m_report, tr("The rollout could not be paused: %1").arg(answer.message), true);
            return;
        }
        // A rollout followed here reports its pause itself, possibly before this answer comes.
        if (guard->m_running == 0 && guard->m_model->state() == QLatin1String("running"))
            guard->showRecord(answer.result);
        if (!guard->m_model->isFinished() && guard->m_model->state() != QLatin1String("paused"))
            showText(guard->m_report, tr("Pausing: the rollout stops once the current ring is judged."), false);
    });
}

void RolloutDialog::confirmAbort()
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Abort Rollout"),
        tr("Abort rollout %1 and put every ring it changed back on its previous release?").arg(m_model->id()),
        QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("abortConfirmation"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(tr("Abort and Roll Back"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, yes](QAbstractButton *clicked) {
        if (clicked == yes)
            abort();
    });
    box->open();
}

void RolloutDialog::abort()
{
    ++m_running;
    const QPointer<RolloutDialog> guard(this);
    control(QStringLiteral("abort"), [guard](const BackendClient::Answer &answer) {
        --guard->m_running;
        if (!answer.ok) {
            showText(guard->m_report, tr("The rollout could not be aborted: %1").arg(answer.message), true);
            return;
        }
        guard->showRecord(answer.result);
    });
}

void RolloutDialog::resume()
{
    Json params {{"id", m_model->id().toStdString()}, {"action", "resume"}};
    addTarget(params);
    m_report->clear();
    runLong(QStringLiteral("fleet.rollout.control"), params, tr("The rollout could not be resumed: %1"));
}

void RolloutDialog::loadRollouts()
{
    showText(m_rolloutsMessage, tr("Reading the rollouts…"), false);
    Json params = Json::object();
    addTarget(params);
    const QPointer<RolloutDialog> guard(this);
    m_controller->withUserBackend([guard, params](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            showText(guard->m_rolloutsMessage, tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        client->call(QStringLiteral("fleet.rollouts"), params, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            if (!answer.ok) {
                showText(guard->m_rolloutsMessage, tr("The rollouts could not be read: %1").arg(answer.message), true);
                return;
            }
            guard->m_rollouts->setRollouts(answer.result);
            guard->m_rolloutsView->resizeColumnsToContents();
            const int count = guard->m_rollouts->rowCount();
            showText(guard->m_rolloutsMessage,
                count == 0
                    ? tr("There are no rollouts yet.")
                    : tr("%n rollout(s), newest first. Open one to follow, pause, abort or resume it.", nullptr, count),
                false);
        });
    });
}

void RolloutDialog::openRollout(int row)
{
    const Json rollout = m_rollouts->rollout(row);
    if (!rollout.is_object())
        return;
    m_model->clear();
    m_report->clear();
    m_model->setRecord(rollout);
    // A rollout run elsewhere reports nothing here: its record is what there is until it is
    // resumed or aborted from here.
    m_tabs->setCurrentIndex(ProgressTab);
}

void RolloutDialog::updateProgress()
{
    const QString state = m_model->state();
    const bool known = !m_model->id().isEmpty();
    const bool busy = m_controlPending;
    m_pause->setEnabled(known && !busy && state == QLatin1String("running") && m_model->request().isEmpty());
    m_abort->setEnabled(known && !busy && !m_model->isFinished() && m_model->request() != QLatin1String("abort"));
    // A running rollout followed here is not resumed; one whose process went away is.
    m_resume->setEnabled(
        known && !busy && m_running == 0 && (state == QLatin1String("paused") || state == QLatin1String("running")));
    if (!known) {
        showText(m_stateLabel, m_running > 0 ? tr("Starting the rollout…") : tr("No rollout yet: set one up."), false);
        return;
    }
    QString text = tr("Rollout %1 of %2: %3").arg(m_model->id(), m_model->digest(), RolloutModel::stateText(state));
    if (!m_model->activity().isEmpty())
        text += QStringLiteral("\n") + m_model->activity();
    showText(m_stateLabel, text, false);
    if (m_model->isFinished()) {
        const bool passed = state == QLatin1String("passed");
        QString report = passed ? tr("Every ring passed its gate.") : m_model->report();
        showText(m_report, tr("%1: %2").arg(RolloutModel::stateText(state), report), !passed);
    } else if (state == QLatin1String("paused") && m_running == 0) {
        showText(m_report, tr("Paused. %1 Resume goes on with the next ring.").arg(m_model->report()), false);
    }
}

void RolloutDialog::showText(QLabel *label, const QString &text, bool error)
{
    label->setText(text);
    QPalette palette = label->parentWidget()->palette();
    if (error)
        palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    label->setPalette(palette);
    label->setProperty("error", error);
}

} // namespace ccm::designer
