// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::fleet {

/// The agent's `preview` section: whether it answers signed fleet preview requests, which keys
/// may sign them and which user previews run as.
struct AgentPreviewConfig {
    bool enabled = false;
    std::vector<std::filesystem::path> trustedKeys; ///< PEM public key files
    std::string user = "nobody";
    /// Whether fleet capture requests addressed to this host are answered (needs `enabled`).
    bool capture = false;
};

/// Where the agent publishes registration entries of resources with register_when_stable.
enum class RegistrationDestination { None, Nats, JetStream };

/// The agent's configuration: upstream CCM's agent.yaml keys unchanged, plus `identity`,
/// `bundle_keys` and `preview`.
struct AgentConfig {
    static constexpr std::chrono::seconds kMinInterval {30};
    static constexpr std::chrono::minutes kDefaultInterval {5};
    static constexpr std::chrono::seconds kDefaultPollInterval {30};
    static constexpr const char *kDefaultCacheDir = "/etc/choria/ccm/source";

    std::chrono::milliseconds interval = kDefaultInterval;
    /// Zero: no health checks between applies.
    std::chrono::milliseconds healthCheckInterval {0};
    /// How often http(s):// sources are asked whether they changed (obj:// sources are watched).
    std::chrono::milliseconds pollInterval = kDefaultPollInterval;
    std::vector<std::string> manifests;
    std::string externalDataUrl;
    std::filesystem::path cacheDir = kDefaultCacheDir;
    int monitorPort = 0; ///< 0: no metrics endpoint
    std::string logLevel = "info"; ///< debug, info, warn or error
    std::string natsContext = "CCM";
    RegistrationDestination registration = RegistrationDestination::None;
    /// `replicas`: the replicas of the buckets the agent creates (CCM_STATUS), 1 to 5; unset: 3
    /// when the server reports a cluster of three or more servers, else 1.
    std::optional<int> replicas;
    std::string identity; ///< default: the host name
    /// `bundle_keys`: when not empty, remote bundles must be signed by one of these keys.
    std::vector<std::filesystem::path> bundleKeyFiles; ///< PEM public key files, as written
    std::vector<std::string> bundleKeys; ///< their raw Ed25519 public keys, read at load
    AgentPreviewConfig preview;
};

/// Parses the YAML text of an agent configuration; `fileName` names it in messages. Unknown keys,
/// values of the wrong type and bad values are errors "FILE:LINE:COL: KEY: what is wrong"
/// (code "bad_config"). Relative paths (manifests, cache_dir, trusted keys) are kept as written.
Result<AgentConfig> parseAgentConfig(std::string_view text, const std::string &fileName);

/// Reads and parses the configuration file `path`.
Result<AgentConfig> loadAgentConfig(const std::filesystem::path &path);

/// The host name, the default identity.
std::string hostIdentity();

} // namespace ccm::fleet
