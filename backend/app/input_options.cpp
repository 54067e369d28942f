// SPDX-License-Identifier: Apache-2.0
#include "app/input_options.h"

#include "app/manifest_input.h"
#include "app/option_value.h"
#include "base/signing_key.h"
#include "core/facts/environ.h"
#include "core/model/manifest.h"
#include "core/yaml/yaml_reader.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/registration/registration_store.h"

#include <cstdlib>
#include <memory>

namespace ccm::cli {

const char *const kInputOptionsUsage
    = R"(  --fact KEY=VALUE    set a fact (a string; repeatable); merged over the system and
                      custom facts
  --facts FILE        facts from a JSON or YAML map, merged over --fact
)";

const char *const kSourceOptionsUsage = R"(  --http-user USER[:PASSWORD]
                      basic auth for http(s):// sources (password from
                      $CCM_HTTP_PASSWORD when omitted); credentials in the URL win
  --http-ca FILE      verify https:// servers with this PEM CA bundle, not the system's
  --context NAME      the NATS context for obj:// and kv:// sources, kvGet and
                      registrations (default: $NATS_CONTEXT, else CCM)
  --nats URL          connect to this NATS server instead; no context is read
  --require-signature KEY.pem
                      refuse a bundle not signed by this key (an Ed25519 public or
                      private key PEM; repeatable: any of them); without it, who
                      signed a bundle is printed on stderr
)";

const char *const kRegistrationOptionUsage = R"(  -R, --registration STREAM
                      the JetStream stream registrations() looks services up in
                      (default: REGISTRATION)
)";

namespace {

/// --data documents larger than this are refused.
constexpr std::uint64_t kMaxDataBytes = 16 * 1024 * 1024;

} // namespace

fleet::SourceOptions sourceOptionsFromEnvironment()
{
    fleet::SourceOptions options;
    if (const char *password = std::getenv("CCM_HTTP_PASSWORD"))
        options.httpPassword = password;
    if (const char *stall = std::getenv("CCM_HTTP_STALL_TIMEOUT")) {
        char *end = nullptr;
        const long seconds = std::strtol(stall, &end, 10);
        if (end != stall && *end == '\0' && seconds > 0)
            options.stallTimeout = std::chrono::seconds(seconds);
    }
    return options;
}

Result<bool> takeSourceOption(const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options)
{
    for (const char *name : {"--http-user", "--http-ca", "--context", "--nats"}) {
        auto value = optionValue(args, index, name);
        if (!value)
            continue;
        if (!*value)
            return value->error();
        const std::string &text = value->value();
        const std::string_view option(name);
        if (option == "--http-user")
            options.httpUser = text;
        else if (option == "--http-ca")
            options.caFile = text;
        else if (option == "--context")
            options.nats.context = text;
        else
            options.nats.url = text;
        return true;
    }
    return false;
}

Result<bool> takeRegistrationOption(
    const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options)
{
    auto value = optionValue(args, index, "--registration", "-R");
    if (!value)
        return false;
    if (!*value)
        return value->error();
    if (value->value().empty())
        return Error {"usage", "--registration needs a stream name"};
    options.registrationStream = value->value();
    return true;
}

Result<bool> takeSignatureOption(
    const std::vector<std::string> &args, std::size_t &index, fleet::SourceOptions &options)
{
    auto value = optionValue(args, index, "--require-signature");
    if (!value)
        return false;
    if (!*value)
        return value->error();
    auto key = loadPublicKey(value->value());
    if (!key)
        return Error {"usage", "--require-signature: " + key.error().message};
    options.requiredSigners.push_back(std::move(key).value());
    return true;
}

Result<bool> takeInputOption(
    const std::vector<std::string> &args, std::size_t &index, InputOptions &options, bool withData)
{
    if (withData) {
        auto source = takeSourceOption(args, index, options.sources);
        if (!source || source.value())
            return source;
        auto signature = takeSignatureOption(args, index, options.sources);
        if (!signature || signature.value())
            return signature;
        auto registration = takeRegistrationOption(args, index, options.sources);
        if (!registration || registration.value())
            return registration;
    }
    if (auto fact = optionValue(args, index, "--fact")) {
        if (!*fact)
            return fact->error();
        if (fact->value().find('=') == std::string::npos)
            return Error {"usage", "--fact expects KEY=VALUE, not '" + fact->value() + "'"};
        options.facts.commandLineFacts.push_back(fact->value());
        return true;
    }
    if (auto file = optionValue(args, index, "--facts")) {
        if (!*file)
            return file->error();
        options.facts.factsFile = file->value();
        return true;
    }
    if (withData) {
        if (auto file = optionValue(args, index, "--data")) {
            if (!*file)
                return file->error();
            options.dataFile = file->value();
            return true;
        }
    }
    return false;
}

namespace {

Result<Json> parseData(const std::string &path, const std::string &text)
{
    YamlReadResult read = readYaml(text);
    if (!read.document) {
        if (read.diagnostics.empty())
            return Error {"data", path + ": not a YAML or JSON document"};
        return Error {"data", formatDiagnostic(path, read.diagnostics.front())};
    }
    if (!read.document->root.is_object())
        return Error {
            "data", path + ": data must be a map of names to values, not " + describeJsonType(read.document->root)};
    return std::move(read.document->root);
}

} // namespace

Result<Json> loadDataFile(const std::string &path, const fleet::SourceOptions &sources)
{
    if (fleet::isHttpUrl(path)) {
        auto text = fetchText(path, sources, kMaxDataBytes);
        if (!text)
            return Error {"data", text.error().message};
        return parseData(fleet::redactUrl(path), text.value());
    }
    if (fleet::isKvUrl(path)) {
        auto url = fleet::parseKvUrl(path);
        if (!url)
            return Error {"data", url.error().message};
        fleet::KvReader reader(sources.nats, sources.environment);
        auto text = reader.get(url->bucket, url->key);
        if (!text)
            return Error {"data", path + ": " + text.error().message};
        return parseData(path, text.value());
    }
    const FileText file = readManifestFile(path);
    if (file.problem)
        return Error {"data", path + ": " + file.problem->message};
    return parseData(path, file.text);
}

Result<ResolveOptions> resolveInputs(const InputOptions &options)
{
    ResolveOptions inputs;
    auto facts = prepareFacts(options.facts);
    if (!facts)
        return facts.error();
    inputs.facts = std::move(facts).value();
    inputs.environ = processEnviron();
    auto reader = std::make_shared<fleet::KvReader>(options.sources.nats, options.sources.environment);
    inputs.kvGet = [reader](const std::string &bucket, const std::string &key) { return reader->get(bucket, key); };
    auto registry = std::make_shared<fleet::RegistrationReader>(
        options.sources.nats, options.sources.environment, options.sources.registrationStream);
    inputs.registrations
        = [registry](const std::string &cluster, const std::string &protocol, const std::string &service,
              const std::string &address) { return registry->lookup(cluster, protocol, service, address); };
    if (options.dataFile) {
        auto data = loadDataFile(*options.dataFile, options.sources);
        if (!data)
            return data.error();
        inputs.externalData = std::move(data).value();
    }
    return inputs;
}

} // namespace ccm::cli
