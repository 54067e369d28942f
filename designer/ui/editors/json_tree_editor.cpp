// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/json_tree_editor.h"

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QStyledItemDelegate>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

namespace ccm::designer {

namespace {

constexpr int KindRole = Qt::UserRole;
constexpr std::array allKinds {JsonTreeEditor::Kind::String, JsonTreeEditor::Kind::Number,
    JsonTreeEditor::Kind::Boolean, JsonTreeEditor::Kind::Null, JsonTreeEditor::Kind::Map, JsonTreeEditor::Kind::List};

JsonTreeEditor::Kind kindOfJson(const Json &value)
{
    if (value.is_object())
        return JsonTreeEditor::Kind::Map;
    if (value.is_array())
        return JsonTreeEditor::Kind::List;
    if (value.is_string())
        return JsonTreeEditor::Kind::String;
    if (value.is_boolean())
        return JsonTreeEditor::Kind::Boolean;
    if (value.is_number())
        return JsonTreeEditor::Kind::Number;
    return JsonTreeEditor::Kind::Null;
}

bool isContainer(JsonTreeEditor::Kind kind)
{
    return kind == JsonTreeEditor::Kind::Map || kind == JsonTreeEditor::Kind::List;
}

std::optional<Json> parseNumber(const QString &text)
{
    const std::string utf8 = text.trimmed().toStdString();
    if (utf8.empty())
        return std::nullopt;
    std::int64_t integer = 0;
    const auto [end, error] = std::from_chars(utf8.data(), utf8.data() + utf8.size(), integer);
    if (error == std::errc() && end == utf8.data() + utf8.size())
        return Json(integer);
    bool ok = false;
    const double real = text.trimmed().toDouble(&ok);
    if (ok && std::isfinite(real))
        return Json(real);
    return std::nullopt;
}

QString scalarText(const Json &value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_boolean() || value.is_number())
        return QString::fromStdString(value.dump());
    return {};
}

// Opens the editor each column needs: a line edit for keys and text, combo boxes for types and
// booleans, nothing where the cell cannot change.
class JsonItemDelegate : public QStyledItemDelegate {
public:
    explicit JsonItemDelegate(JsonTreeEditor *editor)
        : QStyledItemDelegate(editor)
        , m_editor(editor)
    {
    }

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const QTreeWidgetItem *item = m_editor->tree()->itemFromIndex(index);
        if (item == nullptr)
            return nullptr;
        const JsonTreeEditor::Kind kind = JsonTreeEditor::kindOf(item);
        switch (index.column()) {
        case JsonTreeEditor::KeyColumn:
            if (item->parent() != nullptr && JsonTreeEditor::kindOf(item->parent()) == JsonTreeEditor::Kind::List)
                return nullptr;
            if (item->parent() == nullptr && m_editor->value().is_array())
                return nullptr;
            return QStyledItemDelegate::createEditor(parent, option, index);
        case JsonTreeEditor::TypeColumn: {
            auto *combo = new QComboBox(parent);
            for (JsonTreeEditor::Kind each : allKinds)
                combo->addItem(JsonTreeEditor::kindName(each), static_cast<int>(each));
            return combo;
        }
        case JsonTreeEditor::ValueColumn:
            if (kind == JsonTreeEditor::Kind::Boolean) {
                auto *combo = new QComboBox(parent);
                combo->addItem(QStringLiteral("true"));
                combo->addItem(QStringLiteral("false"));
                return combo;
            }
            if (kind == JsonTreeEditor::Kind::String || kind == JsonTreeEditor::Kind::Number)
                return QStyledItemDelegate::createEditor(parent, option, index);
            return nullptr;
        default:
            return nullptr;
        }
    }

    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        if (auto *combo = qobject_cast<QComboBox *>(editor)) {
            if (index.column() == JsonTreeEditor::TypeColumn)
                combo->setCurrentIndex(combo->findData(index.data(KindRole)));
            else
                combo->setCurrentIndex(combo->findText(index.data().toString()));
            return;
        }
        QStyledItemDelegate::setEditorData(editor, index);
    }

    void setModelData(QWidget *editor, QAbstractItemModel *, const QModelIndex &index) const override
    {
        QTreeWidgetItem *item = m_editor->tree()->itemFromIndex(index);
        if (item == nullptr)
            return;
        if (auto *combo = qobject_cast<QComboBox *>(editor)) {
            if (index.column() == JsonTreeEditor::TypeColumn)
                m_editor->setKind(item, static_cast<JsonTreeEditor::Kind>(combo->currentData().toInt()));
            else
                m_editor->setScalarText(item, combo->currentText());
            return;
        }
        const auto *line = qobject_cast<QLineEdit *>(editor);
        if (line == nullptr)
            return;
        if (index.column() == JsonTreeEditor::KeyColumn)
            m_editor->renameKey(item, line->text());
        else
            m_editor->setScalarText(item, line->text());
    }

private:
    JsonTreeEditor *m_editor;
};

} // namespace

JsonTreeEditor::JsonTreeEditor(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
{
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Key"), tr("Type"), tr("Value")});
    m_tree->setItemDelegate(new JsonItemDelegate(this));
    m_tree->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(KeyColumn, QHeaderView::Interactive);
    m_tree->header()->setSectionResizeMode(TypeColumn, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(KeyColumn, fontMetrics().horizontalAdvance(QLatin1Char('M')) * 14);

    m_addChild = new QAction(tr("Add &Child"), this);
    m_addChild->setToolTip(tr("Add an entry inside the selected map or list (Ctrl+Insert)"));
    m_addChild->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Insert));
    m_addSibling = new QAction(tr("Add &Entry"), this);
    m_addSibling->setToolTip(tr("Add an entry after the selected one (Insert)"));
    m_addSibling->setShortcut(QKeySequence(Qt::Key_Insert));
    m_remove = new QAction(tr("&Remove"), this);
    m_remove->setToolTip(tr("Remove the selected entry (Delete)"));
    m_remove->setShortcut(QKeySequence::Delete);
    auto *buttons = new QHBoxLayout;
    for (QAction *action : {m_addSibling, m_addChild, m_remove}) {
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_tree->addAction(action);
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        buttons->addWidget(button);
    }
    buttons->addStretch(1);
    connect(m_addChild, &QAction::triggered, this, &JsonTreeEditor::addChild);
    connect(m_addSibling, &QAction::triggered, this, &JsonTreeEditor::addSibling);
    connect(m_remove, &QAction::triggered, this, &JsonTreeEditor::removeCurrent);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &JsonTreeEditor::updateActions);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_tree, 1);
    setFocusProxy(m_tree);
    updateActions();
}

void JsonTreeEditor::setValue(const ccm::Json &value)
{
    const Json shown = value.is_object() || value.is_array() ? value : Json::object();
    if (shown == m_value && m_tree->topLevelItemCount() == static_cast<int>(shown.size()))
        return;
    // Remember what the user had open and selected by key path, which survives the rebuild.
    const auto pathOf = [](const QTreeWidgetItem *item) {
        QStringList path;
        for (; item != nullptr; item = item->parent())
            path.prepend(item->text(KeyColumn));
        return path.join(QChar(0x1f));
    };
    std::set<QString> expanded;
    for (QTreeWidgetItemIterator it(m_tree); *it != nullptr; ++it) {
        if ((*it)->isExpanded())
            expanded.insert(pathOf(*it));
    }
    const QString current = m_tree->currentItem() != nullptr ? pathOf(m_tree->currentItem()) : QString();

    m_value = shown;
    m_rootKind = shown.is_array() ? Kind::List : Kind::Map;
    m_tree->clear();
    populate(nullptr, shown);
    for (QTreeWidgetItemIterator it(m_tree); *it != nullptr; ++it) {
        const QString path = pathOf(*it);
        if (expanded.count(path) != 0)
            (*it)->setExpanded(true);
        if (!current.isEmpty() && path == current)
            m_tree->setCurrentItem(*it);
    }
    updateActions();
}

const ccm::Json &JsonTreeEditor::value() const
{
    return m_value;
}

QTreeWidget *JsonTreeEditor::tree() const
{
    return m_tree;
}

void JsonTreeEditor::populate(QTreeWidgetItem *item, const ccm::Json &value)
{
    int index = 0;
    if (value.is_object()) {
        for (const auto &[key, child] : value.items())
            makeItem(item, index++, QString::fromStdString(key), child);
    } else if (value.is_array()) {
        for (const Json &child : value)
            makeItem(item, index++, QString(), child);
    }
}

QTreeWidgetItem *JsonTreeEditor::makeItem(
    QTreeWidgetItem *parent, int index, const QString &key, const ccm::Json &value)
{
    auto *item = new QTreeWidgetItem;
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    if (parent != nullptr)
        parent->insertChild(index, item);
    else
        m_tree->insertTopLevelItem(index, item);
    const bool inList = parent != nullptr ? kindOf(parent) == Kind::List : m_rootKind == Kind::List;
    item->setText(KeyColumn, inList ? QStringLiteral("[%1]").arg(index) : key);
    setItemKind(item, kindOfJson(value));
    item->setText(ValueColumn, scalarText(value));
    populate(item, value);
    return item;
}

void JsonTreeEditor::setItemKind(QTreeWidgetItem *item, Kind kind)
{
    item->setData(TypeColumn, KindRole, static_cast<int>(kind));
    item->setText(TypeColumn, kindName(kind));
}

JsonTreeEditor::Kind JsonTreeEditor::kindOf(const QTreeWidgetItem *item)
{
    return static_cast<Kind>(item->data(TypeColumn, KindRole).toInt());
}

QString JsonTreeEditor::kindName(Kind kind)
{
    switch (kind) {
    case Kind::String:
        return tr("String");
    case Kind::Number:
        return tr("Number");
    case Kind::Boolean:
        return tr("Boolean");
    case Kind::Null:
        return tr("Null");
    case Kind::Map:
        return tr("Map");
    case Kind::List:
        return tr("List");
    }
    return {};
}

ccm::Json JsonTreeEditor::toJson(const QTreeWidgetItem *item) const
{
    switch (kindOf(item)) {
    case Kind::String:
        return item->text(ValueColumn).toStdString();
    case Kind::Number:
        return parseNumber(item->text(ValueColumn)).value_or(Json(0));
    case Kind::Boolean:
        return item->text(ValueColumn) == QLatin1String("true");
    case Kind::Null:
        return nullptr;
    case Kind::Map: {
        Json map = Json::object();
        for (int index = 0; index < item->childCount(); ++index)
            map[item->child(index)->text(KeyColumn).toStdString()] = toJson(item->child(index));
        return map;
    }
    case Kind::List: {
        Json list = Json::array();
        for (int index = 0; index < item->childCount(); ++index)
            list.push_back(toJson(item->child(index)));
        return list;
    }
    }
    return nullptr;
}

ccm::Json JsonTreeEditor::rootJson() const
{
    Json root = m_rootKind == Kind::List ? Json::array() : Json::object();
    for (int index = 0; index < m_tree->topLevelItemCount(); ++index) {
        const QTreeWidgetItem *item = m_tree->topLevelItem(index);
        if (m_rootKind == Kind::List)
            root.push_back(toJson(item));
        else
            root[item->text(KeyColumn).toStdString()] = toJson(item);
    }
    return root;
}

JsonTreeEditor::Kind JsonTreeEditor::containerKind(const QTreeWidgetItem *parent) const
{
    return parent != nullptr ? kindOf(parent) : m_rootKind;
}

QString JsonTreeEditor::uniqueKey(const QTreeWidgetItem *parent) const
{
    std::set<QString> taken;
    const int count = parent != nullptr ? parent->childCount() : m_tree->topLevelItemCount();
    for (int index = 0; index < count; ++index)
        taken.insert((parent != nullptr ? parent->child(index) : m_tree->topLevelItem(index))->text(KeyColumn));
    QString key = tr("key");
    for (int suffix = 2; taken.count(key) != 0; ++suffix)
        key = tr("key%1").arg(suffix);
    return key;
}

void JsonTreeEditor::addChild()
{
    QTreeWidgetItem *current = m_tree->currentItem();
    if (current != nullptr && !isContainer(kindOf(current)))
        return;
    const int count = current != nullptr ? current->childCount() : m_tree->topLevelItemCount();
    insertEntry(current, count);
}

void JsonTreeEditor::addSibling()
{
    QTreeWidgetItem *current = m_tree->currentItem();
    if (current == nullptr) {
        insertEntry(nullptr, m_tree->topLevelItemCount());
        return;
    }
    QTreeWidgetItem *parent = current->parent();
    const int index = parent != nullptr ? parent->indexOfChild(current) : m_tree->indexOfTopLevelItem(current);
    insertEntry(parent, index + 1);
}

void JsonTreeEditor::insertEntry(QTreeWidgetItem *parent, int index)
{
    const bool inList = containerKind(parent) == Kind::List;
    QTreeWidgetItem *item = makeItem(parent, index, inList ? QString() : uniqueKey(parent), Json(""));
    relabel(parent);
    if (parent != nullptr)
        parent->setExpanded(true);
    m_tree->setCurrentItem(item);
    commit();
    m_tree->scrollToItem(item);
    m_tree->editItem(item, inList ? ValueColumn : KeyColumn);
}

void JsonTreeEditor::removeCurrent()
{
    QTreeWidgetItem *current = m_tree->currentItem();
    if (current == nullptr)
        return;
    QTreeWidgetItem *parent = current->parent();
    delete current;
    relabel(parent);
    commit();
}

void JsonTreeEditor::relabel(QTreeWidgetItem *parent)
{
    if (containerKind(parent) != Kind::List)
        return;
    const int count = parent != nullptr ? parent->childCount() : m_tree->topLevelItemCount();
    for (int index = 0; index < count; ++index)
        (parent != nullptr ? parent->child(index) : m_tree->topLevelItem(index))
            ->setText(KeyColumn, QStringLiteral("[%1]").arg(index));
}

bool JsonTreeEditor::renameKey(QTreeWidgetItem *item, const QString &key)
{
    if (item == nullptr || key.isEmpty() || containerKind(item->parent()) != Kind::Map)
        return false;
    if (item->text(KeyColumn) == key)
        return true;
    QTreeWidgetItem *parent = item->parent();
    const int count = parent != nullptr ? parent->childCount() : m_tree->topLevelItemCount();
    for (int index = 0; index < count; ++index) {
        if ((parent != nullptr ? parent->child(index) : m_tree->topLevelItem(index))->text(KeyColumn) == key)
            return false;
    }
    item->setText(KeyColumn, key);
    commit();
    return true;
}

bool JsonTreeEditor::setScalarText(QTreeWidgetItem *item, const QString &text)
{
    if (item == nullptr)
        return false;
    QString stored = text;
    switch (kindOf(item)) {
    case Kind::String:
        break;
    case Kind::Number: {
        const auto number = parseNumber(text);
        if (!number)
            return false;
        stored = scalarText(*number);
        break;
    }
    case Kind::Boolean:
        if (text != QLatin1String("true") && text != QLatin1String("false"))
            return false;
        break;
    case Kind::Null:
    case Kind::Map:
    case Kind::List:
        return false;
    }
    if (item->text(ValueColumn) == stored)
        return true;
    item->setText(ValueColumn, stored);
    commit();
    return true;
}

void JsonTreeEditor::setKind(QTreeWidgetItem *item, Kind kind)
{
    if (item == nullptr || kindOf(item) == kind)
        return;
    const Kind previous = kindOf(item);
    const QString text = item->text(ValueColumn);
    setItemKind(item, kind);
    if (!isContainer(kind))
        qDeleteAll(item->takeChildren());
    switch (kind) {
    case Kind::String:
        item->setText(ValueColumn, text);
        break;
    case Kind::Number:
        item->setText(ValueColumn,
            previous == Kind::Boolean ? QStringLiteral("%1").arg(text == QLatin1String("true") ? 1 : 0)
                                      : scalarText(parseNumber(text).value_or(Json(0))));
        break;
    case Kind::Boolean: {
        const bool truthy
            = text == QLatin1String("true") || (parseNumber(text) && parseNumber(text)->get<double>() != 0);
        item->setText(ValueColumn, truthy ? QStringLiteral("true") : QStringLiteral("false"));
        break;
    }
    case Kind::Null:
        item->setText(ValueColumn, QString());
        break;
    case Kind::Map:
        // Former list entries keep their order under their index as key.
        item->setText(ValueColumn, QString());
        for (int index = 0; index < item->childCount(); ++index)
            item->child(index)->setText(KeyColumn, QString::number(index));
        break;
    case Kind::List:
        item->setText(ValueColumn, QString());
        relabel(item);
        break;
    }
    commit();
    updateActions();
}

void JsonTreeEditor::commit()
{
    m_value = rootJson();
    emit valueEdited(m_value);
}

void JsonTreeEditor::updateActions()
{
    const QTreeWidgetItem *current = m_tree->currentItem();
    m_addChild->setEnabled(current == nullptr || isContainer(kindOf(current)));
    m_remove->setEnabled(current != nullptr);
}

} // namespace ccm::designer
