// SPDX-License-Identifier: Apache-2.0
#include "designer/core/resource_list_model.h"

#include <QMimeData>

#include <unordered_map>

namespace ccm::designer {
namespace {

/// What a drag of this model carries: a block, or an entry of a block.
struct DraggedItem {
    int block = -1;
    int entry = -1; ///< -1 for a block
};

std::optional<DraggedItem> decodeItem(const QMimeData *data)
{
    if (!data || !data->hasFormat(ResourceListModel::itemMimeType()))
        return std::nullopt;
    const QList<QByteArray> parts = data->data(ResourceListModel::itemMimeType()).split(' ');
    if (parts.size() != 2)
        return std::nullopt;
    bool blockOk = false;
    bool entryOk = false;
    DraggedItem item {parts[0].toInt(&blockOk), parts[1].toInt(&entryOk)};
    if (!blockOk || !entryOk || item.block < 0 || item.entry < -1)
        return std::nullopt;
    return item;
}

std::optional<std::string> decodePaletteType(const QMimeData *data)
{
    if (!data || !data->hasFormat(ResourceListModel::paletteMimeType()))
        return std::nullopt;
    const std::string type = data->data(ResourceListModel::paletteMimeType()).toStdString();
    if (!isResourceType(type))
        return std::nullopt;
    return type;
}

ResourceListModel::Status statusOf(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return ResourceListModel::Error;
    case Severity::Warning:
        return ResourceListModel::Warning;
    case Severity::Info:
        break;
    }
    return ResourceListModel::Valid;
}

} // namespace

QString ResourceListModel::itemMimeType()
{
    return QStringLiteral("application/x-ccm-designer-item");
}

QString ResourceListModel::paletteMimeType()
{
    return QStringLiteral("application/x-ccm-resource-type");
}

ResourceListModel::ResourceListModel(ManifestDocument *document, QObject *parent)
    : QAbstractItemModel(parent)
    , m_document(document)
{
    connect(m_document, &ManifestDocument::changed, this, &ResourceListModel::documentChanged);
    rebuild();
}

bool ResourceListModel::sameRows() const
{
    const auto &blocks = m_document->blocks();
    if (blocks.size() != m_blocks.size())
        return false;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const Block &shown = m_blocks[b];
        const auto &entries = blocks[b].entries;
        if (blocks[b].type != shown.type || entries.size() != shown.names.size())
            return false;
        for (std::size_t e = 0; e < entries.size(); ++e) {
            if (entries[e].isDefaults != shown.isDefaults[e] || entries[e].name != shown.names[e])
                return false;
        }
    }
    return true;
}

bool ResourceListModel::keepsLastValidRows() const
{
    // Only an edit keeps the rows: a text just loaded (or a new document) has no earlier valid
    // state of its own to show.
    return !m_document->loaded().parsed && !m_document->isLoadedText();
}

void ResourceListModel::updateStale()
{
    QString reason;
    if (keepsLastValidRows()) {
        int line = 0;
        for (const Diagnostic &diagnostic : m_document->diagnostics()) {
            if (diagnostic.severity == Severity::Error && diagnostic.position.line > 0) {
                line = diagnostic.position.line;
                break;
            }
        }
        reason = line > 0 ? tr("The YAML has an error at line %1; showing the last valid resources.").arg(line)
                          : tr("The YAML has an error; showing the last valid resources.");
    }
    if (reason == m_staleReason)
        return;
    m_staleReason = reason;
    emit staleChanged(!reason.isEmpty());
}

void ResourceListModel::documentChanged()
{
    if (keepsLastValidRows()) {
        // The text does not read as YAML while it is being typed: the rows stay as they were last
        // valid (their diagnostics too), marked stale, rather than the list emptying under the user.
        updateStale();
        return;
    }
    // A keystroke in a form or in the YAML view mostly leaves the rows as they are: a reset would
    // make the views and the filter rebuild every row and the panel restore its selection.
    if (!sameRows()) {
        beginResetModel();
        rebuild();
        endResetModel();
        updateStale();
        return;
    }
    rebuild();
    updateStale();
    for (int b = 0; b < static_cast<int>(m_blocks.size()); ++b) {
        const QModelIndex block = index(b, 0);
        emit dataChanged(block, block);
        const int rows = rowCount(block);
        if (rows > 0)
            emit dataChanged(index(0, 0, block), index(rows - 1, 0, block));
    }
}

void ResourceListModel::rebuild()
{
    const auto &blocks = m_document->blocks();
    m_blocks.assign(blocks.size(), Block());
    // Diagnostics go to the entry whose body pointer is the longest prefix of their path.
    std::unordered_map<std::string, EntryRef> byPointer;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        Block &block = m_blocks[b];
        const auto count = blocks[b].entries.size();
        block.type = blocks[b].type;
        for (const ResourceEntry &entry : blocks[b].entries) {
            block.names.push_back(entry.name);
            block.isDefaults.push_back(entry.isDefaults);
        }
        block.status.assign(count, Valid);
        block.tooltip.assign(count, QString());
        for (std::size_t e = 0; e < count; ++e) {
            if (blocks[b].entries[e].isDefaults)
                block.rowToEntry.insert(block.rowToEntry.begin(), static_cast<int>(e));
            else
                block.rowToEntry.push_back(static_cast<int>(e));
            byPointer.emplace(m_document->entryPointer({static_cast<int>(b), static_cast<int>(e)}),
                EntryRef {static_cast<int>(b), static_cast<int>(e)});
        }
        block.entryToRow.assign(count, 0);
        for (std::size_t row = 0; row < block.rowToEntry.size(); ++row)
            block.entryToRow[static_cast<std::size_t>(block.rowToEntry[row])] = static_cast<int>(row);
    }
    for (const Diagnostic &diagnostic : m_document->diagnostics()) {
        std::string_view path = diagnostic.path;
        for (;;) {
            const auto found = byPointer.find(std::string(path));
            if (found != byPointer.end()) {
                Block &block = m_blocks[static_cast<std::size_t>(found->second.block)];
                const auto e = static_cast<std::size_t>(found->second.entry);
                block.status[e] = std::max(block.status[e], statusOf(diagnostic.severity));
                block.worst = std::max(block.worst, block.status[e]);
                QString &tooltip = block.tooltip[e];
                if (!tooltip.isEmpty())
                    tooltip += QLatin1Char('\n');
                tooltip += QString::fromStdString(diagnostic.message);
                break;
            }
            const std::size_t slash = path.rfind('/');
            if (slash == std::string_view::npos || path.empty())
                break;
            path = path.substr(0, slash);
        }
    }
}

QModelIndex ResourceListModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column != 0 || row < 0)
        return {};
    if (!parent.isValid())
        return row < static_cast<int>(m_blocks.size()) ? createIndex(row, 0, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || parent.row() >= static_cast<int>(m_blocks.size()))
        return {};
    if (row >= static_cast<int>(m_blocks[static_cast<std::size_t>(parent.row())].rowToEntry.size()))
        return {};
    return createIndex(row, 0, quintptr(parent.row()) + 1);
}

QModelIndex ResourceListModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int ResourceListModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_blocks.size());
    if (parent.column() != 0 || parent.internalId() != 0 || parent.row() >= static_cast<int>(m_blocks.size()))
        return 0;
    return static_cast<int>(m_blocks[static_cast<std::size_t>(parent.row())].rowToEntry.size());
}

int ResourceListModel::columnCount(const QModelIndex &) const
{
    return 1;
}

EntryRef ResourceListModel::entryAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.internalId() == 0)
        return {};
    const auto block = static_cast<int>(index.internalId() - 1);
    const auto &rows = m_blocks[static_cast<std::size_t>(block)].rowToEntry;
    if (index.row() >= static_cast<int>(rows.size()))
        return {};
    return {block, rows[static_cast<std::size_t>(index.row())]};
}

QModelIndex ResourceListModel::indexFor(EntryRef entry) const
{
    if (!entry.valid() || entry.block >= static_cast<int>(m_blocks.size()))
        return {};
    const auto &rows = m_blocks[static_cast<std::size_t>(entry.block)].entryToRow;
    if (entry.entry >= static_cast<int>(rows.size()))
        return {};
    return createIndex(rows[static_cast<std::size_t>(entry.entry)], 0, quintptr(entry.block) + 1);
}

QModelIndex ResourceListModel::indexForLabel(const QString &label) const
{
    const qsizetype hash = label.indexOf(QLatin1Char('#'));
    if (hash <= 0)
        return {};
    const std::string type = label.left(hash).toStdString();
    const std::string name = label.mid(hash + 1).toStdString();
    for (std::size_t b = 0; b < m_blocks.size(); ++b) {
        const Block &block = m_blocks[b];
        for (std::size_t e = 0; block.type == type && e < block.names.size(); ++e) {
            if (block.names[e] == name && !block.isDefaults[e])
                return indexFor({static_cast<int>(b), static_cast<int>(e)});
        }
    }
    return {};
}

QModelIndex ResourceListModel::indexForBlock(int block) const
{
    return index(block, 0);
}

QIcon ResourceListModel::iconFor(const QString &type) const
{
    auto it = m_icons.find(type);
    if (it == m_icons.end())
        it = m_icons.insert(type, QIcon(QStringLiteral(":/icons/%1.svg").arg(type)));
    return *it;
}

QVariant ResourceListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    // The rows as last rebuilt: while the text does not read, they are the last valid ones.
    const bool isBlock = index.internalId() == 0;
    const int b = isBlock ? index.row() : static_cast<int>(index.internalId() - 1);
    if (b >= static_cast<int>(m_blocks.size()))
        return {};
    const Block &cache = m_blocks[static_cast<std::size_t>(b)];
    const QString type = QString::fromStdString(cache.type);
    const auto entryCount = static_cast<int>(cache.names.size());
    if (isBlock) {
        switch (role) {
        case Qt::DisplayRole:
        case TypeRole:
            return type;
        case Qt::DecorationRole:
            return iconFor(type);
        case Qt::ToolTipRole:
            return tr("%n %1 resource(s)", nullptr, entryCount).arg(type);
        case BlockRole:
            return b;
        case EntryRole:
            return -1;
        case IsBlockRole:
            return true;
        case IsDefaultsRole:
            return false;
        case CountRole:
            return entryCount;
        case StatusRole:
            return static_cast<int>(cache.worst);
        default:
            return {};
        }
    }
    const EntryRef ref = entryAt(index);
    // Between the document's change and the reset that follows it, views may still ask about rows
    // of the old structure: answer nothing rather than read past the new one.
    if (!ref.valid() || ref.entry >= entryCount)
        return {};
    const auto e = static_cast<std::size_t>(ref.entry);
    const QString name = QString::fromStdString(cache.names[e]);
    const bool isDefaults = cache.isDefaults[e];
    const QString label = type + QLatin1Char('#') + name;
    switch (role) {
    case Qt::DisplayRole:
        return isDefaults ? QString::fromLatin1(kDefaultsKey.data(), static_cast<qsizetype>(kDefaultsKey.size()))
                          : label;
    case Qt::DecorationRole:
        return iconFor(type);
    case Qt::ToolTipRole:
        return cache.tooltip[e];
    case TypeRole:
        return type;
    case NameRole:
        return name;
    case BlockRole:
        return ref.block;
    case EntryRole:
        return ref.entry;
    case IsBlockRole:
        return false;
    case IsDefaultsRole:
        return isDefaults;
    case StatusRole:
        return static_cast<int>(cache.status[e]);
    case OutcomeRole:
        return isDefaults ? QString() : m_outcomes.value(label);
    default:
        return {};
    }
}

Qt::ItemFlags ResourceListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
}

QHash<int, QByteArray> ResourceListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(TypeRole, "type");
    names.insert(NameRole, "name");
    names.insert(BlockRole, "block");
    names.insert(EntryRole, "entry");
    names.insert(IsBlockRole, "isBlock");
    names.insert(IsDefaultsRole, "isDefaults");
    names.insert(CountRole, "count");
    names.insert(StatusRole, "status");
    names.insert(OutcomeRole, "outcome");
    return names;
}

QStringList ResourceListModel::mimeTypes() const
{
    return {itemMimeType(), paletteMimeType()};
}

QMimeData *ResourceListModel::mimeData(const QModelIndexList &indexes) const
{
    for (const QModelIndex &index : indexes) {
        if (!index.isValid() || index.model() != this)
            continue;
        const bool isBlock = index.internalId() == 0;
        const EntryRef ref = entryAt(index);
        const QByteArray payload = isBlock ? QByteArray::number(index.row()) + " -1"
                                           : QByteArray::number(ref.block) + ' ' + QByteArray::number(ref.entry);
        auto *data = new QMimeData;
        data->setData(itemMimeType(), payload);
        return data;
    }
    return nullptr;
}

int ResourceListModel::entryIndexForRow(int block, int row) const
{
    const auto &rows = m_blocks[static_cast<std::size_t>(block)].rowToEntry;
    if (row < 0 || row >= static_cast<int>(rows.size()))
        return static_cast<int>(rows.size());
    return rows[static_cast<std::size_t>(row)];
}

bool ResourceListModel::canDropMimeData(
    const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) const
{
    // Stale rows are not the document's: nothing can be placed among them.
    if (column > 0 || (action != Qt::MoveAction && action != Qt::CopyAction) || isStale())
        return false;
    const auto &blocks = m_document->blocks();
    const bool onBlock = parent.isValid() && parent.internalId() == 0;
    const bool onEntry = parent.isValid() && parent.internalId() != 0;
    const int targetBlock = onBlock ? parent.row() : onEntry ? static_cast<int>(parent.internalId() - 1) : -1;
    if (targetBlock >= static_cast<int>(blocks.size()))
        return false;
    if (decodePaletteType(data))
        return true;
    const auto item = decodeItem(data);
    if (!item || item->block >= static_cast<int>(blocks.size()))
        return false;
    if (item->entry < 0)
        return !onEntry;
    const ResourceBlock &source = blocks[static_cast<std::size_t>(item->block)];
    if (targetBlock < 0 || item->entry >= static_cast<int>(source.entries.size()))
        return false;
    const ResourceBlock &target = blocks[static_cast<std::size_t>(targetBlock)];
    if (target.type != source.type)
        return false;
    // A block has at most one defaults entry.
    if (source.entries[static_cast<std::size_t>(item->entry)].isDefaults && targetBlock != item->block)
        return std::none_of(
            target.entries.begin(), target.entries.end(), [](const ResourceEntry &entry) { return entry.isDefaults; });
    Q_UNUSED(row)
    return true;
}

bool ResourceListModel::dropMimeData(
    const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    const bool onBlock = parent.isValid() && parent.internalId() == 0;
    const bool onEntry = parent.isValid() && parent.internalId() != 0;
    const int blockCount = static_cast<int>(m_document->blocks().size());
    int targetBlock = -1;
    int targetEntry = 0;
    if (onBlock) {
        targetBlock = parent.row();
        targetEntry = entryIndexForRow(targetBlock, row);
    } else if (onEntry) {
        const EntryRef ref = entryAt(parent);
        targetBlock = ref.block;
        targetEntry = ref.entry;
    }
    if (const auto type = decodePaletteType(data)) {
        if (targetBlock < 0)
            m_document->insertResource(*type, row < 0 ? blockCount : row, 0);
        else
            m_document->insertResource(*type, targetBlock, targetEntry);
        return true;
    }
    const auto item = decodeItem(data);
    if (item->entry < 0) {
        m_document->moveBlock(item->block, targetBlock >= 0 ? targetBlock : (row < 0 ? blockCount : row));
        return true;
    }
    return m_document->moveEntry({item->block, item->entry}, targetBlock, targetEntry);
}

Qt::DropActions ResourceListModel::supportedDropActions() const
{
    return Qt::MoveAction | Qt::CopyAction;
}

Qt::DropActions ResourceListModel::supportedDragActions() const
{
    return Qt::MoveAction;
}

void ResourceListModel::setOutcome(const QString &label, const QString &outcome)
{
    m_outcomes.insert(label, outcome);
    // A run sets one outcome per event: telling the views that every row changed made each event
    // repaint and re-map the whole list.
    const qsizetype hash = label.indexOf(QLatin1Char('#'));
    const std::string type = label.left(hash).toStdString();
    const std::string name = label.mid(hash + 1).toStdString();
    for (std::size_t b = 0; hash > 0 && b < m_blocks.size(); ++b) {
        const Block &block = m_blocks[b];
        for (std::size_t e = 0; block.type == type && e < block.names.size(); ++e) {
            if (block.names[e] == name && !block.isDefaults[e]) {
                const QModelIndex row = indexFor({static_cast<int>(b), static_cast<int>(e)});
                emit dataChanged(row, row, {OutcomeRole});
            }
        }
    }
}

void ResourceListModel::clearOutcomes()
{
    m_outcomes.clear();
    outcomesChanged();
}

void ResourceListModel::outcomesChanged()
{
    for (int b = 0; b < static_cast<int>(m_blocks.size()); ++b) {
        const int rows = static_cast<int>(m_blocks[static_cast<std::size_t>(b)].rowToEntry.size());
        if (rows > 0)
            emit dataChanged(index(0, 0, index(b, 0)), index(rows - 1, 0, index(b, 0)), {OutcomeRole});
    }
}

} // namespace ccm::designer
