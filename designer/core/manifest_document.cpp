// SPDX-License-Identifier: Apache-2.0
#include "designer/core/manifest_document.h"

#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/model/manifest_writer.h"
#include "core/model/schema_registry.h"
#include "core/model/validator.h"
#include "designer/core/manifest_document_private.h"
#include "designer/core/text_change_command.h"
#include "designer/core/yaml_edit.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUndoStack>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <future>
#include <set>

namespace ccm::designer {
namespace {

/// The node at a JSON Pointer, walking the value without exceptions.
const Json *nodeAt(const Json &document, const std::string &pointer)
{
    const Json *node = &document;
    for (const std::string &token : splitPointer(pointer)) {
        if (node->is_object()) {
            const auto it = node->find(token);
            if (it == node->end())
                return nullptr;
            node = &*it;
        } else if (node->is_array()) {
            std::size_t index = 0;
            const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), index);
            if (ec != std::errc() || end != token.data() + token.size() || index >= node->size())
                return nullptr;
            node = &(*node)[index];
        } else {
            return nullptr;
        }
    }
    return node;
}

/// The order of the manifest's top-level sections and of the ccm settings: a section added to the
/// text goes before the first of those after it that is present.
const std::vector<std::pair<std::string, std::vector<std::string>>> &sectionOrder()
{
    static const std::vector<std::pair<std::string, std::vector<std::string>>> order {
        {"", {"data", "hierarchy", "overrides", "ccm"}},
        {"/ccm", {"pre_message", "post_message", "fail_on_error", "resources_jet_file", "resources"}},
    };
    return order;
}

/// The members that follow key in the section order of the map at mapPointer.
std::vector<std::string> membersAfter(const std::string &mapPointer, const std::string &key)
{
    for (const auto &[map, keys] : sectionOrder()) {
        const auto it = std::find(keys.begin(), keys.end(), key);
        if (map == mapPointer && it != keys.end())
            return {it + 1, keys.end()};
    }
    return {};
}

std::string parentPointer(const std::string &pointer)
{
    const std::size_t slash = pointer.rfind('/');
    return slash == std::string::npos ? std::string() : pointer.substr(0, slash);
}

/// Properties in the writer's order: the type's schema order, then the others as they were.
Json orderedProperties(const std::string &type, const Json &properties)
{
    Json out = Json::object();
    for (const std::string &key : SchemaRegistry::instance().propertyOrder(type)) {
        if (properties.contains(key))
            out[key] = properties[key];
    }
    for (const auto &[key, value] : properties.items()) {
        if (!out.contains(key))
            out[key] = value;
    }
    return out;
}

/// A list-form item `- NAME: {properties}` as a one-item list.
Json entryItem(const std::string &type, const ResourceEntry &entry)
{
    Json item = Json::object();
    item[entry.isDefaults ? std::string(kDefaultsKey) : entry.name] = orderedProperties(type, entry.properties);
    return Json::array({item});
}

/// A block `- TYPE: body` as a one-item list.
Json blockItem(const ResourceBlock &block)
{
    Json body;
    if (block.form == BodyForm::Single && block.entries.size() == 1 && !block.entries.front().isDefaults) {
        Json properties = block.entries.front().properties;
        properties["name"] = block.entries.front().name;
        body = orderedProperties(block.type, properties);
    } else {
        body = Json::array();
        for (const ResourceEntry &entry : block.entries)
            body.push_back(entryItem(block.type, entry).front());
    }
    Json item = Json::object();
    item[block.type] = std::move(body);
    return Json::array({item});
}

Json hierarchyJson(const Hierarchy &hierarchy)
{
    Json out = Json::object();
    if (hierarchy.order)
        out["order"] = *hierarchy.order;
    if (hierarchy.merge)
        out["merge"] = *hierarchy.merge;
    return out;
}

/// name with "-N" added before the extension of its last path component, if any.
std::string numberedName(const std::string &name, int number)
{
    const std::size_t slash = name.rfind('/');
    const std::size_t componentStart = slash == std::string::npos ? 0 : slash + 1;
    std::size_t dot = name.find('.', componentStart);
    if (dot == componentStart)
        dot = std::string::npos;
    // Appended rather than "-" + std::to_string(): GCC 12 -O3 reports -Wrestrict on that (GCC bug 105329).
    std::string suffix = "-";
    suffix += std::to_string(number);
    if (dot == std::string::npos)
        return name + suffix;
    return name.substr(0, dot) + suffix + name.substr(dot);
}

/// The starting point of a new resource of a type, from its schema's x-ccm-new-resource: what a
/// valid resource needs, with values a user replaces.
ResourceEntry newResourceTemplate(const std::string &type)
{
    const Json &schema = SchemaRegistry::instance().typeSchema(type);
    const Json &annotation = schema.value("x-ccm-new-resource", Json::object());
    ResourceEntry entry;
    if (annotation.contains("name") && annotation["name"].is_string())
        entry.name = annotation["name"].get<std::string>();
    if (annotation.contains("properties") && annotation["properties"].is_object())
        entry.properties = annotation["properties"];
    const Json &ensureDefault = schema.value("x-ccm-ensure-default", Json());
    if (!entry.properties.contains("ensure") && ensureDefault.is_string())
        entry.properties["ensure"] = ensureDefault;
    return entry;
}

} // namespace

void ManifestDocument::Private::dropBundleDirectory()
{
    if (!bundleDirectory.isEmpty())
        QDir(bundleDirectory).removeRecursively();
    bundleDirectory.clear();
    bundleLocation.clear();
}

const std::vector<ResourceBlock> &ManifestDocument::Private::blocks() const
{
    static const std::vector<ResourceBlock> none;
    const auto &ccm = loaded.manifest.ccm;
    return ccm && ccm->resources ? *ccm->resources : none;
}

bool ManifestDocument::Private::validEntry(EntryRef ref) const
{
    const auto &all = blocks();
    return ref.valid() && static_cast<std::size_t>(ref.block) < all.size()
        && static_cast<std::size_t>(ref.entry) < all[static_cast<std::size_t>(ref.block)].entries.size();
}

std::string ManifestDocument::Private::itemPointer(EntryRef ref) const
{
    const auto block = static_cast<std::size_t>(ref.block);
    const auto entry = static_cast<std::size_t>(ref.entry);
    if (block >= loaded.entryPointers.size() || entry >= loaded.entryPointers[block].size())
        return {};
    return parentPointer(loaded.entryPointers[block][entry]);
}

namespace {

/// What the designer derives from a text: the model, every diagnostic, the flattened resources
/// and the blocks' pointers. A pure function of the text and the directory child manifests are
/// read from, so a loaded text can be analysed on a worker thread.
struct Analysis {
    LoadedManifest loaded;
    Diagnostics diagnostics;
    std::vector<FlatResource> flat;
    std::vector<std::string> blockPointers;
};

Analysis analyse(const std::string &utf8, std::optional<LoadedManifest> parsed, const std::filesystem::path &base)
{
    Analysis result;
    result.loaded = parsed ? std::move(*parsed) : loadManifest(utf8);
    const LoadedManifest &loaded = result.loaded;
    result.diagnostics = validateManifest(loaded, true, base);
    for (Diagnostic &problem : templateSyntaxErrors(loaded, utf8))
        result.diagnostics.push_back(std::move(problem));
    sortByPosition(result.diagnostics);
    if (loaded.manifest.ccm && loaded.manifest.ccm->resources)
        result.flat = flatten(loaded.manifest, &result.loaded.entryPointers);
    if (const Json *resources = nodeAt(loaded.document, "/ccm/resources"); resources && resources->is_array()) {
        // The loader's rule for which items become blocks.
        for (std::size_t i = 0; i < resources->size(); ++i) {
            const Json &item = (*resources)[i];
            if (!item.is_object() || item.size() != 1 || !isResourceType(item.begin().key()))
                continue;
            const Json &body = item.begin().value();
            if (body.is_array() || body.is_object())
                result.blockPointers.push_back(appendPointer("/ccm/resources", i));
        }
    }
    const std::size_t blockCount
        = loaded.manifest.ccm && loaded.manifest.ccm->resources ? loaded.manifest.ccm->resources->size() : 0;
    if (result.blockPointers.size() != blockCount)
        result.blockPointers.clear();
    return result;
}

} // namespace

void ManifestDocument::Private::apply(const QString &newText)
{
    text = newText;
    utf8 = newText.toStdString();
    std::optional<LoadedManifest> parsed;
    if (pending && pending->first == utf8)
        parsed = std::move(pending->second);
    pending.reset();
    // Child manifests are read from the file's directory; an untitled text has none yet.
    const QString &path = filePath.isEmpty() ? loadedFrom : filePath;
    const std::filesystem::path base = path.isEmpty()
        ? std::filesystem::path()
        : std::filesystem::path(QFileInfo(path).absolutePath().toStdString());
    Analysis analysis;
    if (loadedText) {
        // A loaded text replaces the views' whole content: the views that show the text take it
        // while a worker reads, checks and flattens it, the two largest parts of an open.
        auto worker = std::async(std::launch::async, [&] { return analyse(utf8, std::move(parsed), base); });
        emit q->textLoading(text);
        analysis = worker.get();
    } else {
        analysis = analyse(utf8, std::move(parsed), base);
    }
    loaded = std::move(analysis.loaded);
    diagnostics = std::move(analysis.diagnostics);
    flat = std::move(analysis.flat);
    blockPointers = std::move(analysis.blockPointers);
    emit q->changed();
}

void ManifestDocument::Private::push(const QString &label, const QString &after, const QString &mergeKey)
{
    if (after == text) {
        pending.reset();
        return;
    }
    stack->push(new TextChangeCommand(label, text, after, mergeKey, [this](const QString &t) {
        loadedText = false;
        apply(t);
    }));
}

bool ManifestDocument::Private::commit(
    const QString &label, const Manifest &expected, std::optional<std::string> edited, const QString &mergeKey)
{
    if (!loaded.parsed)
        return false;
    if (mergeKey.isEmpty())
        ++mergeSerial;
    std::string newText;
    bool accepted = false;
    if (edited) {
        LoadedManifest check = loadManifest(*edited);
        // A text edit that does not read back as the intended model (a span found wrongly, an
        // unusual layout) is dropped for the canonical text of that model.
        if (check.parsed && check.manifest == expected) {
            newText = std::move(*edited);
            pending.emplace(newText, std::move(check));
            accepted = true;
        }
    }
    if (!accepted)
        newText = saveManifest(expected);
    push(label, QString::fromStdString(newText), mergeKey);
    return true;
}

std::string ManifestDocument::Private::uniqueName(const std::string &type, const std::string &base) const
{
    std::set<std::string> taken;
    for (const ResourceBlock &block : blocks()) {
        if (block.type != type)
            continue;
        for (const ResourceEntry &entry : block.entries)
            taken.insert(entry.name);
    }
    if (!taken.count(base))
        return base;
    for (int n = 2;; ++n) {
        std::string candidate = numberedName(base, n);
        if (!taken.count(candidate))
            return candidate;
    }
}

EntryRef ManifestDocument::Private::insertEntry(
    const QString &label, const std::string &type, int block, int index, ResourceEntry entry)
{
    if (!loaded.parsed || !isResourceType(type))
        return {};
    const auto &all = blocks();
    block = std::clamp(block, 0, static_cast<int>(all.size()));
    Manifest expected = loaded.manifest;
    if (!expected.ccm)
        expected.ccm = CcmSettings();
    if (!expected.ccm->resources)
        expected.ccm->resources = std::vector<ResourceBlock>();
    auto &target = *expected.ccm->resources;
    const YamlPatcher editor(utf8, loaded.sourceMap);
    const bool pointersKnown = !blockPointers.empty() || all.empty();
    std::optional<std::string> edited;
    EntryRef result;
    const auto b = static_cast<std::size_t>(block);
    if (b == all.size() || all[b].type != type) {
        ResourceBlock fresh;
        fresh.type = type;
        fresh.entries.push_back(std::move(entry));
        const std::string yaml = toYaml(blockItem(fresh));
        target.insert(target.begin() + block, fresh);
        result = {block, 0};
        if (pointersKnown && b < all.size()) {
            edited = editor.insertItem(blockPointers[b], yaml, false);
        } else if (pointersKnown && !all.empty()) {
            edited = editor.insertItem(blockPointers.back(), yaml, true);
        } else if (const Json *resources = nodeAt(loaded.document, "/ccm/resources");
                   resources && (resources->is_null() || (resources->is_array() && resources->empty()))) {
            edited = editor.replaceMember("/ccm/resources", "resources", blockItem(fresh));
        }
    } else {
        ResourceBlock &changed = target[b];
        index = std::clamp(index, 0, static_cast<int>(changed.entries.size()));
        const auto count = static_cast<int>(changed.entries.size());
        changed.entries.insert(changed.entries.begin() + index, entry);
        result = {block, index};
        if (changed.form == BodyForm::Single) {
            changed.form = BodyForm::List;
            if (pointersKnown)
                edited = editor.replaceItem(blockPointers[b], toYaml(blockItem(changed)));
        } else if (count == 0) {
            if (pointersKnown)
                edited = editor.replaceItem(blockPointers[b], toYaml(blockItem(changed)));
        } else {
            const std::string yaml = toYaml(entryItem(type, entry));
            if (index < count)
                edited = editor.insertItem(itemPointer({block, index}), yaml, false);
            else
                edited = editor.insertItem(itemPointer({block, count - 1}), yaml, true);
        }
    }
    if (!commit(label, expected, std::move(edited)))
        return {};
    return result;
}

std::optional<std::string> ManifestDocument::Private::memberEdit(const std::string &source,
    const std::string &mapPointer, const std::string &key, const std::optional<Json> &value) const
{
    const LoadedManifest parsed = source == utf8 ? LoadedManifest() : loadManifest(source);
    const LoadedManifest &use = source == utf8 ? loaded : parsed;
    if (!use.parsed)
        return std::nullopt;
    const YamlPatcher editor(source, use.sourceMap);
    const Json *members = nodeAt(use.document, mapPointer);
    if (!members || !members->is_object())
        return std::nullopt;
    if (!value) {
        if (!members->contains(key))
            return source;
        return editor.removeNode(editor.memberSpan(appendPointer(mapPointer, key)));
    }
    return editor.setMember(mapPointer, *members, key, *value, membersAfter(mapPointer, key));
}

std::optional<std::string> ManifestDocument::Private::readBundle(const QString &path, QString *error) const
{
    const auto fail = [&](const std::string &reason) {
        if (error)
            *error = ManifestDocument::tr("Cannot open bundle %1: %2")
                         .arg(QDir::toNativeSeparators(path), QString::fromStdString(reason));
        return std::nullopt;
    };
    // Unpacked and verified as every program opens a bundle; the directory goes once the
    // manifest is read.
    auto bundle = UnpackedBundle::unpack(QFile::encodeName(path).toStdString());
    if (!bundle)
        return fail(bundle.error().message);
    FileText file = readManifestFile(bundle->manifestPath().string());
    if (file.problem)
        return fail(file.problem->message);
    return std::move(file.text);
}

ManifestDocument::ManifestDocument(QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->stack = new QUndoStack(this);
    connect(d->stack, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    newDocument();
}

ManifestDocument::~ManifestDocument()
{
    d->dropBundleDirectory();
}

QUndoStack *ManifestDocument::undoStack() const
{
    return d->stack;
}

QString ManifestDocument::filePath() const
{
    return d->filePath;
}

QString ManifestDocument::loadedFrom() const
{
    return d->loadedFrom;
}

QString ManifestDocument::baseDirectory() const
{
    const QString &path = d->filePath.isEmpty() ? d->loadedFrom : d->filePath;
    if (path.isEmpty())
        return QDir::currentPath();
    return QFileInfo(path).absolutePath();
}

void ManifestDocument::setBundleOrigin(const QString &location, const QString &directory)
{
    if (directory != d->bundleDirectory)
        d->dropBundleDirectory();
    d->bundleLocation = location;
    d->bundleDirectory = directory;
    emit filePathChanged();
}

QString ManifestDocument::bundleLocation() const
{
    return d->bundleLocation;
}

QString ManifestDocument::bundleDirectory() const
{
    return d->bundleDirectory;
}

void ManifestDocument::forgetBundleLocation()
{
    d->bundleLocation.clear();
    emit filePathChanged();
}

bool ManifestDocument::isLoadedText() const
{
    return d->loadedText;
}

bool ManifestDocument::isModified() const
{
    return !d->stack->isClean();
}

void ManifestDocument::newDocument()
{
    d->stack->clear();
    d->mergeSerial++;
    d->loadedText = true;
    d->apply(QStringLiteral("ccm:\n  resources: []\n"));
    d->dropBundleDirectory();
    const bool hadPath = !d->filePath.isEmpty();
    d->filePath.clear();
    d->loadedFrom.clear();
    if (hadPath)
        emit filePathChanged();
}

bool ManifestDocument::load(const QString &path, QString *error)
{
    std::string content;
    const bool isBundle = isBundlePath(QFile::encodeName(path).toStdString());
    if (isBundle) {
        auto bundle = d->readBundle(path, error);
        if (!bundle)
            return false;
        content = std::move(*bundle);
    } else {
        FileText file = readManifestFile(QFile::encodeName(path).toStdString());
        if (file.problem) {
            if (error)
                *error = tr("Cannot open %1: %2")
                             .arg(QDir::toNativeSeparators(path), QString::fromStdString(file.problem->message));
            return false;
        }
        content = std::move(file.text);
    }
    d->stack->clear();
    d->mergeSerial++;
    d->dropBundleDirectory();
    d->loadedFrom = path;
    d->filePath = isBundle ? QString() : path;
    // The path first: what follows the change (the Problems' locations, the base directory of
    // relative paths) reads the new file's, not the previous document's.
    d->loadedText = true;
    d->apply(QString::fromStdString(content));
    emit filePathChanged();
    return true;
}

bool ManifestDocument::save(const QString &path, QString *error)
{
    const auto fail = [&](const QString &reason) {
        if (error)
            *error = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), reason);
        return false;
    };
    const QFileInfo existing(path);
    const bool keepPermissions = existing.exists();
    const QFileDevice::Permissions permissions = keepPermissions ? existing.permissions() : QFileDevice::Permissions();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(file.errorString());
    const QByteArray bytes = d->text.toUtf8();
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return fail(reason);
    }
    if (!file.commit())
        return fail(file.errorString());
    if (keepPermissions)
        QFile::setPermissions(path, permissions);
    d->stack->setClean();
    d->mergeSerial++;
    const bool pathChanged = d->filePath != path;
    d->filePath = path;
    d->loadedFrom = path;
    if (pathChanged)
        emit filePathChanged();
    return true;
}

bool ManifestDocument::revert(QString *error)
{
    if (d->filePath.isEmpty()) {
        if (error)
            *error = tr("The document has not been saved, so there is nothing to revert to.");
        return false;
    }
    FileText file = readManifestFile(QFile::encodeName(d->filePath).toStdString());
    if (file.problem) {
        if (error)
            *error = tr("Cannot open %1: %2")
                         .arg(QDir::toNativeSeparators(d->filePath), QString::fromStdString(file.problem->message));
        return false;
    }
    d->mergeSerial++;
    d->push(tr("Revert"), QString::fromStdString(file.text));
    d->stack->setClean();
    return true;
}

void ManifestDocument::restore(const QString &text)
{
    d->mergeSerial++;
    d->push(tr("Restore recovered changes"), text);
}

void ManifestDocument::setText(const QString &text)
{
    d->push(tr("Edit text"), text, QStringLiteral("text:%1").arg(d->mergeSerial));
}

void ManifestDocument::closeTextEdit()
{
    d->mergeSerial++;
}

void ManifestDocument::setProperty(EntryRef entry, const std::string &property, const Json &value)
{
    if (!d->validEntry(entry) || property.empty())
        return;
    const auto &block = d->blocks()[static_cast<std::size_t>(entry.block)];
    const auto &current = block.entries[static_cast<std::size_t>(entry.entry)];
    if (property == "name" && !current.isDefaults && value.is_string()) {
        renameEntry(entry, value.get<std::string>());
        return;
    }
    if (current.properties.contains(property) && current.properties[property] == value)
        return;
    Manifest expected = d->loaded.manifest;
    auto &changed = (*expected.ccm->resources)[static_cast<std::size_t>(entry.block)]
                        .entries[static_cast<std::size_t>(entry.entry)];
    changed.properties[property] = value;
    const std::string pointer = entryPointer(entry);
    const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
    std::optional<std::string> edited;
    const Json *body = nodeAt(d->loaded.document, pointer);
    if (body && body->is_object() && !body->empty())
        edited = editor.setMember(pointer, *body, property, value);
    else if (block.form == BodyForm::List)
        edited = editor.replaceItem(d->itemPointer(entry), toYaml(entryItem(block.type, changed)));
    const QString key = QStringLiteral("property:%1:%2:%3:%4")
                            .arg(entry.block)
                            .arg(entry.entry)
                            .arg(QString::fromStdString(property))
                            .arg(d->mergeSerial);
    d->commit(tr("Change %1").arg(QString::fromStdString(property)), expected, std::move(edited), key);
}

void ManifestDocument::removeProperty(EntryRef entry, const std::string &property)
{
    if (!d->validEntry(entry))
        return;
    const auto &block = d->blocks()[static_cast<std::size_t>(entry.block)];
    if (!block.entries[static_cast<std::size_t>(entry.entry)].properties.contains(property))
        return;
    Manifest expected = d->loaded.manifest;
    auto &changed = (*expected.ccm->resources)[static_cast<std::size_t>(entry.block)]
                        .entries[static_cast<std::size_t>(entry.entry)];
    changed.properties.erase(property);
    const std::string pointer = entryPointer(entry);
    const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
    std::optional<std::string> edited;
    const Json *body = nodeAt(d->loaded.document, pointer);
    if (block.form == BodyForm::List && body && body->is_object() && body->size() == 1)
        edited = editor.replaceItem(d->itemPointer(entry), toYaml(entryItem(block.type, changed)));
    else
        edited = editor.removeNode(editor.memberSpan(appendPointer(pointer, property)));
    d->commit(tr("Remove %1").arg(QString::fromStdString(property)), expected, std::move(edited));
}

void ManifestDocument::renameEntry(EntryRef entry, const std::string &name)
{
    if (!d->validEntry(entry))
        return;
    const auto &block = d->blocks()[static_cast<std::size_t>(entry.block)];
    const auto &current = block.entries[static_cast<std::size_t>(entry.entry)];
    if (current.isDefaults || current.name == name)
        return;
    Manifest expected = d->loaded.manifest;
    (*expected.ccm->resources)[static_cast<std::size_t>(entry.block)]
        .entries[static_cast<std::size_t>(entry.entry)]
        .name
        = name;
    const std::string pointer = entryPointer(entry);
    const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
    std::optional<std::string> edited;
    if (block.form == BodyForm::List) {
        edited = editor.renameKey(pointer, name);
    } else if (const Json *body = nodeAt(d->loaded.document, pointer); body && body->is_object()) {
        edited = editor.setMember(pointer, *body, "name", name);
    }
    const QString key = QStringLiteral("rename:%1:%2:%3").arg(entry.block).arg(entry.entry).arg(d->mergeSerial);
    d->commit(tr("Rename %1").arg(QString::fromStdString(block.type)), expected, std::move(edited), key);
}

EntryRef ManifestDocument::addResource(const std::string &type, EntryRef after)
{
    const auto &all = d->blocks();
    if (d->validEntry(after) && all[static_cast<std::size_t>(after.block)].type == type)
        return insertResource(type, after.block, after.entry + 1);
    for (std::size_t b = all.size(); b-- > 0;) {
        if (all[b].type == type)
            return insertResource(type, static_cast<int>(b), static_cast<int>(all[b].entries.size()));
    }
    return insertResource(type, static_cast<int>(all.size()), 0);
}

EntryRef ManifestDocument::insertResource(const std::string &type, int block, int entry)
{
    if (!isResourceType(type))
        return {};
    ResourceEntry fresh = newResourceTemplate(type);
    fresh.name = d->uniqueName(type, fresh.name);
    return d->insertEntry(tr("Add %1").arg(QString::fromStdString(type)), type, block, entry, std::move(fresh));
}

EntryRef ManifestDocument::insertEntry(
    const std::string &type, int block, int entry, const std::string &name, const Json &properties)
{
    if (!isResourceType(type) || !properties.is_object())
        return {};
    ResourceEntry added;
    added.name = name;
    added.properties = properties;
    return d->insertEntry(tr("Add %1").arg(QString::fromStdString(type)), type, block, entry, std::move(added));
}

void ManifestDocument::removeEntry(EntryRef entry)
{
    if (!d->validEntry(entry) || !d->loaded.parsed)
        return;
    const auto b = static_cast<std::size_t>(entry.block);
    const auto &block = d->blocks()[b];
    Manifest expected = d->loaded.manifest;
    auto &blocks = *expected.ccm->resources;
    blocks[b].entries.erase(blocks[b].entries.begin() + entry.entry);
    const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
    std::optional<std::string> edited;
    if (blocks[b].entries.empty()) {
        blocks.erase(blocks.begin() + entry.block);
        if (b < d->blockPointers.size())
            edited = editor.removeNode(editor.itemSpan(d->blockPointers[b]));
    } else if (block.form == BodyForm::List) {
        edited = editor.removeNode(editor.itemSpan(d->itemPointer(entry)));
    }
    d->commit(tr("Delete %1").arg(QString::fromStdString(block.type)), expected, std::move(edited));
}

EntryRef ManifestDocument::duplicateEntry(EntryRef entry)
{
    if (!d->validEntry(entry))
        return {};
    const auto &block = d->blocks()[static_cast<std::size_t>(entry.block)];
    ResourceEntry copy = block.entries[static_cast<std::size_t>(entry.entry)];
    if (copy.isDefaults)
        return {};
    copy.name = d->uniqueName(block.type, copy.name);
    return d->insertEntry(tr("Duplicate %1").arg(QString::fromStdString(block.type)), block.type, entry.block,
        entry.entry + 1, std::move(copy));
}

bool ManifestDocument::moveEntry(EntryRef from, int block, int entry)
{
    const auto &all = d->blocks();
    if (!d->validEntry(from) || block < 0 || static_cast<std::size_t>(block) >= all.size() || !d->loaded.parsed)
        return false;
    const auto source = static_cast<std::size_t>(from.block);
    const auto target = static_cast<std::size_t>(block);
    if (all[source].type != all[target].type)
        return false;
    const auto targetCount = static_cast<int>(all[target].entries.size());
    entry = std::clamp(entry, 0, targetCount);
    if (source == target && (entry == from.entry || entry == from.entry + 1))
        return true;
    Manifest expected = d->loaded.manifest;
    auto &blocks = *expected.ccm->resources;
    ResourceEntry moving = blocks[source].entries[static_cast<std::size_t>(from.entry)];
    blocks[source].entries.erase(blocks[source].entries.begin() + from.entry);
    int insertAt = entry;
    if (source == target && entry > from.entry)
        --insertAt;
    blocks[target].entries.insert(blocks[target].entries.begin() + insertAt, std::move(moving));
    if (blocks[target].form == BodyForm::Single)
        blocks[target].form = BodyForm::List;
    const bool sourceEmptied = blocks[source].entries.empty();
    if (sourceEmptied)
        blocks.erase(blocks.begin() + from.block);
    std::optional<std::string> edited;
    if (!sourceEmptied && all[source].form == BodyForm::List && all[target].form == BodyForm::List) {
        const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
        if (entry < targetCount)
            edited = editor.moveItem(d->itemPointer(from), d->itemPointer({block, entry}), false);
        else
            edited = editor.moveItem(d->itemPointer(from), d->itemPointer({block, targetCount - 1}), true);
    }
    return d->commit(tr("Move %1").arg(QString::fromStdString(all[source].type)), expected, std::move(edited));
}

void ManifestDocument::moveBlock(int from, int to)
{
    const auto &all = d->blocks();
    const auto count = static_cast<int>(all.size());
    if (from < 0 || from >= count || !d->loaded.parsed)
        return;
    to = std::clamp(to, 0, count);
    if (to == from || to == from + 1)
        return;
    Manifest expected = d->loaded.manifest;
    auto &blocks = *expected.ccm->resources;
    ResourceBlock moving = blocks[static_cast<std::size_t>(from)];
    blocks.erase(blocks.begin() + from);
    blocks.insert(blocks.begin() + (to > from ? to - 1 : to), std::move(moving));
    std::optional<std::string> edited;
    if (!d->blockPointers.empty()) {
        const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
        const auto &pointers = d->blockPointers;
        edited = to < count
            ? editor.moveItem(pointers[static_cast<std::size_t>(from)], pointers[static_cast<std::size_t>(to)], false)
            : editor.moveItem(pointers[static_cast<std::size_t>(from)], pointers.back(), true);
    }
    d->commit(tr("Move block"), expected, std::move(edited));
}

EntryRef ManifestDocument::addDefaults(int block)
{
    const auto &all = d->blocks();
    if (block < 0 || static_cast<std::size_t>(block) >= all.size())
        return {};
    if (const EntryRef existing = defaultsOf(block); existing.valid())
        return existing;
    ResourceEntry defaults;
    defaults.isDefaults = true;
    return d->insertEntry(tr("Add defaults"), all[static_cast<std::size_t>(block)].type, block, 0, std::move(defaults));
}

void ManifestDocument::setData(const Json &data)
{
    Manifest expected = d->loaded.manifest;
    expected.data = data.is_null() ? std::nullopt : std::optional<Json>(data);
    if (expected == d->loaded.manifest)
        return;
    d->commit(tr("Change data"), expected, d->memberEdit(d->utf8, "", "data", expected.data));
}

void ManifestDocument::setHierarchy(const std::optional<Hierarchy> &hierarchy)
{
    Manifest expected = d->loaded.manifest;
    expected.hierarchy = hierarchy;
    if (expected == d->loaded.manifest)
        return;
    const std::optional<Json> value = hierarchy ? std::optional<Json>(hierarchyJson(*hierarchy)) : std::nullopt;
    d->commit(tr("Change hierarchy"), expected, d->memberEdit(d->utf8, "", "hierarchy", value));
}

void ManifestDocument::setOverrides(const Json &overrides)
{
    Manifest expected = d->loaded.manifest;
    expected.overrides = overrides.is_null() ? std::nullopt : std::optional<Json>(overrides);
    if (expected == d->loaded.manifest)
        return;
    d->commit(tr("Change overrides"), expected, d->memberEdit(d->utf8, "", "overrides", expected.overrides));
}

void ManifestDocument::setMessages(const QString &preMessage, const QString &postMessage)
{
    Manifest expected = d->loaded.manifest;
    if (!expected.ccm)
        expected.ccm = CcmSettings();
    const auto asSetting = [](const QString &text) {
        return text.isEmpty() ? std::nullopt : std::optional<std::string>(text.toStdString());
    };
    expected.ccm->preMessage = asSetting(preMessage);
    expected.ccm->postMessage = asSetting(postMessage);
    if (expected == d->loaded.manifest)
        return;
    const auto asJson
        = [](const std::optional<std::string> &text) { return text ? std::optional<Json>(Json(*text)) : std::nullopt; };
    std::optional<std::string> edited = d->memberEdit(d->utf8, "/ccm", "pre_message", asJson(expected.ccm->preMessage));
    if (edited)
        edited = d->memberEdit(*edited, "/ccm", "post_message", asJson(expected.ccm->postMessage));
    d->commit(tr("Change messages"), expected, std::move(edited));
}

void ManifestDocument::setFailOnError(std::optional<bool> failOnError)
{
    Manifest expected = d->loaded.manifest;
    if (!expected.ccm)
        expected.ccm = CcmSettings();
    expected.ccm->failOnError = failOnError;
    if (expected == d->loaded.manifest)
        return;
    const std::optional<Json> value = failOnError ? std::optional<Json>(Json(*failOnError)) : std::nullopt;
    d->commit(tr("Change fail_on_error"), expected, d->memberEdit(d->utf8, "/ccm", "fail_on_error", value));
}

} // namespace ccm::designer
