// SPDX-License-Identifier: Apache-2.0
// `ccm-backend rollout`: a release through rings of agents, gate by gate, and its record.
#include "app/commands.h"
#include "app/input_options.h"
#include "app/replicas_option.h"
#include "base/signing_key.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_signature.h"
#include "core/model/duration.h"
#include "core/model/transaction_event.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/rollout/rollout_publisher.h"
#include "fleet/rollout/rollout_runner.h"

#include <algorithm>
#include <csignal>
#include <iomanip>
#include <optional>
#include <ostream>

namespace ccm::cli {
namespace {

constexpr std::string_view kRolloutUsage
    = R"(Usage: ccm-backend rollout FILE --bucket BUCKET --ring NAME [--ring NAME]... --sign KEY.pem
                          [--max-failed N|P%] [--ring-timeout D] [--settle D] [--no-rollback]
                          [--message TEXT] [--json] [--replicas N] [--context NAME | --nats URL]
       ccm-backend rollout status [ID] [--json] [--context NAME | --nats URL]
       ccm-backend rollout resume ID [--json] [--context NAME | --nats URL]
       ccm-backend rollout pause ID [--context NAME | --nats URL]
       ccm-backend rollout abort ID [--json] [--context NAME | --nats URL]

Rolls a release out ring by ring. A ring is an object of the bucket that a group of agents
watches (site-canary.tgz, site-eu.tgz, site.tgz). For each ring in order: publish the
signed bundle to the ring's object (a recorded release), wait until every live agent
watching it has reported a run of it (CCM_STATUS and their .run messages) or the ring's time
limit passes, then apply the gate: failed resources, CRITICAL health checks and agents that
never reported count as failures. A passed gate moves on to the next ring; a closed one
stops, puts every ring it changed back on its previous release (unless --no-rollback),
waits for those agents to report it, and exits non-zero saying what failed, where and why.

FILE is a bundle or a manifest (bundled on the way). Each rollout is recorded in the
key-value bucket CCM_ROLLOUTS before each step it takes: `status` shows running and past
rollouts, `resume` goes on with one whose process died or that was paused, `pause` stops
one after its current ring, `abort` stops one and rolls it back.

Options:
  --bucket BUCKET      the object store bucket of the rings' objects
  --ring NAME          a ring's object name, in rollout order (repeatable)
  --sign KEY.pem       the Ed25519 private key the release is signed with
  --max-failed N|P%    failures a ring may have and pass: a count or a share of its
                       hosts, rounded down (default 0)
  --ring-timeout D     how long to wait for a ring's agents (default 10m)
  --settle D           how long a ring's gate holds after every agent reported, so that
                       health checks run (default 0s)
  --no-rollback        leave the rings as they are when a gate closes
  --message TEXT       recorded with each release the rollout makes
  --json               one JSON object per step instead of lines
  --replicas N         the replicas of the buckets this creates (CCM_ROLLOUTS, the bucket,
                       CCM_RELEASES), 1 to 5 (default: 3 when the server reports a cluster
                       of three or more servers, else 1); an existing bucket is used as it is
  --context NAME       the NATS CLI context to connect with (default: $NATS_CONTEXT, else CCM)
  --nats URL           connect to this server (or comma-separated servers) instead

Exit status: 0 every ring passed; 1 the rollout could not run (the message says why); 2 usage
error; 3 a gate closed (or an abort came) and every changed ring is back on its previous
release; 4 a gate closed and rings were left changed (--no-rollback) or restoring failed;
5 paused or interrupted: `rollout resume ID` goes on.
)";

constexpr int kRolledBack = 3;
constexpr int kLeftChanged = 4;
constexpr int kResumable = 5;

std::atomic<bool> g_interrupted {false};
fleet::RolloutRunner *g_runner = nullptr;

extern "C" void interruptRollout(int)
{
    g_interrupted = true;
    if (g_runner)
        g_runner->interrupt();
}

struct RolloutLine {
    std::string action = "start"; ///< start, status, resume, pause, abort
    std::optional<std::string> file;
    std::optional<std::string> id;
    std::optional<std::string> bucket;
    std::vector<std::string> rings;
    std::optional<std::string> key;
    std::optional<std::string> message;
    fleet::FailureBudget budget;
    std::string maxFailed = "0";
    std::chrono::seconds ringTimeout {600};
    std::chrono::seconds settle {0};
    bool rollback = true;
    bool json = false;
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
    fleet::BucketReplicas replicas;
};

std::optional<int> usage(std::ostream &err, const std::string &message)
{
    err << "ccm-backend rollout: " << message << '\n' << kRolloutUsage;
    return UsageError;
}

std::optional<int> readDuration(
    const std::string &option, const std::string &text, std::chrono::seconds &target, bool allowZero, std::ostream &err)
{
    auto duration = parseDuration(text);
    if (!duration || duration->count() < 0 || (!allowZero && duration->count() == 0))
        return usage(
            err, option + " '" + text + "' is not a " + (allowZero ? "" : "positive ") + "duration (30s, 10m)");
    target = std::chrono::duration_cast<std::chrono::seconds>(*duration);
    return std::nullopt;
}

/// Reads an option with a value at args[i]; true when it was one.
std::optional<int> takeOption(
    const std::vector<std::string> &args, std::size_t &i, RolloutLine &line, bool &taken, std::ostream &err)
{
    const std::string &arg = args[i];
    const bool valued = arg == "--bucket" || arg == "--ring" || arg == "--sign" || arg == "--max-failed"
        || arg == "--ring-timeout" || arg == "--settle" || arg == "--message" || arg == "--replicas";
    taken = valued;
    if (!valued)
        return std::nullopt;
    if (i + 1 >= args.size())
        return usage(err, arg + " needs a value");
    const std::string &value = args[++i];
    if (arg == "--bucket")
        line.bucket = value;
    else if (arg == "--ring")
        line.rings.push_back(value);
    else if (arg == "--sign")
        line.key = value;
    else if (arg == "--message")
        line.message = value;
    else if (arg == "--replicas") {
        auto replicas = bucketReplicas(value, "rollout", err);
        if (!replicas)
            return usage(err, replicas.error().message);
        line.replicas = std::move(replicas).value();
    } else if (arg == "--ring-timeout")
        return readDuration(arg, value, line.ringTimeout, false, err);
    else if (arg == "--settle")
        return readDuration(arg, value, line.settle, true, err);
    else {
        auto budget = fleet::FailureBudget::parse(value);
        if (!budget)
            return usage(err, budget.error().message);
        line.budget = *budget;
        line.maxFailed = budget->text();
    }
    return std::nullopt;
}

std::optional<int> checkLine(RolloutLine &line, std::ostream &err)
{
    if (line.action != "start") {
        if (line.file && line.action != "status")
            return usage(err, "rollout " + line.action + " takes one ID");
        if (!line.id && line.action != "status")
            return usage(
                err, "rollout " + line.action + " needs the rollout's ID (`ccm-backend rollout status` lists them)");
        if (line.bucket || !line.rings.empty() || line.key)
            return usage(err, "rollout " + line.action + " takes no --bucket, --ring or --sign: the record holds them");
        return std::nullopt;
    }
    if (!line.file)
        return usage(err, "a FILE (a bundle or a manifest) is required");
    if (!line.bucket)
        return usage(err, "--bucket is required");
    if (line.rings.empty())
        return usage(err, "at least one --ring is required");
    if (!line.key)
        return usage(err, "--sign KEY.pem is required: agents with bundle_keys run only signed releases");
    for (std::size_t i = 0; i < line.rings.size(); ++i)
        if (std::find(line.rings.begin(), line.rings.begin() + long(i), line.rings[i]) != line.rings.begin() + long(i))
            return usage(err, "--ring " + line.rings[i] + " is given twice");
    return std::nullopt;
}

std::optional<int> parseRolloutLine(
    const std::vector<std::string> &args, RolloutLine &line, std::ostream &out, std::ostream &err)
{
    std::size_t first = 0;
    if (!args.empty() && (args[0] == "status" || args[0] == "resume" || args[0] == "pause" || args[0] == "abort")) {
        line.action = args[0];
        first = 1;
    }
    line.replicas = bucketReplicas(std::nullopt, "rollout", err).value();
    for (std::size_t i = first; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kRolloutUsage;
            return Success;
        }
        auto source = takeSourceOption(args, i, line.sources);
        if (!source)
            return usage(err, source.error().message);
        if (*source)
            continue;
        bool taken = false;
        if (auto status = takeOption(args, i, line, taken, err))
            return status;
        if (taken)
            continue;
        if (arg == "--json")
            line.json = true;
        else if (arg == "--no-rollback")
            line.rollback = false;
        else if (arg.size() > 1 && arg.front() == '-')
            return usage(err, "unknown option '" + arg + "'");
        else if (line.action == "start" ? line.file.has_value() : line.id.has_value())
            return usage(err, "unexpected argument '" + arg + "'");
        else
            (line.action == "start" ? line.file : line.id) = arg;
    }
    return checkLine(line, err);
}

/// Prints the steps as lines, or as JSON lines.
class ProgressPrinter {
public:
    ProgressPrinter(std::ostream &out, bool json)
        : m_out(out)
        , m_json(json)
    {
    }

    void operator()(const Json &event)
    {
        if (m_json) {
            m_out << event.dump(-1, ' ', false, Json::error_handler_t::replace) << std::endl;
            return;
        }
        const std::string kind = stringMember(event, "event");
        const std::string ring = stringMember(event, "ring");
        const std::string id = stringMember(event, "rollout");
        if (kind == "started") {
            std::string rings;
            for (const Json &name : event.value("rings", Json::array()))
                rings += (rings.empty() ? "" : ", ") + name.get<std::string>();
            m_out << "rollout " << id << ": " << stringMember(event, "digest") << " to " << rings << "; at most "
                  << stringMember(event, "max_failed") << " may fail per ring\n";
        } else if (kind == "resumed") {
            m_out << "rollout " << id << ": resumed by " << stringMember(event, "owner") << '\n';
        } else if (kind == "ring") {
            m_out << "ring " << event.value("index", 0) + 1 << "/" << event.value("rings", 0) << " " << ring << '\n';
        } else if (kind == "published") {
            const std::string previous = stringMember(event, "previous");
            m_out << "  " << ring << ": published " << stringMember(event, "digest") << " (previous "
                  << (previous.empty() ? "none" : previous) << ")\n";
        } else if (kind == "host") {
            const std::string reason = stringMember(event, "reason");
            m_out << "  " << ring << ": " << stringMember(event, "identity") << " " << stringMember(event, "state")
                  << (reason.empty() ? "" : ": " + reason) << '\n';
        } else if (kind == "settling") {
            m_out << "  " << ring << ": every agent reported; holding the gate for " << event.value("settle_seconds", 0)
                  << "s\n";
        } else if (kind == "gate") {
            m_out << "  " << ring << ": gate " << (event.value("passed", false) ? "passed" : "CLOSED") << ": "
                  << stringMember(event, "summary") << '\n';
        } else if (kind == "rolling_back") {
            m_out << "  " << ring << ": rolling back to " << stringMember(event, "previous") << '\n';
        } else if (kind == "restored") {
            m_out << "  " << ring << ": " << stringMember(event, "state") << ": " << stringMember(event, "summary")
                  << '\n';
        } else if (kind == "paused") {
            m_out << "rollout " << id << ": paused before ring " << ring << '\n';
        } else if (kind == "requested") {
            m_out << "rollout " << id << ": asked " << stringMember(event, "owner") << " to "
                  << stringMember(event, "request") << '\n';
        } else if (kind == "done") {
            m_out << "rollout " << id << ": " << stringMember(event, "state") << ": " << stringMember(event, "report")
                  << '\n';
        }
        m_out.flush();
    }

private:
    std::ostream &m_out;
    bool m_json;
};

int exitCodeOf(const fleet::RolloutRecord &record)
{
    switch (record.state) {
    case fleet::RolloutState::Passed:
        return Success;
    case fleet::RolloutState::RolledBack:
        return kRolledBack;
    case fleet::RolloutState::Failed:
        return kLeftChanged;
    case fleet::RolloutState::Paused:
    case fleet::RolloutState::Running:
        return kResumable;
    }
    return Failure;
}

/// The bundle to roll out, signed with `key`, in `directory`: a manifest is bundled, a bundle signed.
Result<std::filesystem::path> signedBundle(
    const std::string &file, const SigningKey &key, const std::filesystem::path &directory)
{
    const std::filesystem::path out = directory / "release.tar.gz";
    if (isBundlePath(file)) {
        auto signedFile = signBundleFile(file, key, out);
        if (!signedFile)
            return signedFile.error();
        return out;
    }
    const BundlePlan plan = planBundle(file);
    std::string problems;
    for (const BundleFinding &finding : plan.findings)
        if (finding.diagnostic.severity == Severity::Error)
            problems += "\n" + formatBundleFinding(finding);
    if (!plan.ok())
        return Error {"invalid_bundle", file + " cannot be bundled:" + problems};
    if (auto written = writeBundle(plan, out, &key); !written)
        return written.error();
    return out;
}

struct Session {
    std::unique_ptr<fleet::NatsConnection> connection;
    std::optional<fleet::KvBucket> records;
};

Result<Session> connectSession(const RolloutLine &line)
{
    auto settings = fleet::resolveNatsSettings(line.sources.nats, line.sources.environment);
    if (!settings)
        return settings.error();
    auto connected = fleet::NatsConnection::connect(settings.value());
    if (!connected)
        return connected.error();
    Session session;
    session.connection = std::move(connected).value();
    auto records
        = fleet::KvBucket::openOrCreate(*session.connection, std::string(fleet::kRolloutsBucket), line.replicas);
    if (!records)
        return records.error();
    session.records.emplace(std::move(records).value());
    return session;
}

/// Runs `work` with Ctrl-C turned into an interruption of `runner`.
template<typename Work> auto interruptible(fleet::RolloutRunner &runner, Work work)
{
    g_runner = &runner;
    std::signal(SIGINT, interruptRollout);
    std::signal(SIGTERM, interruptRollout);
    auto result = work();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    g_runner = nullptr;
    return result;
}

int reportEnd(const Result<fleet::RolloutRecord> &record, std::ostream &err)
{
    if (!record) {
        err << "ccm-backend rollout: " << record.error().message << '\n';
        return record.error().code == "interrupted" ? kResumable : Failure;
    }
    return exitCodeOf(*record);
}

int startRollout(const RolloutLine &line, std::ostream &out, std::ostream &err)
{
    auto key = loadPrivateKey(*line.key);
    if (!key) {
        err << "ccm-backend rollout: --sign: " << key.error().message << '\n';
        return Failure;
    }
    auto directory = TempDir::create("ccm-rollout");
    if (!directory) {
        err << "ccm-backend rollout: " << directory.error().message << '\n';
        return Failure;
    }
    auto bundle = signedBundle(*line.file, *key, directory->path());
    auto connected = bundle ? connectSession(line) : Result<Session>(bundle.error());
    if (!connected) {
        err << "ccm-backend rollout: " << connected.error().message << '\n';
        return Failure;
    }
    Session session = std::move(connected).value();
    auto publisher = fleet::ReleasePublisher::open(*session.connection, *line.bucket, line.replicas);
    auto kept = publisher ? (*publisher)->keep(*bundle, keyFingerprint(key->publicKey))
                          : Result<fleet::KeptRelease>(publisher.error());
    if (!kept) {
        err << "ccm-backend rollout: " << kept.error().message << '\n';
        return Failure;
    }
    fleet::RolloutRecord record;
    record.bucket = *line.bucket;
    record.digest = kept->digest;
    record.size = kept->size;
    record.signer = keyFingerprint(key->publicKey);
    record.message = line.message.value_or("");
    record.maxFailed = line.maxFailed;
    record.ringTimeout = line.ringTimeout;
    record.settle = line.settle;
    record.rollback = line.rollback;
    for (const std::string &name : line.rings) {
        fleet::RingRecord ring;
        ring.name = name;
        record.rings.push_back(ring);
    }
    ProgressPrinter printer(out, line.json);
    fleet::RolloutRunner runner(*session.connection, *session.records, **publisher, std::ref(printer));
    return reportEnd(interruptible(runner, [&] { return runner.start(record); }), err);
}

std::string age(std::chrono::system_clock::time_point time)
{
    const auto seconds
        = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - time).count();
    if (seconds < 120)
        return std::to_string(std::max<long long>(seconds, 0)) + "s";
    if (seconds < 7200)
        return std::to_string(seconds / 60) + "m";
    if (seconds < 2 * 86400)
        return std::to_string(seconds / 3600) + "h";
    return std::to_string(seconds / 86400) + "d";
}

void printRecord(const fleet::RolloutRecord &record, std::ostream &out)
{
    out << "rollout " << record.id << ": " << rolloutStateName(record.state) << '\n'
        << "  release:  " << record.digest << " (" << record.size << " bytes, signed by " << record.signer << ")\n"
        << "  bucket:   " << record.bucket << '\n'
        << "  started:  " << formatTimestamp(record.created) << " by " << record.owner << '\n'
        << "  updated:  " << age(record.updated) << " ago\n"
        << "  gate:     at most " << record.maxFailed << " may fail per ring; " << record.ringTimeout.count()
        << "s per ring, settle " << record.settle.count() << "s" << (record.rollback ? "" : ", no rollback") << '\n';
    if (!record.message.empty())
        out << "  message:  " << record.message << '\n';
    for (const fleet::RingRecord &ring : record.rings) {
        out << "  ring " << ring.name << ": " << ringStateName(ring.state) << (ring.verdict.empty() ? "" : ": ")
            << ring.verdict << '\n';
        for (const auto &[identity, host] : ring.hosts.items()) {
            const std::string reason = stringMember(host, "reason");
            out << "    " << identity << " " << stringMember(host, "state") << (reason.empty() ? "" : ": " + reason)
                << '\n';
        }
    }
    if (!record.report.empty())
        out << "  report:   " << record.report << '\n';
}

/// The records `rollout status` shows, by key: the one the line names, or every one in the bucket.
Result<std::vector<std::pair<std::string, std::string>>> statusRecords(
    const RolloutLine &line, fleet::KvBucket &records)
{
    if (!line.id)
        return records.entries();
    auto entry = records.get(*line.id);
    if (!entry)
        return entry.error();
    if (!entry->has_value())
        return Error {"not_found", "there is no rollout " + *line.id};
    return std::vector {std::pair {*line.id, std::move(**entry)}};
}

int statusCommand(const RolloutLine &line, fleet::KvBucket &records, std::ostream &out, std::ostream &err)
{
    auto texts = statusRecords(line, records);
    if (!texts) {
        err << "ccm-backend rollout status: " << (line.id ? *line.id + ": " : "") << texts.error().message << '\n';
        return Failure;
    }
    std::vector<fleet::RolloutRecord> found;
    for (const auto &[key, text] : texts.value()) {
        auto record = fleet::parseRollout(text);
        if (!record) {
            err << "ccm-backend rollout status: " << key << ": " << record.error().message << '\n';
            if (line.id)
                return Failure;
            continue;
        }
        found.push_back(std::move(record).value());
    }
    std::sort(found.begin(), found.end(),
        [](const fleet::RolloutRecord &a, const fleet::RolloutRecord &b) { return a.created > b.created; });
    if (line.json) {
        for (const fleet::RolloutRecord &record : found)
            out << fleet::rolloutToJson(record).dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
        return Success;
    }
    if (line.id) {
        printRecord(found.front(), out);
        return Success;
    }
    out << std::left << std::setw(14) << "ID" << std::setw(13) << "STATE" << std::setw(22) << "STARTED" << std::setw(6)
        << "AGE"
        << "RINGS\n";
    for (const fleet::RolloutRecord &record : found) {
        std::string rings;
        for (const fleet::RingRecord &ring : record.rings)
            rings += (rings.empty() ? "" : " ") + ring.name + ":" + std::string(ringStateName(ring.state));
        out << std::left << std::setw(14) << record.id << std::setw(13) << rolloutStateName(record.state)
            << std::setw(22) << formatTimestamp(record.created).substr(0, 19) + "Z" << std::setw(6)
            << age(record.updated) << rings << '\n';
    }
    return Success;
}

} // namespace

int rolloutCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    RolloutLine line;
    if (const auto status = parseRolloutLine(args, line, out, err))
        return *status;
    if (line.action == "start")
        return startRollout(line, out, err);
    auto connected = connectSession(line);
    if (!connected) {
        err << "ccm-backend rollout " << line.action << ": " << connected.error().message << '\n';
        return Failure;
    }
    Session session = std::move(connected).value();
    if (line.action == "status" && line.id && !fleet::isRolloutId(*line.id)) {
        err << "ccm-backend rollout status: '" << *line.id << "' is not a rollout id\n";
        return Failure;
    }
    if (line.action == "status")
        return statusCommand(line, *session.records, out, err);
    if (!fleet::isRolloutId(*line.id)) {
        err << "ccm-backend rollout " << line.action << ": '" << *line.id
            << "' is not a rollout id (12 letters and digits, as `ccm-backend rollout status` lists them)\n";
        return Failure;
    }
    // The record names the bucket; the publisher is opened on it once the record is read.
    auto entry = session.records->get(*line.id);
    auto record = entry && entry->has_value()
        ? fleet::parseRollout(**entry)
        : Result<fleet::RolloutRecord>(Error {
            "not_found", entry ? "there is no rollout " + *line.id + " in CCM_ROLLOUTS" : entry.error().message});
    auto publisher = record ? fleet::ReleasePublisher::open(*session.connection, record->bucket, line.replicas)
                            : Result<std::unique_ptr<fleet::ReleasePublisher>>(record.error());
    if (!publisher) {
        err << "ccm-backend rollout " << line.action << ": " << publisher.error().message << '\n';
        return Failure;
    }
    ProgressPrinter printer(out, line.json);
    fleet::RolloutRunner runner(*session.connection, *session.records, **publisher, std::ref(printer));
    if (line.action == "resume")
        return reportEnd(interruptible(runner, [&] { return runner.resume(*line.id); }), err);
    auto ended = interruptible(runner, [&] { return runner.request(*line.id, line.action); });
    if (ended && line.action == "pause") {
        out << "rollout " << *line.id << ": "
            << (ended->state == fleet::RolloutState::Paused
                       ? "paused"
                       : "asked " + ended->owner + " to pause after its current ring")
            << '\n';
        return Success;
    }
    return reportEnd(ended, err);
}

} // namespace ccm::cli
