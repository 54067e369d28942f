// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/manifest_document.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace ccm::designer {

class ResourceListModel;

/// The manifest's resource blocks and entries as a tree with a filter box above it. Entries are
/// reordered by drag and drop, resource types dropped from the palette are added where they land,
/// and each entry carries a marker for its diagnostics. Keeps the current entry and the expanded
/// blocks across the document's changes.
class ResourceListPanel : public QWidget {
    Q_OBJECT

public:
    explicit ResourceListPanel(ManifestDocument *document, QWidget *parent = nullptr);

    /// The entry of the current item; invalid when a block or nothing is current.
    [[nodiscard]] EntryRef currentEntry() const;
    /// The block of the current item (entry or block row); -1 when nothing is current.
    [[nodiscard]] int currentBlock() const;
    /// Makes an entry current (clearing the filter when it hides the entry); an invalid ref clears
    /// the selection.
    void setCurrentEntry(EntryRef entry);

    /// Greys the preview outcome markers: the manifest changed since the preview.
    void setOutcomesStale(bool stale);
    [[nodiscard]] bool outcomesStale() const { return m_outcomesStale; }

    [[nodiscard]] QTreeView *view() const { return m_view; }
    /// Says, while the YAML does not read, that the list shows the last valid resources.
    [[nodiscard]] QLabel *staleBanner() const { return m_staleBanner; }
    [[nodiscard]] QLineEdit *filterEdit() const { return m_filter; }
    [[nodiscard]] ResourceListModel *model() const { return m_model; }

signals:
    /// The current entry changed (by the user or by setCurrentEntry()).
    void currentEntryChanged(const ccm::designer::EntryRef &entry);

private:
    void showStale();
    void rememberCurrent();
    void restoreCurrent();

    ManifestDocument *m_document;
    ResourceListModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTreeView *m_view;
    QLabel *m_staleBanner;
    EntryRef m_remembered;
    int m_rememberedBlock = -1;
    bool m_restoring = false;
    bool m_outcomesStale = false;
    /// The document's text did not read as YAML at the last change.
    bool m_waitingForText = false;
};

} // namespace ccm::designer
