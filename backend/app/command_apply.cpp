// SPDX-License-Identifier: Apache-2.0
#include "app/batched_output.h"
#include "app/commands.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "engine/prepared_manifest.h"
#include "engine/run.h"

#include <atomic>
#include <csignal>
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

std::atomic<bool> g_cancelRequested {false};

extern "C" void requestCancel(int signal)
{
    if (g_cancelRequested.exchange(true))
        removeBundlesAndDie(signal);
}

/// Turns SIGINT and SIGTERM into a cancellation between resources while a run is going; a second
/// signal ends the process, removing an unpacked bundle first.
class CancelOnSignal {
public:
    CancelOnSignal()
    {
        g_cancelRequested.store(false);
        struct sigaction action { };
        action.sa_handler = requestCancel;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &m_oldInt);
        ::sigaction(SIGTERM, &action, &m_oldTerm);
    }
    ~CancelOnSignal()
    {
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    CancelOnSignal(const CancelOnSignal &) = delete;
    CancelOnSignal &operator=(const CancelOnSignal &) = delete;

private:
    struct sigaction m_oldInt { };
    struct sigaction m_oldTerm { };
};

std::string_view levelWord(engine::LogLevel level)
{
    switch (level) {
    case engine::LogLevel::Debug:
        return "debug  ";
    case engine::LogLevel::Info:
        return "info   ";
    case engine::LogLevel::Warning:
        return "warning";
    case engine::LogLevel::Error:
        return "error  ";
    }
    return "info   ";
}

std::string_view levelWord(ReportLevel level)
{
    switch (level) {
    case ReportLevel::Info:
        return levelWord(engine::LogLevel::Info);
    case ReportLevel::Warning:
        return levelWord(engine::LogLevel::Warning);
    case ReportLevel::Error:
        return levelWord(engine::LogLevel::Error);
    }
    return levelWord(engine::LogLevel::Info);
}

/// Prints a run as it goes: report lines (or JSON events) on `out`, messages and logs beside.
/// What goes to `out` is written in batches (BatchedOutput): a line is there within a tenth of a
/// second, and a run of many quick resources does not cost the reader a wake-up per line.
class Reporter : public engine::RunObserver {
public:
    Reporter(std::ostream &out, std::ostream &err, bool json, bool showDiff)
        : m_out(out)
        , m_err(err)
        , m_json(json)
        , m_showDiff(showDiff)
    {
    }

    void message(std::string_view text) override
    {
        writeText([&](std::ostream &stream) { stream << text << (text.ends_with('\n') ? "" : "\n"); });
    }

    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        writeText([&](std::ostream &stream) { stream << levelWord(level) << ' ' << resource << ": " << message << '\n'; });
    }

    void resourceFinished(const TransactionEvent &event) override
    {
        if (m_json) {
            const std::string line = eventToJson(event).dump();
            m_out.write([&](std::ostream &stream) { stream << line << '\n'; });
            return;
        }
        const ReportLine line = reportLine(event);
        m_out.write([&](std::ostream &stream) {
            stream << levelWord(line.level) << ' ' << line.text << '\n';
            if (m_showDiff && event.diff && !event.diff->empty())
                stream << *event.diff << (event.diff->ends_with('\n') ? "" : "\n");
        });
    }

    /// Flushes what the run printed; `out` is the caller's again.
    void finish() { m_out.close(); }

private:
    /// Messages and logs: beside the report lines in text mode, on `err` at once with --json.
    template <typename Write>
    void writeText(Write &&write)
    {
        if (!m_json) {
            m_out.write(std::forward<Write>(write));
            return;
        }
        write(m_err);
        m_err.flush();
    }

    BatchedOutput m_out;
    std::ostream &m_err;
    bool m_json;
    bool m_showDiff;
};

int exitStatus(const engine::RunResult &result, bool detailed)
{
    const bool failed = result.summary.failed > 0 || result.cancelled || result.aborted;
    if (!detailed)
        return failed ? Failure : Success;
    return (result.summary.changed > 0 ? 2 : 0) | (failed ? 4 : 0);
}

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

    Reporter reporter(out, err, json, showDiff);
    ProcessRunner runner;
    const CancelOnSignal cancelOnSignal;
    options.cancel = &g_cancelRequested;
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
    return exitStatus(result, detailed);
}

} // namespace ccm::cli
