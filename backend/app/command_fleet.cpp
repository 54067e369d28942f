// SPDX-License-Identifier: Apache-2.0
#include "app/command_fleet_capture.h"
#include "app/commands.h"
#include "app/input_options.h"
#include "app/replicas_option.h"
#include "base/signing_key.h"
#include "core/model/duration.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_requester.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iomanip>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

/// Exit code of `fleet preview` when a host failed, stayed silent or reported failed resources.
constexpr int kHostsFailed = 3;

constexpr std::string_view kFleetUsage = R"(Usage: ccm-backend fleet COMMAND [OPTIONS]

Works with the hosts whose agents report to NATS.

Commands:
  preview SOURCE --key PEM    run SOURCE in noop on every selected host and print what
                              would change on each
  capture HOST --key PEM      ask one agent for a capture of its host as a manifest
  status                      print the last run of every host, stale hosts marked
  keygen --out PRIVATE.pem    make the Ed25519 key pair that signs previews

Run 'ccm-backend fleet COMMAND --help' for the options of a command.
)";

constexpr std::string_view kPreviewUsage
    = R"(Usage: ccm-backend fleet preview SOURCE --key PEM [--select EXPR] [--target URL]
                                [--timeout D] [--json] [--replicas N] [--context NAME | --nats URL]

Puts SOURCE (a manifest file, a .tar.gz bundle, or an http(s):// or obj:// bundle URL)
in the CCM_PREVIEW object store bucket, publishes a request signed with the private
key PEM, and prints each host's answer: agents that trust the key run the bundle in
noop (never applying it) and stream what would change. Hosts CCM_STATUS lists as alive
that do not finish before the timeout are reported silent.

Options:
  --key PEM           the private key (from 'ccm-backend fleet keygen')
  --select EXPR       a manifest expression over Facts; only hosts where it is true run
                      the preview, e.g. 'Facts.host.info.os == "linux"'
  --target URL        the agent source obj://BUCKET/NAME that SOURCE would replace: each
                      agent compares SOURCE with its cached bundle of it (default: the
                      agent's only remote source)
  --timeout D         how long to wait for answers (default 30s; e.g. 90s, 2m)
  --json              one JSON object per host and line: identity, state, summary,
                      compare, events (each with its class; none for stable
                      resources), stable (the names of the resources that would
                      not change and have nothing to show)
  --replicas N        the replicas of CCM_PREVIEW when this creates it, 1 to 5 (default:
                      3 when the server reports a cluster of three or more servers,
                      else 1)
  --context NAME      the NATS CLI context to connect with (default: $NATS_CONTEXT,
                      else CCM)
  --nats URL          connect to this server instead; no context is read

Each agent also runs, in noop, its current bundle for the resources SOURCE changes, and
classes each: INTENDED (only SOURCE changes it), DRIFT (the current bundle would change
it too: the host drifted), or added, failed, uncompared. A host with no current bundle
says so in MESSAGE.

The selector is checked before anything is sent: one that does not parse is a usage
error. When no host answers at all, a note on standard error says the likely reason
(no agent trusts the key) and how to check it.

Exit status: 0 every host answered and no resource failed, 1 the preview could not be
made (key, source, NATS), 2 usage error (a selector that does not parse included),
3 a host failed, stayed silent or reported failed resources, or no host answered.
)";

constexpr std::string_view kStatusUsage = R"(Usage: ccm-backend fleet status [--json] [--context NAME | --nats URL]

Prints the last run of every host from the CCM_STATUS key-value bucket: identity, age,
changed and failed resources. A host whose last report is older than twice its run
interval plus a minute is marked stale.

Options:
  --json              one JSON object per host and line (identity, time, age_seconds,
                      stale, summary, failed_resources, runs)
  --context NAME      the NATS CLI context to connect with
  --nats URL          connect to this server instead; no context is read

Exit status: 0 the status was read, 1 it could not be read, 2 usage error.
)";

constexpr std::string_view kKeygenUsage
    = R"(Usage: ccm-backend fleet keygen --out PRIVATE.pem [--public PUB.pem] [--force]

Makes an Ed25519 key pair for signing fleet previews: the private key (mode 0600) and
the public key agents list in preview.trusted_keys. Prints the key's fingerprint.
Directories missing above the files are created with mode 0700.

Options:
  --out PRIVATE.pem   where the private key goes
  --public PUB.pem    where the public key goes (default: PRIVATE with .pub.pem)
  --force             replace existing files

Exit status: 0 the keys were written, 1 they could not be, 2 usage error.
)";

std::atomic<bool> g_cancelPreview {false};

extern "C" void cancelPreview(int)
{
    g_cancelPreview = true;
}

struct PreviewLine {
    std::optional<std::string> source;
    std::optional<std::string> key;
    std::optional<std::string> select;
    std::optional<std::string> target;
    std::optional<std::string> replicas;
    std::chrono::milliseconds timeout {std::chrono::seconds(30)};
    bool json = false;
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
};

/// Reads the value of the option at args[i] into `target`; false (after a message) when missing.
bool takeValue(const std::vector<std::string> &args, std::size_t &i, std::optional<std::string> &target,
    std::string_view command, std::ostream &err)
{
    if (i + 1 >= args.size()) {
        err << "ccm-backend fleet " << command << ": " << args[i] << " needs a value\n";
        return false;
    }
    target = args[++i];
    return true;
}

std::optional<int> parseTimeout(const std::string &text, PreviewLine &line, std::ostream &err)
{
    auto duration = parseDuration(text);
    if (!duration || duration->count() <= 0) {
        err << "ccm-backend fleet preview: --timeout '" << text << "' is not a positive duration (e.g. 30s, 2m)\n";
        return UsageError;
    }
    line.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*duration);
    return std::nullopt;
}

/// Refuses a --select that does not parse, pointing at the column, before anything is sent.
std::optional<int> checkSelector(const PreviewLine &line, std::ostream &err)
{
    if (!line.select)
        return std::nullopt;
    const auto error = fleet::selectorError(*line.select);
    if (!error)
        return std::nullopt;
    err << "ccm-backend fleet preview: --select: " << error->describe() << "\n  " << *line.select << '\n';
    if (error->column > 0)
        err << "  " << std::string(static_cast<std::size_t>(error->column - 1), ' ') << "^\n";
    err << "nothing was sent\n";
    return UsageError;
}

std::optional<int> parsePreviewLine(
    const std::vector<std::string> &args, PreviewLine &line, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto taken = takeSourceOption(args, i, line.sources);
        if (!taken) {
            err << "ccm-backend fleet preview: " << taken.error().message << '\n';
            return UsageError;
        }
        std::optional<std::string> timeout;
        if (taken.value())
            continue;
        if (arg == "-h" || arg == "--help") {
            out << kPreviewUsage;
            return Success;
        }
        if (arg == "--json") {
            line.json = true;
        } else if (arg == "--key" || arg == "--select" || arg == "--target" || arg == "--timeout"
            || arg == "--replicas") {
            if (!takeValue(args, i,
                    arg == "--key"            ? line.key
                        : arg == "--select"   ? line.select
                        : arg == "--target"   ? line.target
                        : arg == "--replicas" ? line.replicas
                                              : timeout,
                    "preview", err))
                return UsageError;
            if (timeout)
                if (auto status = parseTimeout(*timeout, line, err))
                    return status;
        } else if ((arg.size() > 1 && arg.front() == '-') || line.source) {
            err << "ccm-backend fleet preview: "
                << (line.source ? "only one SOURCE may be given" : "unknown option '" + arg + "'") << "\n"
                << kPreviewUsage;
            return UsageError;
        } else {
            line.source = arg;
        }
    }
    if (!line.source || !line.key) {
        err << "ccm-backend fleet preview: " << (line.source ? "--key is required" : "a SOURCE is required") << '\n'
            << kPreviewUsage;
        return UsageError;
    }
    if (auto target = fleet::checkTarget(line.target); !target) {
        err << "ccm-backend fleet preview: --target: " << target.error().message << "\nnothing was sent\n";
        return UsageError;
    }
    return checkSelector(line, err);
}

/// A host's count of `change`, or "-" when it did not compare.
std::string classColumn(const fleet::HostPreview &host, fleet::ChangeClass change)
{
    if (host.comparison.state != fleet::PreviewComparison::State::Compared)
        return "-";
    return std::to_string(fleet::classCount(host, change));
}

void printPreviewHost(const fleet::HostPreview &host, std::size_t width, std::ostream &out)
{
    out << std::left << std::setw(static_cast<int>(width + 2)) << host.identity << std::setw(10)
        << fleet::hostStateName(host.state) << std::right;
    if (host.summary.is_object()) {
        out << std::setw(8) << fleet::summaryCount(host.summary, "changed") << std::setw(9)
            << classColumn(host, fleet::ChangeClass::Intended) << std::setw(6)
            << classColumn(host, fleet::ChangeClass::Drift) << std::setw(8)
            << fleet::summaryCount(host.summary, "failed") << std::setw(8)
            << fleet::summaryCount(host.summary, "total");
    } else {
        out << std::setw(8) << '-' << std::setw(9) << '-' << std::setw(6) << '-' << std::setw(8) << '-' << std::setw(8)
            << '-';
    }
    const std::string message = host.message.empty() ? fleet::comparisonNote(host) : host.message;
    out << "  " << message.substr(0, message.find('\n')) << '\n';
}

void printPreviewTable(const fleet::FleetPreview &preview, std::ostream &out)
{
    std::size_t width = std::string_view("IDENTITY").size();
    for (const auto &host : preview.hosts)
        width = std::max(width, host.identity.size());
    out << std::left << std::setw(static_cast<int>(width + 2)) << "IDENTITY" << std::setw(10) << "STATE" << std::right
        << std::setw(8) << "CHANGED" << std::setw(9) << "INTENDED" << std::setw(6) << "DRIFT" << std::setw(8)
        << "FAILED" << std::setw(8) << "TOTAL"
        << "  MESSAGE\n";
    for (const auto &host : preview.hosts)
        printPreviewHost(host, width, out);
    const Json totals = fleet::fleetPreviewTotals(preview);
    out << '\n'
        << totals["hosts"] << (totals["hosts"] == 1 ? " host: " : " hosts: ") << totals["answered"] << " answered, "
        << totals["silent"] << " silent, " << totals["declined"] << " declined, " << totals["failed"] << " failed; "
        << totals["changed"] << " resources would change (" << totals["intended"] << " intended, " << totals["drift"]
        << " drift), " << totals["resources_failed"] << " failed\n";
}

void printPreviewJson(const fleet::FleetPreview &preview, std::ostream &out)
{
    for (const auto &host : preview.hosts) {
        Json line {{"identity", host.identity}, {"state", fleet::hostStateName(host.state)}, {"summary", host.summary},
            {"events", host.events}};
        if (host.state == fleet::HostState::Done) {
            line["stable"] = host.stable;
            line["compare"] = fleet::comparisonSummary(host);
        }
        if (!host.message.empty())
            line["message"] = host.message;
        out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
    }
}

Result<std::unique_ptr<fleet::NatsConnection>> connectFleet(const fleet::SourceOptions &sources)
{
    auto settings = fleet::resolveNatsSettings(sources.nats, sources.environment);
    if (!settings)
        return settings.error();
    return fleet::NatsConnection::connect(settings.value());
}

int previewExitCode(const fleet::FleetPreview &preview)
{
    const Json totals = fleet::fleetPreviewTotals(preview);
    const bool bad = totals["silent"].get<std::size_t>() + totals["failed"].get<std::size_t>()
            + totals["resources_failed"].get<std::size_t>()
        > 0;
    return bad || preview.cancelled || !preview.notice.empty() ? kHostsFailed : Success;
}

int previewCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    PreviewLine line;
    if (const auto status = parsePreviewLine(args, line, out, err))
        return *status;
    auto replicas = bucketReplicas(line.replicas, "fleet preview", err);
    if (!replicas) {
        err << "ccm-backend fleet preview: " << replicas.error().message << '\n';
        return UsageError;
    }
    auto key = loadPrivateKey(*line.key);
    if (!key) {
        err << "ccm-backend fleet preview: " << key.error().message << '\n';
        return Failure;
    }
    auto connection = connectFleet(line.sources);
    if (!connection) {
        err << "ccm-backend fleet preview: " << connection.error().message << '\n';
        return Failure;
    }
    fleet::PreviewRequestOptions options;
    options.replicas = std::move(replicas).value();
    options.source = *line.source;
    options.sources = line.sources;
    options.key = std::move(key).value();
    options.keyFile = *line.key;
    options.select = line.select;
    options.target = line.target;
    options.timeout = line.timeout;
    options.keepEvents = line.json;
    options.cancel = &g_cancelPreview;
    std::signal(SIGINT, cancelPreview);
    auto preview = fleet::runFleetPreview(**connection, options);
    std::signal(SIGINT, SIG_DFL);
    if (!preview) {
        err << "ccm-backend fleet preview: " << preview.error().message << '\n';
        return Failure;
    }
    for (const std::string &problem : preview->problems)
        err << "ccm-backend fleet preview: ignored an answer: " << problem << '\n';
    if (line.json)
        printPreviewJson(*preview, out);
    else
        printPreviewTable(*preview, out);
    if (!preview->notice.empty())
        err << "ccm-backend fleet preview: " << preview->notice << '\n';
    return previewExitCode(*preview);
}

/// A duration in seconds as the largest whole unit: "45s", "12m", "5h", "3d".
std::string ageText(std::int64_t seconds)
{
    if (seconds < 120)
        return std::to_string(std::max<std::int64_t>(seconds, 0)) + "s";
    if (seconds < 2 * 3600)
        return std::to_string(seconds / 60) + "m";
    if (seconds < 2 * 86400)
        return std::to_string(seconds / 3600) + "h";
    return std::to_string(seconds / 86400) + "d";
}

/// An RFC 3339 time as "YYYY-MM-DD HH:MM:SSZ", without fractions of a second.
std::string shortTime(const std::string &rfc3339)
{
    if (rfc3339.size() < 19 || rfc3339[10] != 'T')
        return rfc3339;
    return rfc3339.substr(0, 10) + ' ' + rfc3339.substr(11, 8) + 'Z';
}

void printStatusTable(const fleet::FleetStatus &status, std::ostream &out)
{
    std::size_t width = std::string_view("IDENTITY").size();
    for (const auto &host : status.hosts)
        width = std::max(width, host.identity.size());
    out << std::left << std::setw(static_cast<int>(width + 2)) << "IDENTITY" << std::setw(22) << "LAST RUN"
        << std::right << std::setw(6) << "AGE" << std::setw(9) << "CHANGED" << std::setw(8) << "FAILED" << std::setw(8)
        << "TOTAL"
        << "  STATE\n";
    for (const auto &host : status.hosts) {
        const auto found = host.value.find("summary");
        const Json summary = found == host.value.end() ? Json() : *found;
        out << std::left << std::setw(static_cast<int>(width + 2)) << host.identity << std::setw(22)
            << shortTime(host.value["time"].get<std::string>()) << std::right << std::setw(6)
            << ageText(host.ageSeconds) << std::setw(9) << fleet::summaryCount(summary, "changed") << std::setw(8)
            << fleet::summaryCount(summary, "failed") << std::setw(8) << fleet::summaryCount(summary, "total") << "  "
            << (host.stale ? "STALE: no run for longer than twice its interval" : "ok") << '\n';
    }
}

int statusCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    bool json = false;
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
    for (std::size_t i = 0; i < args.size(); ++i) {
        auto taken = takeSourceOption(args, i, sources);
        if (!taken || (!taken.value() && args[i] != "--json" && args[i] != "-h" && args[i] != "--help")) {
            err << "ccm-backend fleet status: "
                << (taken ? "unknown argument '" + args[i] + "'" : taken.error().message) << '\n'
                << kStatusUsage;
            return UsageError;
        }
        if (args[i] == "-h" || args[i] == "--help") {
            out << kStatusUsage;
            return Success;
        }
        json = json || args[i] == "--json";
    }
    auto connection = connectFleet(sources);
    auto status = connection ? fleet::readFleetStatus(**connection, std::chrono::system_clock::now())
                             : Result<fleet::FleetStatus>(connection.error());
    if (!status) {
        err << "ccm-backend fleet status: " << status.error().message << '\n';
        return Failure;
    }
    for (const std::string &problem : status->problems)
        err << "ccm-backend fleet status: " << problem << '\n';
    if (!json)
        printStatusTable(*status, out);
    for (const auto &host : json ? status->hosts : std::vector<fleet::HostStatus>())
        out << fleet::hostStatusToJson(host).dump() << '\n';
    return Success;
}

int keygenCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    std::optional<std::string> privatePath;
    std::optional<std::string> publicPath;
    bool force = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kKeygenUsage;
            return Success;
        }
        if (arg == "--force")
            force = true;
        else if (arg != "--out" && arg != "--public") {
            err << "ccm-backend fleet keygen: unknown argument '" << arg << "'\n" << kKeygenUsage;
            return UsageError;
        } else if (!takeValue(args, i, arg == "--out" ? privatePath : publicPath, "keygen", err))
            return UsageError;
    }
    if (!privatePath) {
        err << "ccm-backend fleet keygen: --out is required\n" << kKeygenUsage;
        return UsageError;
    }
    if (!publicPath) {
        const std::string stem
            = privatePath->ends_with(".pem") ? privatePath->substr(0, privatePath->size() - 4) : *privatePath;
        publicPath = stem + ".pub.pem";
    }
    auto key = generateSigningKey();
    auto written = key ? writeKeyPair(*key, *privatePath, *publicPath, force) : Result<void>(key.error());
    if (!written) {
        err << "ccm-backend fleet keygen: " << written.error().message << '\n';
        return Failure;
    }
    out << "private key: " << *privatePath << "\npublic key:  " << *publicPath
        << "\nfingerprint: " << keyFingerprint(key->publicKey) << '\n';
    return Success;
}

} // namespace

int fleetCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const std::string command = args.empty() ? std::string() : args.front();
    const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    if (command == "-h" || command == "--help") {
        out << kFleetUsage;
        return Success;
    }
    if (command == "preview")
        return previewCommand(rest, out, err);
    if (command == "capture")
        return fleetCaptureCommand(rest, out, err);
    if (command == "status")
        return statusCommand(rest, out, err);
    if (command == "keygen")
        return keygenCommand(rest, out, err);
    err << (command.empty() ? std::string("ccm-backend fleet: a command is required\n")
                            : "ccm-backend fleet: unknown command '" + command + "'\n")
        << kFleetUsage;
    return UsageError;
}

} // namespace ccm::cli
