// SPDX-License-Identifier: Apache-2.0
#include "app/command_fleet_capture.h"

#include "app/capture_options.h"
#include "app/commands.h"
#include "app/option_value.h"
#include "base/signing_key.h"
#include "core/capture/captured_manifest.h"
#include "core/model/duration.h"
#include "engine/capture/host_capture.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/preview/capture_requester.h"

#include <array>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <optional>
#include <ostream>

namespace ccm::cli {
namespace {

constexpr std::string_view kFleetCaptureUsage
    = R"(Usage: ccm-backend fleet capture HOST --key PEM [--package PATTERN]... [--service PATTERN]...
                                [--file PATH]... [--exclude GLOB]... [--data] [--pin]
                                [--include-private] [-o OUT.yaml | -o OUT.tar.gz]
                                [--timeout D] [--json] [--context NAME | --nats URL]

Asks the agent whose identity is HOST for a capture of its host, over the signed request
channel fleet previews use, and writes it as `ccm-backend capture` does: the manifest to
OUT.yaml with its source files under files/ beside it, or a bundle to OUT.tar.gz, or the
manifest's YAML on standard output without -o. The agent answers only when its
preview.capture is true and it trusts the key; it reads files with the rights of its
preview.user (nobody by default), so only what that user may read leaves the host, and runs
the package and service queries as that user.

Options:
  --key PEM           the private key that signs the request (from 'ccm-backend fleet keygen')
  --package PATTERN   installed packages matching the glob, each ensure: present
  --service PATTERN   systemd services matching the glob: running or stopped, enabled or not
  --file PATH         an absolute path on HOST: the file, or the directory and all below it
  --exclude GLOB      leave out paths matching the glob (a directory with all below it)
  --data              move host-specific values (versions with --pin, the host's name) to data:
  --pin               the installed version of each package instead of present
  --include-private   capture files only their owner may read too (the preview user must be
                      able to read them)
  -o, --output OUT    write OUT.yaml (and files/ beside it) or a bundle OUT.tar.gz
  --timeout D         how long to wait for the answer (default 30s; e.g. 90s, 2m)
  --json              print {identity, request, output, resources, resources_by_type, sources,
                      skipped, warnings} (and yaml without -o) as JSON on standard output
  --context NAME      the NATS CLI context to connect with (default: $NATS_CONTEXT, else CCM)
  --nats URL          connect to this server instead; no context is read

The capture is not verified here: it describes another host. Run it in noop there (or on any
host, as a golden-host comparison) with 'ccm-backend apply --noop OUT.yaml'.

Exit status: 0 the capture arrived and was written, 1 it could not be had (no answer, the host
failed, NATS, the key, writing), 2 usage error.
)";

std::atomic<bool> g_cancelFleetCapture {false};

extern "C" void cancelFleetCapture(int)
{
    g_cancelFleetCapture = true;
}

struct FleetCaptureLine {
    std::string host;
    CaptureSelectionLine selection;
    std::optional<std::string> key;
    std::chrono::milliseconds timeout {std::chrono::seconds(30)};
    fleet::NatsSelection nats;
};

constexpr CaptureOptionRules kFleetCaptureRules {"ccm-backend fleet capture", CaptureFilePaths::OtherHost};

/// Stores the value of option `name`; false (after a message) when it is not acceptable.
bool storeFleetCaptureValue(std::string_view name, const std::string &text, FleetCaptureLine &line, std::ostream &err)
{
    if (name == "--key")
        line.key = text;
    else if (name == "--context")
        line.nats.context = text;
    else if (name == "--nats")
        line.nats.url = text;
    else if (auto duration = parseDuration(text); duration && duration->count() > 0)
        line.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*duration);
    else {
        err << "ccm-backend fleet capture: " << name << " '" << text
            << "': is not a positive duration (e.g. 30s, 2m)\n";
        return false;
    }
    return true;
}

/// Takes the option at args[i] (with its value, advancing i); nullopt when args[i] is none of them.
std::optional<bool> takeFleetCaptureOption(
    const std::vector<std::string> &args, std::size_t &i, FleetCaptureLine &line, std::ostream &err)
{
    if (const auto taken = takeCaptureSelectionOption(args, i, line.selection, kFleetCaptureRules, err))
        return taken;
    static constexpr std::array<std::string_view, 4> kNames {"--key", "--timeout", "--context", "--nats"};
    for (const std::string_view name : kNames) {
        const auto value = optionValue(args, i, name);
        if (!value)
            continue;
        if (!*value) {
            err << "ccm-backend fleet capture: " << value->error().message << '\n';
            return false;
        }
        return storeFleetCaptureValue(name, value->value(), line, err);
    }
    return std::nullopt;
}

/// What the agent is asked for.
fleet::CaptureSelection fleetCaptureSelection(const FleetCaptureLine &line)
{
    fleet::CaptureSelection selection;
    selection.host = line.host;
    selection.packages = line.selection.packages;
    selection.services = line.selection.services;
    selection.files = line.selection.files;
    selection.excludes = line.selection.excludes;
    selection.data = line.selection.data;
    selection.pin = line.selection.pin;
    selection.includePrivate = line.selection.includePrivate;
    return selection;
}

/// What is missing or contradictory once every argument is read; empty when nothing.
std::string fleetCaptureLineProblem(const FleetCaptureLine &line)
{
    if (line.host.empty())
        return "a HOST (the agent's identity) is required";
    if (!line.key)
        return "--key is required";
    if (line.selection.selectsNothing())
        return "nothing to capture: give --package, --service or --file";
    if (auto checked = fleet::captureSelectionFromJson(fleet::captureSelectionToJson(fleetCaptureSelection(line)));
        !checked)
        return checked.error().message.substr(checked.error().message.find(": ") + 2);
    return {};
}

std::optional<int> parseFleetCaptureLine(
    const std::vector<std::string> &args, FleetCaptureLine &line, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kFleetCaptureUsage;
            return Success;
        }
        if (const auto taken = takeFleetCaptureOption(args, i, line, err)) {
            if (!*taken)
                return UsageError;
            continue;
        }
        if ((arg.size() > 1 && arg.front() == '-') || !line.host.empty()) {
            err << "ccm-backend fleet capture: "
                << (line.host.empty() ? "unknown option '" + arg + "'"
                                      : "unexpected argument '" + arg + "' (one HOST; files go with --file)")
                << '\n'
                << kFleetCaptureUsage;
            return UsageError;
        }
        line.host = arg;
    }
    if (const std::string problem = fleetCaptureLineProblem(line); !problem.empty()) {
        err << "ccm-backend fleet capture: " << problem << '\n' << kFleetCaptureUsage;
        return UsageError;
    }
    return std::nullopt;
}

Json fleetCaptureResultJson(const fleet::FleetCapture &answer, const FleetCaptureLine &line)
{
    Json result {{"identity", answer.identity}, {"request", answer.id}};
    result.update(captureSummaryJson(answer.capture, line.selection.output));
    if (!line.selection.output)
        result["yaml"] = captureToYaml(answer.capture);
    return result;
}

Result<fleet::FleetCapture> requestFleetCapture(const FleetCaptureLine &line)
{
    auto key = loadPrivateKey(*line.key);
    if (!key)
        return key.error();
    auto settings = fleet::resolveNatsSettings(line.nats, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return settings.error();
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return connection.error();
    fleet::CaptureRequestOptions options;
    options.selection = fleetCaptureSelection(line);
    options.key = std::move(key).value();
    options.keyFile = *line.key;
    options.timeout = line.timeout;
    options.cancel = &g_cancelFleetCapture;
    std::signal(SIGINT, cancelFleetCapture);
    auto answer = fleet::runFleetCapture(**connection, options);
    std::signal(SIGINT, SIG_DFL);
    return answer;
}

} // namespace

int fleetCaptureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    FleetCaptureLine line;
    if (const auto status = parseFleetCaptureLine(args, line, out, err))
        return *status;
    auto answer = requestFleetCapture(line);
    if (!answer) {
        err << "ccm-backend fleet capture: " << answer.error().message << '\n';
        return Failure;
    }
    for (const std::string &problem : answer->problems)
        err << "ccm-backend fleet capture: ignored an answer: " << problem << '\n';
    const CapturedManifest &capture = answer->capture;
    if (!line.selection.output && !capture.sources.empty()) {
        err << "ccm-backend fleet capture: " << countOf(capture.sources.size(), "file needs", "files need")
            << " a source file beside the manifest (binary, large or secret-looking content); give -o OUT.yaml or "
               "-o OUT.tar.gz\n";
        return Failure;
    }
    if (line.selection.output) {
        if (auto written = engine::writeCapture(capture, *line.selection.output); !written) {
            err << "ccm-backend fleet capture: cannot write " << line.selection.output->string() << ": "
                << written.error().message << '\n';
            return Failure;
        }
    } else if (!line.selection.json) {
        out << captureToYaml(capture) << std::flush;
    }
    printCaptureSummary(capture,
        " on " + answer->identity + " as " + (capture.capturedBy.empty() ? "its preview user" : capture.capturedBy),
        line.selection.output, err);
    if (line.selection.json)
        out << fleetCaptureResultJson(*answer, line).dump(2) << '\n' << std::flush;
    return Success;
}

} // namespace ccm::cli
