// SPDX-License-Identifier: Apache-2.0
#include "app/capture_proof.h"

#include "app/input_options.h"
#include "app/manifest_input.h"
#include "app/run_reporter.h"
#include "core/model/manifest.h"
#include "engine/prepared_manifest.h"

#include <ostream>
#include <sstream>

namespace ccm::cli {
namespace {

/// "the content diff has 3 added and 1 removed lines", empty without a diff.
std::string captureDiffSummary(const std::optional<std::string> &diff)
{
    if (!diff || diff->empty())
        return {};
    std::size_t added = 0;
    std::size_t removed = 0;
    std::istringstream lines(*diff);
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("+++") || line.starts_with("---"))
            continue;
        if (line.starts_with('+'))
            ++added;
        else if (line.starts_with('-'))
            ++removed;
    }
    return "the content diff adds " + std::to_string(added) + (added == 1 ? " line" : " lines") + " and removes "
        + std::to_string(removed) + (removed == 1 ? " line" : " lines");
}

std::string captureJoined(const std::vector<std::string> &parts, std::string_view separator)
{
    std::string joined;
    for (const std::string &part : parts)
        joined += (joined.empty() ? "" : std::string(separator)) + part;
    return joined;
}

/// Collects the events of the proof's run; with a reporter, also prints the run as apply does.
class CaptureProofObserver : public engine::RunObserver {
public:
    explicit CaptureProofObserver(RunReporter *reporter)
        : m_reporter(reporter)
    {
    }

    void message(std::string_view text) override
    {
        if (m_reporter != nullptr)
            m_reporter->message(text);
    }
    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        if (m_reporter != nullptr)
            m_reporter->log(level, resource, message);
    }
    void resourceFinished(const TransactionEvent &event) override
    {
        m_events.push_back(event);
        if (m_reporter != nullptr)
            m_reporter->resourceFinished(event);
    }

    [[nodiscard]] const std::vector<TransactionEvent> &events() const { return m_events; }

private:
    RunReporter *m_reporter;
    std::vector<TransactionEvent> m_events;
};

/// The proof of a manifest that could not be prepared: a defect per error diagnostic.
CaptureProof unpreparedProof(const engine::PreparedManifest &prepared)
{
    CaptureProof proof;
    for (const Diagnostic &diagnostic : prepared.diagnostics) {
        if (diagnostic.severity == Severity::Error)
            proof.defects.push_back({"manifest", formatDiagnostic(prepared.fileName, diagnostic)});
    }
    return proof;
}

} // namespace

std::optional<CaptureDefect> captureDefect(const TransactionEvent &event)
{
    if (event.failed) {
        const std::string errors = captureJoined(event.errors, "; ");
        return CaptureDefect {event.resource(), errors.empty() ? std::string("failed") : errors};
    }
    if (!event.unmetRequirements.empty())
        return CaptureDefect {
            event.resource(), "skipped: unmet requirements " + captureJoined(event.unmetRequirements, ", ")};
    if (event.skipped)
        return CaptureDefect {event.resource(), "skipped"};
    if (!event.changed)
        return std::nullopt;
    std::string reason = event.noopMessage.empty() ? std::string("would change") : event.noopMessage;
    if (const std::string diff = captureDiffSummary(event.diff); !diff.empty())
        reason += " (" + diff + ")";
    return CaptureDefect {event.resource(), reason};
}

CaptureProof proofOfRun(const std::vector<TransactionEvent> &events, const engine::RunResult &result)
{
    CaptureProof proof;
    proof.resources = result.summary.total;
    proof.changes = result.summary.changed;
    proof.failed = result.summary.failed;
    for (const TransactionEvent &event : events) {
        if (auto defect = captureDefect(event))
            proof.defects.push_back(std::move(*defect));
    }
    if (result.cancelled)
        proof.defects.push_back({"manifest", "the noop was cancelled before every resource ran"});
    else if (result.aborted)
        proof.defects.push_back({"manifest", "the noop stopped before every resource ran"});
    return proof;
}

Result<CaptureProof> proveCapture(const std::filesystem::path &written, std::ostream *verbose)
{
    // What apply --noop does with its MANIFEST argument and no other option.
    auto inputs = resolveInputs(InputOptions {});
    if (!inputs)
        return inputs.error();
    const auto manifest = ManifestInput::open(written.string());
    if (!manifest)
        return manifest.error().withContext(ManifestInput::displayName(written.string()));
    ResolveOptions runInputs = std::move(inputs).value();
    runInputs.baseDirectory = manifest->baseDirectory();
    const FileText file = readManifestFile(manifest->file().string());
    engine::PreparedManifest prepared;
    prepared.fileName = manifest->shownName();
    if (file.problem)
        prepared.diagnostics.push_back(*file.problem);
    else
        prepared = engine::prepareManifestText(file.text, manifest->shownName(), runInputs);
    if (!prepared.ok())
        return unpreparedProof(prepared);

    std::optional<RunReporter> reporter;
    if (verbose != nullptr)
        reporter.emplace(*verbose, *verbose, false, false);
    CaptureProofObserver observer(reporter ? &*reporter : nullptr);
    engine::RunOptions options;
    options.noop = true;
    ProcessRunner runner;
    const CancelOnSignal cancelOnSignal;
    options.cancel = cancelOnSignal.flag();
    const engine::RunResult result = engine::runManifest(prepared.resolved, runInputs, options, runner, observer);
    if (reporter)
        reporter->finish();
    return proofOfRun(observer.events(), result);
}

Json captureProofToJson(const CaptureProof &proof)
{
    Json defects = Json::array();
    for (const CaptureDefect &defect : proof.defects)
        defects.push_back({{"resource", defect.resource}, {"reason", defect.reason}});
    return Json {{"resources", proof.resources}, {"changes", proof.changes}, {"failed", proof.failed},
        {"defects", std::move(defects)}};
}

std::string captureProofText(const CaptureProof &proof)
{
    const auto count = [](std::size_t n, std::string_view one, std::string_view many) {
        return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
    };
    if (proof.proven())
        return "Verified: " + count(proof.resources, "resource", "resources") + ", 0 changes\n";
    std::string text = "Not verified: " + count(proof.resources, "resource", "resources") + ", "
        + count(proof.changes, "change", "changes") + ", " + std::to_string(proof.failed) + " failed, "
        + count(proof.defects.size(), "capture defect", "capture defects") + "\n";
    for (const CaptureDefect &defect : proof.defects)
        text += "capture defect: " + defect.resource + ": " + defect.reason + '\n';
    return text;
}

} // namespace ccm::cli
