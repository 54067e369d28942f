// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/model/diagnostic.h"
#include "core/model/resolve.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace ccm::engine {

/// A manifest read, validated and resolved: what a run executes, or why it cannot.
struct PreparedManifest {
    /// The file name diagnostics are reported against.
    std::string fileName;
    ResolvedManifest resolved;
    /// Every problem from reading, validation and resolution, warnings included.
    Diagnostics diagnostics;

    [[nodiscard]] bool ok() const { return !hasErrors(diagnostics); }

    /// The diagnostics as "FILE:LINE:COL: severity: message" lines, each ending in '\n'.
    [[nodiscard]] std::string diagnosticText() const;
};

/// Reads, validates and resolves manifest text. Resolution is skipped when validation found errors.
/// options.baseDirectory is where relative files of the manifest are looked up.
PreparedManifest prepareManifestText(std::string_view text, std::string fileName, const ResolveOptions &options);

/// The same for a manifest file; options.baseDirectory is replaced by the file's directory.
PreparedManifest prepareManifestFile(const std::filesystem::path &path, ResolveOptions options);

} // namespace ccm::engine
