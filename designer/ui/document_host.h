// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace ccm::designer {

/// What a controller may ask of the window that holds the document, and nothing more: to settle
/// its unsaved changes before another document replaces it, and to open a manifest file in its
/// place.
class DocumentHost {
public:
    /// Asks what to do with unsaved changes; false when the user cancels.
    virtual bool settleUnsavedChanges() = 0;
    /// Opens the manifest at `path` in place of the current document, without asking and without
    /// putting it among the recent files. False with *error set when it cannot be read.
    virtual bool openManifestFile(const QString &path, QString *error) = 0;

protected:
    ~DocumentHost() = default;
};

} // namespace ccm::designer
