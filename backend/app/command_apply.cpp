// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/hiera_source.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "app/option_value.h"
#include "app/run_reporter.h"
#include "core/facts/environ.h"
#include "engine/prepared_manifest.h"
#include "engine/run.h"

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kApplyUsage
    = R"(Usage: ccm-backend apply MANIFEST [--noop] [--json] [--show-diff] [--detailed-exitcodes]
                          [--health-check-only] [--render] [--no-report] [--hiera SOURCE]
                          [--no-read-env] [--fact KEY=VALUE]... [--facts FILE] [--data FILE|URL]

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
  --debug, --info     print the debug lines of the run too, or only from info up (the
                      default); also accepted before the command, as upstream has them
  --render            resolve the manifest and print it as it would run; apply nothing
  --report, --no-report
                      print the summary after the resource lines (default: --report)
  --hiera SOURCE      Hiera data (a file, http(s):// URL or kv://BUCKET/KEY holding
                      hierarchy, data and overrides) resolved against the facts and
                      merged over the manifest's data (default: $CCM_HIERA_DATA)
  --read-env, --no-read-env
                      merge the KEY=VALUE lines of ./.env into the environment that
                      templates see (default: --read-env)
)";

constexpr std::string_view kApplyTail
    = R"(  --data FILE|URL     data (a JSON or YAML map) merged over the manifest's resolved data;
                      a file, an http(s):// URL or kv://BUCKET/KEY
  -h, --help          show this help

Exit status: 0 when no resource failed, 1 when one failed or the run was cancelled,
2 when the manifest is invalid or the command line is wrong. SIGINT or SIGTERM stops
the run before the next resource; a second one ends it at once.
)";

/// The value of the environment variable `name`, unset when it is unset or empty.
std::optional<std::string> environmentValue(const char *name)
{
    const char *value = std::getenv(name);
    if (value == nullptr || *value == '\0')
        return std::nullopt;
    return std::string(value);
}

/// What the command line of apply asks for.
struct ApplyCommandLine {
    std::optional<std::string> manifestPath;
    InputOptions input;
    engine::RunOptions options;
    bool json = false;
    bool showDiff = false;
    bool detailed = false;
    bool renderOnly = false;
    bool report = true;
    bool readEnv = true;
    std::optional<std::string> hieraSource = environmentValue("CCM_HIERA_DATA");
};

void printApplyUsage(std::ostream &stream)
{
    stream << kApplyUsage << kInputOptionsUsage << kSourceOptionsUsage << kRegistrationOptionUsage << kApplyTail;
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
        else if (arg == "--debug" || arg == "--info")
            setRunLogLevel(arg == "--debug" ? engine::LogLevel::Debug : engine::LogLevel::Info);
        else if (arg == "--render")
            line.renderOnly = true;
        else if (arg == "--report" || arg == "--report=true" || arg == "--no-report" || arg == "--report=false")
            line.report = arg == "--report" || arg == "--report=true";
        else if (arg == "--read-env" || arg == "--read-env=true" || arg == "--no-read-env" || arg == "--read-env=false")
            line.readEnv = arg == "--read-env" || arg == "--read-env=true";
        else if (const auto hiera = optionValue(args, i, "--hiera")) {
            if (!*hiera) {
                err << "ccm-backend apply: " << hiera->error().message << '\n';
                return UsageError;
            }
            line.hieraSource = hiera->value();
        } else if (arg.size() > 1 && arg.front() == '-') {
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

/// What the manifest resolves against: the input options' facts, data and environment, with
/// the --hiera source's data (resolved against those facts) under --data.
Result<ResolveOptions> applyInputs(const ApplyCommandLine &line)
{
    auto resolved = resolveInputs(line.input);
    if (!resolved)
        return resolved;
    ResolveOptions inputs = std::move(resolved).value();
    if (!line.readEnv)
        inputs.environ = processEnviron(std::filesystem::path());
    if (line.hieraSource) {
        auto hiera = resolveHieraSource(*line.hieraSource, inputs.facts, Json::object(), line.input.sources);
        if (!hiera)
            return hiera.error().withContext("--hiera");
        Json data = std::move(hiera).value();
        deepMerge(data, inputs.externalData);
        inputs.externalData = std::move(data);
    }
    return inputs;
}

/// Runs a prepared manifest, printing its lines (or events) and then its summary.
int runPrepared(const engine::PreparedManifest &prepared, const ResolveOptions &runInputs, ApplyCommandLine &line,
    std::ostream &out, std::ostream &err)
{
    RunReporter reporter(out, err, line.json, line.showDiff);
    ProcessRunner runner;
    const CancelOnSignal cancelOnSignal;
    line.options.cancel = cancelOnSignal.flag();
    const engine::RunResult result = engine::runManifest(prepared.resolved, runInputs, line.options, runner, reporter);
    reporter.finish();

    if (line.json) {
        out << engine::runResultToJson(result, line.options.noop).dump() << '\n';
    } else {
        if (result.cancelled)
            out << "\nThe run was cancelled before all resources ran.\n";
        if (line.report)
            out << '\n' << summaryText(result.summary);
    }
    out << std::flush;
    return runExitStatus(result, line.detailed);
}

} // namespace

int applyCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ApplyCommandLine line;
    if (const auto status = parseApplyArguments(args, line, out, err))
        return *status;
    // Puppet's convention: with detailed exit codes 2 means "changes", so invalid input is 1.
    const int invalidInput = line.detailed ? Failure : UsageError;

    auto inputs = applyInputs(line);
    if (!inputs) {
        err << "ccm-backend apply: " << inputs.error().message << '\n';
        return invalidInput;
    }
    const auto manifest = ManifestInput::open(*line.manifestPath, line.input.sources);
    if (!manifest) {
        err << "ccm-backend apply: bundle " << ManifestInput::displayName(*line.manifestPath) << ": "
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
    if (line.renderOnly) {
        out << renderedManifestYaml(prepared.resolved) << std::flush;
        return Success;
    }
    return runPrepared(prepared, runInputs, line, out, err);
}

} // namespace ccm::cli
