// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "designer/core/manifest_document.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QIcon>

#include <vector>

namespace ccm::designer {

/// The resource blocks of a document as a two-level tree: a row per block (its type), and under
/// it a row per entry, the block's defaults entry first. Items can be dragged to reorder entries
/// within and across blocks of one type and to reorder blocks; resource types dragged from the
/// palette are added where they are dropped. The model is reset whenever the document changes
/// its rows; views restore their selection with indexFor(). While an edit leaves text that does
/// not read as YAML, the rows stay as they last were, marked stale.
class ResourceListModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Role {
        TypeRole = Qt::UserRole + 1, ///< QString: the resource type
        NameRole, ///< QString: the entry's name, empty for blocks and defaults entries
        BlockRole, ///< int: the block index
        EntryRole, ///< int: the entry index in the block, -1 for a block row
        IsBlockRole, ///< bool
        IsDefaultsRole, ///< bool: the block's defaults entry
        CountRole, ///< int: a block's number of entries
        StatusRole, ///< Status (as int) from the item's diagnostics
        OutcomeRole, ///< QString: what a preview said the resource would do (setOutcome())
    };
    enum Status { Valid, Warning, Error };
    Q_ENUM(Status)

    /// The MIME type of dragged items of this model.
    static QString itemMimeType();
    /// The MIME type of resource types dragged from the palette; the payload is the type name in
    /// UTF-8.
    static QString paletteMimeType();

    explicit ResourceListModel(ManifestDocument *document, QObject *parent = nullptr);

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    [[nodiscard]] QModelIndex parent(const QModelIndex &child) const override;
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex &index) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

    [[nodiscard]] QStringList mimeTypes() const override;
    [[nodiscard]] QMimeData *mimeData(const QModelIndexList &indexes) const override;
    [[nodiscard]] bool canDropMimeData(
        const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) const override;
    bool dropMimeData(
        const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) override;
    [[nodiscard]] Qt::DropActions supportedDropActions() const override;
    [[nodiscard]] Qt::DropActions supportedDragActions() const override;

    /// The row of an entry; invalid for a ref the document does not have.
    [[nodiscard]] QModelIndex indexFor(EntryRef entry) const;
    /// The row of the resource labelled "type#name" (as a run's results name it); invalid when the
    /// list has none.
    [[nodiscard]] QModelIndex indexForLabel(const QString &label) const;
    /// The row of a block.
    [[nodiscard]] QModelIndex indexForBlock(int block) const;

    /// Whether the rows are the last valid ones: an edit left text that does not read as YAML.
    [[nodiscard]] bool isStale() const { return !m_staleReason.isEmpty(); }
    /// What the stale rows' banner says: "The YAML has an error at line 12; showing the last valid
    /// resources."; empty when the rows are current.
    [[nodiscard]] QString staleReason() const { return m_staleReason; }
    /// The entry of a row; invalid for block rows.
    [[nodiscard]] EntryRef entryAt(const QModelIndex &index) const;

    /// Shows an outcome ("create", "change", "unchanged", ...) for the resource labelled
    /// "type#name".
    void setOutcome(const QString &label, const QString &outcome);
    void clearOutcomes();

signals:
    /// isStale() changed, or the line its reason names did.
    void staleChanged(bool stale);

private:
    struct Block {
        /// What the rows show of the document: a change that keeps these is a dataChanged.
        std::string type;
        std::vector<std::string> names; ///< per entry index
        std::vector<bool> isDefaults; ///< per entry index
        std::vector<int> rowToEntry;
        std::vector<int> entryToRow;
        std::vector<Status> status; ///< per entry index
        std::vector<QString> tooltip; ///< per entry index
        Status worst = Valid;
    };

    void rebuild();
    /// Whether the document's blocks still have the rows (types, names, order) the model shows.
    [[nodiscard]] bool sameRows() const;
    /// Follows a document change: dataChanged when the rows stay, else a reset.
    void documentChanged();
    /// The entry index a drop at child row `row` of block `block` inserts before.
    [[nodiscard]] int entryIndexForRow(int block, int row) const;
    [[nodiscard]] QIcon iconFor(const QString &type) const;
    void outcomesChanged();
    /// Whether the document's current text has no rows to show but an earlier edit had.
    [[nodiscard]] bool keepsLastValidRows() const;
    void updateStale();

    ManifestDocument *m_document;
    std::vector<Block> m_blocks;
    QHash<QString, QString> m_outcomes;
    QString m_staleReason;
    mutable QHash<QString, QIcon> m_icons;
};

} // namespace ccm::designer
