// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/replicas_option.h"
#include "base/signing_key.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle_signature.h"
#include "core/model/duration.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "fleet/release/release_store.h"
#include "fleet/rollout/rollout_runner.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kPublishUsage
    = R"(Usage: ccm-backend publish FILE.tar.gz --bucket BUCKET [--name NAME] [--sign KEY.pem]
                           [--message TEXT] [--orphan-age DURATION] [--replicas N]
                           [--context NAME | --nats URL]
       ccm-backend publish --prune --bucket BUCKET [--orphan-age DURATION] [--context NAME | --nats URL]

Puts a bundle into a NATS JetStream object store, creating the bucket when it is
missing and replacing an object of the same name, then prints its name, size,
digest and obj://BUCKET/NAME URL (and signer, when the bundle is signed). Agents
and commands fetch it by that URL. Chunks left by publishes that were killed
before they finished are removed.

Every publish is a release: recorded in the key-value bucket CCM_RELEASES, and
the bundle kept in the bucket as .releases/DIGEST, so that `ccm-backend rollback`
can put it back (`ccm-backend releases` lists them).

With --prune, stores nothing: removes every orphaned chunk of the bucket and
prints how many abandoned objects, chunks and bytes went.

Options:
  --bucket BUCKET        the object store bucket (letters, digits, '-' and '_')
  --name NAME            the object's name (default: the file's name)
  --sign KEY.pem         sign the bundle with this Ed25519 private key first (a
                         bundle already signed by it is published unchanged)
  --message TEXT         recorded with the release (why it was published)
  --prune                remove the bucket's orphaned chunks instead of publishing
  --orphan-age DURATION  chunks no meta record refers to count as orphaned once
                         nothing has written to them for this long (default 15m);
                         0 also removes those of a publish running right now
  --replicas N           the replicas of the buckets this creates (the bucket and
                         CCM_RELEASES), 1 to 5 (default: 3 when the server reports a
                         cluster of three or more servers, else 1); an existing
                         bucket is used as it is, with a warning when it has fewer
  --context NAME         the NATS CLI context to connect with (default: $NATS_CONTEXT,
                         else CCM), read from $XDG_CONFIG_HOME/nats/context/NAME.json
  --nats URL             connect to this server instead (or to the first of a
                         comma-separated list that answers); no context is read
)";

struct PublishOptions {
    std::optional<std::string> file;
    std::optional<std::string> bucket;
    std::optional<std::string> name;
    std::optional<std::string> orphanAgeText;
    std::optional<std::string> key;
    std::optional<std::string> message;
    std::optional<std::string> replicasText;
    std::chrono::seconds orphanAge = fleet::ObjectStore::kOrphanAge;
    bool prune = false;
    fleet::NatsSelection selection;
};

/// Checks the options read as a whole; the exit code when the command ends there.
std::optional<int> checkPublishOptions(PublishOptions &options, std::ostream &err)
{
    if (options.prune && (options.file || options.name || options.key || options.message || options.replicasText)) {
        err << "ccm-backend publish: --prune takes no FILE, --name, --sign, --message or --replicas: it stores "
               "nothing\n"
            << kPublishUsage;
        return UsageError;
    }
    if (options.message && !fleet::isReleaseMessage(*options.message)) {
        err << "ccm-backend publish: --message must be one line of at most 64 KiB without control characters\n";
        return UsageError;
    }
    if ((!options.file && !options.prune) || !options.bucket) {
        err << "ccm-backend publish: "
            << (options.file || options.prune ? "--bucket is required" : "a FILE is required") << "\n"
            << kPublishUsage;
        return UsageError;
    }
    if (options.orphanAgeText) {
        const auto age = parseDuration(*options.orphanAgeText);
        if (!age) {
            err << "ccm-backend publish: --orphan-age: " << age.error().message << '\n';
            return UsageError;
        }
        options.orphanAge = std::chrono::duration_cast<std::chrono::seconds>(age.value());
    }
    return std::nullopt;
}

/// Reads the command line into options; the exit code when the command ends there (help or a usage error).
std::optional<int> parsePublishOptions(
    const std::vector<std::string> &args, PublishOptions &options, std::ostream &out, std::ostream &err)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto takeValue = [&](std::optional<std::string> &target) {
            if (i + 1 >= args.size()) {
                err << "ccm-backend publish: " << arg << " needs a value\n" << kPublishUsage;
                return false;
            }
            target = args[++i];
            return true;
        };
        if (arg == "-h" || arg == "--help") {
            out << kPublishUsage;
            return Success;
        }
        if (arg == "--prune") {
            options.prune = true;
        } else if (arg == "--bucket" || arg == "--name" || arg == "--context" || arg == "--nats"
            || arg == "--orphan-age" || arg == "--sign" || arg == "--message" || arg == "--replicas") {
            std::optional<std::string> &target = arg == "--bucket" ? options.bucket
                : arg == "--name"                                  ? options.name
                : arg == "--context"                               ? options.selection.context
                : arg == "--nats"                                  ? options.selection.url
                : arg == "--sign"                                  ? options.key
                : arg == "--message"                               ? options.message
                : arg == "--replicas"                              ? options.replicasText
                                                                   : options.orphanAgeText;
            if (!takeValue(target))
                return UsageError;
        } else if (arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend publish: unknown option '" << arg << "'\n" << kPublishUsage;
            return UsageError;
        } else if (options.file) {
            err << "ccm-backend publish: only one FILE may be given\n";
            return UsageError;
        } else {
            options.file = arg;
        }
    }
    return checkPublishOptions(options, err);
}

/// Connects as the options say.
Result<std::unique_ptr<fleet::NatsConnection>> connectPublish(const PublishOptions &options)
{
    auto settings = fleet::resolveNatsSettings(options.selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return settings.error();
    return fleet::NatsConnection::connect(settings.value());
}

/// Connects as the options say and binds to the bucket, creating it when `create`.
Result<fleet::ObjectStore> openBucket(
    const PublishOptions &options, std::unique_ptr<fleet::NatsConnection> &connection, bool create)
{
    auto connected = connectPublish(options);
    if (!connected)
        return connected.error();
    connection = std::move(connected).value();
    return create ? fleet::ObjectStore::openOrCreate(*connection, *options.bucket)
                  : fleet::ObjectStore::open(*connection, *options.bucket);
}

int pruneCommand(const PublishOptions &options, std::ostream &out, std::ostream &err)
{
    std::unique_ptr<fleet::NatsConnection> connection;
    auto store = openBucket(options, connection, false);
    if (!store) {
        err << "ccm-backend publish: " << store.error().message << '\n';
        return Failure;
    }
    auto pruned = store.value().pruneOrphans(options.orphanAge);
    if (!pruned) {
        err << "ccm-backend publish: " << pruned.error().message << '\n';
        return Failure;
    }
    out << "bucket: " << *options.bucket << '\n'
        << "objects: " << pruned->objects << '\n'
        << "chunks: " << pruned->chunks << '\n'
        << "bytes: " << pruned->bytes << '\n';
    return Success;
}

/// The bundle to publish and who signed it: `file` itself, or its signed copy in `directory`.
struct PublishInput {
    std::filesystem::path file;
    std::string signer;
    TempDir directory;
};

/// Signs the bundle with --sign's key into a private directory, or reads who signed it; the exit
/// code when the publish ends there.
std::optional<int> preparePublish(const PublishOptions &options, PublishInput &input, std::ostream &err)
{
    input.file = *options.file;
    if (!options.key) {
        auto check = readBundleSignature(input.file);
        if (!check)
            err << "ccm-backend publish: warning: " << *options.file
                << " could not be read as a bundle, so its release records no signer: " << check.error().message
                << '\n';
        else if (check->state == BundleSignatureCheck::State::Invalid)
            err << "ccm-backend publish: warning: " << *options.file << ": " << check->describe() << '\n';
        else if (check->state == BundleSignatureCheck::State::Signed)
            input.signer = check->signature->fingerprint();
        return std::nullopt;
    }
    auto key = loadPrivateKey(*options.key);
    auto directory = key ? TempDir::create("ccm-publish") : Result<TempDir>(key.error());
    if (!directory) {
        err << "ccm-backend publish: --sign: " << directory.error().message << '\n';
        return Failure;
    }
    input.directory = std::move(directory).value();
    const std::filesystem::path signedFile = input.directory.path() / "bundle.tar.gz";
    auto signature = signBundleFile(input.file, key.value(), signedFile);
    if (!signature) {
        err << "ccm-backend publish: " << *options.file << ": cannot be signed: " << signature.error().message << '\n';
        return Failure;
    }
    input.file = signedFile;
    input.signer = keyFingerprint(key->publicKey);
    return std::nullopt;
}

void reportPut(const fleet::PutReport &report, const std::string &bucket, std::ostream &err)
{
    if (report.refusedRecord)
        err << "ccm-backend publish: warning: replaced a meta record that was refused, without removing anything it "
               "named: "
            << report.refusedRecord->message << '\n';
    if (report.orphans.objects > 0)
        err << "ccm-backend publish: removed " << report.orphans.chunks << " orphaned chunks (" << report.orphans.bytes
            << " bytes) of " << report.orphans.objects << " abandoned objects from bucket '" << bucket << "'\n";
    if (report.orphanCleanup)
        err << "ccm-backend publish: warning: the object is stored, but orphaned chunks could not be removed: "
            << report.orphanCleanup->message << '\n';
}

} // namespace

int publishCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    PublishOptions options;
    if (const auto exitCode = parsePublishOptions(args, options, out, err))
        return *exitCode;
    if (options.prune)
        return pruneCommand(options, out, err);
    const std::string &file = *options.file;
    const std::string objectName = options.name ? *options.name : std::filesystem::path(file).filename().string();
    if (objectName.empty()) {
        err << "ccm-backend publish: the object name must not be empty\n";
        return UsageError;
    }
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) {
        err << "ccm-backend publish: " << file << ": not a regular file\n";
        return Failure;
    }
    auto replicas = bucketReplicas(options.replicasText, "publish", err);
    if (!replicas) {
        err << "ccm-backend publish: " << replicas.error().message << '\n';
        return UsageError;
    }
    PublishInput input;
    if (const auto exitCode = preparePublish(options, input, err))
        return *exitCode;

    auto connection = connectPublish(options);
    auto store = connection ? fleet::ReleaseStore::open(*connection.value(), *options.bucket, true, replicas.value())
                            : Result<fleet::ReleaseStore>(connection.error());
    if (!store) {
        err << "ccm-backend publish: " << store.error().message << '\n';
        return Failure;
    }
    store.value().objects().setOrphanAge(options.orphanAge);
    auto published = store.value().publish(
        objectName, input.file, {fleet::processOwner(), input.signer, options.message.value_or("")});
    if (!published) {
        err << "ccm-backend publish: " << file << ": " << published.error().message << '\n';
        return Failure;
    }
    reportPut(published->report, *options.bucket, err);
    const fleet::ObjectInfo &info = published->object;
    out << "name: " << info.name << '\n'
        << "size: " << info.size << '\n'
        << "digest: " << info.digest << '\n'
        << "url: " << fleet::ObjectUrl {info.bucket, info.name}.toString() << '\n';
    if (!input.signer.empty())
        out << "signer: " << input.signer << '\n';
    return Success;
}

} // namespace ccm::cli
