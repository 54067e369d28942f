// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/data_resolution.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace ccm::designer {

/// Where the manifest's data comes from, as data.resolve reports it: every key with its final
/// value and layer on this host and for the What If facts (with the problems its annotations
/// found), every hierarchy entry as resolved and whether it matched, and the overrides the
/// resolved names suggest, each with a button that adds it.
class DataProvenancePanel : public QWidget {
    Q_OBJECT

public:
    /// Columns of keysView().
    enum KeyColumn { KeyName, HostValue, HostLayer, WhatIfValue, WhatIfLayer };
    /// Columns of hierarchyView().
    enum EntryColumn { EntryTemplate, HostResolved, HostMatched, WhatIfResolved, WhatIfMatched };
    /// Columns of suggestionsView().
    enum SuggestionColumn { SuggestionName, SuggestionEntry, SuggestionAction };

    explicit DataProvenancePanel(QWidget *parent = nullptr);

    /// Shows the resolutions; `whatIf` unset hides the What If columns. `problem` (a backend too
    /// old, a failed request) is shown instead when set.
    void setResolutions(
        const std::optional<DataResolution> &host, const std::optional<DataResolution> &whatIf, const QString &problem);

    [[nodiscard]] QTreeWidget *keysView() const { return m_keys; }
    [[nodiscard]] QTreeWidget *hierarchyView() const { return m_entries; }
    [[nodiscard]] QTreeWidget *suggestionsView() const { return m_suggestions; }
    [[nodiscard]] QLabel *statusLabel() const { return m_status; }
    /// The row of `pointer` ("/data/web/port") in keysView(), or null.
    [[nodiscard]] QTreeWidgetItem *keyItem(const QString &pointer) const;

signals:
    /// The user clicked a layer: the value that layer supplied is at `line`:`column` of the text.
    void sourceActivated(int line, int column);
    /// The user asked to add an override named `name`.
    void addOverrideRequested(const QString &name);

private:
    void showKeys(const DataResolution &host, const std::optional<DataResolution> &whatIf);
    void showEntries(const DataResolution &host, const std::optional<DataResolution> &whatIf);
    void showSuggestions(const DataResolution &host, const std::optional<DataResolution> &whatIf);
    void markProblems(QTreeWidgetItem *item, const ccm::Diagnostics &diagnostics);
    void activateLayer(QTreeWidgetItem *item, int column);

    QLabel *m_status = nullptr;
    QTreeWidget *m_keys = nullptr;
    QTreeWidget *m_entries = nullptr;
    QTreeWidget *m_suggestions = nullptr;
};

} // namespace ccm::designer
