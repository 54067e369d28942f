// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/capture/captured_manifest.h"
#include "core/model/json.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ccm::designer {

class ManifestDocument;

// A capture (docs/capture.md) added to the manifest being edited: its resources into the
// manifest's blocks of their type, its data into the manifest's data, its source files beside the
// manifest. What the manifest already has is never added twice.

/// What adding a capture to a document does.
struct CaptureInsertionPlan {
    /// The resources to add, in the capture's order.
    std::vector<CapturedResource> added;
    /// "type#name" of the captured resources the manifest already has; they are left as they are.
    QStringList alreadyPresent;
    /// The manifest's data after the merge; meaningful when dataChanged.
    ccm::Json data;
    bool dataChanged = false;
    /// Data values the manifest already holds with another value: the manifest's are kept.
    QStringList dataConflicts;
    /// The source files the added resources refer to.
    std::vector<CapturedSource> sources;
};

/// Works out what adding `capture` to `document` does, without changing anything. Data values are
/// taken only when an added resource looks them up.
CaptureInsertionPlan planCaptureInsertion(const ManifestDocument &document, const CapturedManifest &capture);

/// Adds what planCaptureInsertion() says as ONE step of the document's undo history labelled
/// `label`: each resource at the end of the last block of its type, or in a new block placed
/// before the first block of a type the capture writes later (package, file, service), else at
/// the end; then the merged data. Returns the plan; false in *ok (with *error) when the document's
/// text does not read as a manifest, and then nothing changes.
CaptureInsertionPlan insertCapture(ManifestDocument &document, const CapturedManifest &capture, const QString &label,
    bool *ok = nullptr, QString *error = nullptr);

/// What writing source files did.
struct SourceWriteOutcome {
    bool ok = false;
    QString error; ///< why nothing was written
    QStringList written; ///< relative paths written
    QStringList unchanged; ///< relative paths already there with the same bytes
};

/// Writes the sources under `directory` (each at its relative path, "files/etc/motd"), each
/// atomically (a temporary file renamed into place), private ones with mode 0600, others 0644.
/// Everything is checked first: a different file already at a path, a path that is not a
/// regular file or a directory on the way that is a symbolic link refuses the whole write, and
/// nothing is written. A file with the same bytes is left as it is.
SourceWriteOutcome writeCaptureSources(const QString &directory, const std::vector<CapturedSource> &sources);

/// What adding a capture did.
struct CaptureAddOutcome {
    bool ok = false;
    QString error; ///< why nothing was added
    CaptureInsertionPlan plan;
    SourceWriteOutcome sources;
};

/// Adds `capture` to `document`: checks that the text reads, that a manifest whose added
/// resources need source files is saved as a file of its own (not untitled, not unpacked from a
/// bundle), writes the sources beside it (writeCaptureSources), then inserts (insertCapture).
/// Nothing changes when a step before the insertion refuses.
CaptureAddOutcome addCapture(ManifestDocument &document, const CapturedManifest &capture, const QString &label);

} // namespace ccm::designer
