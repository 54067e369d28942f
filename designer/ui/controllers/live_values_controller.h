// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/completion_model.h"

#include <QObject>

namespace ccm::designer {

class BackendClient;
class DataProvenancePanel;
class LiveData;
class ManifestDocument;
class ManifestSettingsEditor;
class ProblemsPanel;
class PropertyEditor;
class WhatIfPanel;
class YamlEditor;

/// Connects the backend's view of the data to the editors: keeps a LiveData in step with the
/// document and the What If facts, shows its resolutions in a DataProvenancePanel under the data
/// editor and its annotation problems in the problems panel, adds suggested overrides, and gives
/// the property form's expression fields and the YAML view completion and hover values.
class LiveValuesController : public QObject {
    Q_OBJECT

public:
    struct Views {
        ManifestDocument *document;
        BackendClient *client;
        WhatIfPanel *whatIf;
        ManifestSettingsEditor *settings;
        PropertyEditor *properties;
        YamlEditor *yaml;
        ProblemsPanel *problems;
    };

    LiveValuesController(const Views &views, QObject *parent);

    [[nodiscard]] LiveData *liveData() const { return m_live; }
    [[nodiscard]] DataProvenancePanel *provenancePanel() const { return m_panel; }
    [[nodiscard]] const CompletionSources &sources() const { return m_sources; }

    /// Adds an empty override named `name` (one undoable step); nothing when it exists.
    void addOverride(const QString &name);

private:
    void documentChanged();
    void resolved();

    Views m_views;
    LiveData *m_live;
    DataProvenancePanel *m_panel;
    CompletionSources m_sources;
};

} // namespace ccm::designer
