// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/editors/field_editors.h"

#include "core/expr/expression.h"
#include "core/model/duration.h"
#include "core/model/validator.h"
#include "designer/ui/dialogs/mode_dialog.h"
#include "designer/ui/editors/nested_editors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStringListModel>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <climits>

namespace ccm::designer {

namespace {

bool isTemplate(const QString &text)
{
    return text.contains(QLatin1String("{{"));
}

std::optional<long long> parseInteger(const QString &text)
{
    bool ok = false;
    const long long number = text.trimmed().toLongLong(&ok);
    return ok ? std::optional<long long>(number) : std::nullopt;
}

QString rangeProblem(const FieldDescription &field, long long number)
{
    if (field.minimum && number < *field.minimum)
        return FieldEditor::tr("At least %1.").arg(*field.minimum);
    if (field.maximum && number > *field.maximum)
        return FieldEditor::tr("At most %1.").arg(*field.maximum);
    return {};
}

QToolButton *smallButton(const QString &text, const QString &toolTip, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAccessibleName(toolTip);
    return button;
}

/// One line of text: strings, paths, durations, modes, urls, secrets and ports.
class LineEditor : public FieldEditor {
public:
    LineEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_edit(new QLineEdit(this))
    {
        auto *layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_edit, 1);
        m_edit->setObjectName(QStringLiteral("edit"));
        m_edit->setClearButtonEnabled(true);
        m_edit->setPlaceholderText(placeholderText());
        connect(m_edit, &QLineEdit::textEdited, this, [this] { notifyChanged(); });
        if (field.secret) {
            m_edit->setEchoMode(QLineEdit::Password);
            auto *reveal = smallButton(FieldEditor::tr("Show"), FieldEditor::tr("Show or hide the secret"), this);
            reveal->setObjectName(QStringLiteral("reveal"));
            reveal->setCheckable(true);
            connect(reveal, &QToolButton::toggled, this,
                [this](bool shown) { m_edit->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password); });
            layout->addWidget(reveal);
        }
        if (field.kind == FieldKind::Path) {
            auto *browse = smallButton(FieldEditor::tr("…"), FieldEditor::tr("Choose a file"), this);
            browse->setObjectName(QStringLiteral("browse"));
            connect(browse, &QToolButton::clicked, this, [this] { browseFile(); });
            layout->addWidget(browse);
        }
        if (field.kind == FieldKind::Mode) {
            auto *helper = smallButton(
                FieldEditor::tr("rwx…"), FieldEditor::tr("Choose the permissions with check boxes"), this);
            helper->setObjectName(QStringLiteral("rwx"));
            connect(helper, &QToolButton::clicked, this, [this] { openModeDialog(); });
            layout->addWidget(helper);
        }
    }

    Json value() const override
    {
        const QString text = m_edit->text();
        if (text.isEmpty())
            return Json();
        if (m_field.integerAccepted) {
            if (const auto number = parseInteger(text))
                return Json(*number);
        }
        return Json(text.toStdString());
    }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        m_edit->setPlaceholderText(placeholderText());
    }

    QString localProblem() const override
    {
        const QString text = m_edit->text();
        if (text.isEmpty() || (m_field.templatesAllowed && isTemplate(text)))
            return {};
        const std::string utf8 = text.toStdString();
        switch (m_field.kind) {
        case FieldKind::Mode: {
            const auto mode = parseFileMode(utf8);
            return mode ? QString() : QString::fromStdString(mode.error().message);
        }
        case FieldKind::Duration: {
            const auto duration = parseDuration(utf8);
            return duration ? QString() : QString::fromStdString(duration.error().message);
        }
        default:
            break;
        }
        if (m_field.integerAccepted) {
            if (const auto number = parseInteger(text))
                return rangeProblem(m_field, *number);
        }
        return {};
    }

    QWidget *focusTarget() override { return m_edit; }

protected:
    void showValue(const Json &value) override { m_edit->setText(displayText(value)); }

private:
    void browseFile()
    {
        auto *dialog = new QFileDialog(this, FieldEditor::tr("Choose a file"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) {
            m_edit->setText(file);
            notifyChanged();
        });
        dialog->open();
    }

    void openModeDialog()
    {
        const auto current = parseFileMode(m_edit->text().toStdString());
        auto *dialog = new ModeDialog(current ? *current : 0644U, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            m_edit->setText(dialog->modeText());
            notifyChanged();
        });
        dialog->open();
    }

    QLineEdit *m_edit;
};

/// A combo box of the allowed values with an "(unset)" entry first; editable for free-form values.
class EnumEditor : public FieldEditor {
public:
    EnumEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_combo(new QComboBox(this))
    {
        auto *layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_combo, 1);
        m_combo->setObjectName(QStringLiteral("combo"));
        m_combo->setEditable(field.enumFreeForm);
        m_combo->addItem(unsetText());
        for (const std::string &option : field.enumValues)
            m_combo->addItem(QString::fromStdString(option));
        if (m_combo->isEditable()) {
            m_combo->setItemText(0, QString());
            m_combo->lineEdit()->setPlaceholderText(unsetText());
            connect(m_combo->lineEdit(), &QLineEdit::textEdited, this, [this] { notifyChanged(); });
        }
        connect(m_combo, qOverload<int>(&QComboBox::activated), this, [this] { notifyChanged(); });
    }

    Json value() const override
    {
        if (m_combo->isEditable()) {
            const QString text = m_combo->currentText();
            return text.isEmpty() ? Json() : Json(text.toStdString());
        }
        return m_combo->currentIndex() <= 0 ? Json() : Json(m_combo->currentText().toStdString());
    }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        if (m_combo->isEditable())
            m_combo->lineEdit()->setPlaceholderText(unsetText());
        else
            m_combo->setItemText(0, unsetText());
    }

    QWidget *focusTarget() override { return m_combo; }

protected:
    void showValue(const Json &value) override
    {
        if (value.is_null()) {
            m_combo->setCurrentIndex(0);
            if (m_combo->isEditable())
                m_combo->setEditText(QString());
            return;
        }
        const QString text = displayText(value);
        int index = m_combo->findText(text);
        if (index < 0) {
            // A value the schema does not list still has to be shown as it is; validation says
            // what is wrong with it.
            m_combo->addItem(text);
            index = m_combo->count() - 1;
        }
        m_combo->setCurrentIndex(index);
    }

private:
    QString unsetText() const
    {
        const QString fallback = placeholderText();
        return fallback.isEmpty() ? FieldEditor::tr("(unset)") : FieldEditor::tr("(unset: %1)").arg(fallback);
    }

    QComboBox *m_combo;
};

/// A tri-state check box: checked is true, unchecked false, partially checked unset.
class BooleanEditor : public FieldEditor {
public:
    BooleanEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_box(new QCheckBox(this))
    {
        auto *layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_box);
        m_box->setObjectName(QStringLiteral("check"));
        m_box->setTristate(true);
        m_box->setCheckState(Qt::PartiallyChecked);
        m_box->setAccessibleName(schemaText(field.label));
        updateText();
        connect(m_box, &QCheckBox::stateChanged, this, [this] {
            updateText();
            notifyChanged();
        });
    }

    Json value() const override
    {
        switch (m_box->checkState()) {
        case Qt::Checked:
            return Json(true);
        case Qt::Unchecked:
            return Json(false);
        default:
            return Json();
        }
    }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        updateText();
    }

    QWidget *focusTarget() override { return m_box; }

protected:
    void showValue(const Json &value) override
    {
        m_box->setCheckState(
            value.is_boolean() ? (value.get<bool>() ? Qt::Checked : Qt::Unchecked) : Qt::PartiallyChecked);
        updateText();
    }

private:
    void updateText()
    {
        switch (m_box->checkState()) {
        case Qt::Checked:
            m_box->setText(FieldEditor::tr("Yes"));
            break;
        case Qt::Unchecked:
            m_box->setText(FieldEditor::tr("No"));
            break;
        default: {
            const Json &fallback = m_inherited.is_boolean() ? m_inherited : m_field.defaultValue;
            if (fallback.is_boolean())
                m_box->setText(fallback.get<bool>() ? FieldEditor::tr("Unset (yes)") : FieldEditor::tr("Unset (no)"));
            else if (m_field.triState)
                m_box->setText(FieldEditor::tr("Unset (left as it is)"));
            else
                m_box->setText(FieldEditor::tr("Unset"));
        }
        }
    }

    QCheckBox *m_box;
};

/// A spin box whose lowest value stands for unset.
class IntegerEditor : public FieldEditor {
public:
    IntegerEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_spin(new QSpinBox(this))
    {
        auto *layout = new QHBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_spin);
        layout->addStretch(1);
        m_spin->setObjectName(QStringLiteral("spin"));
        const long long low = std::clamp<long long>(field.minimum.value_or(0), INT_MIN + 1LL, INT_MAX - 1LL);
        const long long high = std::clamp<long long>(field.maximum.value_or(INT_MAX), low, INT_MAX);
        m_spin->setRange(static_cast<int>(low - 1), static_cast<int>(high));
        m_spin->setSpecialValueText(unsetText());
        m_spin->setValue(m_spin->minimum());
        connect(m_spin, qOverload<int>(&QSpinBox::valueChanged), this, [this] { notifyChanged(); });
    }

    Json value() const override { return m_spin->value() == m_spin->minimum() ? Json() : Json(m_spin->value()); }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        m_spin->setSpecialValueText(unsetText());
    }

    QWidget *focusTarget() override { return m_spin; }

protected:
    void showValue(const Json &value) override
    {
        m_spin->setValue(value.is_number_integer() ? static_cast<int>(
                             std::clamp<long long>(value.get<long long>(), m_spin->minimum() + 1LL, m_spin->maximum()))
                                                   : m_spin->minimum());
    }

private:
    QString unsetText() const
    {
        const QString fallback = placeholderText();
        return fallback.isEmpty() ? FieldEditor::tr("(unset)") : FieldEditor::tr("(unset: %1)").arg(fallback);
    }

    QSpinBox *m_spin;
};

/// Multi-line text in a fixed-width font.
class TextEditor : public FieldEditor {
public:
    TextEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_edit(new QPlainTextEdit(this))
    {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_edit);
        m_edit->setObjectName(QStringLiteral("text"));
        m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        m_edit->setTabChangesFocus(true);
        m_edit->setPlaceholderText(placeholderText());
        m_edit->setMinimumHeight(m_edit->fontMetrics().lineSpacing() * 6);
        connect(m_edit, &QPlainTextEdit::textChanged, this, [this] { notifyChanged(); });
    }

    Json value() const override
    {
        const QString text = m_edit->toPlainText();
        return text.isEmpty() ? Json() : Json(text.toStdString());
    }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        m_edit->setPlaceholderText(placeholderText());
    }

    QWidget *focusTarget() override { return m_edit; }

protected:
    void showValue(const Json &value) override { m_edit->setPlainText(displayText(value)); }

private:
    QPlainTextEdit *m_edit;
};

/// A list of strings, numbers or references: a line to type a new entry (completing references)
/// and the list, whose entries can be edited in place, removed and moved.
class ListEditor : public FieldEditor {
public:
    ListEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_entry(new QLineEdit(this))
        , m_list(new QListWidget(this))
        , m_completions(new QStringListModel(this))
    {
        auto *layout = new QGridLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        m_entry->setObjectName(QStringLiteral("entry"));
        m_entry->setPlaceholderText(placeholderText());
        m_entry->setAccessibleName(FieldEditor::tr("New entry"));
        m_list->setObjectName(QStringLiteral("list"));
        m_list->setAccessibleName(schemaText(field.label));
        m_list->setMaximumHeight(m_list->fontMetrics().lineSpacing() * 7);
        auto *add = smallButton(FieldEditor::tr("Add"), FieldEditor::tr("Add the entry"), this);
        add->setObjectName(QStringLiteral("add"));
        auto *remove = smallButton(FieldEditor::tr("Remove"), FieldEditor::tr("Remove the selected entry"), this);
        remove->setObjectName(QStringLiteral("remove"));
        auto *up = smallButton(FieldEditor::tr("Up"), FieldEditor::tr("Move the selected entry up"), this);
        up->setArrowType(Qt::UpArrow);
        auto *down = smallButton(FieldEditor::tr("Down"), FieldEditor::tr("Move the selected entry down"), this);
        down->setArrowType(Qt::DownArrow);
        layout->addWidget(m_entry, 0, 0);
        layout->addWidget(add, 0, 1);
        layout->addWidget(m_list, 1, 0, 3, 1);
        layout->addWidget(remove, 1, 1);
        layout->addWidget(up, 2, 1);
        layout->addWidget(down, 3, 1);
        if (field.kind == FieldKind::References) {
            auto *completer = new QCompleter(m_completions, this);
            completer->setCaseSensitivity(Qt::CaseInsensitive);
            completer->setFilterMode(Qt::MatchContains);
            m_entry->setCompleter(completer);
        }
        connect(m_entry, &QLineEdit::returnPressed, this, [this] { addEntry(); });
        connect(add, &QToolButton::clicked, this, [this] { addEntry(); });
        connect(remove, &QToolButton::clicked, this, [this] {
            delete m_list->currentItem();
            notifyChanged();
        });
        connect(up, &QToolButton::clicked, this, [this] { moveCurrent(-1); });
        connect(down, &QToolButton::clicked, this, [this] { moveCurrent(1); });
        connect(m_list, &QListWidget::itemChanged, this, [this] { notifyChanged(); });
    }

    Json value() const override
    {
        Json out = Json::array();
        for (int row = 0; row < m_list->count(); ++row) {
            const QString text = m_list->item(row)->text();
            const auto number = parseInteger(text);
            if (m_field.kind == FieldKind::IntegerList && number)
                out.push_back(*number);
            else
                out.push_back(text.toStdString());
        }
        return out.empty() ? Json() : out;
    }

    void setReferenceTargets(const QStringList &targets) override
    {
        m_targets = targets;
        m_completions->setStringList(targets);
    }

    void setInherited(const Json &inherited) override
    {
        FieldEditor::setInherited(inherited);
        m_entry->setPlaceholderText(placeholderText());
    }

    QString localProblem() const override
    {
        for (int row = 0; row < m_list->count(); ++row) {
            const QString text = m_list->item(row)->text();
            if (m_field.kind == FieldKind::IntegerList && !parseInteger(text)
                && !(m_field.templatesAllowed && isTemplate(text)))
                return FieldEditor::tr("\"%1\" is not a whole number.").arg(text);
            if (m_field.kind == FieldKind::References && !m_targets.isEmpty() && !m_targets.contains(text))
                return FieldEditor::tr("No resource is called \"%1\".").arg(text);
        }
        return {};
    }

    QWidget *focusTarget() override { return m_entry; }

protected:
    void showValue(const Json &value) override
    {
        m_list->clear();
        if (!value.is_array()) {
            if (!value.is_null())
                addItem(displayText(value));
            return;
        }
        for (const Json &item : value)
            addItem(displayText(item));
    }

private:
    void addItem(const QString &text)
    {
        auto *item = new QListWidgetItem(text, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }

    void addEntry()
    {
        const QString text = m_entry->text().trimmed();
        if (text.isEmpty())
            return;
        const QSignalBlocker blocker(m_list);
        addItem(text);
        m_entry->clear();
        notifyChanged();
    }

    void moveCurrent(int step)
    {
        const int row = m_list->currentRow();
        const int target = row + step;
        if (row < 0 || target < 0 || target >= m_list->count())
            return;
        const QSignalBlocker blocker(m_list);
        QListWidgetItem *item = m_list->takeItem(row);
        m_list->insertItem(target, item);
        m_list->setCurrentRow(target);
        notifyChanged();
    }

    QLineEdit *m_entry;
    QListWidget *m_list;
    QStringListModel *m_completions;
    QStringList m_targets;
};

/// A two-column table of names and values: a map, or (KeyValueList) a list of one-entry maps.
class MapEditor : public FieldEditor {
public:
    MapEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_table(new QTableWidget(0, 2, this))
    {
        auto *layout = new QGridLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        m_table->setObjectName(QStringLiteral("table"));
        m_table->setAccessibleName(schemaText(field.label));
        const bool rules = field.kind == FieldKind::KeyValueList;
        m_table->setHorizontalHeaderLabels({rules ? FieldEditor::tr("Pattern") : FieldEditor::tr("Name"),
            rules ? FieldEditor::tr("Command") : FieldEditor::tr("Value")});
        m_table->horizontalHeader()->setStretchLastSection(true);
        m_table->verticalHeader()->hide();
        m_table->setMaximumHeight(m_table->fontMetrics().lineSpacing() * 9);
        if (!field.stringValues)
            m_table->setToolTip(
                FieldEditor::tr("Values that read as JSON (numbers, true, false, lists, maps) are stored as such."));
        auto *add = smallButton(FieldEditor::tr("Add"), FieldEditor::tr("Add a row"), this);
        add->setObjectName(QStringLiteral("add"));
        auto *remove = smallButton(FieldEditor::tr("Remove"), FieldEditor::tr("Remove the selected row"), this);
        remove->setObjectName(QStringLiteral("remove"));
        layout->addWidget(m_table, 0, 0, 3, 1);
        layout->addWidget(add, 0, 1);
        layout->addWidget(remove, 1, 1);
        connect(add, &QToolButton::clicked, this, [this] {
            const QSignalBlocker blocker(m_table);
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            m_table->setItem(row, 0, new QTableWidgetItem());
            m_table->setItem(row, 1, new QTableWidgetItem());
            m_table->setCurrentCell(row, 0);
            m_table->editItem(m_table->item(row, 0));
        });
        connect(remove, &QToolButton::clicked, this, [this] {
            if (m_table->currentRow() < 0)
                return;
            m_table->removeRow(m_table->currentRow());
            notifyChanged();
        });
        connect(m_table, &QTableWidget::itemChanged, this, [this] { notifyChanged(); });
    }

    Json value() const override
    {
        const bool asList = m_field.kind == FieldKind::KeyValueList;
        Json out = asList ? Json::array() : Json::object();
        for (int row = 0; row < m_table->rowCount(); ++row) {
            const QString key = cellText(row, 0);
            if (key.isEmpty())
                continue;
            Json cell = parseCell(cellText(row, 1));
            if (asList)
                out.push_back(Json::object({{key.toStdString(), std::move(cell)}}));
            else
                out[key.toStdString()] = std::move(cell);
        }
        return out.empty() ? Json() : out;
    }

    QString localProblem() const override
    {
        QStringList keys;
        for (int row = 0; row < m_table->rowCount(); ++row) {
            const QString key = cellText(row, 0);
            if (key.isEmpty() && !cellText(row, 1).isEmpty())
                return FieldEditor::tr("Row %1 has a value but no name.").arg(row + 1);
            if (!key.isEmpty() && keys.contains(key) && m_field.kind == FieldKind::KeyValueMap)
                return FieldEditor::tr("\"%1\" is given twice; the last one counts.").arg(key);
            keys.append(key);
        }
        return {};
    }

    QWidget *focusTarget() override { return m_table; }

protected:
    void showValue(const Json &value) override
    {
        const QSignalBlocker blocker(m_table);
        m_table->setRowCount(0);
        const auto addRow = [this](const std::string &key, const Json &cell) {
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(key)));
            m_table->setItem(row, 1, new QTableWidgetItem(displayText(cell)));
        };
        if (value.is_object()) {
            for (const auto &[key, cell] : value.items())
                addRow(key, cell);
        } else if (value.is_array()) {
            for (const Json &entry : value) {
                if (!entry.is_object())
                    continue;
                for (const auto &[key, cell] : entry.items())
                    addRow(key, cell);
            }
        }
    }

private:
    QString cellText(int row, int column) const
    {
        const QTableWidgetItem *item = m_table->item(row, column);
        return item ? item->text() : QString();
    }

    Json parseCell(const QString &text) const
    {
        if (m_field.stringValues)
            return Json(text.toStdString());
        const std::string utf8 = text.toStdString();
        if (jsonNestingBeyond(utf8, 64))
            return Json(utf8);
        Json parsed = Json::parse(utf8, nullptr, false);
        return parsed.is_discarded() ? Json(utf8) : parsed;
    }

    QTableWidget *m_table;
};

/// A single expression checked as it is typed.
class ExpressionLineEditor : public LineEditor {
public:
    using LineEditor::LineEditor;

    QString localProblem() const override
    {
        const Json current = value();
        if (!current.is_string())
            return {};
        const auto parsed = Expression::parse(current.get<std::string>());
        return parsed ? QString() : QString::fromStdString(parsed.error().describe());
    }
};

} // namespace

FieldEditor::FieldEditor(FieldDescription field, QWidget *parent)
    : QWidget(parent)
    , m_field(std::move(field))
{
}

void FieldEditor::setValue(const Json &value)
{
    if (value == this->value())
        return;
    m_showing = true;
    showValue(value);
    m_showing = false;
}

void FieldEditor::setInherited(const Json &inherited)
{
    m_inherited = inherited;
}

void FieldEditor::setReferenceTargets(const QStringList &)
{
}

void FieldEditor::notifyChanged()
{
    if (!m_showing)
        emit changed();
}

QString FieldEditor::placeholderText() const
{
    if (!m_inherited.is_null())
        return tr("%1 (from defaults)").arg(displayText(m_inherited));
    return QString::fromStdString(m_field.placeholder);
}

QString displayText(const Json &value)
{
    if (value.is_null())
        return {};
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    return QString::fromStdString(value.dump());
}

FieldEditor *createFieldEditor(const FieldDescription &field, const QString &objectName, QWidget *parent)
{
    FieldEditor *editor = nullptr;
    switch (field.kind) {
    case FieldKind::Enum:
        editor = new EnumEditor(field, parent);
        break;
    case FieldKind::Boolean:
        editor = new BooleanEditor(field, parent);
        break;
    case FieldKind::Integer:
        editor = new IntegerEditor(field, parent);
        break;
    case FieldKind::Text:
        editor = new TextEditor(field, parent);
        break;
    case FieldKind::StringList:
    case FieldKind::IntegerList:
    case FieldKind::References:
        editor = new ListEditor(field, parent);
        break;
    case FieldKind::KeyValueMap:
    case FieldKind::KeyValueList:
        editor = new MapEditor(field, parent);
        break;
    case FieldKind::Expression:
        if (field.itemFields.empty())
            editor = new ExpressionLineEditor(field, parent);
        else
            editor = createExpressionsEditor(field, objectName + QLatin1Char('/'), parent);
        break;
    case FieldKind::NestedList:
        editor = createNestedListEditor(field, parent);
        break;
    case FieldKind::String:
    case FieldKind::Duration:
    case FieldKind::Mode:
    case FieldKind::Path:
        editor = new LineEditor(field, parent);
        break;
    }
    editor->setObjectName(objectName);
    editor->setToolTip(schemaText(field.description));
    editor->setAccessibleDescription(schemaText(field.description));
    return editor;
}

} // namespace ccm::designer
