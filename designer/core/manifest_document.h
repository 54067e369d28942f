// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/json.h"
#include "core/model/manifest.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QUndoStack;

namespace ccm::designer {

/// An entry of the manifest's resource blocks by its indices in the loaded model
/// (LoadedManifest::manifest.ccm->resources). Indices are only meaningful for the document
/// state they were taken from.
struct EntryRef {
    int block = -1;
    int entry = -1;
    [[nodiscard]] bool valid() const { return block >= 0 && entry >= 0; }
    friend bool operator==(const EntryRef &, const EntryRef &) = default;
};

/// The manifest being edited. The YAML text is what is saved, byte for byte; everything else
/// (the model, the flattened resources, the diagnostics) is derived from it after every change.
/// Every change is one command on undoStack(), so Undo and Redo cover form edits, structural
/// edits and typing in the YAML view alike. Edits made through the model (properties, adding,
/// moving, removing entries, the manifest's sections) rewrite only the text of what they touch:
/// comments and formatting elsewhere stay as they were.
class ManifestDocument : public QObject {
    Q_OBJECT

public:
    explicit ManifestDocument(QObject *parent = nullptr);
    ~ManifestDocument() override;

    // --- State -----------------------------------------------------------------------------

    /// The manifest's YAML text.
    [[nodiscard]] const QString &text() const;
    /// The text as read: the model, its source map and the structural diagnostics.
    [[nodiscard]] const LoadedManifest &loaded() const;
    /// The resource blocks of the model; empty when there are none.
    [[nodiscard]] const std::vector<ResourceBlock> &blocks() const;
    /// One resource per entry, defaults applied, in execution order.
    [[nodiscard]] const std::vector<FlatResource> &resources() const;
    /// Every diagnostic of the text, sorted by position: YAML syntax, shape, schema, semantic
    /// rules, unknown require/subscribe references, duplicate names, control expressions and
    /// template syntax.
    [[nodiscard]] const Diagnostics &diagnostics() const;
    /// The diagnostics that concern one entry (its body's pointer or below).
    [[nodiscard]] Diagnostics diagnosticsFor(EntryRef entry) const;
    /// What require/subscribe may name: every "type#name" and every alias ("type#alias"), in
    /// document order.
    [[nodiscard]] QStringList referenceTargets() const;
    /// The JSON Pointer of an entry's body in the document; empty for an invalid ref.
    [[nodiscard]] std::string entryPointer(EntryRef entry) const;
    /// The entry whose body contains the 1-based text line, if any.
    [[nodiscard]] std::optional<EntryRef> entryAtLine(int line) const;
    /// The 1-based line where an entry starts; 0 for an invalid ref.
    [[nodiscard]] int lineOf(EntryRef entry) const;
    /// Whether the ref names an entry of the current state.
    [[nodiscard]] bool hasEntry(EntryRef entry) const;
    /// The number of entries of a block; 0 for a block that does not exist.
    [[nodiscard]] int entryCount(int block) const;
    /// The defaults entry of a block; invalid when the block has none or does not exist.
    [[nodiscard]] EntryRef defaultsOf(int block) const;
    /// The properties an entry inherits from its block's defaults entry: an empty object for a
    /// defaults entry itself, an invalid ref or a block without defaults.
    [[nodiscard]] Json inheritedProperties(EntryRef entry) const;
    /// The 1-based lines an entry's text spans: from lineOf() to the line before the next entry
    /// starts, whichever block that is in, or to the last line. {0, -1} for an invalid ref.
    [[nodiscard]] std::pair<int, int> lineRange(EntryRef entry) const;
    /// The entry a JSON Pointer lies in: the one with the longest body pointer that is the path
    /// or a prefix of it up to a '/'. Invalid when the path is in no entry.
    [[nodiscard]] EntryRef entryContaining(const std::string &pointer) const;

    /// The undo history. Its clean state is the saved state.
    [[nodiscard]] QUndoStack *undoStack() const;

    // --- Files -----------------------------------------------------------------------------

    /// The file the document was loaded from or saved to; empty for a new document.
    [[nodiscard]] QString filePath() const;
    /// The file last loaded, also when it was a bundle (whose filePath() is empty, as saving
    /// writes a plain manifest elsewhere); empty for a new document.
    [[nodiscard]] QString loadedFrom() const;
    /// The directory relative paths in the manifest resolve against: the file's directory, or
    /// the current directory for a new document.
    [[nodiscard]] QString baseDirectory() const;
    /// Where a document opened from a bundle location came from: the location (a local .tar.gz
    /// or a URL) and the private directory it was unpacked into, whose manifest.yaml is
    /// filePath(). The document owns the directory from now on and removes it when it loads
    /// another file, starts a new document, gets another origin or goes away.
    void setBundleOrigin(const QString &location, const QString &directory);
    /// The bundle location the document came from; empty when none (or after saving elsewhere).
    [[nodiscard]] QString bundleLocation() const;
    /// The directory the bundle was unpacked into; empty when the document came from no bundle.
    [[nodiscard]] QString bundleDirectory() const;
    /// Forgets the location (the manifest now lives elsewhere); the directory stays until the
    /// document lets go of it, as the manifest may still read files from there.
    void forgetBundleLocation();
    /// Whether the text is as load() or newDocument() set it, rather than from an edit, an undo or
    /// a redo.
    [[nodiscard]] bool isLoadedText() const;
    /// Whether the text differs from the saved (or loaded) state.
    [[nodiscard]] bool isModified() const;

    /// An empty manifest (`ccm:` with an empty resource list); clears the history.
    void newDocument();
    /// Reads a manifest file, or the manifest.yaml of a .tar.gz bundle. On failure returns false,
    /// sets *error to a message naming the path and the reason, and keeps the current document.
    /// Clears the history on success.
    bool load(const QString &path, QString *error);
    /// Writes the text to path atomically (a temporary file in the same directory, renamed over
    /// the target); the file keeps its permissions. On failure returns false with *error set and
    /// nothing changed on disk. A bundle is saved as a plain manifest.
    bool save(const QString &path, QString *error);
    /// Reloads filePath(), dropping unsaved changes (undoable).
    bool revert(QString *error);
    /// Replaces the text as if loaded from filePath() without touching the history's clean state:
    /// for restoring a recovery copy, which leaves the document modified.
    void restore(const QString &text);

    // --- Edits (each one undo command) -------------------------------------------------------

    /// The text as typed in the YAML view. Consecutive calls merge into one command until
    /// closeTextEdit() or another kind of edit.
    void setText(const QString &text);
    /// Ends the current run of setText() merging (the YAML view calls it on focus loss).
    void closeTextEdit();
    /// Sets a top-level property of an entry (for the defaults entry, of the block's defaults).
    /// Consecutive edits of the same property merge into one command.
    void setProperty(EntryRef entry, const std::string &property, const Json &value);
    /// Removes a top-level property of an entry; nothing when it is not set.
    void removeProperty(EntryRef entry, const std::string &property);
    /// Renames a resource entry.
    void renameEntry(EntryRef entry, const std::string &name);
    /// Adds a resource of `type` with the type's sensible defaults and a unique name: after
    /// `after` when it is an entry of a block of that type, else at the end of the last block of
    /// that type, else in a new block at the end. Returns the new entry.
    EntryRef addResource(const std::string &type, EntryRef after = {});
    /// Adds a resource of `type` at a given place: block index (a new block when equal to the
    /// number of blocks) and entry index within it.
    EntryRef insertResource(const std::string &type, int block, int entry);
    /// Adds a resource with the given name and properties (besides the name) at a given place,
    /// as insertResource() does; the name is taken as given. Returns the new entry; invalid when
    /// the type is unknown or the text does not read as a manifest.
    EntryRef insertEntry(
        const std::string &type, int block, int entry, const std::string &name, const Json &properties);
    /// Removes an entry (a block left empty is removed too).
    void removeEntry(EntryRef entry);
    /// Copies an entry right after itself, with a unique name. Returns the copy.
    EntryRef duplicateEntry(EntryRef entry);
    /// Moves an entry to block `block`, position `entry` (counted before the move). Blocks of
    /// another type refuse (returns false, nothing changes).
    bool moveEntry(EntryRef from, int block, int entry);
    /// Moves a whole block to position `to` (counted before the move).
    void moveBlock(int from, int to);
    /// Gives a block a defaults entry (empty) when it has none. Returns the defaults entry.
    EntryRef addDefaults(int block);
    /// The `data` section; a null value removes it.
    void setData(const Json &data);
    /// The `hierarchy` section; nullopt removes it.
    void setHierarchy(const std::optional<Hierarchy> &hierarchy);
    /// The `overrides` section; a null value removes it.
    void setOverrides(const Json &overrides);
    /// `ccm.pre_message`, `ccm.post_message` (empty removes) and `ccm.fail_on_error` (nullopt
    /// removes).
    void setMessages(const QString &preMessage, const QString &postMessage);
    void setFailOnError(std::optional<bool> failOnError);

signals:
    /// A loaded text (load(), newDocument()) is about to replace the document's, and changed()
    /// follows once the rest is derived from it. Views that show the text take it here: the
    /// model, diagnostics and resources are worked out on another thread meanwhile, so a slot
    /// must neither read them nor change the document.
    void textLoading(const QString &text);
    /// The text and everything derived from it changed (any edit, undo, redo, load).
    void changed();
    /// filePath() changed.
    void filePathChanged();
    /// isModified() changed.
    void modifiedChanged(bool modified);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ccm::designer
