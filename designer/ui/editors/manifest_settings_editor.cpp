// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/manifest_settings_editor.h"

#include "core/expr/expression.h"
#include "core/template/template_string.h"
#include "designer/ui/editors/json_tree_editor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace ccm::designer {

namespace {

// The manifest's merge keywords; the combo's first entry stands for "not set".
const QStringList &mergeModes()
{
    static const QStringList modes {QStringLiteral("first"), QStringLiteral("deep")};
    return modes;
}

// The first expression of an order entry that does not parse, described for a tooltip.
QString templateProblem(const QString &entry)
{
    for (const TemplateSegment &segment : scanTemplate(entry.toStdString())) {
        if (segment.kind != TemplateSegment::Kind::Expression)
            continue;
        const auto parsed = Expression::parse(segment.text);
        if (!parsed)
            return QString::fromStdString(parsed.error().describe());
    }
    return {};
}

QString fromOptional(const std::optional<std::string> &text)
{
    return text ? QString::fromStdString(*text) : QString();
}

} // namespace

ManifestSettingsEditor::ManifestSettingsEditor(QWidget *parent)
    : QWidget(parent)
    , m_tabs(new QTabWidget(this))
    , m_data(new JsonTreeEditor(this))
    , m_overrides(new JsonTreeEditor(this))
{
    m_data->setToolTip(tr("Values the manifest's templates read with lookup('data.KEY')"));
    m_overrides->setToolTip(tr("Data overrides, keyed by the entries of the hierarchy's order"));
    m_tabs->addTab(m_data, tr("&Data"));
    m_tabs->addTab(createHierarchyPage(), tr("&Hierarchy"));
    m_tabs->addTab(m_overrides, tr("&Overrides"));
    m_tabs->addTab(createRunPage(), tr("&Run Settings"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    // An emptied tree drops its section rather than writing an empty map.
    connect(m_data, &JsonTreeEditor::valueEdited, this,
        [this](const Json &value) { emit dataEdited(value.empty() ? Json(nullptr) : value); });
    connect(m_overrides, &JsonTreeEditor::valueEdited, this,
        [this](const Json &value) { emit overridesEdited(value.empty() ? Json(nullptr) : value); });
}

QWidget *ManifestSettingsEditor::createHierarchyPage()
{
    auto *page = new QWidget(this);
    QHBoxLayout *orderRow = createOrderRow(page);

    m_merge = new QComboBox(page);
    m_merge->addItem(tr("(unset)"));
    m_merge->addItems(mergeModes());
    m_merge->setToolTip(tr("first: use the first matching override; deep: merge every matching override "
                           "in order. Unset means first."));

    auto *form = new QFormLayout;
    auto *orderLabel = new QLabel(tr("&Order:"), page);
    orderLabel->setBuddy(m_order);
    form->addRow(orderLabel, orderRow);
    form->addRow(tr("&Merge:"), m_merge);
    page->setLayout(form);

    addOrderShortcuts();
    connectHierarchySignals();
    updateOrderButtons();
    return page;
}

/// The override order list with the buttons that edit it.
QHBoxLayout *ManifestSettingsEditor::createOrderRow(QWidget *page)
{
    m_order = new QListWidget(page);
    m_order->setToolTip(tr("Override names tried in turn; entries may hold templates such as "
                           "os:{{ lookup('facts.host.info.platformFamily') }}"));
    m_order->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_addOrder = new QPushButton(tr("&Add"), page);
    m_removeOrder = new QPushButton(tr("Re&move"), page);
    m_upOrder = new QPushButton(tr("Move &Up"), page);
    m_downOrder = new QPushButton(tr("Move Do&wn"), page);
    auto *buttons = new QVBoxLayout;
    for (QPushButton *button : {m_addOrder, m_removeOrder, m_upOrder, m_downOrder})
        buttons->addWidget(button);
    buttons->addStretch(1);
    auto *orderRow = new QHBoxLayout;
    orderRow->addWidget(m_order, 1);
    orderRow->addLayout(buttons);
    return orderRow;
}

void ManifestSettingsEditor::addOrderShortcuts()
{
    // The list's own keys: Insert adds, Delete removes, Ctrl+Up and Ctrl+Down move the entry.
    const auto listShortcut = [this](const QKeySequence &keys, auto slot) {
        auto *action = new QAction(m_order);
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WidgetShortcut);
        m_order->addAction(action);
        connect(action, &QAction::triggered, this, slot);
    };
    listShortcut(QKeySequence(Qt::Key_Insert), [this] { addOrderEntry(); });
    listShortcut(QKeySequence::Delete, [this] { removeOrderEntry(); });
    listShortcut(QKeySequence(Qt::CTRL | Qt::Key_Up), [this] { moveOrderEntry(-1); });
    listShortcut(QKeySequence(Qt::CTRL | Qt::Key_Down), [this] { moveOrderEntry(1); });
    m_addOrder->setToolTip(tr("Add an entry to the order (Insert)"));
    m_removeOrder->setToolTip(tr("Remove the selected entry (Delete)"));
    m_upOrder->setToolTip(tr("Move the selected entry up (Ctrl+Up)"));
    m_downOrder->setToolTip(tr("Move the selected entry down (Ctrl+Down)"));
}

void ManifestSettingsEditor::connectHierarchySignals()
{
    connect(m_addOrder, &QPushButton::clicked, this, &ManifestSettingsEditor::addOrderEntry);
    connect(m_removeOrder, &QPushButton::clicked, this, &ManifestSettingsEditor::removeOrderEntry);
    connect(m_upOrder, &QPushButton::clicked, this, [this] { moveOrderEntry(-1); });
    connect(m_downOrder, &QPushButton::clicked, this, [this] { moveOrderEntry(1); });
    connect(m_order, &QListWidget::currentRowChanged, this, &ManifestSettingsEditor::updateOrderButtons);
    connect(m_order, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        if (m_updating)
            return;
        // An entry edited to nothing is dropped: an empty name never matches an override.
        const bool wasUpdating = std::exchange(m_updating, true);
        if (item->text().trimmed().isEmpty())
            delete item;
        else
            markOrderEntry(item);
        m_updating = wasUpdating;
        emitHierarchy();
    });
    connect(m_merge, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            emitHierarchy();
    });
}

QWidget *ManifestSettingsEditor::createRunPage()
{
    auto *page = new QWidget(this);
    m_preMessage = new QLineEdit(page);
    m_preMessage->setPlaceholderText(tr("Printed before the run"));
    m_preMessage->setClearButtonEnabled(true);
    m_postMessage = new QLineEdit(page);
    m_postMessage->setPlaceholderText(tr("Printed after the run when no resource failed"));
    m_postMessage->setClearButtonEnabled(true);
    m_failOnError = new QComboBox(page);
    m_failOnError->addItem(tr("(unset: no)"));
    m_failOnError->addItem(tr("Yes"), true);
    m_failOnError->addItem(tr("No"), false);
    m_failOnError->setToolTip(tr("Whether the run stops at the first failed resource"));

    auto *form = new QFormLayout(page);
    form->addRow(tr("&Pre message:"), m_preMessage);
    form->addRow(tr("P&ost message:"), m_postMessage);
    form->addRow(tr("&Fail on error:"), m_failOnError);

    connect(m_preMessage, &QLineEdit::editingFinished, this, &ManifestSettingsEditor::emitMessages);
    connect(m_postMessage, &QLineEdit::editingFinished, this, &ManifestSettingsEditor::emitMessages);
    connect(m_failOnError, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            emitFailOnError();
    });
    return page;
}

void ManifestSettingsEditor::setManifest(const ccm::Manifest &manifest)
{
    const bool first = !m_loaded;
    m_loaded = true;
    const bool wasUpdating = std::exchange(m_updating, true);

    if (first || manifest.data != m_shownData) {
        m_shownData = manifest.data;
        m_data->setValue(manifest.data.value_or(Json::object()));
    }
    if (first || manifest.overrides != m_shownOverrides) {
        m_shownOverrides = manifest.overrides;
        m_overrides->setValue(manifest.overrides.value_or(Json::object()));
    }
    if (first || manifest.hierarchy != m_shownHierarchy) {
        m_shownHierarchy = manifest.hierarchy;
        if (editedHierarchy() != manifest.hierarchy)
            showHierarchy(manifest.hierarchy);
    }

    // A reference, not value_or(): the settings hold every resource block, which this never reads.
    static const CcmSettings none;
    const CcmSettings &settings = manifest.ccm ? *manifest.ccm : none;
    const QString pre = fromOptional(settings.preMessage);
    const QString post = fromOptional(settings.postMessage);
    if (first || pre != m_shownPreMessage) {
        m_shownPreMessage = pre;
        if (m_preMessage->text() != pre)
            m_preMessage->setText(pre);
    }
    if (first || post != m_shownPostMessage) {
        m_shownPostMessage = post;
        if (m_postMessage->text() != post)
            m_postMessage->setText(post);
    }
    if (first || settings.failOnError != m_shownFailOnError) {
        m_shownFailOnError = settings.failOnError;
        m_failOnError->setCurrentIndex(!settings.failOnError ? 0 : (*settings.failOnError ? 1 : 2));
    }
    m_updating = wasUpdating;
}

void ManifestSettingsEditor::showHierarchy(const std::optional<ccm::Hierarchy> &hierarchy)
{
    const int row = m_order->currentRow();
    m_order->clear();
    if (hierarchy && hierarchy->order) {
        for (const std::string &entry : *hierarchy->order) {
            auto *item = new QListWidgetItem(QString::fromStdString(entry), m_order);
            item->setFlags(item->flags() | Qt::ItemIsEditable);
            markOrderEntry(item);
        }
    }
    if (row >= 0 && m_order->count() > 0)
        m_order->setCurrentRow(std::min(row, m_order->count() - 1));

    // A merge mode the designer does not know is still shown, so that it is not lost unseen.
    while (m_merge->count() > 1 + mergeModes().size())
        m_merge->removeItem(m_merge->count() - 1);
    int index = 0;
    if (hierarchy && hierarchy->merge) {
        const QString merge = QString::fromStdString(*hierarchy->merge);
        index = m_merge->findText(merge, Qt::MatchExactly);
        if (index <= 0) {
            m_merge->addItem(merge);
            index = m_merge->count() - 1;
        }
    }
    m_merge->setCurrentIndex(index);
    updateOrderButtons();
}

std::optional<ccm::Hierarchy> ManifestSettingsEditor::editedHierarchy() const
{
    Hierarchy hierarchy;
    if (m_order->count() > 0) {
        std::vector<std::string> order;
        for (int row = 0; row < m_order->count(); ++row)
            order.push_back(m_order->item(row)->text().toStdString());
        hierarchy.order = std::move(order);
    }
    if (m_merge->currentIndex() > 0)
        hierarchy.merge = m_merge->currentText().toStdString();
    if (!hierarchy.order && !hierarchy.merge)
        return std::nullopt;
    return hierarchy;
}

void ManifestSettingsEditor::markOrderEntry(QListWidgetItem *item)
{
    const QString problem = templateProblem(item->text());
    if (problem.isEmpty()) {
        item->setIcon(QIcon());
        item->setToolTip(QString());
    } else {
        item->setIcon(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning));
        item->setToolTip(tr("Template error: %1").arg(problem));
    }
}

void ManifestSettingsEditor::emitHierarchy()
{
    emit hierarchyEdited(editedHierarchy());
}

void ManifestSettingsEditor::emitMessages()
{
    if (m_preMessage->text() == m_shownPreMessage && m_postMessage->text() == m_shownPostMessage)
        return;
    emit messagesEdited(m_preMessage->text(), m_postMessage->text());
}

void ManifestSettingsEditor::emitFailOnError()
{
    const QVariant value = m_failOnError->currentData();
    emit failOnErrorEdited(value.isValid() ? std::optional<bool>(value.toBool()) : std::nullopt);
}

void ManifestSettingsEditor::setDataProvenancePanel(QWidget *panel)
{
    const int index = m_tabs->indexOf(m_data);
    const QString label = m_tabs->tabText(index);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("dataSplitter"));
    m_tabs->removeTab(index);
    splitter->addWidget(m_data);
    // The tab widget hid the page it gave up.
    m_data->show();
    splitter->addWidget(panel);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({150, 300});
    m_tabs->insertTab(index, splitter, label);
}

void ManifestSettingsEditor::addOrderEntry()
{
    const bool wasUpdating = std::exchange(m_updating, true);
    auto *item = new QListWidgetItem(m_order->count() == 0 ? QStringLiteral("default") : tr("name"), m_order);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    m_updating = wasUpdating;
    m_order->setCurrentItem(item);
    emitHierarchy();
    m_order->editItem(item);
}

void ManifestSettingsEditor::removeOrderEntry()
{
    const int row = m_order->currentRow();
    if (row < 0)
        return;
    const bool wasUpdating = std::exchange(m_updating, true);
    delete m_order->takeItem(row);
    m_updating = wasUpdating;
    emitHierarchy();
    updateOrderButtons();
}

void ManifestSettingsEditor::moveOrderEntry(int delta)
{
    const int row = m_order->currentRow();
    const int target = row + delta;
    if (row < 0 || target < 0 || target >= m_order->count())
        return;
    const bool wasUpdating = std::exchange(m_updating, true);
    QListWidgetItem *item = m_order->takeItem(row);
    m_order->insertItem(target, item);
    m_order->setCurrentRow(target);
    m_updating = wasUpdating;
    emitHierarchy();
    updateOrderButtons();
}

void ManifestSettingsEditor::updateOrderButtons()
{
    const int row = m_order->currentRow();
    m_removeOrder->setEnabled(row >= 0);
    m_upOrder->setEnabled(row > 0);
    m_downOrder->setEnabled(row >= 0 && row + 1 < m_order->count());
}

QTabWidget *ManifestSettingsEditor::tabs() const
{
    return m_tabs;
}

JsonTreeEditor *ManifestSettingsEditor::dataEditor() const
{
    return m_data;
}

JsonTreeEditor *ManifestSettingsEditor::overridesEditor() const
{
    return m_overrides;
}

QListWidget *ManifestSettingsEditor::orderList() const
{
    return m_order;
}

QComboBox *ManifestSettingsEditor::mergeCombo() const
{
    return m_merge;
}

QLineEdit *ManifestSettingsEditor::preMessageEdit() const
{
    return m_preMessage;
}

QLineEdit *ManifestSettingsEditor::postMessageEdit() const
{
    return m_postMessage;
}

QComboBox *ManifestSettingsEditor::failOnErrorCombo() const
{
    return m_failOnError;
}

} // namespace ccm::designer
