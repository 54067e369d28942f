// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/what_if_panel.h"

#include "designer/ui/editors/json_tree_editor.h"
#include "designer/ui/panels/empty_state.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ccm::designer {

namespace {

const QString kSettingsKey = QStringLiteral("preview/whatIf");

enum Column { DataPathColumn, ValueColumn };

ccm::Json valueOf(const QString &text)
{
    const std::string utf8 = text.toStdString();
    ccm::Json parsed = ccm::Json::parse(utf8, nullptr, false);
    return parsed.is_discarded() ? ccm::Json(utf8) : parsed;
}

} // namespace

// The rows that make facts(), and what is wrong with the others.
struct FactAnalysis {
    Q_DECLARE_TR_FUNCTIONS(ccm::designer::WhatIfPanel)

public:
    ccm::Json facts = ccm::Json::object();
    QStringList problems;
    QList<int> invalidRows;

    explicit FactAnalysis(const QList<WhatIfPanel::FactRow> &rows)
    {
        static const QRegularExpression part(QStringLiteral("^[A-Za-z0-9_-]+$"));
        QList<QPair<QStringList, int>> accepted;
        for (int row = 0; row < rows.size(); ++row) {
            const QString path = rows.at(row).first.trimmed();
            if (path.isEmpty()) {
                if (!rows.at(row).second.isEmpty())
                    reject(row,
                        tr("row %1: the path is empty; write a fact path such as host.info.platformFamily")
                            .arg(row + 1));
                continue;
            }
            const QStringList parts = path.split(QLatin1Char('.'));
            if (parts.contains(QString())) {
                reject(row,
                    tr("row %1: \"%2\" has an empty part; separate the names with single dots")
                        .arg(QString::number(row + 1), path));
                continue;
            }
            if (!std::all_of(
                    parts.begin(), parts.end(), [](const QString &name) { return part.match(name).hasMatch(); })) {
                reject(row,
                    tr("row %1: \"%2\" may use only letters, digits, '_' and '-' between the dots")
                        .arg(QString::number(row + 1), path));
                continue;
            }
            const auto overlap = std::find_if(accepted.begin(), accepted.end(), [&parts](const auto &earlier) {
                const qsizetype shorter = std::min(parts.size(), earlier.first.size());
                return parts.mid(0, shorter) == earlier.first.mid(0, shorter);
            });
            if (overlap != accepted.end()) {
                reject(row,
                    tr("row %1: \"%2\" overlaps \"%3\" of row %4; set each fact once")
                        .arg(QString::number(row + 1), path, overlap->first.join(QLatin1Char('.')),
                            QString::number(overlap->second + 1)));
                continue;
            }
            accepted.append({parts, row});
            ccm::Json *node = &facts;
            for (const QString &name : parts)
                node = &(*node)[name.toStdString()];
            *node = valueOf(rows.at(row).second);
        }
    }

private:
    void reject(int row, const QString &message)
    {
        invalidRows.append(row);
        problems.append(message);
    }
};

WhatIfPanel::WhatIfPanel(QWidget *parent)
    : QWidget(parent)
    , m_enabled(new QCheckBox(tr("Use these overrides"), this))
    , m_facts(new QTableWidget(0, 2, this))
    , m_data(new JsonTreeEditor(this))
    , m_problems(new QLabel(this))
{
    m_enabled->setToolTip(tr("Preview as if the facts and data below were true of this host"));
    connect(m_enabled, &QCheckBox::toggled, this, [this] {
        save();
        emit changed();
    });

    m_facts->setHorizontalHeaderLabels({tr("Fact path"), tr("Value")});
    m_facts->horizontalHeader()->setStretchLastSection(true);
    m_facts->horizontalHeader()->setSectionResizeMode(DataPathColumn, QHeaderView::Stretch);
    m_facts->verticalHeader()->hide();
    m_facts->setSelectionBehavior(QAbstractItemView::SelectRows);
    EmptyState::install(m_facts,
        tr("No fact overrides. Add fact to preview as if this host's facts were different, e.g. "
           "host.info.platformFamily = rhel."));
    connect(m_facts, &QTableWidget::itemChanged, this, [this] {
        if (!m_loading)
            factsEdited();
    });

    auto *add = new QPushButton(tr("Add fact"), this);
    auto *remove = new QPushButton(tr("Remove fact"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        addFact({}, {});
        m_facts->setCurrentCell(m_facts->rowCount() - 1, DataPathColumn);
        m_facts->editItem(m_facts->currentItem());
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_facts->currentRow();
        if (row < 0)
            return;
        m_facts->removeRow(row);
        factsEdited();
    });

    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setWordWrap(true);
    m_problems->hide();

    connect(m_data, &JsonTreeEditor::valueEdited, this, [this] {
        save();
        emit changed();
    });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);

    // Facts beside data: the bottom docks are wide and short, and stay short at first start.
    auto *facts = new QVBoxLayout;
    facts->addWidget(new QLabel(tr("Facts"), this));
    facts->addWidget(m_facts, 1);
    facts->addLayout(buttons);
    facts->addWidget(m_problems);
    auto *data = new QVBoxLayout;
    data->addWidget(new QLabel(tr("Data"), this));
    data->addWidget(m_data, 1);
    auto *columns = new QHBoxLayout;
    columns->addLayout(facts, 1);
    columns->addLayout(data, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_enabled);
    layout->addLayout(columns, 1);
    load();
}

bool WhatIfPanel::overridesEnabled() const
{
    return m_enabled->isChecked();
}

void WhatIfPanel::setOverridesEnabled(bool enabled)
{
    m_enabled->setChecked(enabled);
}

QList<WhatIfPanel::FactRow> WhatIfPanel::factRows() const
{
    QList<FactRow> rows;
    for (int row = 0; row < m_facts->rowCount(); ++row) {
        const QTableWidgetItem *path = m_facts->item(row, DataPathColumn);
        const QTableWidgetItem *value = m_facts->item(row, ValueColumn);
        rows.append({path ? path->text() : QString(), value ? value->text() : QString()});
    }
    return rows;
}

void WhatIfPanel::setFactRows(const QList<FactRow> &rows)
{
    m_loading = true;
    m_facts->setRowCount(0);
    for (const FactRow &row : rows) {
        const int index = m_facts->rowCount();
        m_facts->insertRow(index);
        m_facts->setItem(index, DataPathColumn, new QTableWidgetItem(row.first));
        m_facts->setItem(index, ValueColumn, new QTableWidgetItem(row.second));
    }
    m_loading = false;
    factsEdited();
}

void WhatIfPanel::addFact(const QString &path, const QString &value)
{
    QList<FactRow> rows = factRows();
    rows.append({path, value});
    setFactRows(rows);
}

ccm::Json WhatIfPanel::facts() const
{
    if (!overridesEnabled())
        return ccm::Json::object();
    return FactAnalysis(factRows()).facts;
}

ccm::Json WhatIfPanel::data() const
{
    const ccm::Json &value = m_data->value();
    return overridesEnabled() && value.is_object() ? value : ccm::Json::object();
}

void WhatIfPanel::setData(const ccm::Json &data)
{
    m_data->setValue(data.is_object() ? data : ccm::Json::object());
    save();
    emit changed();
}

QStringList WhatIfPanel::problems() const
{
    return m_problemTexts;
}

QCheckBox *WhatIfPanel::enabledBox() const
{
    return m_enabled;
}

QTableWidget *WhatIfPanel::factsTable() const
{
    return m_facts;
}

JsonTreeEditor *WhatIfPanel::dataEditor() const
{
    return m_data;
}

QLabel *WhatIfPanel::problemsLabel() const
{
    return m_problems;
}

void WhatIfPanel::factsEdited()
{
    validate();
    save();
    emit changed();
}

void WhatIfPanel::validate()
{
    const FactAnalysis analysis(factRows());
    m_problemTexts = analysis.problems;
    m_problems->setText(m_problemTexts.join(QLatin1Char('\n')));
    m_problems->setVisible(!m_problemTexts.isEmpty());
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    m_loading = true;
    for (int row = 0; row < m_facts->rowCount(); ++row) {
        QTableWidgetItem *item = m_facts->item(row, DataPathColumn);
        if (!item) {
            item = new QTableWidgetItem;
            m_facts->setItem(row, DataPathColumn, item);
        }
        const qsizetype problem = analysis.invalidRows.indexOf(row);
        item->setIcon(problem < 0 ? QIcon() : warning);
        item->setToolTip(problem < 0 ? QString() : analysis.problems.at(problem));
    }
    m_loading = false;
}

void WhatIfPanel::save() const
{
    if (m_loading)
        return;
    ccm::Json facts = ccm::Json::array();
    for (const FactRow &row : factRows())
        facts.push_back(ccm::Json::array({row.first.toStdString(), row.second.toStdString()}));
    const ccm::Json state = {{"enabled", overridesEnabled()}, {"facts", facts}, {"data", m_data->value()}};
    QSettings().setValue(kSettingsKey, QString::fromStdString(state.dump()));
}

// A damaged or foreign setting gives the parts that read well and defaults for the rest.
void WhatIfPanel::load()
{
    const ccm::Json state = ccm::Json::parse(QSettings().value(kSettingsKey).toString().toStdString(), nullptr, false);
    if (!state.is_object())
        return;
    m_loading = true;
    QList<FactRow> rows;
    if (const auto facts = state.find("facts"); facts != state.end() && facts->is_array()) {
        for (const ccm::Json &row : *facts) {
            if (row.is_array() && row.size() == 2 && row[0].is_string() && row[1].is_string())
                rows.append({QString::fromStdString(row[0].get<std::string>()),
                    QString::fromStdString(row[1].get<std::string>())});
        }
    }
    if (const auto data = state.find("data"); data != state.end() && data->is_object())
        m_data->setValue(*data);
    if (const auto enabled = state.find("enabled"); enabled != state.end() && enabled->is_boolean())
        m_enabled->setChecked(enabled->get<bool>());
    m_loading = false;
    // setFactRows() saves what was loaded, which also drops the parts that did not read.
    setFactRows(rows);
}

} // namespace ccm::designer
