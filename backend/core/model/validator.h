// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/diagnostic.h"
#include "core/model/manifest.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace ccm {

/// Checks a loaded manifest: every resource body against its type's JSON Schema, then the
/// semantic rules of each type (paths, modes, names, versions, URLs, durations, references, ...)
/// on the flattened resources, then duplicate names and aliases. Returns the loader's
/// diagnostics followed by these, sorted by position. A `standalone` manifest is checked as a whole
/// program, not as a child that another manifest applies: a require or subscribe that neither it
/// nor a child of its own can satisfy is an error; else it is a warning, as the parent may satisfy it.
/// The children are read from `baseDirectory`, the directory of the manifest's file; without one
/// (text not saved yet) they cannot be, and a reference only a child could declare is a warning.
Diagnostics validateManifest(
    const LoadedManifest &loaded, bool standalone = false, const std::filesystem::path &baseDirectory = {});

/// Reads and validates manifest text, with what only the text shows: the data annotations
/// (checkDataAnnotations()) and the registrations() calls that find nothing here (warnings).
/// `baseDirectory` is the directory of the manifest's file, where its child manifests are read.
Diagnostics validateManifestText(std::string_view text, const std::filesystem::path &baseDirectory = {});

/// The references (`type#name` and `type#alias`) `loaded` and its child manifests declare, the
/// children read from the files its apply resources name (relative to `baseDirectory`) and their
/// own children in turn.
/// nullopt when one cannot be known before a run: a templated path or name, a file that does not
/// read or parse, or children nested deeper than a run allows.
std::optional<std::unordered_set<std::string>> childManifestDeclarations(
    const LoadedManifest &loaded, const std::filesystem::path &baseDirectory);

/// An error at each expression of the manifest's templates (resource names and properties,
/// messages, data and overrides) that does not parse, placed at the offending token inside its
/// string and naming the property. Only syntax is checked, so values that need facts are too.
Diagnostics templateSyntaxErrors(const LoadedManifest &loaded, std::string_view text);

/// True when the string holds a template expression ({{ }} or ${ }), whose value is only
/// known when the manifest is resolved; format rules skip such values.
bool isTemplated(std::string_view value);

/// What is wrong with a package name, service name or package version: "contains ';'; allowed
/// are letters, digits and . _ + : ~ -" for the first character outside that set, nullopt when
/// there is none. Types check templated values with it, in validation's words.
std::optional<std::string> nameCharacterProblem(std::string_view text);

/// Parses a file mode ("0644", "644", "0o755", "0O700") into its numeric value, or explains what
/// is wrong with it.
Result<unsigned> parseFileMode(std::string_view mode);

/// True for an absolute path with no empty, "." or ".." components and no trailing slash
/// (what Go's filepath.Clean leaves unchanged).
bool isAbsoluteCleanPath(std::string_view path);

} // namespace ccm
