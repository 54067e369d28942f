// SPDX-License-Identifier: Apache-2.0
#include "app/capture_options.h"
#include "app/capture_proof.h"
#include "app/commands.h"
#include "app/manifest_input.h"
#include "app/run_reporter.h"
#include "core/capture/captured_manifest.h"
#include "engine/capture/host_capture.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kCaptureUsage
    = R"(Usage: ccm-backend capture [--package PATTERN]... [--service PATTERN]... [--file PATH]...
                            [--exclude GLOB]... [--data] [--pin] [--include-private]
                            [--no-verify] [-o OUT.yaml | -o OUT.tar.gz] [--json]

Writes what this host has as a manifest: the installed packages and the systemd services
whose names match the patterns, and the files and directories under each PATH with their
owner, group, mode and content. Small text goes inline; anything else (binary, large, or
looking like a secret) becomes a source file, written under files/ beside OUT.yaml or
carried in the OUT.tar.gz bundle. Symbolic links, sockets, fifos, devices, unreadable
and oversize files are skipped, each listed with its path and why.

The capture is then proven: the written manifest is run in noop on this host, as
apply --noop runs it, and must find nothing to change. Anything else is reported as a
capture defect, with the resource and the reason.

Options:
  --package PATTERN   packages whose names match the glob (repeatable), each
                      ensure: present
  --service PATTERN   systemd services whose names (without .service) match the glob
                      (repeatable): running or stopped, enabled or not
  --file PATH         a file or directory, taken recursively (repeatable); a relative
                      PATH is taken from the working directory
  --exclude GLOB      leave out the paths that match the glob, and everything below a
                      directory that does (repeatable)
  --data              move host-specific values (pinned versions, the host's name in
                      file content) into data: and look them up
  --pin               ensure each package's installed version instead of present
  --include-private   capture files only their owner may read too (as source files);
                      otherwise they are skipped with a warning
  --no-verify         do not run the capture in noop after writing it
  -o, --output FILE   write the manifest to FILE.yaml (or .yml) with its source files
                      under files/ beside it, or a bundle FILE.tar.gz (or .tgz);
                      without it the manifest goes to standard output, and a capture
                      that needs source files is an error
  --json              print {output, resources, skipped, warnings, verified} as JSON on
                      standard output (without -o, with the manifest as "yaml")
  --debug, --info     print the noop's report lines and debug lines too, or not (the
                      default)
  -h, --help          show this help

What was captured, what was skipped, the warnings and the proof ("Verified: N
resources, 0 changes") are printed on standard error.

Exit status: 0 when the capture was written (and proven, unless --no-verify), 1 when
it could not be made or written, 2 when the command line is wrong or selects nothing,
3 when it was written but the noop found changes or failures (the capture defects).
)";

/// The exit status of a capture that was written but that its noop did not prove.
constexpr int kCaptureNotProven = 3;

/// What the command line of capture asks for.
struct CaptureCommandLine {
    CaptureSelectionLine selection;
    bool verify = true;
    bool verbose = false;
};

constexpr CaptureOptionRules kCaptureRules {"ccm-backend capture", CaptureFilePaths::ThisHost};

/// Takes the flag at args[i] that only capture has; false when it is none.
bool takeCaptureFlag(const std::string &arg, CaptureCommandLine &line)
{
    if (arg == "--no-verify")
        line.verify = false;
    else if (arg == "--debug" || arg == "--info") {
        line.verbose = arg == "--debug";
        setRunLogLevel(arg == "--debug" ? engine::LogLevel::Debug : engine::LogLevel::Info);
    } else
        return false;
    return true;
}

/// What the selection asks this host for.
engine::CaptureRequest captureRequest(const CaptureSelectionLine &selection)
{
    engine::CaptureRequest request;
    request.packages = selection.packages;
    request.services = selection.services;
    request.files.assign(selection.files.begin(), selection.files.end());
    request.excludes = selection.excludes;
    request.data = selection.data;
    request.pin = selection.pin;
    request.includePrivate = selection.includePrivate;
    request.command = captureCommandWords({"ccm-backend", "capture"}, selection);
    return request;
}

/// Reads the arguments into `line`; the exit status when the command ends here, after its help or
/// a usage error.
std::optional<int> parseCaptureArguments(
    const std::vector<std::string> &args, CaptureCommandLine &line, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kCaptureUsage;
            return Success;
        }
        if (const auto taken = takeCaptureSelectionOption(args, i, line.selection, kCaptureRules, err)) {
            if (!*taken)
                return UsageError;
            continue;
        }
        if (takeCaptureFlag(arg, line))
            continue;
        if (arg.size() > 1 && arg.front() == '-')
            err << "ccm-backend capture: unknown option '" << arg << "'\n" << kCaptureUsage;
        else
            err << "ccm-backend capture: unexpected argument '" << arg << "' (files are given with --file)\n";
        return UsageError;
    }
    if (line.selection.selectsNothing()) {
        err << "ccm-backend capture: nothing to capture: give --package, --service or --file\n" << kCaptureUsage;
        return UsageError;
    }
    return std::nullopt;
}

/// What was captured, written and skipped, and the warnings, for people.
void printCapture(const CapturedManifest &capture, const CaptureCommandLine &line, std::ostream &err)
{
    std::string where = " on " + capture.host;
    if (!capture.resources.empty())
        where += ": " + resourcesByType(capture);
    printCaptureSummary(capture, where, line.selection.output, err);
}

Json captureResultJson(
    const CapturedManifest &capture, const CaptureCommandLine &line, const std::optional<CaptureProof> &proof)
{
    Json result = captureSummaryJson(capture, line.selection.output);
    result["verified"] = proof ? captureProofToJson(*proof) : Json(nullptr);
    if (!line.selection.output)
        result["yaml"] = captureToYaml(capture);
    return result;
}

/// Writes the capture where the proof can load it: to -o, or without it to a private temporary
/// directory (which `scratch` then holds). The path the proof opens, or an error.
Result<std::filesystem::path> writeForProof(
    const CapturedManifest &capture, const CaptureCommandLine &line, std::unique_ptr<PrivateDirectory> &scratch)
{
    if (line.selection.output) {
        auto written = engine::writeCapture(capture, *line.selection.output);
        if (!written)
            return written.error().withContext("cannot write " + line.selection.output->string());
        return *line.selection.output;
    }
    if (!line.verify)
        return std::filesystem::path();
    auto directory = PrivateDirectory::create({"manifest.yaml"});
    if (!directory)
        return directory.error().withContext("cannot make a temporary directory for the noop");
    scratch = std::move(directory).value();
    auto written = engine::writeCapture(capture, scratch->path() / "manifest.yaml");
    if (!written)
        return written.error().withContext("cannot write the manifest for the noop");
    return *written;
}

/// Runs the proof, printing its result on `err`.
CaptureProof runCaptureProof(const std::filesystem::path &written, const CaptureCommandLine &line, std::ostream &err)
{
    auto proved = proveCapture(written, line.verbose ? &err : nullptr);
    CaptureProof proof;
    if (proved)
        proof = std::move(proved).value();
    else
        proof.defects.push_back({"manifest", "the noop could not run: " + proved.error().message});
    err << captureProofText(proof) << std::flush;
    return proof;
}

} // namespace

int captureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    CaptureCommandLine line;
    if (const auto status = parseCaptureArguments(args, line, out, err))
        return *status;
    ProcessRunner runner;
    auto captured = engine::captureHost(captureRequest(line.selection), runner);
    if (!captured) {
        err << "ccm-backend capture: " << captured.error().message << '\n';
        return captured.error().code == "bad_request" ? UsageError : Failure;
    }
    const CapturedManifest &capture = captured.value();
    if (!line.selection.output && !capture.sources.empty()) {
        err << "ccm-backend capture: " << countOf(capture.sources.size(), "file needs", "files need")
            << " a source file beside the manifest (binary, large, private or secret-looking content); give -o "
               "OUT.yaml or "
               "-o OUT.tar.gz\n";
        return Failure;
    }
    std::unique_ptr<PrivateDirectory> scratch;
    const auto written = writeForProof(capture, line, scratch);
    if (!written) {
        err << "ccm-backend capture: " << written.error().message << '\n';
        return Failure;
    }
    if (!line.selection.output && !line.selection.json)
        out << captureToYaml(capture) << std::flush;
    printCapture(capture, line, err);
    std::optional<CaptureProof> proof;
    if (line.verify)
        proof = runCaptureProof(*written, line, err);
    if (line.selection.json)
        out << captureResultJson(capture, line, proof).dump(2) << '\n' << std::flush;
    return proof && !proof->proven() ? kCaptureNotProven : Success;
}

} // namespace ccm::cli
