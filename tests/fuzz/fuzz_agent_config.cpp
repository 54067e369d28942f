// SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as the agent's configuration file (agent.yaml), as `ccm-backend agent`
// reads it at start. "KEYS/" in the input stands for a directory of the fuzzer's own holding a
// public key (alice.pub.pem), a private key (alice.pem) and a file that is not a key (notes.txt),
// so that bundle_keys and preview.trusted_keys naming them are read; inputs whose key lists name
// any other file are skipped, so that nothing else is read. Nothing may crash, hang or leak, and:
// - every refusal is "bad_config", begins with the file's name and says what is wrong;
// - an accepted configuration keeps its own limits (interval at least 30s, health checks off or
//   at least 1s, polling at least 1s, a port, a known log level, non-empty names and manifests,
//   replicas unset or 1 to 5, one raw key per bundle key file, previews enabled only with trusted
//   keys, captures only with previews);
// - written back as YAML by the manifest writer, it reads again to the same configuration.
#include "base/signing_key.h"
#include "core/model/manifest_writer.h"
#include "core/yaml/yaml_reader.h"
#include "fleet/agent/agent_config.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace {

using ccm::fleet::AgentConfig;

constexpr const char *kFileName = "agent.yaml";

void require(bool condition)
{
    if (!condition)
        std::abort();
}

/// A private directory with the key files, made once and removed when the fuzzer ends.
class KeyDirectory {
public:
    KeyDirectory()
    {
        char pattern[] = "/tmp/ccm-fuzz-agent-config-XXXXXX";
        require(::mkdtemp(pattern) != nullptr);
        m_path = pattern;
        const auto key = ccm::generateSigningKey();
        require(key.ok());
        require(ccm::writeKeyPair(*key, m_path / "alice.pem", m_path / "alice.pub.pem", false).ok());
        std::ofstream(m_path / "notes.txt") << "not a key\n";
        m_prefix = m_path.string() + "/";
    }
    ~KeyDirectory()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    KeyDirectory(const KeyDirectory &) = delete;
    KeyDirectory &operator=(const KeyDirectory &) = delete;

    /// "<directory>/".
    [[nodiscard]] const std::string &prefix() const { return m_prefix; }

private:
    std::filesystem::path m_path;
    std::string m_prefix;
};

const KeyDirectory &keyDirectory()
{
    static const KeyDirectory directory;
    return directory;
}

/// The input with every "KEYS/" replaced by the key directory.
std::string withKeyDirectory(std::string_view input)
{
    std::string text;
    text.reserve(input.size());
    for (std::size_t at = 0; at < input.size();) {
        if (input.substr(at).starts_with("KEYS/")) {
            text += keyDirectory().prefix();
            at += 5;
        } else {
            text += input[at++];
        }
    }
    return text;
}

/// Whether a key list names a file other than a plain name in the key directory.
bool namesOutside(const ccm::Json &list)
{
    if (!list.is_array())
        return false;
    const std::string &prefix = keyDirectory().prefix();
    for (const ccm::Json &item : list) {
        if (!item.is_string())
            continue;
        const std::string &path = item.get_ref<const std::string &>();
        if (!path.starts_with(prefix) || path.find('/', prefix.size()) != std::string::npos
            || path.size() <= prefix.size() + 2)
            return true;
    }
    return false;
}

/// Whether the key files the text lists could lie outside the key directory. Without "_keys"
/// and without a backslash (which could spell it in a quoted key), no key list is there.
bool listsKeysOutside(std::string_view text)
{
    if (text.find("_keys") == std::string_view::npos && text.find('\\') == std::string_view::npos)
        return false;
    const ccm::YamlReadResult read = ccm::readYaml(text);
    if (!read.document || !read.document->root.is_object())
        return false;
    const ccm::Json &root = read.document->root;
    if (root.contains("bundle_keys") && namesOutside(root["bundle_keys"]))
        return true;
    return root.contains("preview") && root["preview"].is_object() && root["preview"].contains("trusted_keys")
        && namesOutside(root["preview"]["trusted_keys"]);
}

void checkLimits(const AgentConfig &config)
{
    using namespace std::chrono_literals;
    require(config.interval >= AgentConfig::kMinInterval);
    require(config.healthCheckInterval == 0ms || config.healthCheckInterval >= 1s);
    require(config.pollInterval >= 1s);
    require(config.monitorPort >= 0 && config.monitorPort <= 65535);
    require(config.logLevel == "debug" || config.logLevel == "info" || config.logLevel == "warn"
        || config.logLevel == "error");
    require(!config.natsContext.empty() && !config.identity.empty() && !config.cacheDir.empty());
    for (const std::string &manifest : config.manifests)
        require(!manifest.empty());
    require(config.bundleKeys.size() == config.bundleKeyFiles.size());
    for (const std::string &key : config.bundleKeys)
        require(key.size() == ccm::kEd25519KeySize);
    require(!config.preview.enabled || !config.preview.trustedKeys.empty());
    require(!config.preview.capture || config.preview.enabled);
    require(!config.preview.user.empty());
    require(!config.replicas || (*config.replicas >= 1 && *config.replicas <= 5));
}

std::string durationText(std::chrono::milliseconds value)
{
    return std::to_string(value.count()) + "ms";
}

ccm::Json pathList(const std::vector<std::filesystem::path> &paths)
{
    ccm::Json list = ccm::Json::array();
    for (const auto &path : paths)
        list.push_back(path.string());
    return list;
}

/// The configuration as a file that says all of it.
std::string writeConfig(const AgentConfig &config)
{
    using ccm::fleet::RegistrationDestination;
    ccm::Json json = ccm::Json::object();
    json["interval"] = durationText(config.interval);
    json["health_check_interval"] = durationText(config.healthCheckInterval);
    json["poll_interval"] = durationText(config.pollInterval);
    json["manifests"] = config.manifests;
    json["external_data_url"] = config.externalDataUrl;
    json["cache_dir"] = config.cacheDir.string();
    json["monitor_port"] = config.monitorPort;
    json["log_level"] = config.logLevel;
    json["nats_context"] = config.natsContext;
    json["registration"] = config.registration == RegistrationDestination::Nats ? "nats"
        : config.registration == RegistrationDestination::JetStream             ? "jetstream"
                                                                                : "";
    json["identity"] = config.identity;
    if (config.replicas)
        json["replicas"] = *config.replicas;
    if (!config.bundleKeyFiles.empty())
        json["bundle_keys"] = pathList(config.bundleKeyFiles);
    ccm::Json preview = ccm::Json::object();
    preview["enabled"] = config.preview.enabled;
    preview["trusted_keys"] = pathList(config.preview.trustedKeys);
    preview["user"] = config.preview.user;
    preview["capture"] = config.preview.capture;
    json["preview"] = std::move(preview);
    return ccm::toYaml(json);
}

bool sameConfig(const AgentConfig &a, const AgentConfig &b)
{
    return a.interval == b.interval && a.healthCheckInterval == b.healthCheckInterval
        && a.pollInterval == b.pollInterval && a.manifests == b.manifests && a.externalDataUrl == b.externalDataUrl
        && a.cacheDir == b.cacheDir && a.monitorPort == b.monitorPort && a.logLevel == b.logLevel
        && a.natsContext == b.natsContext && a.registration == b.registration && a.replicas == b.replicas
        && a.identity == b.identity && a.bundleKeyFiles == b.bundleKeyFiles && a.bundleKeys == b.bundleKeys
        && a.preview.enabled == b.preview.enabled && a.preview.trustedKeys == b.preview.trustedKeys
        && a.preview.user == b.preview.user && a.preview.capture == b.preview.capture;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *bytes, std::size_t size)
{
    const std::string text = withKeyDirectory(std::string_view(reinterpret_cast<const char *>(bytes), size));
    if (listsKeysOutside(text))
        return 0;
    const auto config = ccm::fleet::parseAgentConfig(text, kFileName);
    if (!config) {
        const std::string &message = config.error().message;
        require(config.error().code == "bad_config" && message.starts_with(kFileName));
        require(!message.ends_with(": ") && message.size() > std::string_view(kFileName).size() + 2);
        return 0;
    }
    checkLimits(*config);
    const auto again = ccm::fleet::parseAgentConfig(writeConfig(*config), kFileName);
    require(again.ok() && sameConfig(*config, *again));
    return 0;
}
