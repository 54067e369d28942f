// SPDX-License-Identifier: Apache-2.0
#include "core/model/diagnostic.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ccm {

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        return "info";
    }
    return "error";
}

bool hasErrors(const Diagnostics &diagnostics)
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic &d) { return d.severity == Severity::Error; });
}

std::string formatDiagnostic(std::string_view fileName, const Diagnostic &diagnostic)
{
    std::string out(fileName);
    if (diagnostic.position.known()) {
        out += ':' + std::to_string(diagnostic.position.line) + ':'
               + std::to_string(diagnostic.position.column);
    }
    out += ": ";
    out += severityName(diagnostic.severity);
    out += ": ";
    out += diagnostic.message;
    return out;
}

nlohmann::json diagnosticToJson(const Diagnostic &diagnostic)
{
    return nlohmann::json{{"severity", severityName(diagnostic.severity)},
                          {"message", diagnostic.message},
                          {"path", diagnostic.path},
                          {"line", diagnostic.position.line},
                          {"column", diagnostic.position.column}};
}

void sortByPosition(Diagnostics &diagnostics)
{
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic &a, const Diagnostic &b) {
        if (a.position.line != b.position.line)
            return a.position.line < b.position.line;
        return a.position.column < b.position.column;
    });
}

} // namespace ccm
