// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/agent_config.h"

#include "base/file_reading.h"
#include "base/signing_key.h"
#include "core/model/duration.h"
#include "core/yaml/source_map.h"
#include "core/yaml/yaml_reader.h"
#include "fleet/nats/bucket_replicas.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unistd.h>

namespace ccm::fleet {
namespace {

constexpr std::size_t kMaxConfigBytes = 1024 * 1024;

/// One key being read: its value and where it sits, for messages.
struct Field {
    const Json &value;
    std::string pointer;
    const YamlDocument &document;
    const std::string &fileName;

    [[nodiscard]] Error error(const std::string &what) const
    {
        std::string key = pointer.substr(1);
        std::replace(key.begin(), key.end(), '/', '.');
        return Error {
            "bad_config", describeLocation(fileName, document.sourceMap.valueAt(pointer)) + ": " + key + ": " + what};
    }
};

Result<std::string> stringField(const Field &field)
{
    if (!field.value.is_string())
        return field.error("must be a string");
    return field.value.get<std::string>();
}

Result<std::chrono::milliseconds> durationField(const Field &field)
{
    auto text = stringField(field);
    if (!text)
        return field.error("must be a duration such as 30s, 5m or 1h30m");
    auto duration = parseDuration(*text);
    if (!duration)
        return field.error(
            "'" + *text + "' is not a duration (" + duration.error().message + "); write it as 30s, 5m or 1h30m");
    return std::chrono::duration_cast<std::chrono::milliseconds>(*duration);
}

Result<std::vector<std::string>> stringListField(const Field &field)
{
    if (field.value.is_null())
        return std::vector<std::string> {};
    if (!field.value.is_array())
        return field.error("must be a list of strings");
    std::vector<std::string> items;
    for (std::size_t i = 0; i < field.value.size(); ++i) {
        const Field item {field.value[i], appendPointer(field.pointer, i), field.document, field.fileName};
        auto text = stringField(item);
        if (!text || text->empty())
            return item.error("must be a non-empty string");
        items.push_back(*text);
    }
    return items;
}

Result<void> readInterval(const Field &field, AgentConfig &config)
{
    auto value = durationField(field);
    if (!value)
        return value.error();
    if (*value < AgentConfig::kMinInterval)
        return field.error("must be at least 30s");
    config.interval = *value;
    return {};
}

Result<void> readHealthCheckInterval(const Field &field, AgentConfig &config)
{
    if (field.value.is_string() && field.value.get<std::string>().empty())
        return {};
    auto value = durationField(field);
    if (!value)
        return value.error();
    if (value->count() != 0 && *value < std::chrono::seconds(1))
        return field.error("must be at least 1s (or 0 for none)");
    config.healthCheckInterval = *value;
    return {};
}

Result<void> readPollInterval(const Field &field, AgentConfig &config)
{
    auto value = durationField(field);
    if (!value)
        return value.error();
    if (*value < std::chrono::seconds(1))
        return field.error("must be at least 1s");
    config.pollInterval = *value;
    return {};
}

Result<void> readManifests(const Field &field, AgentConfig &config)
{
    auto items = stringListField(field);
    if (!items)
        return items.error();
    config.manifests = std::move(items).value();
    return {};
}

Result<void> readMonitorPort(const Field &field, AgentConfig &config)
{
    if (!field.value.is_number_integer() || field.value.get<long long>() < 0 || field.value.get<long long>() > 65535)
        return field.error("must be a port number from 1 to 65535, or 0 for no metrics endpoint");
    config.monitorPort = field.value.get<int>();
    return {};
}

Result<void> readLogLevel(const Field &field, AgentConfig &config)
{
    auto text = stringField(field);
    if (!text || (*text != "debug" && *text != "info" && *text != "warn" && *text != "error"))
        return field.error("must be one of debug, info, warn, error");
    config.logLevel = *text;
    return {};
}

Result<void> readRegistration(const Field &field, AgentConfig &config)
{
    auto text = stringField(field);
    if (text && text->empty())
        config.registration = RegistrationDestination::None;
    else if (text && *text == "nats")
        config.registration = RegistrationDestination::Nats;
    else if (text && *text == "jetstream")
        config.registration = RegistrationDestination::JetStream;
    else
        return field.error("must be nats or jetstream");
    return {};
}

Result<void> readReplicas(const Field &field, AgentConfig &config)
{
    if (!field.value.is_number_integer() || field.value.get<long long>() < BucketReplicas::kMin
        || field.value.get<long long>() > BucketReplicas::kMax)
        return field.error("must be a whole number from 1 to 5: the replicas of the buckets the agent creates");
    config.replicas = field.value.get<int>();
    return {};
}

/// A string key that must not be empty, stored by `store`.
std::function<Result<void>(const Field &, AgentConfig &)> nonEmptyString(
    std::function<void(AgentConfig &, std::string)> store)
{
    return [store](const Field &field, AgentConfig &config) -> Result<void> {
        auto text = stringField(field);
        if (!text)
            return text.error();
        if (text->empty())
            return field.error("must not be empty");
        store(config, std::move(text).value());
        return {};
    };
}

Result<void> readPreview(const Field &field, AgentConfig &config);

/// A public key file listed in the configuration: readable, Ed25519, and not a private key (the
/// agent needs only the public half). Returns the raw key.
Result<std::string> readListedPublicKey(const Field &item, const std::filesystem::path &path)
{
    auto key = loadPublicKey(path);
    if (!key)
        return item.error(key.error().message);
    if (loadPrivateKey(path))
        return item.error(path.string()
            + " holds a private key: list its public half (the .pub.pem that fleet keygen writes) and keep "
              "the private key with whoever signs");
    return key;
}

/// `bundle_keys`: the keys whose signatures make a remote bundle acceptable, each read now so a
/// missing or wrong file is found when the configuration is loaded.
Result<void> readBundleKeys(const Field &field, AgentConfig &config)
{
    auto items = stringListField(field);
    if (!items)
        return items.error();
    if (items->empty())
        return field.error("must list at least one public key file; without the key, bundles need no signature");
    config.bundleKeyFiles.assign(items->begin(), items->end());
    config.bundleKeys.clear();
    for (std::size_t i = 0; i < items->size(); ++i) {
        const Field item {field.value[i], appendPointer(field.pointer, i), field.document, field.fileName};
        auto key = readListedPublicKey(item, (*items)[i]);
        if (!key)
            return key.error();
        config.bundleKeys.push_back(std::move(key).value());
    }
    return {};
}

using Reader = std::function<Result<void>(const Field &, AgentConfig &)>;

const std::map<std::string, Reader> &topLevelReaders()
{
    static const std::map<std::string, Reader> readers {
        {"interval", readInterval},
        {"health_check_interval", readHealthCheckInterval},
        {"poll_interval", readPollInterval},
        {"manifests", readManifests},
        {"external_data_url",
            [](const Field &field, AgentConfig &config) -> Result<void> {
                auto text = stringField(field);
                if (!text)
                    return text.error();
                config.externalDataUrl = *text;
                return {};
            }},
        {"cache_dir", nonEmptyString([](AgentConfig &c, std::string v) { c.cacheDir = std::move(v); })},
        {"monitor_port", readMonitorPort},
        {"log_level", readLogLevel},
        {"nats_context", nonEmptyString([](AgentConfig &c, std::string v) { c.natsContext = std::move(v); })},
        {"registration", readRegistration},
        {"replicas", readReplicas},
        {"identity", nonEmptyString([](AgentConfig &c, std::string v) { c.identity = std::move(v); })},
        {"bundle_keys", readBundleKeys},
        {"preview", readPreview},
    };
    return readers;
}

const std::map<std::string, Reader> &previewReaders()
{
    static const std::map<std::string, Reader> readers {
        {"enabled",
            [](const Field &field, AgentConfig &config) -> Result<void> {
                if (!field.value.is_boolean())
                    return field.error("must be true or false");
                config.preview.enabled = field.value.get<bool>();
                return {};
            }},
        {"trusted_keys",
            [](const Field &field, AgentConfig &config) -> Result<void> {
                auto items = stringListField(field);
                if (!items)
                    return items.error();
                config.preview.trustedKeys.assign(items->begin(), items->end());
                return {};
            }},
        {"user", nonEmptyString([](AgentConfig &c, std::string v) { c.preview.user = std::move(v); })},
        {"capture",
            [](const Field &field, AgentConfig &config) -> Result<void> {
                if (!field.value.is_boolean())
                    return field.error("must be true or false");
                config.preview.capture = field.value.get<bool>();
                return {};
            }},
    };
    return readers;
}

std::string knownKeys(const std::map<std::string, Reader> &readers)
{
    std::string keys;
    for (const auto &entry : readers)
        keys += (keys.empty() ? "" : ", ") + entry.first;
    return keys;
}

/// Reads every member of the map `field` with `readers`; an unknown key is an error at the key.
/// Every member is read, so the error names every problem, one per line, in document order.
Result<void> readMap(const Field &field, const std::map<std::string, Reader> &readers, AgentConfig &config)
{
    if (!field.value.is_object())
        return field.error("must be a map");
    std::string problems;
    const auto note = [&problems](const std::string &message) { problems += (problems.empty() ? "" : "\n") + message; };
    for (const auto &[key, value] : field.value.items()) {
        const std::string pointer = appendPointer(field.pointer, key);
        const auto reader = readers.find(key);
        if (reader == readers.end()) {
            const std::string where = describeLocation(field.fileName, field.document.sourceMap.keyAt(pointer));
            note(where + ": unknown key '" + key + "' (known: " + knownKeys(readers) + ")");
        } else if (auto read = reader->second(Field {value, pointer, field.document, field.fileName}, config); !read) {
            note(read.error().message);
        }
    }
    if (!problems.empty())
        return Error {"bad_config", problems};
    return {};
}

/// Checks that every trusted key is a readable Ed25519 public key PEM: a key that cannot be used
/// is found when the configuration is loaded, not at the first preview.
Result<void> checkTrustedKeys(const Field &preview, const AgentConfig &config)
{
    const std::string listPointer = appendPointer(preview.pointer, "trusted_keys");
    const Json &list = preview.value["trusted_keys"];
    for (std::size_t i = 0; i < config.preview.trustedKeys.size(); ++i) {
        const Field item {list[i], appendPointer(listPointer, i), preview.document, preview.fileName};
        if (auto key = readListedPublicKey(item, config.preview.trustedKeys[i]); !key)
            return key.error();
    }
    return {};
}

Result<void> readPreview(const Field &field, AgentConfig &config)
{
    if (field.value.is_null())
        return {};
    if (auto read = readMap(field, previewReaders(), config); !read)
        return read;
    if (!config.preview.enabled && config.preview.capture)
        return Field {field.value["capture"], appendPointer(field.pointer, "capture"), field.document, field.fileName}
            .error("true needs enabled: true (captures are asked for and answered over the preview channel)");
    if (!config.preview.enabled)
        return {};
    if (config.preview.trustedKeys.empty())
        return field.error("enabled needs at least one key in trusted_keys");
    return checkTrustedKeys(field, config);
}

/// True when `text` holds nothing but blank lines and comments: an empty configuration.
bool onlyComments(std::string_view text)
{
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::size_t first = text.find_first_not_of(" \t\r", start);
        if (first < end && text[first] != '#')
            return false;
        start = end + 1;
    }
    return true;
}

} // namespace

std::string hostIdentity()
{
    char name[256] = {};
    if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0')
        return "localhost";
    return name;
}

Result<AgentConfig> parseAgentConfig(std::string_view text, const std::string &fileName)
{
    AgentConfig config;
    config.identity = hostIdentity();
    if (onlyComments(text))
        return config;
    const YamlReadResult read = readYaml(text);
    if (!read.document || hasErrors(read.diagnostics)) {
        const auto error = std::find_if(read.diagnostics.begin(), read.diagnostics.end(),
            [](const Diagnostic &diagnostic) { return diagnostic.severity == Severity::Error; });
        const Diagnostic first = error == read.diagnostics.end() ? Diagnostic {} : *error;
        return Error {"bad_config", describeLocation(fileName, first.position) + ": " + first.message};
    }
    const YamlDocument &document = *read.document;
    if (document.root.is_null())
        return config;
    if (!document.root.is_object())
        return Error {"bad_config",
            describeLocation(fileName, document.sourceMap.valueAt("")) + ": the configuration must be a map of keys"};
    if (auto members = readMap(Field {document.root, "", document, fileName}, topLevelReaders(), config); !members)
        return members.error();
    return config;
}

Result<AgentConfig> loadAgentConfig(const std::filesystem::path &path)
{
    auto text = readTextFile(path, kMaxConfigBytes);
    if (!text)
        return text.error();
    return parseAgentConfig(*text, path.string());
}

} // namespace ccm::fleet
