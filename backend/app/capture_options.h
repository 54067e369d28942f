// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/capture/captured_manifest.h"
#include "core/model/json.h"

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::cli {

/// What `ccm-backend capture` and `ccm-backend fleet capture` both read from their command
/// lines: the selection (--package, --service, --file, --exclude, --data, --pin,
/// --include-private), -o/--output and --json.
struct CaptureSelectionLine {
    std::vector<std::string> packages;
    std::vector<std::string> services;
    std::vector<std::string> files;
    std::vector<std::string> excludes;
    bool data = false;
    bool pin = false;
    bool includePrivate = false;
    std::optional<std::filesystem::path> output;
    bool json = false;

    /// No packages, services or files: the capture would select nothing.
    bool selectsNothing() const { return packages.empty() && services.empty() && files.empty(); }
};

/// Where the files a --file names are: on this host, a relative path taken from the working
/// directory; on another host (fleet capture), where this working directory means nothing, only
/// absolute paths.
enum class CaptureFilePaths { ThisHost, OtherHost };

/// The command whose options are read: its name for messages ("ccm-backend capture") and where
/// its files are.
struct CaptureOptionRules {
    std::string_view command;
    CaptureFilePaths files = CaptureFilePaths::ThisHost;
};

/// Whether an output's name ends in .yaml, .yml, .tar.gz or .tgz (with something before it).
bool captureOutputKnown(const std::filesystem::path &output);

/// Takes the selection option at args[i] (and its value, advancing i) into `line`: nullopt when
/// args[i] is none of them, else whether it was well-formed (with a message on `err`, naming
/// the command, when not).
std::optional<bool> takeCaptureSelectionOption(const std::vector<std::string> &args, std::size_t &i,
    CaptureSelectionLine &line, const CaptureOptionRules &rules, std::ostream &err);

/// The selection as a command line after `prefix` ("ccm-backend", "capture"), for the
/// manifest's header comment.
std::vector<std::string> captureCommandWords(std::vector<std::string> prefix, const CaptureSelectionLine &line);

/// "1 file", "2 files".
std::string countOf(std::size_t n, std::string_view one, std::string_view many);

/// The resources by type, in the order they are written: "2 packages, 9 files, 1 service".
std::string resourcesByType(const CapturedManifest &capture);

/// For people, on `err`: "Captured N resources" and `where` ("on HOST: ...") on a line, then
/// where the capture was written, what was skipped and why, and the warnings.
void printCaptureSummary(const CapturedManifest &capture, std::string_view where,
    const std::optional<std::filesystem::path> &output, std::ostream &err);

/// {output, resources, resources_by_type, sources, skipped, warnings}: what both commands' --json
/// results hold.
Json captureSummaryJson(const CapturedManifest &capture, const std::optional<std::filesystem::path> &output);

} // namespace ccm::cli
