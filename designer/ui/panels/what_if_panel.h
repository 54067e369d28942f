// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/json.h"

#include <QList>
#include <QPair>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace ccm::designer {

class JsonTreeEditor;

/// "What if" overrides for a preview: facts as rows of a dotted path and a value
/// (host.info.platformFamily = rhel) and data as a map edited in a JsonTreeEditor, used only while
/// "Use these overrides" is checked. Everything is remembered in QSettings under "preview/whatIf".
class WhatIfPanel : public QWidget {
    Q_OBJECT

public:
    using FactRow = QPair<QString, QString>;

    explicit WhatIfPanel(QWidget *parent = nullptr);

    [[nodiscard]] bool overridesEnabled() const;
    void setOverridesEnabled(bool enabled);

    /// The facts rows as typed, paths and values.
    [[nodiscard]] QList<FactRow> factRows() const;
    void setFactRows(const QList<FactRow> &rows);
    /// Appends a row.
    void addFact(const QString &path, const QString &value);

    /// The fact overrides as one nested object: "host.info.platformFamily" = "rhel" gives
    /// {"host":{"info":{"platformFamily":"rhel"}}}. A value that reads as JSON (true, 3, [1,2],
    /// {"a":1}, "quoted") is that JSON value, any other text a string. Rows whose path is invalid
    /// are left out. An empty object while the overrides are not enabled.
    [[nodiscard]] ccm::Json facts() const;
    /// The data overrides, a map; an empty object while the overrides are not enabled.
    [[nodiscard]] ccm::Json data() const;
    void setData(const ccm::Json &data);

    /// What is wrong with the fact paths, one message per invalid row ("row 2: ..."); the rows are
    /// also marked in the table.
    [[nodiscard]] QStringList problems() const;

    [[nodiscard]] QCheckBox *enabledBox() const;
    [[nodiscard]] QTableWidget *factsTable() const;
    [[nodiscard]] JsonTreeEditor *dataEditor() const;
    [[nodiscard]] QLabel *problemsLabel() const;

signals:
    /// The overrides, or whether they are used, changed.
    void changed();

private:
    void factsEdited();
    void validate();
    void save() const;
    void load();

    QCheckBox *m_enabled = nullptr;
    QTableWidget *m_facts = nullptr;
    JsonTreeEditor *m_data = nullptr;
    QLabel *m_problems = nullptr;
    QStringList m_problemTexts;
    bool m_loading = false;
};

} // namespace ccm::designer
