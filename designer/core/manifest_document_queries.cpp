// SPDX-License-Identifier: Apache-2.0
// ManifestDocument's queries: what the views ask of the loaded text and its model (entries, their
// lines and diagnostics, inherited properties, reference targets). The edits are in
// manifest_document.cpp.
#include "designer/core/manifest_document.h"
#include "designer/core/manifest_document_private.h"

#include <algorithm>

namespace ccm::designer {
namespace {

/// Whether path is prefix itself or lies below it (the prefix followed by '/').
bool isWithin(const std::string &path, const std::string &prefix)
{
    return path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '/');
}

} // namespace

const QString &ManifestDocument::text() const
{
    return d->text;
}

const LoadedManifest &ManifestDocument::loaded() const
{
    return d->loaded;
}

const std::vector<ResourceBlock> &ManifestDocument::blocks() const
{
    return d->blocks();
}

const std::vector<FlatResource> &ManifestDocument::resources() const
{
    return d->flat;
}

const Diagnostics &ManifestDocument::diagnostics() const
{
    return d->diagnostics;
}

Diagnostics ManifestDocument::diagnosticsFor(EntryRef entry) const
{
    Diagnostics out;
    const std::string pointer = entryPointer(entry);
    if (pointer.empty())
        return out;
    for (const Diagnostic &diagnostic : d->diagnostics) {
        if (isWithin(diagnostic.path, pointer))
            out.push_back(diagnostic);
    }
    return out;
}

QStringList ManifestDocument::referenceTargets() const
{
    QStringList out;
    for (const FlatResource &resource : d->flat) {
        out.append(QString::fromStdString(resource.label()));
        const auto alias = resource.properties.find("alias");
        if (alias != resource.properties.end() && alias->is_string() && !alias->get_ref<const std::string &>().empty())
            out.append(QString::fromStdString(resource.type + '#' + alias->get<std::string>()));
    }
    return out;
}

std::string ManifestDocument::entryPointer(EntryRef entry) const
{
    if (!d->validEntry(entry))
        return {};
    const auto block = static_cast<std::size_t>(entry.block);
    return ccm::entryPointer(
        d->blocks()[block], block, static_cast<std::size_t>(entry.entry), &d->loaded.entryPointers);
}

std::optional<EntryRef> ManifestDocument::entryAtLine(int line) const
{
    // Entries are in document order: the candidate is the last one starting at or before line.
    std::optional<EntryRef> found;
    const auto &all = d->blocks();
    for (std::size_t b = 0; b < all.size(); ++b) {
        for (std::size_t e = 0; e < all[b].entries.size(); ++e) {
            const EntryRef ref {static_cast<int>(b), static_cast<int>(e)};
            const int start = lineOf(ref);
            if (start > 0 && start <= line)
                found = ref;
        }
    }
    if (!found)
        return std::nullopt;
    const auto block = static_cast<std::size_t>(found->block);
    std::string item;
    if (all[block].form == BodyForm::List)
        item = d->itemPointer(*found);
    else if (block < d->blockPointers.size())
        item = d->blockPointers[block];
    const YamlPatcher editor(d->utf8, d->loaded.sourceMap);
    const auto span = editor.itemSpan(item);
    if (!span)
        return found;
    const auto lastLine = std::count(d->utf8.begin(), d->utf8.begin() + static_cast<std::ptrdiff_t>(span->end), '\n')
        + ((span->end == d->utf8.size() && !d->utf8.empty() && d->utf8.back() != '\n') ? 1 : 0);
    if (line > lastLine)
        return std::nullopt;
    return found;
}

int ManifestDocument::lineOf(EntryRef entry) const
{
    const std::string pointer = entryPointer(entry);
    if (pointer.empty())
        return 0;
    return d->loaded.sourceMap.keyAt(pointer).line;
}

bool ManifestDocument::hasEntry(EntryRef entry) const
{
    return d->validEntry(entry);
}

int ManifestDocument::entryCount(int block) const
{
    const auto &all = d->blocks();
    if (block < 0 || static_cast<std::size_t>(block) >= all.size())
        return 0;
    return static_cast<int>(all[static_cast<std::size_t>(block)].entries.size());
}

EntryRef ManifestDocument::defaultsOf(int block) const
{
    for (int e = 0; e < entryCount(block); ++e) {
        if (d->blocks()[static_cast<std::size_t>(block)].entries[static_cast<std::size_t>(e)].isDefaults)
            return {block, e};
    }
    return {};
}

Json ManifestDocument::inheritedProperties(EntryRef entry) const
{
    const EntryRef defaults = d->validEntry(entry) ? defaultsOf(entry.block) : EntryRef {};
    if (!defaults.valid() || defaults == entry)
        return Json::object();
    return d->blocks()[static_cast<std::size_t>(defaults.block)]
        .entries[static_cast<std::size_t>(defaults.entry)]
        .properties;
}

std::pair<int, int> ManifestDocument::lineRange(EntryRef entry) const
{
    if (!d->validEntry(entry))
        return {0, -1};
    // Entries appear in the text in their model order: the entry ends before the first one after
    // it that starts on a later line, or with the text.
    const int first = lineOf(entry);
    const auto &all = d->blocks();
    auto e = static_cast<std::size_t>(entry.entry) + 1;
    for (auto b = static_cast<std::size_t>(entry.block); b < all.size(); ++b, e = 0) {
        for (; e < all[b].entries.size(); ++e) {
            const int line = lineOf({static_cast<int>(b), static_cast<int>(e)});
            if (line > first)
                return {first, line - 1};
        }
    }
    return {first, static_cast<int>(d->text.count(u'\n')) + 1};
}

EntryRef ManifestDocument::entryContaining(const std::string &pointer) const
{
    EntryRef found;
    std::size_t foundLength = 0;
    const auto &all = d->blocks();
    for (std::size_t b = 0; b < all.size(); ++b) {
        for (std::size_t e = 0; e < all[b].entries.size(); ++e) {
            const EntryRef candidate {static_cast<int>(b), static_cast<int>(e)};
            const std::string prefix = entryPointer(candidate);
            if (prefix.empty() || prefix.size() <= foundLength || !isWithin(pointer, prefix))
                continue;
            found = candidate;
            foundLength = prefix.size();
        }
    }
    return found;
}

} // namespace ccm::designer
