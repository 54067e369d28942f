// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "core/model/manifest.h"
#include "core/model/resolve.h"
#include "core/model/validator.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kRenderUsage
    = R"(Usage: ccm-backend render MANIFEST [--fact KEY=VALUE]... [--facts FILE] [--data FILE|URL]

Resolves a manifest (a YAML file, a .tar.gz or .tgz bundle, or a bundle at an http(s):// or
obj://BUCKET/KEY URL) the way an apply does, without changing anything: validates it,
resolves its data with the facts and its hierarchy, renders resources_jet_file,
applies block defaults and resolves templates. Prints the result as YAML: data, then
ccm with one resource per item. Deferred fields (file content and source; exec
command, cwd, environment, creates, onlyif and unless) keep their templates: they
are resolved just before their resource is applied.

Options:
)";

constexpr std::string_view kDataUsage
    = R"(  --data FILE|URL     data (a JSON or YAML map) merged over the manifest's resolved data;
                      a file, an http(s):// URL or kv://BUCKET/KEY
  -h, --help          show this help

Exit status: 0 when the manifest resolved, 1 when it is invalid or does not resolve,
2 for a usage error.
)";

void printDiagnostics(const std::string &file, const Diagnostics &diagnostics, std::ostream &err)
{
    for (const Diagnostic &diagnostic : diagnostics)
        err << formatDiagnostic(file, diagnostic) << '\n';
}

struct RenderArguments {
    std::optional<std::string> manifestPath;
    InputOptions input;
};

/// Reads the command line into arguments; the exit code when the command ends there (help or a usage error).
std::optional<int> parseRenderArguments(
    const std::vector<std::string> &args, RenderArguments &arguments, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto taken = takeInputOption(args, i, arguments.input, true);
        if (!taken) {
            err << "ccm-backend render: " << taken.error().message << '\n';
            return UsageError;
        }
        if (taken.value())
            continue;
        if (arg == "-h" || arg == "--help") {
            out << kRenderUsage << kInputOptionsUsage << kSourceOptionsUsage << kRegistrationOptionUsage << kDataUsage;
            return Success;
        }
        if (arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend render: unknown option '" << arg << "'\n"
                << kRenderUsage << kInputOptionsUsage << kSourceOptionsUsage << kRegistrationOptionUsage << kDataUsage;
            return UsageError;
        }
        if (arguments.manifestPath) {
            err << "ccm-backend render: only one manifest may be given\n";
            return UsageError;
        }
        arguments.manifestPath = arg;
    }
    if (!arguments.manifestPath) {
        err << "ccm-backend render: no manifest given\n"
            << kRenderUsage << kInputOptionsUsage << kSourceOptionsUsage << kRegistrationOptionUsage << kDataUsage;
        return UsageError;
    }
    return std::nullopt;
}

} // namespace

int renderCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    RenderArguments arguments;
    if (const auto exitCode = parseRenderArguments(args, arguments, out, err))
        return *exitCode;
    const std::string &manifestPath = *arguments.manifestPath;
    const InputOptions &input = arguments.input;

    const auto manifest = ManifestInput::open(manifestPath, input.sources);
    if (!manifest) {
        err << "ccm-backend render: bundle " << ManifestInput::displayName(manifestPath) << ": "
            << manifest.error().message << '\n';
        return Failure;
    }
    if (const std::string note = manifest->signatureNote(); !note.empty())
        err << "ccm-backend render: " << note << '\n';
    const std::string &shownName = manifest->shownName();
    const FileText file = readManifestFile(manifest->file().string());
    if (file.problem) {
        printDiagnostics(shownName, {*file.problem}, err);
        return Failure;
    }
    const LoadedManifest loaded = loadManifest(file.text);
    Diagnostics problems = validateManifest(loaded, true, manifest->file().parent_path());
    for (Diagnostic &problem : templateSyntaxErrors(loaded, file.text))
        problems.push_back(std::move(problem));
    sortByPosition(problems);
    printDiagnostics(shownName, problems, err);
    if (hasErrors(problems))
        return Failure;

    auto inputs = resolveInputs(input);
    if (!inputs) {
        err << "ccm-backend render: " << inputs.error().message << '\n';
        return Failure;
    }
    ResolveOptions options = std::move(inputs).value();
    options.baseDirectory = manifest->baseDirectory();

    const ResolvedManifest resolved = resolveManifest(loaded, file.text, options);
    printDiagnostics(shownName, resolved.diagnostics, err);
    if (!resolved.ok())
        return Failure;
    out << renderedManifestYaml(resolved);
    return Success;
}

} // namespace ccm::cli
