// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/panels/data_provenance_panel.h"

#include "designer/ui/editors/field_editors.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ccm::designer {

namespace {

constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kColumnRole = Qt::UserRole + 2;

/// "/data/web/port" as "web.port".
QString keyName(const QString &pointer)
{
    QString name = pointer.startsWith(QLatin1String("/data/")) ? pointer.mid(6) : pointer;
    name.replace(QLatin1Char('/'), QLatin1Char('.'));
    name.replace(QLatin1String("~1"), QLatin1String("/"));
    name.replace(QLatin1String("~0"), QLatin1String("~"));
    return name;
}

QTreeWidget *makeTree(QWidget *parent, const QString &objectName, const QStringList &headers)
{
    auto *tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setRootIsDecorated(false);
    tree->setHeaderLabels(headers);
    tree->setUniformRowHeights(true);
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return tree;
}

void setLayer(QTreeWidgetItem *item, int column, const ResolvedKey &key)
{
    item->setText(column, describeLayer(key.layer));
    item->setData(column, kLineRole, key.line);
    item->setData(column, kColumnRole, key.column);
    if (key.line > 0) {
        QFont font = item->font(column);
        font.setUnderline(true);
        item->setFont(column, font);
        item->setToolTip(column, DataProvenancePanel::tr("Click to go to line %1 of the manifest").arg(key.line));
    }
}

QString matchedText(const HierarchyEntryState &entry)
{
    if (!entry.error.isEmpty())
        return DataProvenancePanel::tr("error");
    if (!entry.matched)
        return DataProvenancePanel::tr("no");
    if (!entry.overrideExists)
        return DataProvenancePanel::tr("yes, no override");
    return entry.applied ? DataProvenancePanel::tr("yes, applied") : DataProvenancePanel::tr("yes, not applied");
}

} // namespace

DataProvenancePanel::DataProvenancePanel(QWidget *parent)
    : QWidget(parent)
    , m_status(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status->setObjectName(QStringLiteral("provenanceStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_keys = makeTree(splitter, QStringLiteral("provenanceKeys"),
        {tr("Key"), tr("This host"), tr("From"), tr("What If"), tr("From (What If)")});
    m_entries = makeTree(splitter, QStringLiteral("provenanceHierarchy"),
        {tr("Hierarchy entry"), tr("This host"), tr("Matched"), tr("What If"), tr("Matched (What If)")});
    m_suggestions = makeTree(
        splitter, QStringLiteral("provenanceSuggestions"), {tr("Suggested override"), tr("From entry"), QString()});
    splitter->addWidget(m_keys);
    splitter->addWidget(m_entries);
    splitter->addWidget(m_suggestions);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    splitter->setSizes({300, 100, 80});
    layout->addWidget(splitter, 1);
    connect(m_keys, &QTreeWidget::itemClicked, this, &DataProvenancePanel::activateLayer);
    connect(m_keys, &QTreeWidget::itemActivated, this, &DataProvenancePanel::activateLayer);
    m_status->setText(tr("Resolved data appears here once the backend is connected."));
}

void DataProvenancePanel::setResolutions(
    const std::optional<DataResolution> &host, const std::optional<DataResolution> &whatIf, const QString &problem)
{
    m_keys->clear();
    m_entries->clear();
    m_suggestions->clear();
    const bool showWhatIf = whatIf.has_value();
    for (QTreeWidget *tree : {m_keys, m_entries}) {
        tree->setColumnHidden(WhatIfValue, !showWhatIf);
        tree->setColumnHidden(WhatIfLayer, !showWhatIf);
    }
    if (!problem.isEmpty() || !host) {
        m_status->setText(problem.isEmpty() ? tr("Resolving the data…") : problem);
        return;
    }
    m_status->setText(showWhatIf ? tr("The data as resolved for this host and for the What If facts.")
                                 : tr("The data as resolved for this host."));
    showKeys(*host, whatIf);
    showEntries(*host, whatIf);
    showSuggestions(*host, whatIf);
}

void DataProvenancePanel::showKeys(const DataResolution &host, const std::optional<DataResolution> &whatIf)
{
    QStringList pointers;
    for (const ResolvedKey &key : host.keys)
        pointers.append(key.pointer);
    if (whatIf) {
        for (const ResolvedKey &key : whatIf->keys) {
            if (!pointers.contains(key.pointer))
                pointers.append(key.pointer);
        }
    }
    for (const QString &pointer : pointers) {
        auto *item = new QTreeWidgetItem(m_keys, {keyName(pointer)});
        item->setData(KeyName, Qt::UserRole, pointer);
        if (const ResolvedKey *key = host.key(pointer)) {
            item->setText(HostValue, displayText(key->value));
            setLayer(item, HostLayer, *key);
        }
        ccm::Diagnostics problems = host.diagnosticsAt(pointer);
        if (whatIf) {
            if (const ResolvedKey *key = whatIf->key(pointer)) {
                item->setText(WhatIfValue, displayText(key->value));
                setLayer(item, WhatIfLayer, *key);
            }
            for (ccm::Diagnostic diagnostic : whatIf->diagnosticsAt(pointer)) {
                diagnostic.message = tr("What If: %1").arg(QString::fromStdString(diagnostic.message)).toStdString();
                problems.push_back(std::move(diagnostic));
            }
        }
        markProblems(item, problems);
    }
}

void DataProvenancePanel::markProblems(QTreeWidgetItem *item, const ccm::Diagnostics &diagnostics)
{
    if (diagnostics.empty())
        return;
    QStringList messages;
    bool error = false;
    for (const ccm::Diagnostic &diagnostic : diagnostics) {
        messages.append(QString::fromStdString(diagnostic.message));
        error = error || diagnostic.severity == ccm::Severity::Error;
    }
    item->setIcon(KeyName, style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
    item->setToolTip(KeyName, messages.join(QLatin1Char('\n')));
}

void DataProvenancePanel::showEntries(const DataResolution &host, const std::optional<DataResolution> &whatIf)
{
    for (std::size_t i = 0; i < host.entries.size(); ++i) {
        const HierarchyEntryState &entry = host.entries[i];
        auto *item = new QTreeWidgetItem(
            m_entries, {entry.templateText, entry.error.isEmpty() ? entry.resolved : entry.error, matchedText(entry)});
        if (whatIf && i < whatIf->entries.size()) {
            const HierarchyEntryState &other = whatIf->entries[i];
            item->setText(WhatIfResolved, other.error.isEmpty() ? other.resolved : other.error);
            item->setText(WhatIfMatched, matchedText(other));
        }
    }
}

void DataProvenancePanel::showSuggestions(const DataResolution &host, const std::optional<DataResolution> &whatIf)
{
    std::vector<OverrideSuggestion> suggestions = host.suggestions;
    if (whatIf)
        suggestions.insert(suggestions.end(), whatIf->suggestions.begin(), whatIf->suggestions.end());
    QStringList shown;
    for (const OverrideSuggestion &suggestion : suggestions) {
        if (suggestion.name.isEmpty() || shown.contains(suggestion.name))
            continue;
        shown.append(suggestion.name);
        const QString from = suggestion.entry >= 0 && std::size_t(suggestion.entry) < host.entries.size()
            ? host.entries[std::size_t(suggestion.entry)].templateText
            : QString();
        auto *item = new QTreeWidgetItem(m_suggestions, {suggestion.name, from});
        auto *add = new QPushButton(tr("Add override"), m_suggestions);
        add->setObjectName(QStringLiteral("addOverride:") + suggestion.name);
        add->setToolTip(tr("Add an empty override named %1 to the manifest").arg(suggestion.name));
        connect(add, &QPushButton::clicked, this, [this, name = suggestion.name] { emit addOverrideRequested(name); });
        m_suggestions->setItemWidget(item, SuggestionAction, add);
    }
}

QTreeWidgetItem *DataProvenancePanel::keyItem(const QString &pointer) const
{
    for (int row = 0; row < m_keys->topLevelItemCount(); ++row) {
        QTreeWidgetItem *item = m_keys->topLevelItem(row);
        if (item->data(KeyName, Qt::UserRole).toString() == pointer)
            return item;
    }
    return nullptr;
}

void DataProvenancePanel::activateLayer(QTreeWidgetItem *item, int column)
{
    if (item == nullptr || (column != HostLayer && column != WhatIfLayer))
        return;
    const int line = item->data(column, kLineRole).toInt();
    if (line > 0)
        emit sourceActivated(line, item->data(column, kColumnRole).toInt());
}

} // namespace ccm::designer
