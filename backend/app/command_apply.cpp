// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "app/run_reporter.h"
#include "engine/prepared_manifest.h"
#include "engine/run.h"

#include <filesystem>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kApplyUsage
    = R"(Usage: ccm-backend apply MANIFEST [--noop] [--json] [--show-diff] [--detailed-exitcodes]
                          [--health-check-only] [--fact KEY=VALUE]... [--facts FILE] [--data FILE|URL]

Runs a manifest (a YAML file, a .tar.gz or .tgz bundle, or a bundle at an http(s):// or
obj://BUCKET/KEY URL) on this host: validates and resolves it, then applies its resources in
order and prints one line per resource and a summary.

Options:
  --noop              change nothing; report what would change
  --json              print each resource's event as one JSON object per line (within
                      0.1 s of its end), then a summary object; messages go to stderr
  --show-diff         print the content diff of files whose content changes
  --detailed-exitcodes
                      exit 0 when nothing changed, 2 when something changed, 4 when
                      something failed, 6 when both; 1 when the manifest is invalid
  --health-check-only run only the resources' health checks (also --monitor-only)
)";

constexpr std::string_view kApplyTail
    = R"(  --data FILE|URL     data (a JSON or YAML map) merged over the manifest's resolved data;
                      a file, an http(s):// URL or kv://BUCKET/KEY
  -h, --help          show this help

Exit status: 0 when no resource failed, 1 when one failed or the run was cancelled,
2 when the manifest is invalid or the command line is wrong. SIGINT or SIGTERM stops
the run before the next resource; a second one ends it at once.
)";

/// What the command line of apply asks for.
struct ApplyCommandLine {
    std::optional<std::string> manifestPath;
    InputOptions input;
    engine::RunOptions options;
    bool json = false;
    bool showDiff = false;
    bool detailed = false;
};

void printApplyUsage(std::ostream &stream)
{
    stream << kApplyUsage << kInputOptionsUsage << kSourceOptionsUsage << kApplyTail;
}

/// Reads the arguments into `line`; the exit status when the command ends here, after its help or
/// a usage error.
std::optional<int> parseApplyArguments(
    const std::vector<std::string> &args, ApplyCommandLine &line, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto taken = takeInputOption(args, i, line.input, true);
        if (!taken) {
            err << "ccm-backend apply: " << taken.error().message << '\n';
            return UsageError;
        }
        if (taken.value())
            continue;
        if (arg == "-h" || arg == "--help") {
            printApplyUsage(out);
            return Success;
        }
        if (arg == "--noop")
            line.options.noop = true;
        else if (arg == "--json")
            line.json = true;
        else if (arg == "--show-diff")
            line.showDiff = true;
        else if (arg == "--detailed-exitcodes")
            line.detailed = true;
        else if (arg == "--health-check-only" || arg == "--monitor-only")
            line.options.healthCheckOnly = true;
        else if (arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend apply: unknown option '" << arg << "'\n";
            printApplyUsage(err);
            return UsageError;
        } else if (line.manifestPath) {
            err << "ccm-backend apply: only one manifest may be given\n";
            return UsageError;
        } else {
            line.manifestPath = arg;
        }
    }
    if (!line.manifestPath) {
        err << "ccm-backend apply: no manifest given\n";
        printApplyUsage(err);
        return UsageError;
    }
    return std::nullopt;
}

} // namespace

int applyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ApplyCommandLine line;
    if (const auto status = parseApplyArguments(args, line, out, err))
        return *status;
    const std::optional<std::string> &manifestPath = line.manifestPath;
    InputOptions &input = line.input;
    engine::RunOptions &options = line.options;
    const bool json = line.json;
    const bool showDiff = line.showDiff;
    const bool detailed = line.detailed;
    // Puppet's convention: with detailed exit codes 2 means "changes", so invalid input is 1.
    const int invalidInput = detailed ? Failure : UsageError;

    auto inputs = resolveInputs(input);
    if (!inputs) {
        err << "ccm-backend apply: " << inputs.error().message << '\n';
        return invalidInput;
    }
    const auto manifest = ManifestInput::open(*manifestPath, input.sources);
    if (!manifest) {
        err << "ccm-backend apply: bundle " << ManifestInput::displayName(*manifestPath) << ": "
            << manifest.error().message << '\n';
        return invalidInput;
    }
    if (const std::string note = manifest->signatureNote(); !note.empty())
        err << "ccm-backend apply: " << note << '\n';
    ResolveOptions runInputs = std::move(inputs).value();
    runInputs.baseDirectory = manifest->baseDirectory();
    const FileText file = readManifestFile(manifest->file().string());
    engine::PreparedManifest prepared;
    if (file.problem) {
        prepared.fileName = manifest->shownName();
        prepared.diagnostics.push_back(*file.problem);
    } else {
        prepared = engine::prepareManifestText(file.text, manifest->shownName(), runInputs);
    }
    err << prepared.diagnosticText();
    if (!prepared.ok())
        return invalidInput;

    RunReporter reporter(out, err, json, showDiff);
    ProcessRunner runner;
    const CancelOnSignal cancelOnSignal;
    options.cancel = cancelOnSignal.flag();
    const engine::RunResult result = engine::runManifest(prepared.resolved, runInputs, options, runner, reporter);
    reporter.finish();

    if (json) {
        out << engine::runResultToJson(result, options.noop).dump() << '\n';
    } else {
        if (result.cancelled)
            out << "\nThe run was cancelled before all resources ran.\n";
        out << '\n' << summaryText(result.summary);
    }
    out << std::flush;
    return runExitStatus(result, detailed);
}

} // namespace ccm::cli
