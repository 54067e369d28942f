// SPDX-License-Identifier: Apache-2.0
#include "designer/ui/controllers/live_values_controller.h"

#include "designer/core/live_data.h"
#include "designer/core/manifest_document.h"
#include "designer/ui/editors/expression_completer.h"
#include "designer/ui/editors/manifest_settings_editor.h"
#include "designer/ui/editors/property_editor.h"
#include "designer/ui/editors/yaml_editor.h"
#include "designer/ui/panels/data_provenance_panel.h"
#include "designer/ui/panels/problems_panel.h"
#include "designer/ui/panels/what_if_panel.h"

namespace ccm::designer {

LiveValuesController::LiveValuesController(const Views &views, QObject *parent)
    : QObject(parent)
    , m_views(views)
    , m_live(new LiveData(views.client, this))
    , m_panel(new DataProvenancePanel)
{
    m_views.settings->setDataProvenancePanel(m_panel);
    const auto sources = [this]() -> const CompletionSources & { return m_sources; };
    new ExpressionCompleter(m_views.yaml, m_live, sources);
    m_views.properties->setFieldHook(
        [this, sources](FieldEditor *editor) { ExpressionCompleter::attachToField(editor, m_live, sources); });
    connect(m_views.document, &ManifestDocument::changed, this, &LiveValuesController::documentChanged);
    connect(m_views.whatIf, &WhatIfPanel::changed, this, [this] { m_live->setWhatIfFacts(m_views.whatIf->facts()); });
    connect(m_live, &LiveData::factsChanged, this, [this] { m_sources.facts = m_live->facts(); });
    connect(m_live, &LiveData::resolved, this, &LiveValuesController::resolved);
    connect(m_panel, &DataProvenancePanel::sourceActivated, m_views.yaml, &YamlEditor::goToLine);
    connect(m_panel, &DataProvenancePanel::addOverrideRequested, this, &LiveValuesController::addOverride);
    m_live->setWhatIfFacts(m_views.whatIf->facts());
    documentChanged();
}

void LiveValuesController::documentChanged()
{
    m_sources.references = m_views.document->referenceTargets();
    m_live->setManifest(m_views.document->text(), m_views.document->baseDirectory());
}

void LiveValuesController::resolved()
{
    const auto &host = m_live->hostResolution();
    const auto &whatIf = m_live->whatIfResolution();
    m_panel->setResolutions(host, whatIf, m_live->problem());
    m_sources.data = host ? host->data : ccm::Json::object();
    ccm::Diagnostics problems = host ? host->diagnostics : ccm::Diagnostics();
    if (whatIf) {
        for (ccm::Diagnostic diagnostic : whatIf->diagnostics) {
            if (std::find(problems.begin(), problems.end(), diagnostic) != problems.end())
                continue;
            diagnostic.message = tr("What If: %1").arg(QString::fromStdString(diagnostic.message)).toStdString();
            problems.push_back(std::move(diagnostic));
        }
    }
    m_views.problems->setExtraDiagnostics(problems);
}

void LiveValuesController::addOverride(const QString &name)
{
    const auto &current = m_views.document->loaded().manifest.overrides;
    ccm::Json overrides = current && current->is_object() ? *current : ccm::Json::object();
    const std::string key = name.toStdString();
    if (key.empty() || overrides.contains(key))
        return;
    overrides[key] = ccm::Json::object();
    m_views.document->setOverrides(overrides);
}

} // namespace ccm::designer
