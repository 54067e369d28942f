// SPDX-License-Identifier: Apache-2.0
// `ccm-backend releases` and `ccm-backend rollback`: the release history of a bucket, and putting
// an earlier release back.
#include "app/commands.h"
#include "base/signing_key.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle_signature.h"
#include "core/model/transaction_event.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/object_url.h"
#include "fleet/release/release_store.h"
#include "fleet/rollout/rollout_runner.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

namespace ccm::cli {
namespace {

constexpr std::string_view kReleasesUsage
    = R"(Usage: ccm-backend releases --bucket BUCKET [--name NAME] [--json] [--context NAME | --nats URL]
       ccm-backend releases --prune --keep N --bucket BUCKET [--name NAME] [--context NAME | --nats URL]

Lists the releases of the bucket's objects (of NAME only with --name), newest first,
from the key-value bucket CCM_RELEASES: when, which digest and size, who published
it, which key signed it, and the message. Records that cannot be read are skipped
with a warning.

With --prune, lists nothing: keeps the newest N releases of each name (of NAME only
with --name), removes the older records, and removes the kept bundles
(.releases/DIGEST) of removed releases that no remaining release, no current
object and no rollout still refers to; prints how many records, bundles and bytes went.

Options:
  --bucket BUCKET   the object store bucket
  --name NAME       only the releases of this object
  --json            one JSON object per line: name, bucket, digest, size, time,
                    publisher, signer (null when unsigned), message
  --prune           remove old releases instead of listing them
  --keep N          with --prune: how many releases of each name stay (at least 1)
  --context NAME    the NATS CLI context to connect with (default: $NATS_CONTEXT, else CCM)
  --nats URL        connect to this server (or comma-separated servers) instead
)";

constexpr std::string_view kRollbackUsage
    = R"(Usage: ccm-backend rollback --bucket BUCKET --name NAME [--to DIGEST] --sign KEY.pem
                            [--message TEXT] [--context NAME | --nats URL]

Publishes an earlier release of the object NAME again: the release DIGEST, or by
default the newest release whose digest differs from what the object holds now
(the one before the current). Its kept bundle (.releases/DIGEST) is checked against
the recorded digest, signed with KEY (unchanged when that key signed it already),
published as NAME, and recorded as a release ("rollback to DIGEST" unless
--message). Prints the object's name, size, digest, URL, signer and the release
it rolled back to.

Options:
  --bucket BUCKET   the object store bucket
  --name NAME       the object agents watch
  --to DIGEST       the release to put back (its SHA-256= digest, as `releases` lists)
  --sign KEY.pem    the Ed25519 private key the bundle is signed with
  --message TEXT    recorded with the release instead of "rollback to DIGEST"
  --context NAME    the NATS CLI context to connect with (default: $NATS_CONTEXT, else CCM)
  --nats URL        connect to this server (or comma-separated servers) instead

Exit status: 0 rolled back; 1 failure (nothing to roll back to, an unknown digest,
a kept bundle missing or not matching its record, NATS errors); 2 usage error.
)";

/// The command lines of both commands: options with a value, and flags.
struct ReleaseLine {
    std::map<std::string, std::string> values;
    bool json = false;
    bool prune = false;
    fleet::NatsSelection selection;

    [[nodiscard]] std::optional<std::string> value(const std::string &option) const
    {
        const auto found = values.find(option);
        return found == values.end() ? std::nullopt : std::optional(found->second);
    }
};

/// Reads `args` into `line`, taking the valued options `valued` and the flags `flags`; the exit
/// code when the command ends there.
std::optional<int> parseReleaseLine(const std::vector<std::string> &args, const std::vector<std::string> &valued,
    const std::vector<std::string> &flags, ReleaseLine &line, std::string_view command, std::string_view usage,
    std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << usage;
            return Success;
        }
        if (std::find(flags.begin(), flags.end(), arg) != flags.end()) {
            (arg == "--json" ? line.json : line.prune) = true;
            continue;
        }
        if (std::find(valued.begin(), valued.end(), arg) == valued.end() && arg != "--context" && arg != "--nats") {
            err << "ccm-backend " << command << ": "
                << (arg.starts_with("-") ? "unknown option '" : "unexpected argument '") << arg << "'\n"
                << usage;
            return UsageError;
        }
        if (i + 1 >= args.size()) {
            err << "ccm-backend " << command << ": " << arg << " needs a value\n" << usage;
            return UsageError;
        }
        const std::string &value = args[++i];
        if (arg == "--context")
            line.selection.context = value;
        else if (arg == "--nats")
            line.selection.url = value;
        else
            line.values[arg] = value;
    }
    return std::nullopt;
}

/// Connects as the command line says and binds to the bucket's release history.
Result<fleet::ReleaseStore> openReleases(
    const ReleaseLine &line, std::unique_ptr<fleet::NatsConnection> &connection, bool create)
{
    auto settings = fleet::resolveNatsSettings(line.selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return settings.error();
    auto connected = fleet::NatsConnection::connect(settings.value());
    if (!connected)
        return connected.error();
    connection = std::move(connected).value();
    return fleet::ReleaseStore::open(*connection, *line.value("--bucket"), create);
}

void warnSkipped(const std::vector<fleet::SkippedRelease> &skipped, std::string_view command, std::ostream &err)
{
    for (const fleet::SkippedRelease &record : skipped)
        err << "ccm-backend " << command << ": warning: skipped " << record.error.message << '\n';
}

/// The releases as a table, columns as wide as their widest cell.
void printReleaseTable(const std::vector<fleet::Release> &releases, std::ostream &out)
{
    std::vector<std::array<std::string, 7>> rows {{"TIME", "NAME", "DIGEST", "SIZE", "SIGNER", "PUBLISHER", "MESSAGE"}};
    for (const fleet::Release &release : releases)
        rows.push_back({formatTimestamp(release.time), release.name, release.digest, std::to_string(release.size),
            release.signer.empty() ? "-" : release.signer, release.publisher, release.message});
    std::array<std::size_t, 7> widths {};
    for (const auto &row : rows)
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    for (const auto &row : rows) {
        std::string text;
        for (std::size_t i = 0; i < row.size(); ++i)
            text += row[i] + (i + 1 < row.size() ? std::string(widths[i] - row[i].size() + 2, ' ') : std::string());
        out << text << '\n';
    }
}

/// --keep's count; nullopt when it is not one of at least 1.
std::optional<std::size_t> keepCount(const ReleaseLine &line)
{
    const std::string text = line.value("--keep").value_or("");
    std::size_t keep = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), keep);
    if (error != std::errc() || end != text.data() + text.size() || keep == 0)
        return std::nullopt;
    return keep;
}

int pruneReleases(
    fleet::ReleaseStore &store, const ReleaseLine &line, std::size_t keep, std::ostream &out, std::ostream &err)
{
    std::vector<fleet::SkippedRelease> skipped;
    auto pruned = store.prune(keep, line.value("--name").value_or(""), &skipped);
    warnSkipped(skipped, "releases", err);
    if (!pruned) {
        err << "ccm-backend releases: " << pruned.error().message << '\n';
        return Failure;
    }
    out << "bucket: " << store.bucket() << '\n'
        << "records: " << pruned->records << '\n'
        << "bundles: " << pruned->archives << '\n'
        << "bytes: " << pruned->bytes << '\n';
    return Success;
}

} // namespace

int releasesCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ReleaseLine line;
    if (auto exitCode = parseReleaseLine(
            args, {"--bucket", "--name", "--keep"}, {"--json", "--prune"}, line, "releases", kReleasesUsage, out, err))
        return *exitCode;
    std::string problem;
    if (!line.value("--bucket"))
        problem = "--bucket is required";
    else if (line.prune != line.value("--keep").has_value())
        problem = "--prune and --keep go together";
    else if (line.prune && line.json)
        problem = "--json lists releases; --prune lists nothing";
    else if (line.prune && !keepCount(line))
        problem = "--keep '" + *line.value("--keep") + "' is not a count of at least 1";
    if (!problem.empty()) {
        err << "ccm-backend releases: " << problem << '\n' << kReleasesUsage;
        return UsageError;
    }
    std::unique_ptr<fleet::NatsConnection> connection;
    auto store = openReleases(line, connection, false);
    if (!store && connection && hasCode(store.error(), fleet::NatsErrc::BucketNotFound)
        && fleet::ObjectStore::open(*connection, *line.value("--bucket"))) {
        // The bucket is there but no release was ever recorded on this server: an empty history.
        err << "ccm-backend releases: no release is recorded in " << fleet::kReleasesBucket << " yet\n";
        if (!line.json && !line.prune)
            printReleaseTable({}, out);
        return Success;
    }
    if (!store) {
        err << "ccm-backend releases: " << store.error().message << '\n';
        return Failure;
    }
    if (line.prune)
        return pruneReleases(store.value(), line, *keepCount(line), out, err);
    auto listed = store.value().list(line.value("--name").value_or(""));
    if (!listed) {
        err << "ccm-backend releases: " << listed.error().message << '\n';
        return Failure;
    }
    warnSkipped(listed->skipped, "releases", err);
    if (line.json) {
        for (const fleet::Release &release : listed->releases)
            out << fleet::releaseToJson(release, false).dump() << '\n';
    } else {
        printReleaseTable(listed->releases, out);
    }
    return Success;
}

namespace {

/// The release to put back: `to`, or the newest one whose digest differs from the object's now.
Result<fleet::Release> rollbackTarget(
    fleet::ReleaseStore &store, const std::string &name, const std::optional<std::string> &to, std::ostream &err)
{
    auto listed = store.list(name);
    if (!listed)
        return listed.error();
    warnSkipped(listed->skipped, "rollback", err);
    const std::vector<fleet::Release> &releases = listed->releases;
    const std::string where = name + " in bucket '" + store.bucket() + "'";
    if (releases.empty())
        return Error {
            "no_release", "no release of " + where + " is recorded in " + std::string(fleet::kReleasesBucket)};
    if (to) {
        for (const fleet::Release &release : releases)
            if (release.digest == *to)
                return release;
        return Error {"unknown_release",
            *to + " is not a release of " + where + " (`ccm-backend releases --bucket " + store.bucket() + " --name "
                + name + "` lists them)"};
    }
    auto current = store.objects().info(name);
    if (!current && !hasCode(current.error(), fleet::NatsErrc::ObjectNotFound))
        return current.error();
    const std::string now = current ? current->digest : releases.front().digest;
    for (const fleet::Release &release : releases)
        if (release.digest != now)
            return release;
    return Error {"nothing_to_roll_back",
        "nothing to roll back to: every recorded release of " + where + " is the one it holds now (" + now + ")"};
}

std::optional<int> checkRollbackLine(const ReleaseLine &line, std::ostream &err)
{
    std::string problem;
    if (!line.value("--bucket"))
        problem = "--bucket is required";
    else if (!line.value("--name"))
        problem = "--name is required";
    else if (!line.value("--sign"))
        problem = "--sign KEY.pem is required: the release put back is signed";
    else if (line.value("--message") && !fleet::isReleaseMessage(*line.value("--message")))
        problem = "--message must be one line of at most 64 KiB without control characters";
    else if (line.value("--to") && !fleet::isObjectDigest(*line.value("--to")))
        problem = "--to '" + *line.value("--to") + "' is not a digest (SHA-256=..., as `releases` lists them)";
    if (problem.empty())
        return std::nullopt;
    err << "ccm-backend rollback: " << problem << '\n' << kRollbackUsage;
    return UsageError;
}

} // namespace

int rollbackCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    ReleaseLine line;
    if (auto exitCode = parseReleaseLine(args, {"--bucket", "--name", "--to", "--sign", "--message"}, {}, line,
            "rollback", kRollbackUsage, out, err))
        return *exitCode;
    if (auto exitCode = checkRollbackLine(line, err))
        return *exitCode;
    const std::string name = *line.value("--name");
    auto key = loadPrivateKey(*line.value("--sign"));
    auto directory = key ? TempDir::create("ccm-rollback") : Result<TempDir>(key.error());
    if (!directory) {
        err << "ccm-backend rollback: --sign: " << directory.error().message << '\n';
        return Failure;
    }
    std::unique_ptr<fleet::NatsConnection> connection;
    auto store = openReleases(line, connection, false);
    auto target
        = store ? rollbackTarget(store.value(), name, line.value("--to"), err) : Result<fleet::Release>(store.error());
    const std::filesystem::path restored = directory->path() / "restored.tar.gz";
    const std::filesystem::path signedFile = directory->path() / "release.tar.gz";
    auto kept = target ? store.value().restore(target->digest, restored) : Result<fleet::ObjectInfo>(target.error());
    auto signature
        = kept ? signBundleFile(restored, key.value(), signedFile) : Result<BundleSignatureCheck>(kept.error());
    if (!signature && kept)
        signature = signature.error().withContext("the release " + target->digest + " cannot be signed");
    const std::string fingerprint = keyFingerprint(key->publicKey);
    auto published = signature
        ? store.value().publish(name, signedFile,
            {fleet::processOwner(), fingerprint, line.value("--message").value_or("rollback to " + target->digest)})
        : Result<fleet::PublishedRelease>(signature.error());
    if (!published) {
        err << "ccm-backend rollback: " << published.error().message << '\n';
        return Failure;
    }
    const fleet::ObjectInfo &info = published->object;
    out << "name: " << info.name << '\n'
        << "size: " << info.size << '\n'
        << "digest: " << info.digest << '\n'
        << "url: " << fleet::ObjectUrl {info.bucket, info.name}.toString() << '\n'
        << "signer: " << fingerprint << '\n'
        << "rolled back to: " << target->digest << '\n';
    return Success;
}

} // namespace ccm::cli
