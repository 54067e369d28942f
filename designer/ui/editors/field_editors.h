// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/form_description.h"

#include <QDialog>
#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;

namespace ccm::designer {

/// The widget editing one property, built from its FieldDescription. A null value means unset.
/// Editors report every change the user makes with changed(); setting a value from outside never
/// emits.
class FieldEditor : public QWidget {
    Q_OBJECT

public:
    explicit FieldEditor(FieldDescription field, QWidget *parent = nullptr);

    [[nodiscard]] const FieldDescription &field() const { return m_field; }
    /// Shows value. A value equal to what the editor already holds changes nothing, so the cursor
    /// and selection of a field being typed into stay where they are.
    void setValue(const Json &value);
    /// The value as edited; null when unset or empty.
    [[nodiscard]] virtual Json value() const = 0;
    /// Shows the value a block's defaults give when this one is unset (null for none).
    virtual void setInherited(const Json &inherited);
    /// The "type#name" references and aliases other resources can be referred to by.
    virtual void setReferenceTargets(const QStringList &targets);
    /// What is wrong with the current value, found without the document; empty when nothing is.
    [[nodiscard]] virtual QString localProblem() const { return {}; }
    /// The widget that takes the keyboard focus for this field.
    [[nodiscard]] virtual QWidget *focusTarget() = 0;

signals:
    /// The user changed the value.
    void changed();

protected:
    virtual void showValue(const Json &value) = 0;
    /// Emits changed() unless a value is being shown from outside.
    void notifyChanged();
    /// The placeholder for a value left unset: the inherited value or the schema's placeholder.
    [[nodiscard]] QString placeholderText() const;

    FieldDescription m_field;
    Json m_inherited;

private:
    bool m_showing = false;
};

/// Creates the editor of field's kind, its objectName set to objectName.
FieldEditor *createFieldEditor(const FieldDescription &field, const QString &objectName, QWidget *parent);

/// A value as one line of text: strings as they are, anything else as JSON.
QString displayText(const Json &value);

} // namespace ccm::designer
