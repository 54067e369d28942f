// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "designer/core/resource_status.h"

#include <QScrollArea>

#include <functional>
#include <map>

class QFormLayout;
class QLabel;
class QLineEdit;
class QToolButton;
class QVBoxLayout;

namespace ccm::designer {

class FieldEditor;
struct FieldDescription;
struct GroupDescription;

/// Shows the properties of one resource (or of a block's defaults) as a form generated from the
/// type's schema, and reports what the user edits. It knows nothing of the document: the owner
/// feeds it values and diagnostics and applies the edits it emits.
class PropertyEditor : public QScrollArea {
    Q_OBJECT

public:
    explicit PropertyEditor(QWidget *parent = nullptr);
    ~PropertyEditor() override;

    /// Shows a resource. inherited holds the values of the block's defaults (may be empty or
    /// null); isDefaults is true for the defaults entry itself, which has no name. Showing the same
    /// type again updates the values in place, so the field being typed into keeps its cursor.
    void setResource(const QString &type, const QString &name, const ccm::Json &ownProperties,
        const ccm::Json &inherited, bool isDefaults);
    /// Shows a short hint instead of a form: nothing is selected. An empty `hint` says to select a
    /// resource.
    void clear(const QString &hint = {});
    /// Says, instead of a form, what to do first in a manifest without resources.
    void showEmptyManifest();
    /// Keeps the form as it is but read-only, under a banner saying why (`reason`); an empty
    /// reason makes it editable again. For a resource the document cannot read just now.
    void setStale(const QString &reason);
    [[nodiscard]] bool isStale() const;
    /// The "type#name" references and aliases of the document, completed in require and subscribe.
    void setReferenceTargets(const QStringList &targets);
    /// Shows the diagnostics of the entry at entryPointer: each under the field its path names,
    /// the others at the top.
    void setDiagnostics(const ccm::Diagnostics &diagnostics, const std::string &entryPointer);
    /// Called with every field editor the form creates, before it shows a value (for completion).
    void setFieldHook(std::function<void(FieldEditor *)> hook);
    /// Scrolls to a field and gives it the keyboard focus; false when the form has no such field.
    bool focusProperty(const QString &property);

    /// Shows what this host has of the resource: a line under the form's title with a refresh
    /// button, and a marker beside each field whose value the host does not have, its tooltip
    /// saying what the host has. Kept across forms; a block's defaults show none of it.
    void setHostState(const HostStateView &view);
    [[nodiscard]] const HostStateView &hostState() const { return m_hostState; }

    /// The type shown; empty after clear().
    [[nodiscard]] QString type() const { return m_type; }

signals:
    /// The user set a property to value.
    void propertyEdited(const QString &property, const ccm::Json &value);
    /// The user emptied a property: it should be removed.
    void propertyCleared(const QString &property);
    /// The user changed the resource's name.
    void nameEdited(const QString &name);
    /// The user asked to look at the resource on this host again.
    void hostStateRefreshRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Row {
        FieldEditor *editor = nullptr;
        QLabel *label = nullptr;
        QLabel *message = nullptr;
        QLabel *inheritedHint = nullptr;
        QLabel *hostMarker = nullptr;
        QWidget *section = nullptr;
        QToolButton *header = nullptr;
        std::vector<ccm::Diagnostic> diagnostics;
    };

    /// Starts a new, not yet shown form holding only the hint line.
    void startContent();
    /// Shows the form started by startContent(), replacing the previous one.
    void installContent();
    void build(const QString &type, bool isDefaults);
    void addGroup(QVBoxLayout *layout, const GroupDescription &group);
    void addFieldRow(const FieldDescription &field, QToolButton *header, QWidget *section, QFormLayout *fields);
    void addNameRow(QVBoxLayout *layout);
    void addHostBar(QVBoxLayout *layout);
    void updateHostState();
    void onEdited(const QString &property);
    void updateMessage(const QString &property);
    void updateNameMessage();
    void updateRequired();
    /// Hides the fields the schema's conditions say do not apply to the values shown.
    void updateApplicable();
    void updateColours();
    [[nodiscard]] QString ensureValue() const;

    QWidget *m_content = nullptr;
    QLabel *m_staleBanner = nullptr;
    QLabel *m_hint = nullptr;
    QWidget *m_hostBar = nullptr;
    QLabel *m_hostText = nullptr;
    QLabel *m_hostDetail = nullptr;
    QToolButton *m_hostRefresh = nullptr;
    HostStateView m_hostState;
    /// The height of a one-line field, which the markers beside the fields are centred on.
    int m_lineHeight = 0;
    QLabel *m_messages = nullptr;
    QLineEdit *m_name = nullptr;
    QLabel *m_nameMessage = nullptr;
    std::vector<ccm::Diagnostic> m_nameDiagnostics;
    std::vector<ccm::Diagnostic> m_otherDiagnostics;
    std::map<QString, Row> m_rows;
    QString m_type;
    /// "type#name" of the resource shown; empty for a defaults entry.
    QString m_label;
    bool m_isDefaults = false;
    bool m_built = false;
    ccm::Json m_inherited;
    QStringList m_targets;
    std::function<void(FieldEditor *)> m_fieldHook;
};

} // namespace ccm::designer
