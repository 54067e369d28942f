// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "fleet/agent/agent.h"

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace ccm::fleet {
class NatsConnection;
class PreviewResponder;
struct CurrentBundle;
class SeenRequests;
} // namespace ccm::fleet

namespace ccm::cli {

/// The agent's fleet preview responder (configuration section `preview`): answers signed preview
/// requests on the agent's connection with its identity, facts and log, the trusted keys and the
/// preview user. The responder subscribes on one connection, so a lost connection is followed by
/// a new responder on the next one: previews keep working across server restarts. Every responder
/// records the requests it accepts in `seen`, which the caller keeps across reloads, so none of
/// them runs a request twice.
class AgentPreviewService : public fleet::AgentService {
public:
    explicit AgentPreviewService(std::shared_ptr<fleet::SeenRequests> seen);
    ~AgentPreviewService() override;

    /// The preview work directory under `cacheDir`.
    static std::filesystem::path workDirectory(const std::filesystem::path &cacheDir);
    /// The file under `cacheDir` that keeps the ids of the requests seen across restarts.
    static std::filesystem::path seenRequestsFile(const std::filesystem::path &cacheDir);

    /// The current bundle a preview compares its proposal with: the cached bundle of `target`
    /// when it is one of the configured remote sources, else of the only remote source when there
    /// is exactly one; otherwise an error (code "no_current") saying why there is none.
    static Result<fleet::CurrentBundle> currentBundle(
        const fleet::AgentConfig &config, const std::optional<std::string> &target);

    /// Makes cache_dir searchable by the preview user, then watches the agent's connection from a
    /// thread of its own.
    void start(fleet::Agent &agent) override;
    void stop() override;

private:
    void supervise(fleet::Agent &agent);
    void follow(fleet::Agent &agent);

    std::shared_ptr<fleet::SeenRequests> m_seen;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::shared_ptr<fleet::NatsConnection> m_connection;
    std::unique_ptr<fleet::PreviewResponder> m_responder;
    std::string m_lastError;
};

} // namespace ccm::cli
