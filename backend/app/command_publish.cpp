// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "core/model/duration.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kPublishUsage
    = R"(Usage: ccm-backend publish FILE.tar.gz --bucket BUCKET [--name NAME] [--orphan-age DURATION]
                           [--context NAME | --nats URL]
       ccm-backend publish --prune --bucket BUCKET [--orphan-age DURATION] [--context NAME | --nats URL]

Puts a bundle into a NATS JetStream object store, creating the bucket when it is
missing and replacing an object of the same name, then prints its name, size,
digest and obj://BUCKET/NAME URL. Agents and commands fetch it by that URL.
Chunks left by publishes that were killed before they finished are removed.

With --prune, stores nothing: removes every orphaned chunk of the bucket and
prints how many abandoned objects, chunks and bytes went.

Options:
  --bucket BUCKET        the object store bucket (letters, digits, '-' and '_')
  --name NAME            the object's name (default: the file's name)
  --prune                remove the bucket's orphaned chunks instead of publishing
  --orphan-age DURATION  chunks no meta record refers to count as orphaned once
                         nothing has written to them for this long (default 15m);
                         0 also removes those of a publish running right now
  --context NAME         the NATS CLI context to connect with (default: $NATS_CONTEXT,
                         else CCM), read from $XDG_CONFIG_HOME/nats/context/NAME.json
  --nats URL             connect to this server instead; no context is read
)";

struct PublishOptions {
    std::optional<std::string> file;
    std::optional<std::string> bucket;
    std::optional<std::string> name;
    std::optional<std::string> orphanAgeText;
    std::chrono::seconds orphanAge = fleet::ObjectStore::kOrphanAge;
    bool prune = false;
    fleet::NatsSelection selection;
};

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
            || arg == "--orphan-age") {
            std::optional<std::string> &target = arg == "--bucket" ? options.bucket
                : arg == "--name"                                  ? options.name
                : arg == "--context"                               ? options.selection.context
                : arg == "--nats"                                  ? options.selection.url
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
    if (options.prune && (options.file || options.name)) {
        err << "ccm-backend publish: --prune takes no FILE and no --name: it stores nothing\n" << kPublishUsage;
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

/// Connects as the options say and binds to the bucket, creating it when `create`.
Result<fleet::ObjectStore> openBucket(
    const PublishOptions &options, std::unique_ptr<fleet::NatsConnection> &connection, bool create)
{
    auto settings = fleet::resolveNatsSettings(options.selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return settings.error();
    auto connected = fleet::NatsConnection::connect(settings.value());
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
    std::ifstream input(file, std::ios::binary);
    if (!input) {
        err << "ccm-backend publish: " << file << ": cannot be read\n";
        return Failure;
    }

    std::unique_ptr<fleet::NatsConnection> connection;
    auto store = openBucket(options, connection, true);
    if (!store) {
        err << "ccm-backend publish: " << store.error().message << '\n';
        return Failure;
    }
    store.value().setOrphanAge(options.orphanAge);
    fleet::PutReport report;
    auto info = store.value().put(objectName, input, {}, &report);
    if (report.refusedRecord)
        err << "ccm-backend publish: warning: replaced a meta record that was refused, without removing anything it "
               "named: "
            << report.refusedRecord->message << '\n';
    if (!info) {
        err << "ccm-backend publish: " << file << ": " << info.error().message << '\n';
        return Failure;
    }
    if (report.orphans.objects > 0)
        err << "ccm-backend publish: removed " << report.orphans.chunks << " orphaned chunks (" << report.orphans.bytes
            << " bytes) of " << report.orphans.objects << " abandoned objects from bucket '" << *options.bucket
            << "'\n";
    if (report.orphanCleanup)
        err << "ccm-backend publish: warning: the object is stored, but orphaned chunks could not be removed: "
            << report.orphanCleanup->message << '\n';
    out << "name: " << info->name << '\n'
        << "size: " << info->size << '\n'
        << "digest: " << info->digest << '\n'
        << "url: " << fleet::ObjectUrl {info->bucket, info->name}.toString() << '\n';
    return Success;
}

} // namespace ccm::cli
