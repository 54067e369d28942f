// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agent.h"

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ccm::fleet {
class NatsConnection;
class PreviewResponder;
} // namespace ccm::fleet

namespace ccm::cli {

/// The agent's fleet preview responder (configuration section `preview`): answers signed preview
/// requests on the agent's connection with its identity, facts and log, the trusted keys and the
/// preview user. The responder subscribes on one connection, so a lost connection is followed by
/// a new responder on the next one: previews keep working across server restarts.
class AgentPreviewService : public fleet::AgentService {
public:
    AgentPreviewService();
    ~AgentPreviewService() override;

    /// The preview work directory under `cacheDir`.
    static std::filesystem::path workDirectory(const std::filesystem::path &cacheDir);

    /// Makes the work directory (and cache_dir) searchable by the preview user, then watches the
    /// agent's connection from a thread of its own.
    void start(fleet::Agent &agent) override;
    void stop() override;

private:
    void supervise(fleet::Agent &agent);
    void follow(fleet::Agent &agent);

    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::shared_ptr<fleet::NatsConnection> m_connection;
    std::unique_ptr<fleet::PreviewResponder> m_responder;
    std::string m_lastError;
};

} // namespace ccm::cli
