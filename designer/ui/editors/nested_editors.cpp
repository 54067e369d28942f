// SPDX-License-Identifier: Apache-2.0
// Editors of properties whose values hold properties of their own: a form of fields for one map
// (SubForm), lists of such maps, and control's expressions.
#include "designer/ui/editors/nested_editors.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ccm::designer {
namespace {

/// A map of sub-fields each edited with its own editor: control's if and unless, or one item of a
/// nested list.
class SubForm : public QWidget {
public:
    SubForm(const std::vector<FieldDescription> &fields, const QString &prefix, QWidget *parent)
        : QWidget(parent)
    {
        auto *layout = new QFormLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        for (const FieldDescription &field : fields) {
            FieldEditor *editor = createFieldEditor(field, prefix + QString::fromStdString(field.property), this);
            auto *label
                = new QLabel(schemaText(field.label) + (field.required ? FieldEditor::tr(" *") : QString()), this);
            label->setBuddy(editor->focusTarget());
            label->setToolTip(schemaText(field.description));
            editor->setToolTip(schemaText(field.description));
            layout->addRow(label, editor);
            m_editors.push_back(editor);
        }
    }

    Json value() const
    {
        Json out = Json::object();
        for (const FieldEditor *editor : m_editors) {
            Json item = editor->value();
            if (!item.is_null())
                out[editor->field().property] = std::move(item);
        }
        return out;
    }

    void setValue(const Json &value)
    {
        for (FieldEditor *editor : m_editors) {
            const std::string &key = editor->field().property;
            editor->setValue(value.is_object() && value.contains(key) ? value[key] : Json());
        }
    }

    QString localProblem() const
    {
        for (const FieldEditor *editor : m_editors) {
            const QString problem = editor->localProblem();
            if (!problem.isEmpty())
                return FieldEditor::tr("%1: %2").arg(QString::fromStdString(editor->field().label), problem);
        }
        return {};
    }

    const std::vector<FieldEditor *> &editors() const { return m_editors; }

private:
    std::vector<FieldEditor *> m_editors;
};

/// Control: the if and unless expressions.
class ExpressionsEditor : public FieldEditor {
public:
    ExpressionsEditor(const FieldDescription &field, const QString &prefix, QWidget *parent)
        : FieldEditor(field, parent)
        , m_form(new SubForm(field.itemFields, prefix, this))
    {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_form);
        for (FieldEditor *editor : m_form->editors())
            connect(editor, &FieldEditor::changed, this, [this] { notifyChanged(); });
    }

    Json value() const override
    {
        Json out = m_form->value();
        return out.empty() ? Json() : out;
    }

    QString localProblem() const override { return m_form->localProblem(); }

    QWidget *focusTarget() override
    {
        return m_form->editors().empty() ? static_cast<QWidget *>(this) : m_form->editors().front()->focusTarget();
    }

protected:
    void showValue(const Json &value) override { m_form->setValue(value); }

private:
    SubForm *m_form;
};

/// A list of maps (health checks, registrations), each item a sub-form; every change emits the
/// whole list.
class NestedListEditor : public FieldEditor {
public:
    NestedListEditor(const FieldDescription &field, QWidget *parent)
        : FieldEditor(field, parent)
        , m_items(new QVBoxLayout)
    {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addLayout(m_items);
        m_add = new QPushButton(FieldEditor::tr("Add %1").arg(itemTitle()), this);
        m_add->setObjectName(QStringLiteral("add"));
        layout->addWidget(m_add, 0, Qt::AlignLeft);
        connect(m_add, &QPushButton::clicked, this, [this] {
            addItem();
            notifyChanged();
            m_forms.back()->editors().front()->focusTarget()->setFocus();
        });
    }

    Json value() const override
    {
        Json out = Json::array();
        for (const SubForm *form : m_forms)
            out.push_back(form->value());
        return out.empty() ? Json() : out;
    }

    void setReferenceTargets(const QStringList &targets) override
    {
        m_targets = targets;
        for (SubForm *form : m_forms) {
            for (FieldEditor *editor : form->editors())
                editor->setReferenceTargets(targets);
        }
    }

    QString localProblem() const override
    {
        for (std::size_t index = 0; index < m_forms.size(); ++index) {
            const QString problem = m_forms[index]->localProblem();
            if (!problem.isEmpty())
                return FieldEditor::tr("%1 %2: %3").arg(itemTitle()).arg(index + 1).arg(problem);
        }
        return {};
    }

    QWidget *focusTarget() override
    {
        return m_forms.empty() ? static_cast<QWidget *>(m_add) : m_forms.front()->editors().front()->focusTarget();
    }

protected:
    void showValue(const Json &value) override
    {
        const std::size_t wanted = value.is_array() ? value.size() : 0;
        while (m_forms.size() > wanted)
            removeItem(m_forms.size() - 1);
        while (m_forms.size() < wanted)
            addItem();
        for (std::size_t index = 0; index < wanted; ++index)
            m_forms[index]->setValue(value[index]);
    }

private:
    QString itemTitle() const
    {
        // Not lower-cased: German nouns keep their capital.
        return m_field.itemLabel.empty() ? FieldEditor::tr("entry") : schemaText(m_field.itemLabel);
    }

    void addItem()
    {
        const std::size_t index = m_forms.size();
        auto *box = new QGroupBox(FieldEditor::tr("%1 %2").arg(schemaText(m_field.itemLabel)).arg(index + 1), this);
        auto *boxLayout = new QVBoxLayout(box);
        auto *form = new SubForm(m_field.itemFields, QStringLiteral("%1/%2/").arg(objectName()).arg(index), box);
        boxLayout->addWidget(form);
        auto *remove = new QPushButton(FieldEditor::tr("Remove"), box);
        remove->setObjectName(QStringLiteral("remove"));
        remove->setAccessibleName(FieldEditor::tr("Remove %1 %2").arg(itemTitle()).arg(index + 1));
        boxLayout->addWidget(remove, 0, Qt::AlignRight);
        m_items->addWidget(box);
        m_boxes.push_back(box);
        m_forms.push_back(form);
        for (FieldEditor *editor : form->editors()) {
            editor->setReferenceTargets(m_targets);
            connect(editor, &FieldEditor::changed, this, [this] { notifyChanged(); });
        }
        connect(remove, &QPushButton::clicked, this, [this, box] {
            const auto it = std::find(m_boxes.begin(), m_boxes.end(), box);
            if (it == m_boxes.end())
                return;
            Json remaining = value();
            remaining.erase(static_cast<std::size_t>(it - m_boxes.begin()));
            // Showing the remaining values drops the last box, so titles and object names stay
            // numbered by position.
            showValue(remaining);
            notifyChanged();
            m_add->setFocus();
        });
    }

    void removeItem(std::size_t index)
    {
        m_boxes[index]->deleteLater();
        m_boxes[index]->hide();
        m_items->removeWidget(m_boxes[index]);
        m_boxes.erase(m_boxes.begin() + static_cast<std::ptrdiff_t>(index));
        m_forms.erase(m_forms.begin() + static_cast<std::ptrdiff_t>(index));
    }

    QVBoxLayout *m_items;
    QPushButton *m_add = nullptr;
    std::vector<QGroupBox *> m_boxes;
    std::vector<SubForm *> m_forms;
    QStringList m_targets;
};

} // namespace

FieldEditor *createExpressionsEditor(const FieldDescription &field, const QString &prefix, QWidget *parent)
{
    return new ExpressionsEditor(field, prefix, parent);
}

FieldEditor *createNestedListEditor(const FieldDescription &field, QWidget *parent)
{
    return new NestedListEditor(field, parent);
}

} // namespace ccm::designer
