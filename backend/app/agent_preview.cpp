// SPDX-License-Identifier: Apache-2.0
#include "app/agent_preview.h"

#include "fleet/agent/agent_worker.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/preview/preview_responder.h"

#include <chrono>
#include <sys/stat.h>

namespace ccm::cli {
namespace {

/// How often the connection is looked at; a lost one is remade at most every two seconds anyway.
constexpr std::chrono::seconds kFollowInterval {1};

/// Lets other users search `directory` without listing it. The preview user reads the unpacked
/// bundle below it with its own rights; the cached bundles and the seen requests beside it stay
/// 0600.
void makeSearchable(const std::filesystem::path &directory, fleet::AgentLog &log)
{
    struct stat info { };
    if (::stat(directory.c_str(), &info) != 0)
        return;
    const mode_t mode = (info.st_mode & 07777) | 0011;
    if (mode != (info.st_mode & 07777) && ::chmod(directory.c_str(), mode) != 0)
        log.warn("fleet preview: cannot make " + directory.string()
            + " searchable by the preview user; previews will fail to read the bundle");
}

bool isRemoteSource(const std::string &source)
{
    const fleet::SourceKind kind = fleet::sourceKind(source);
    return kind == fleet::SourceKind::HttpBundle || kind == fleet::SourceKind::ObjectBundle;
}

fleet::CurrentBundle cachedBundleOf(const fleet::AgentConfig &config, const std::string &source)
{
    return fleet::CurrentBundle {
        fleet::cacheFileFor(config.cacheDir, source), fleet::redactUrl(source), config.bundleKeys};
}

} // namespace

Result<fleet::CurrentBundle> AgentPreviewService::currentBundle(
    const fleet::AgentConfig &config, const std::optional<std::string> &target)
{
    std::vector<std::string> remote;
    for (const std::string &source : config.manifests)
        if (isRemoteSource(source))
            remote.push_back(source);
    if (target) {
        // Only the agent's own sources are looked up: the request never names a file.
        for (const std::string &source : remote)
            if (source == *target)
                return cachedBundleOf(config, source);
        return Error {"no_current", "no current bundle: this agent does not follow " + *target};
    }
    if (remote.size() == 1)
        return cachedBundleOf(config, remote.front());
    if (remote.empty())
        return Error {"no_current", "no current bundle: this agent follows no remote source"};
    return Error {"no_current",
        "no current bundle: this agent follows " + std::to_string(remote.size())
            + " remote sources; name the one the proposal replaces (--target)"};
}

namespace {

fleet::PreviewResponderOptions responderOptions(fleet::Agent &agent, std::shared_ptr<fleet::SeenRequests> seen)
{
    const fleet::AgentConfig &config = agent.config();
    fleet::PreviewResponderOptions options;
    options.seen = std::move(seen);
    options.identity = config.identity;
    options.trustedKeys = config.preview.trustedKeys;
    options.previewUser = config.preview.user;
    options.capture = config.preview.capture;
    options.facts = [&agent] { return agent.facts(); };
    options.workDirectory = AgentPreviewService::workDirectory(config.cacheDir);
    options.currentBundle = [config](const std::optional<std::string> &target) {
        return AgentPreviewService::currentBundle(config, target);
    };
    options.log = [&log = agent.log()](engine::LogLevel level, const std::string &message) {
        switch (level) {
        case engine::LogLevel::Debug:
            log.debug(message);
            break;
        case engine::LogLevel::Info:
            log.info(message);
            break;
        case engine::LogLevel::Warning:
            log.warn(message);
            break;
        case engine::LogLevel::Error:
            log.error(message);
            break;
        }
    };
    return options;
}

} // namespace

AgentPreviewService::AgentPreviewService(std::shared_ptr<fleet::SeenRequests> seen)
    : m_seen(std::move(seen))
{
}

AgentPreviewService::~AgentPreviewService()
{
    stop();
}

std::filesystem::path AgentPreviewService::workDirectory(const std::filesystem::path &cacheDir)
{
    return cacheDir / "preview";
}

std::filesystem::path AgentPreviewService::seenRequestsFile(const std::filesystem::path &cacheDir)
{
    return cacheDir / "preview-seen";
}

void AgentPreviewService::start(fleet::Agent &agent)
{
    // The work directory below it is made 0711 by each responder.
    makeSearchable(agent.config().cacheDir, agent.log());
    m_stopping = false;
    m_thread = std::thread([this, &agent] { supervise(agent); });
}

void AgentPreviewService::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void AgentPreviewService::supervise(fleet::Agent &agent)
{
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        lock.unlock();
        follow(agent);
        lock.lock();
        m_wake.wait_for(lock, kFollowInterval, [this] { return m_stopping; });
    }
    lock.unlock();
    // The responder drains its subscription on the connection it holds, so it goes first.
    m_responder.reset();
    m_connection.reset();
}

/// Starts a responder on the agent's current connection when it is not the one answering.
void AgentPreviewService::follow(fleet::Agent &agent)
{
    std::shared_ptr<fleet::NatsConnection> connection = agent.nats().connection();
    if (!connection || connection == m_connection)
        return;
    m_responder.reset();
    m_connection.reset();
    auto started = fleet::PreviewResponder::start(*connection, responderOptions(agent, m_seen));
    if (!started) {
        // Logged once per cause: the next connection tries again.
        if (started.error().message != m_lastError)
            agent.log().error("fleet preview: " + started.error().message);
        m_lastError = started.error().message;
        return;
    }
    m_lastError.clear();
    m_responder = std::move(started).value();
    m_connection = std::move(connection);
    agent.log().info("fleet preview: answering requests on " + m_connection->url() + " as user "
        + agent.config().preview.user + ", trusting " + std::to_string(agent.config().preview.trustedKeys.size())
        + " key(s)" + (agent.config().preview.capture ? "; captures on" : ""));
}

} // namespace ccm::cli
