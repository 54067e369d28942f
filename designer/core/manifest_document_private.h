// SPDX-License-Identifier: Apache-2.0
// What the units of ManifestDocument share: its private state and the operations on it. Not for
// anything outside the document.
#pragma once

#include "designer/core/manifest_document.h"

#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

class QUndoStack;

namespace ccm::designer {

struct ManifestDocument::Private {
    ManifestDocument *q = nullptr;
    QString text;
    std::string utf8;
    LoadedManifest loaded;
    std::vector<FlatResource> flat;
    Diagnostics diagnostics;
    /// Document pointers of the model's blocks (the `- TYPE:` items).
    std::vector<std::string> blockPointers;
    QUndoStack *stack = nullptr;
    QString filePath;
    QString loadedFrom;
    QString bundleLocation;
    QString bundleDirectory;
    /// Changes whenever a run of mergeable edits ends.
    int mergeSerial = 0;
    /// The text came from load() or newDocument(), not from an edit, undo or redo.
    bool loadedText = false;
    /// A parse of the text about to be set, done while checking an edit, so it is not repeated.
    std::optional<std::pair<std::string, LoadedManifest>> pending;

    void apply(const QString &newText);
    void push(const QString &label, const QString &after, const QString &mergeKey = {});
    bool commit(const QString &label, const Manifest &expected, std::optional<std::string> edited,
        const QString &mergeKey = {});

    [[nodiscard]] const std::vector<ResourceBlock> &blocks() const;
    [[nodiscard]] bool validEntry(EntryRef ref) const;
    [[nodiscard]] std::string itemPointer(EntryRef ref) const;
    [[nodiscard]] std::string uniqueName(const std::string &type, const std::string &base) const;
    /// Inserts entry into block (a new block at that position when block is past the end or
    /// of another type). Returns where it went.
    EntryRef insertEntry(const QString &label, const std::string &type, int block, int index, ResourceEntry entry);
    /// A top-level section or ccm setting: set, or removed when value is nullopt.
    std::optional<std::string> memberEdit(const std::string &text, const std::string &mapPointer,
        const std::string &key, const std::optional<Json> &value) const;
    std::optional<std::string> readBundle(const QString &path, QString *error) const;
    void dropBundleDirectory();
};

} // namespace ccm::designer
