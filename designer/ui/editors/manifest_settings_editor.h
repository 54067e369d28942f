// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/manifest.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QHBoxLayout;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QTabWidget;

namespace ccm::designer {

class JsonTreeEditor;

/// Edits the parts of a manifest around its resources: the data, the hierarchy (lookup order and
/// merge mode), the overrides and the run settings (messages, fail_on_error). Each change is
/// reported as the new value of its section; the owner applies it and hands the result back
/// through setManifest().
class ManifestSettingsEditor : public QWidget {
    Q_OBJECT

public:
    explicit ManifestSettingsEditor(QWidget *parent = nullptr);

    /// Shows `manifest`. Sections whose value did not change since the last call are left alone,
    /// so text being typed and the tree's expansion and selection survive.
    void setManifest(const ccm::Manifest &manifest);

    [[nodiscard]] QTabWidget *tabs() const;
    [[nodiscard]] JsonTreeEditor *dataEditor() const;
    [[nodiscard]] JsonTreeEditor *overridesEditor() const;
    [[nodiscard]] QListWidget *orderList() const;
    [[nodiscard]] QComboBox *mergeCombo() const;
    [[nodiscard]] QLineEdit *preMessageEdit() const;
    [[nodiscard]] QLineEdit *postMessageEdit() const;
    [[nodiscard]] QComboBox *failOnErrorCombo() const;

    /// Shows `panel` (the data's provenance) under the data editor; the editor takes it.
    void setDataProvenancePanel(QWidget *panel);

    /// Appends an order entry and starts editing it.
    void addOrderEntry();
    /// Removes the selected order entry.
    void removeOrderEntry();
    /// Moves the selected order entry by `delta` places.
    void moveOrderEntry(int delta);

signals:
    /// The data section as edited; null removes the section.
    void dataEdited(const ccm::Json &data);
    /// The overrides section as edited; null removes the section.
    void overridesEdited(const ccm::Json &overrides);
    /// The hierarchy as edited; nullopt removes the section.
    void hierarchyEdited(const std::optional<ccm::Hierarchy> &hierarchy);
    /// The messages as edited; an empty message is an unset one.
    void messagesEdited(const QString &preMessage, const QString &postMessage);
    /// fail_on_error as edited; nullopt leaves it unset.
    void failOnErrorEdited(const std::optional<bool> &failOnError);

private:
    QWidget *createHierarchyPage();
    QHBoxLayout *createOrderRow(QWidget *page);
    void addOrderShortcuts();
    void connectHierarchySignals();
    QWidget *createRunPage();
    void showHierarchy(const std::optional<ccm::Hierarchy> &hierarchy);
    void markOrderEntry(QListWidgetItem *item);
    void emitHierarchy();
    void emitMessages();
    void emitFailOnError();
    void updateOrderButtons();
    [[nodiscard]] std::optional<ccm::Hierarchy> editedHierarchy() const;

    QTabWidget *m_tabs = nullptr;
    JsonTreeEditor *m_data = nullptr;
    JsonTreeEditor *m_overrides = nullptr;
    QListWidget *m_order = nullptr;
    QPushButton *m_addOrder = nullptr;
    QPushButton *m_removeOrder = nullptr;
    QPushButton *m_upOrder = nullptr;
    QPushButton *m_downOrder = nullptr;
    QComboBox *m_merge = nullptr;
    QLineEdit *m_preMessage = nullptr;
    QLineEdit *m_postMessage = nullptr;
    QComboBox *m_failOnError = nullptr;

    bool m_loaded = false;
    bool m_updating = false;
    std::optional<ccm::Json> m_shownData;
    std::optional<ccm::Json> m_shownOverrides;
    std::optional<ccm::Hierarchy> m_shownHierarchy;
    QString m_shownPreMessage;
    QString m_shownPostMessage;
    std::optional<bool> m_shownFailOnError;
};

} // namespace ccm::designer
