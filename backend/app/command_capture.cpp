// SPDX-License-Identifier: Apache-2.0
#include "app/capture_proof.h"
#include "app/commands.h"
#include "app/manifest_input.h"
#include "app/option_value.h"
#include "app/run_reporter.h"
#include "core/capture/captured_manifest.h"
#include "engine/capture/host_capture.h"

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <system_error>

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
    engine::CaptureRequest request;
    std::optional<std::filesystem::path> output;
    bool verify = true;
    bool json = false;
    bool verbose = false;
};

/// `path` made absolute against the working directory, without "." or ".." parts or a
/// trailing '/'.
std::filesystem::path captureAbsolute(const std::string &path)
{
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (error)
        absolute = std::filesystem::path(path);
    absolute = absolute.lexically_normal();
    if (!absolute.has_filename() && absolute.has_parent_path() && absolute != absolute.root_path())
        absolute = absolute.parent_path();
    return absolute;
}

bool captureOutputKnown(const std::filesystem::path &output)
{
    const std::string name = output.filename().string();
    for (const std::string_view suffix : {".yaml", ".yml", ".tar.gz", ".tgz"}) {
        if (name.size() > suffix.size() && name.ends_with(suffix))
            return true;
    }
    return false;
}

/// Takes the option at args[i] that has a value; nullopt when args[i] is none of them, else
/// whether it was well-formed (with a message on `err` when not).
std::optional<bool> takeCaptureValue(
    const std::vector<std::string> &args, std::size_t &i, CaptureCommandLine &line, std::ostream &err)
{
    static constexpr std::array<std::string_view, 5> kNames {
        "--package", "--service", "--file", "--exclude", "--output"};
    for (const std::string_view name : kNames) {
        const auto value = optionValue(args, i, name, name == "--output" ? "-o" : "");
        if (!value)
            continue;
        if (!*value) {
            err << "ccm-backend capture: " << value->error().message << '\n';
            return false;
        }
        const std::string &text = value->value();
        if (name == "--package")
            line.request.packages.push_back(text);
        else if (name == "--service")
            line.request.services.push_back(text);
        else if (name == "--exclude")
            line.request.excludes.push_back(text);
        else if (name == "--file" && !text.empty())
            line.request.files.push_back(captureAbsolute(text));
        else if (name == "--output" && captureOutputKnown(text))
            line.output = text;
        else {
            err << "ccm-backend capture: " << name << " '" << text << "': "
                << (name == "--file" ? "the path is empty" : "the output must end in .yaml, .yml, .tar.gz or .tgz")
                << '\n';
            return false;
        }
        return true;
    }
    return std::nullopt;
}

/// Takes the flag at args[i]; false when it is none.
bool takeCaptureFlag(const std::string &arg, CaptureCommandLine &line)
{
    if (arg == "--data")
        line.request.data = true;
    else if (arg == "--pin")
        line.request.pin = true;
    else if (arg == "--include-private")
        line.request.includePrivate = true;
    else if (arg == "--no-verify")
        line.verify = false;
    else if (arg == "--json")
        line.json = true;
    else if (arg == "--debug" || arg == "--info") {
        line.verbose = arg == "--debug";
        setRunLogLevel(arg == "--debug" ? engine::LogLevel::Debug : engine::LogLevel::Info);
    } else
        return false;
    return true;
}

/// The selection as a command line, for the manifest's header comment.
std::vector<std::string> captureCommandWords(const CaptureCommandLine &line)
{
    std::vector<std::string> words {"ccm-backend", "capture"};
    const auto add = [&](std::string_view option, const auto &values) {
        for (const auto &value : values) {
            words.emplace_back(option);
            words.push_back(std::filesystem::path(value).string());
        }
    };
    add("--package", line.request.packages);
    add("--service", line.request.services);
    add("--file", line.request.files);
    add("--exclude", line.request.excludes);
    for (const auto &[set, flag] : {std::pair {line.request.data, "--data"}, std::pair {line.request.pin, "--pin"},
             std::pair {line.request.includePrivate, "--include-private"}}) {
        if (set)
            words.emplace_back(flag);
    }
    return words;
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
        if (const auto taken = takeCaptureValue(args, i, line, err)) {
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
    if (line.request.packages.empty() && line.request.services.empty() && line.request.files.empty()) {
        err << "ccm-backend capture: nothing to capture: give --package, --service or --file\n" << kCaptureUsage;
        return UsageError;
    }
    line.request.command = captureCommandWords(line);
    return std::nullopt;
}

std::string captureCount(std::size_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
}

/// The resources by type, in the order they are written: "2 packages, 9 files, 1 service".
std::string resourcesByType(const CapturedManifest &capture)
{
    std::map<std::string, std::size_t> counts;
    for (const CapturedResource &resource : capture.resources)
        ++counts[resource.type];
    std::string text;
    for (const std::string_view type : {"package", "file", "service"}) {
        if (const auto found = counts.find(std::string(type)); found != counts.end())
            text += (text.empty() ? "" : ", ") + captureCount(found->second, type, std::string(type) + 's');
    }
    return text;
}

/// What was captured, written and skipped, and the warnings, for people.
void printCaptureSummary(const CapturedManifest &capture, const CaptureCommandLine &line, std::ostream &err)
{
    err << "Captured " << captureCount(capture.resources.size(), "resource", "resources") << " on " << capture.host;
    if (!capture.resources.empty())
        err << ": " << resourcesByType(capture);
    err << '\n';
    if (line.output) {
        err << "Wrote " << line.output->string();
        if (!capture.sources.empty())
            err << " with " << captureCount(capture.sources.size(), "source file", "source files")
                << (line.output->string().ends_with(".yaml") || line.output->string().ends_with(".yml")
                           ? " under files/ beside it"
                           : " in the bundle");
        err << '\n';
    }
    if (!capture.skipped.empty()) {
        err << "Skipped " << capture.skipped.size() << ":\n";
        for (const CaptureSkip &skip : capture.skipped)
            err << "  " << skip.path << ": " << skip.reason << " (" << skip.kind << ")\n";
    }
    for (const std::string &warning : capture.warnings)
        err << "warning: " << warning << '\n';
}

Json captureResultJson(
    const CapturedManifest &capture, const CaptureCommandLine &line, const std::optional<CaptureProof> &proof)
{
    Json byType = Json::object();
    for (const CapturedResource &resource : capture.resources)
        byType[resource.type] = byType.value(resource.type, 0) + 1;
    Json skipped = Json::array();
    for (const CaptureSkip &skip : capture.skipped)
        skipped.push_back({{"path", skip.path}, {"kind", skip.kind}, {"reason", skip.reason}});
    Json result = Json::object();
    result["output"] = line.output ? Json(line.output->string()) : Json(nullptr);
    result["resources"] = capture.resources.size();
    result["resources_by_type"] = std::move(byType);
    result["sources"] = capture.sources.size();
    result["skipped"] = std::move(skipped);
    result["warnings"] = capture.warnings;
    result["verified"] = proof ? captureProofToJson(*proof) : Json(nullptr);
    if (!line.output)
        result["yaml"] = captureToYaml(capture);
    return result;
}

/// Writes the capture where the proof can load it: to -o, or without it to a private temporary
/// directory (which `scratch` then holds). The path the proof opens, or an error.
Result<std::filesystem::path> writeForProof(
    const CapturedManifest &capture, const CaptureCommandLine &line, std::unique_ptr<PrivateDirectory> &scratch)
{
    if (line.output) {
        auto written = engine::writeCapture(capture, *line.output);
        if (!written)
            return written.error().withContext("cannot write " + line.output->string());
        return *line.output;
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
    auto captured = engine::captureHost(line.request, runner);
    if (!captured) {
        err << "ccm-backend capture: " << captured.error().message << '\n';
        return captured.error().code == "bad_request" ? UsageError : Failure;
    }
    const CapturedManifest &capture = captured.value();
    if (!line.output && !capture.sources.empty()) {
        err << "ccm-backend capture: " << captureCount(capture.sources.size(), "file needs", "files need")
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
    if (!line.output && !line.json)
        out << captureToYaml(capture) << std::flush;
    printCaptureSummary(capture, line, err);
    std::optional<CaptureProof> proof;
    if (line.verify)
        proof = runCaptureProof(*written, line, err);
    if (line.json)
        out << captureResultJson(capture, line, proof).dump(2) << '\n' << std::flush;
    return proof && !proof->proven() ? kCaptureNotProven : Success;
}

} // namespace ccm::cli
