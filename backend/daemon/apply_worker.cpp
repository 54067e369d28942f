// SPDX-License-Identifier: Apache-2.0
#include "daemon/apply_worker.h"

#include "core/model/transaction_event.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

namespace ccm::daemon {
namespace {

std::string_view levelName(engine::LogLevel level)
{
    switch (level) {
    case engine::LogLevel::Debug:
        return "debug";
    case engine::LogLevel::Info:
        return "info";
    case engine::LogLevel::Warning:
        return "warning";
    case engine::LogLevel::Error:
        return "error";
    }
    return "info";
}

/// Turns the callbacks of a run into notifications for its client.
class Notifier : public engine::RunObserver {
public:
    Notifier(const ApplyWorker::Post &post, ConnectionId connection, std::string run)
        : m_post(post)
        , m_connection(connection)
        , m_run(std::move(run))
    {
    }

    void message(std::string_view text) override { send("apply.message", {{"text", std::string(text)}}); }

    void resourceStarting(std::string_view resource, std::size_t done, std::size_t total) override
    {
        send("apply.progress", {{"done", done}, {"total", total}, {"current", std::string(resource)}});
    }

    void resourceFinished(const TransactionEvent &event) override
    {
        send("apply.event", {{"event", eventToJson(event)}});
    }

    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        Json params = {{"level", levelName(level)}};
        if (!resource.empty())
            params["resource"] = std::string(resource);
        params["message"] = std::string(message);
        send("apply.log", std::move(params));
    }

private:
    void send(std::string_view method, Json params)
    {
        Json full = Json::object();
        full["run"] = m_run;
        for (auto &[key, value] : params.items())
            full[key] = std::move(value);
        m_post(m_connection, notificationLine(method, full));
    }

    const ApplyWorker::Post &m_post;
    ConnectionId m_connection;
    std::string m_run;
};

} // namespace

ApplyWorker::ApplyWorker(Post post)
    : m_post(std::move(post))
    , m_thread([this] { work(); })
{
}

ApplyWorker::~ApplyWorker()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_cancel.store(true);
    }
    m_wake.notify_all();
    m_thread.join();
}

ApplyControl::Started ApplyWorker::start(ApplyJob job)
{
    std::unique_lock lock(m_mutex);
    if (m_running)
        return {false, m_running->run};
    // The pid keeps ids of successive daemons apart in logs and clients.
    const std::string run = std::to_string(::getpid()) + "-" + std::to_string(++m_runCount);
    m_running = Running {run, job.owner};
    m_cancel.store(false);
    m_job = std::move(job);
    lock.unlock();
    m_wake.notify_all();
    return {true, run};
}

std::optional<ApplyControl::Running> ApplyWorker::running() const
{
    const std::lock_guard lock(m_mutex);
    return m_running;
}

bool ApplyWorker::cancel(std::string_view run)
{
    const std::lock_guard lock(m_mutex);
    if (!m_running || m_running->run != run)
        return false;
    m_cancel.store(true);
    return true;
}

void ApplyWorker::connectionClosed(ConnectionId connection)
{
    const std::lock_guard lock(m_mutex);
    if (m_running && m_running->owner == connection) {
        spdlog::info("run {}: its client disconnected; cancelling", m_running->run);
        m_cancel.store(true);
    }
}

void ApplyWorker::work()
{
    ProcessRunner runner;
    while (true) {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [this] { return m_stopping || m_job.has_value(); });
        if (!m_job)
            return;
        ApplyJob job = std::move(*m_job);
        m_job.reset();
        const std::string run = m_running->run;
        lock.unlock();

        job.options.cancel = &m_cancel;
        Notifier notifier(m_post, job.owner, run);
        std::string response;
        try {
            const engine::RunResult result
                = engine::runManifest(job.manifest, job.inputs, job.options, runner, notifier);
            spdlog::info(
                "run {}: ended{}{}", run, result.cancelled ? ", cancelled" : "", result.aborted ? ", aborted" : "");
            Json answer = {{"run", run}};
            answer.update(engine::runResultToJson(result, job.options.noop));
            response = responseLine(job.requestId, answer);
        } catch (const std::exception &e) {
            spdlog::error("run {}: internal error: {}", run, e.what());
            response = errorLine(job.requestId,
                RpcError {ErrorCode::InternalError, std::string("internal error: ") + e.what(), {{"run", run}}});
        }
        // The run is over before its client hears so: a client that starts the next apply as soon
        // as it has the response must not find this one in the way, nor its unpacked bundle.
        job.keepAlive.reset();
        {
            const std::lock_guard done(m_mutex);
            m_running.reset();
        }
        m_post(job.owner, std::move(response));
    }
}

} // namespace ccm::daemon
