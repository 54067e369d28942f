// SPDX-License-Identifier: Apache-2.0
#include "commands.h"
#include "nats_connection.h"
#include "nats_context.h"
#include "object_store.h"
#include "object_url.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kPublishUsage
    = R"(Usage: ccm-backend publish FILE.tar.gz --bucket BUCKET [--name NAME] [--context NAME | --nats URL]

Puts a bundle into a NATS JetStream object store, creating the bucket when it is
missing and replacing an object of the same name, then prints its name, size,
digest and obj://BUCKET/NAME URL. Agents and commands fetch it by that URL.

Options:
  --bucket BUCKET     the object store bucket (letters, digits, '-' and '_')
  --name NAME         the object's name (default: the file's name)
  --context NAME      the NATS CLI context to connect with (default: $NATS_CONTEXT,
                      else CCM), read from $XDG_CONFIG_HOME/nats/context/NAME.json
  --nats URL          connect to this server instead; no context is read
)";

struct PublishOptions {
    std::optional<std::string> file;
    std::optional<std::string> bucket;
    std::optional<std::string> name;
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
        if (arg == "--bucket" || arg == "--name" || arg == "--context" || arg == "--nats") {
            std::optional<std::string> &target = arg == "--bucket" ? options.bucket
                : arg == "--name"                                  ? options.name
                : arg == "--context"                               ? options.selection.context
                                                                   : options.selection.url;
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
    if (!options.file || !options.bucket) {
        err << "ccm-backend publish: " << (options.file ? "--bucket is required" : "a FILE is required") << "\n"
            << kPublishUsage;
        return UsageError;
    }
    return std::nullopt;
}

} // namespace

int publishCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    PublishOptions options;
    if (const auto exitCode = parsePublishOptions(args, options, out, err))
        return *exitCode;
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

    auto settings = fleet::resolveNatsSettings(options.selection, fleet::ContextEnvironment::fromProcess());
    if (!settings) {
        err << "ccm-backend publish: " << settings.error().message << '\n';
        return Failure;
    }
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection) {
        err << "ccm-backend publish: " << connection.error().message << '\n';
        return Failure;
    }
    auto store = fleet::ObjectStore::openOrCreate(*connection.value(), *options.bucket);
    if (!store) {
        err << "ccm-backend publish: " << store.error().message << '\n';
        return Failure;
    }
    auto info = store.value().put(objectName, input);
    if (!info) {
        err << "ccm-backend publish: " << file << ": " << info.error().message << '\n';
        return Failure;
    }
    out << "name: " << info->name << '\n'
        << "size: " << info->size << '\n'
        << "digest: " << info->digest << '\n'
        << "url: " << fleet::ObjectUrl {info->bucket, info->name}.toString() << '\n';
    return Success;
}

} // namespace ccm::cli
