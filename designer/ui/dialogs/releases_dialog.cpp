// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/dialogs/releases_dialog.h"

#include "designer/core/fleet_client.h"
#include "designer/core/fleet_history_models.h"
#include "designer/core/json_members.h"
#include "designer/core/text_diff.h"
#include "designer/ui/controllers/fleet_controller.h"
#include "designer/ui/dialogs/fleet_key_dialog.h"
#include "designer/ui/panels/diff_view.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <memory>

namespace ccm::designer {
namespace {

/// The start of a digest's hash, enough to tell releases apart.
QString shortDigest(const QString &digest)
{
    return digest.section(QLatin1Char('='), 1).left(12);
}

QString releaseLabel(const ReleaseEntry &release)
{
    return QStringLiteral("%1 (%2)").arg(shortDigest(release.digest), localTimeText(release.time));
}

} // namespace

ReleasesDialog::ReleasesDialog(
    FleetController *controller, const QStringList &contexts, const QString &preferred, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
{
    setWindowTitle(tr("Releases"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Every bundle published to an object is kept as a release. Select two releases "
                                "and press Diff to compare their manifests, or one earlier release and Roll Back "
                                "to publish it again, signed with your fleet key."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(createObjectRow(contexts, preferred));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_model = new ReleaseListModel(this);
    m_view = new QTableView(splitter);
    m_view->setObjectName(QStringLiteral("releasesView"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ReleasesDialog::updateButtons);
    m_diff = new DiffView(splitter);
    splitter->addWidget(m_view);
    splitter->addWidget(m_diff);
    // The diff gets most of the height: a history is a few rows, a manifest many lines.
    splitter->setSizes({170, 330});
    layout->addWidget(splitter, 1);
    layout->addWidget(createActionRow());

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("releasesMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(900, 640);
    updateButtons();
}

QWidget *ReleasesDialog::createObjectRow(const QStringList &contexts, const QString &preferred)
{
    auto *row = new QWidget(this);
    auto *form = new QFormLayout(row);
    form->setContentsMargins(0, 0, 0, 0);
    m_context = new QComboBox(row);
    m_context->setEditable(true);
    m_context->addItems(contexts);
    m_context->setCurrentText(preferred);
    m_context->setToolTip(tr("The NATS CLI context to connect with"));
    form->addRow(tr("NATS &context:"), m_context);
    auto *objectRow = new QHBoxLayout;
    m_object = new QComboBox(row);
    m_object->setObjectName(QStringLiteral("releaseObject"));
    m_object->setEditable(true);
    m_object->setMinimumContentsLength(40);
    m_object->lineEdit()->setPlaceholderText(QStringLiteral("obj://BUCKET/NAME"));
    m_object->setToolTip(tr("The object agents watch, as obj://BUCKET/NAME; the list holds those the agents report"));
    objectRow->addWidget(m_object, 1);
    m_show = new QPushButton(tr("&Show Releases"), row);
    m_show->setDefault(true);
    connect(m_show, &QPushButton::clicked, this, [this] { loadReleases(); });
    objectRow->addWidget(m_show);
    form->addRow(tr("Object:"), objectRow);
    connect(m_object, &QComboBox::currentTextChanged, this, &ReleasesDialog::updateButtons);
    connect(m_context, &QComboBox::currentTextChanged, this, &ReleasesDialog::loadObjects);
    return row;
}

QWidget *ReleasesDialog::createActionRow()
{
    auto *row = new QWidget(this);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_diffButton = new QPushButton(tr("&Diff"), row);
    m_diffButton->setToolTip(tr("Compare the manifests of the two selected releases"));
    connect(m_diffButton, &QPushButton::clicked, this, &ReleasesDialog::diffSelected);
    layout->addWidget(m_diffButton);
    layout->addStretch(1);
    auto *messageLabel = new QLabel(tr("Roll back &message:"), row);
    layout->addWidget(messageLabel);
    m_rollBackMessage = new QLineEdit(row);
    messageLabel->setBuddy(m_rollBackMessage);
    m_rollBackMessage->setPlaceholderText(tr("why, for the release history"));
    layout->addWidget(m_rollBackMessage, 1);
    m_rollBack = new QPushButton(tr("&Roll Back…"), row);
    m_rollBack->setToolTip(tr("Publish the selected earlier release to the object again"));
    connect(m_rollBack, &QPushButton::clicked, this, &ReleasesDialog::confirmRollBack);
    layout->addWidget(m_rollBack);
    return row;
}

void ReleasesDialog::addTarget(Json &params) const
{
    fleet::Target {m_context->currentText().trimmed(), {}}.addTo(params);
}

void ReleasesDialog::loadObjects()
{
    const QPointer<ReleasesDialog> guard(this);
    const fleet::Target target {m_context->currentText().trimmed(), {}};
    m_controller->withUserBackend([guard, target](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        fleet::status(client, target, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            if (!answer.ok) {
                guard->showMessage(tr("The objects agents watch could not be read: %1. Type the object as "
                                      "obj://BUCKET/NAME instead.")
                                       .arg(answer.message),
                    true);
                return;
            }
            const QString typed = guard->m_object->currentText();
            guard->m_object->clear();
            guard->m_object->addItems(watchedObjects(answer.result));
            if (!typed.isEmpty())
                guard->m_object->setCurrentText(typed);
            if (guard->m_object->count() == 0)
                guard->showMessage(
                    tr("No agent reports an obj:// source yet; type the object as obj://BUCKET/NAME."), false);
        });
    });
}

void ReleasesDialog::loadReleases(const QString &doneText)
{
    QString bucket;
    QString name;
    if (!splitObjectUrl(m_object->currentText().trimmed(), &bucket, &name)) {
        showMessage(tr("Give the object as obj://BUCKET/NAME, for example obj://sites/web.tar.gz."), true);
        return;
    }
    m_bucket = bucket;
    m_name = name;
    m_busy = true;
    updateButtons();
    showMessage(tr("Reading the releases of %1…").arg(m_object->currentText().trimmed()), false);
    Json params {{"bucket", bucket.toStdString()}, {"name", name.toStdString()}};
    addTarget(params);
    const QPointer<ReleasesDialog> guard(this);
    m_controller->withUserBackend([guard, params, doneText](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->m_busy = false;
            guard->updateButtons();
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        client->call(QStringLiteral("fleet.releases"), params, [guard, doneText](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            guard->m_busy = false;
            if (!answer.ok) {
                guard->m_model->clear();
                guard->updateButtons();
                guard->showMessage(tr("The releases could not be read: %1").arg(answer.message), true);
                return;
            }
            guard->m_model->setReleases(answer.result);
            guard->m_view->resizeColumnsToContents();
            guard->m_diff->clear();
            guard->updateButtons();
            const int count = guard->m_model->rowCount();
            QString text = !doneText.isEmpty() ? doneText
                : count == 0                   ? tr("%1 has no releases yet. Publish to Fleet makes one.")
                                   .arg(guard->m_object->currentText().trimmed())
                             : tr("%n release(s), newest first.", nullptr, count);
            // Anyone who may write the history's bucket can store anything there; what does not
            // read is left out, and said so.
            const auto skipped = answer.result.find("skipped");
            if (skipped != answer.result.end() && skipped->is_array() && !skipped->empty())
                text += QLatin1Char(' ')
                    + tr("%n record(s) of the history could not be read and are not shown.", nullptr,
                        int(skipped->size()));
            guard->showMessage(text, false);
        });
    });
}

QList<int> ReleasesDialog::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void ReleasesDialog::updateButtons()
{
    const QList<int> rows = selectedRows();
    m_show->setEnabled(!m_busy);
    m_diffButton->setEnabled(!m_busy && rows.size() == 2);
    // The newest release is the current one: rolling back to it would change nothing.
    m_rollBack->setEnabled(!m_busy && rows.size() == 1 && rows.first() > 0);
}

void ReleasesDialog::diffSelected()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 2)
        return;
    // Newest first: the lower row is the newer release.
    const ReleaseEntry newer = m_model->release(rows[0]);
    const ReleaseEntry older = m_model->release(rows[1]);
    m_busy = true;
    updateButtons();
    showMessage(tr("Opening the two releases…"), false);
    const QPointer<ReleasesDialog> guard(this);
    m_controller->withUserBackend([guard, older, newer](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->m_busy = false;
            guard->updateButtons();
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        const QPointer<BackendClient> connection(client);
        guard->readManifest(client, older, [guard, connection, older, newer](bool ok, const QString &olderText) {
            if (!guard)
                return;
            if (!ok || !connection) {
                guard->m_busy = false;
                guard->updateButtons();
                guard->showMessage(olderText, true);
                return;
            }
            guard->readManifest(connection, newer, [guard, older, olderText, newer](bool read, const QString &text) {
                if (!guard)
                    return;
                guard->m_busy = false;
                guard->updateButtons();
                if (!read) {
                    guard->showMessage(text, true);
                    return;
                }
                guard->showDiff(older, olderText, newer, text);
            });
        });
    });
}

void ReleasesDialog::readManifest(
    BackendClient *client, const ReleaseEntry &release, std::function<void(bool ok, const QString &textOrError)> done)
{
    if (release.location.isEmpty()) {
        done(false, tr("The release %1 has no kept copy to open.").arg(shortDigest(release.digest)));
        return;
    }
    Json params {{"location", release.location.toStdString()}};
    addTarget(params);
    client->call(QStringLiteral("bundle.open"), params, [release, done](const BackendClient::Answer &answer) {
        if (!answer.ok) {
            done(false,
                tr("Cannot open the release %1 (%2): %3")
                    .arg(shortDigest(release.digest), release.location, answer.message));
            return;
        }
        const QString directory = stringOf(answer.result, "directory");
        QFile file(stringOf(answer.result, "manifest"));
        const bool opened = file.open(QIODevice::ReadOnly);
        const QString text = opened ? QString::fromUtf8(file.readAll()) : file.errorString();
        file.close();
        // The unpacked bundle is only needed for its manifest.
        if (!directory.isEmpty())
            QDir(directory).removeRecursively();
        if (!opened) {
            done(false, tr("Cannot read the manifest of the release %1: %2").arg(shortDigest(release.digest), text));
            return;
        }
        done(true, text);
    });
}

void ReleasesDialog::showDiff(
    const ReleaseEntry &older, const QString &olderText, const ReleaseEntry &newer, const QString &newerText)
{
    const QString diff = unifiedTextDiff(olderText, newerText, releaseLabel(older), releaseLabel(newer));
    m_diff->setChange(tr("manifest.yaml: %1 → %2").arg(releaseLabel(older), releaseLabel(newer)), diff, {});
    showMessage(diff.isEmpty() ? tr("The two releases have the same manifest.yaml.")
                               : tr("Removed lines are those of the older release, added lines those of the newer."),
        false);
}

void ReleasesDialog::confirmRollBack()
{
    const QList<int> rows = selectedRows();
    if (rows.size() != 1)
        return;
    const ReleaseEntry release = m_model->release(rows.first());
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Roll Back"),
        tr("Roll obj://%1/%2 back to the release %3?\n\nIt was published %4 by %5 and signed by %6. Agents "
           "watching the object fetch and apply it on their next run. It is published again signed with your "
           "fleet key.")
            .arg(m_bucket, m_name, release.digest, localTimeText(release.time), release.publisher,
                release.signer.isEmpty() ? tr("nobody (unsigned)") : release.signer),
        QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("rollBackConfirmation"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *yes = box->addButton(tr("Roll Back"), QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    const int row = rows.first();
    connect(box, &QMessageBox::buttonClicked, this, [this, yes, row](QAbstractButton *clicked) {
        if (clicked == yes)
            rollBackTo(row);
    });
    box->open();
}

void ReleasesDialog::rollBackTo(int row)
{
    const ReleaseEntry release = m_model->release(row);
    const QString key = FleetKeyDialog::keyPath();
    if (!QFileInfo::exists(key)) {
        showMessage(tr("Rolling back signs the release with your fleet key, and there is none at %1. Create one "
                       "with Fleet ▸ Fleet Key….")
                        .arg(QDir::toNativeSeparators(key)),
            true);
        return;
    }
    Json params {{"bucket", m_bucket.toStdString()}, {"name", m_name.toStdString()},
        {"to", release.digest.toStdString()}, {"key", key.toStdString()}};
    if (!m_rollBackMessage->text().trimmed().isEmpty())
        params["message"] = m_rollBackMessage->text().trimmed().toStdString();
    addTarget(params);
    m_busy = true;
    updateButtons();
    showMessage(tr("Rolling back to %1…").arg(shortDigest(release.digest)), false);
    const QPointer<ReleasesDialog> guard(this);
    m_controller->withUserBackend([guard, params](BackendClient *client, const QString &error) {
        if (!guard)
            return;
        if (!client) {
            guard->m_busy = false;
            guard->updateButtons();
            guard->showMessage(tr("Your own backend cannot be reached: %1").arg(error), true);
            return;
        }
        client->call(QStringLiteral("fleet.rollback"), params, [guard](const BackendClient::Answer &answer) {
            if (!guard)
                return;
            guard->m_busy = false;
            guard->updateButtons();
            if (!answer.ok) {
                guard->showMessage(tr("The roll back failed: %1").arg(answer.message), true);
                return;
            }
            const ReleaseEntry made = ReleaseEntry::fromJson(answer.result.value("release", Json::object()));
            guard->m_rollBackMessage->clear();
            guard->loadReleases(tr("Rolled back: obj://%1/%2 holds %3 again, signed by %4.")
                                    .arg(made.bucket, made.name, made.digest, made.signer));
        });
    });
}

void ReleasesDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    QPalette palette = this->palette();
    if (error)
        palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    m_message->setPalette(palette);
    m_message->setProperty("error", error);
}

} // namespace ccm::designer
