// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace ccm {

/// A position in a source text. Lines and columns start at 1; 0 means unknown.
struct SourcePosition {
    int line = 0;
    int column = 0;

    [[nodiscard]] bool known() const { return line > 0; }
    friend bool operator==(const SourcePosition &, const SourcePosition &) = default;
};

enum class Severity { Error, Warning, Info };

/// Lower-case name of a severity as printed and sent on the wire ("error", "warning", "info").
std::string_view severityName(Severity severity);

/// One finding about a manifest: what is wrong, where in the data (a JSON Pointer into the
/// document, "" for the whole document) and where in the text.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string message;
    std::string path;
    SourcePosition position;

    friend bool operator==(const Diagnostic &, const Diagnostic &) = default;
};

using Diagnostics = std::vector<Diagnostic>;

/// True when any diagnostic is an error.
bool hasErrors(const Diagnostics &diagnostics);

/// "FILE:LINE:COL: error: message" (LINE:COL left out when unknown), as compilers print.
std::string formatDiagnostic(std::string_view fileName, const Diagnostic &diagnostic);

/// {"severity", "message", "path", "line", "column"} as in the protocol's manifest.validate.
nlohmann::json diagnosticToJson(const Diagnostic &diagnostic);

/// Sorts by position (unknown positions first), keeping the order of equal positions.
void sortByPosition(Diagnostics &diagnostics);

} // namespace ccm
