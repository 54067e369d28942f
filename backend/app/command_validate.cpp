// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kValidateUsage = R"(Usage: ccm-backend validate FILE... [--json]

Checks each manifest (a YAML file, a .tar.gz or .tgz bundle holding manifest.yaml, or a bundle
at an http(s):// or obj://BUCKET/KEY URL): YAML syntax, the manifest's shape, every resource against its
type's JSON Schema, and the rules of each type (paths, modes, names, URLs, durations,
references). Prints one line per finding as FILE:LINE:COL: SEVERITY: MESSAGE.

Options:
  --json       print {"valid": bool, "files": [{"file", "valid", "diagnostics": [...]}]}; a
               bundle's entry has "signature": {"state", "fingerprint", "problem"}
  -h, --help   show this help
)";

constexpr std::string_view kValidateTail = R"(
Exit status: 0 when every file is valid (warnings allowed), 1 when any has an error,
2 for a usage error.
)";

struct ValidateOptions {
    bool json = false;
    std::vector<std::string> files;
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
};

/// Reads the command line into options; the exit code when the command ends there (help or a usage error).
std::optional<int> parseValidateOptions(
    const std::vector<std::string> &args, ValidateOptions &options, std::ostream &out, std::ostream &err)
{
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (!optionsEnded) {
            auto taken = takeSourceOption(args, i, options.sources);
            if (taken && !taken.value())
                taken = takeSignatureOption(args, i, options.sources);
            if (!taken) {
                err << "ccm-backend validate: " << taken.error().message << '\n';
                return UsageError;
            }
            if (taken.value())
                continue;
        }
        if (!optionsEnded && arg == "--json") {
            options.json = true;
        } else if (!optionsEnded && (arg == "-h" || arg == "--help")) {
            out << kValidateUsage << kSourceOptionsUsage << kValidateTail;
            return Success;
        } else if (!optionsEnded && arg == "--") {
            optionsEnded = true;
        } else if (!optionsEnded && arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend validate: unknown option '" << arg << "'\n"
                << kValidateUsage << kSourceOptionsUsage << kValidateTail;
            return UsageError;
        } else {
            options.files.push_back(arg);
        }
    }
    if (options.files.empty()) {
        err << "ccm-backend validate: no manifest given\n" << kValidateUsage << kSourceOptionsUsage << kValidateTail;
        return UsageError;
    }
    return std::nullopt;
}

/// {"state": "signed"|"unsigned"|"invalid", "fingerprint": ..., "problem": ...} for --json.
nlohmann::json signatureToJson(const BundleSignatureCheck &check)
{
    using State = BundleSignatureCheck::State;
    nlohmann::json json = {{"state",
        check.state == State::Signed        ? "signed"
            : check.state == State::Invalid ? "invalid"
                                            : "unsigned"}};
    if (check.signature)
        json["fingerprint"] = check.signature->fingerprint();
    if (check.state == State::Invalid)
        json["problem"] = check.problem;
    return json;
}

} // namespace

int validateCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ValidateOptions options;
    if (const auto exitCode = parseValidateOptions(args, options, out, err))
        return *exitCode;
    const bool json = options.json;
    const std::vector<std::string> &files = options.files;
    const fleet::SourceOptions &sources = options.sources;

    bool allValid = true;
    nlohmann::json report = {{"files", nlohmann::json::array()}};
    std::size_t errors = 0;
    std::size_t warnings = 0;
    for (const std::string &file : files) {
        Diagnostics diagnostics;
        nlohmann::json signature;
        std::string shownName = ManifestInput::displayName(file);
        auto input = ManifestInput::open(file, sources);
        if (!input) {
            diagnostics.push_back({Severity::Error, input.error().message, "", {}});
        } else {
            shownName = input->shownName();
            if (const std::string note = input->signatureNote(); !note.empty() && !json)
                err << "ccm-backend validate: " << note << '\n';
            if (const BundleSignatureCheck *check = input->signatureCheck())
                signature = signatureToJson(*check);
            FileText read = readManifestFile(input->file().string());
            if (read.problem)
                diagnostics.push_back(*read.problem);
            else
                diagnostics = validateManifestText(read.text, input->file().parent_path());
        }
        const bool valid = !hasErrors(diagnostics);
        allValid = allValid && valid;
        nlohmann::json entries = nlohmann::json::array();
        for (const Diagnostic &diagnostic : diagnostics) {
            (diagnostic.severity == Severity::Error ? errors : warnings)++;
            if (json)
                entries.push_back(diagnosticToJson(diagnostic));
            else
                out << formatDiagnostic(shownName, diagnostic) << '\n';
        }
        nlohmann::json entry = {{"file", ManifestInput::displayName(file)}, {"valid", valid}, {"diagnostics", entries}};
        if (!signature.is_null())
            entry["signature"] = std::move(signature);
        report["files"].push_back(std::move(entry));
    }
    if (json) {
        report["valid"] = allValid;
        out << report.dump(2) << '\n';
    } else {
        const auto plural = [](std::size_t n, const char *word) {
            return std::to_string(n) + ' ' + word + (n == 1 ? "" : "s");
        };
        out.flush();
        err << plural(files.size(), "file") << " checked: " << plural(errors, "error") << ", "
            << plural(warnings, "warning") << '\n';
    }
    return allValid ? Success : Failure;
}

} // namespace ccm::cli
