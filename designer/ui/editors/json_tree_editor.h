// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QWidget>

class QAction;
class QTreeWidget;
class QTreeWidgetItem;

namespace ccm::designer {

/// Edits a JSON value as a tree of keys with typed values (string, number, boolean, null, map,
/// list). Keys are renamed and values changed in place, types switched from a combo box, and
/// entries added or removed with the buttons or Insert, Ctrl+Insert and Delete. Every change
/// emits the whole value.
class JsonTreeEditor : public QWidget {
    Q_OBJECT

public:
    enum class Kind { String, Number, Boolean, Null, Map, List };
    enum Column { KeyColumn, TypeColumn, ValueColumn };

    explicit JsonTreeEditor(QWidget *parent = nullptr);

    /// Shows `value`, a map or a list (anything else, null included, shows an empty map). Does
    /// nothing when it equals value(), so an edit in progress is left alone; otherwise expanded
    /// entries and the current entry are kept where their keys still exist.
    void setValue(const ccm::Json &value);
    /// The value as edited.
    [[nodiscard]] const ccm::Json &value() const;

    [[nodiscard]] QTreeWidget *tree() const;

    /// Adds an entry inside the current map or list (or the top level) and starts editing it.
    void addChild();
    /// Adds an entry after the current one, in the same map or list, and starts editing it.
    void addSibling();
    /// Removes the current entry.
    void removeCurrent();

    /// Renames a map entry; refused (false) when `key` is empty or a sibling already has it.
    bool renameKey(QTreeWidgetItem *item, const QString &key);
    /// Sets a string, number or boolean from text; refused (false) when the text does not fit the
    /// type, such as a number that does not parse.
    bool setScalarText(QTreeWidgetItem *item, const QString &text);
    /// Changes an entry's type, converting its value where that makes sense.
    void setKind(QTreeWidgetItem *item, Kind kind);
    [[nodiscard]] static Kind kindOf(const QTreeWidgetItem *item);
    /// The translated name shown for `kind`.
    [[nodiscard]] static QString kindName(Kind kind);

signals:
    /// The user changed the value; `value` is the whole new value.
    void valueEdited(const ccm::Json &value);

private:
    void populate(QTreeWidgetItem *item, const ccm::Json &value);
    QTreeWidgetItem *makeItem(QTreeWidgetItem *parent, int index, const QString &key, const ccm::Json &value);
    [[nodiscard]] ccm::Json toJson(const QTreeWidgetItem *item) const;
    [[nodiscard]] ccm::Json rootJson() const;
    [[nodiscard]] Kind containerKind(const QTreeWidgetItem *parent) const;
    [[nodiscard]] QString uniqueKey(const QTreeWidgetItem *parent) const;
    void insertEntry(QTreeWidgetItem *parent, int index);
    void relabel(QTreeWidgetItem *parent);
    void setItemKind(QTreeWidgetItem *item, Kind kind);
    void commit();
    void updateActions();

    QTreeWidget *m_tree = nullptr;
    QAction *m_addChild = nullptr;
    QAction *m_addSibling = nullptr;
    QAction *m_remove = nullptr;
    Kind m_rootKind = Kind::Map;
    ccm::Json m_value = ccm::Json::object();
};

} // namespace ccm::designer
