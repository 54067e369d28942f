// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agent_config.h"
#include "agent_log.h"
#include "agent_nats.h"
#include "agent_report.h"
#include "bundle_source.h"
#include "facts.h"
#include "json.h"
#include "metrics_server.h"
#include "run.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

namespace ccm::fleet {

/// What the agent asks the layer that runs manifests to run.
struct ManifestRunRequest {
    std::filesystem::path manifest; ///< a YAML manifest or a local bundle (.tar.gz)
    std::string shownName; ///< how messages name it: the source, credentials redacted
    RunMode mode = RunMode::Apply;
    Json facts;
    std::string externalDataUrl; ///< read before the run: a file, http(s):// or kv://; may be empty
    std::string natsContext; ///< for kv:// data and kvGet()
    const std::atomic<bool> *cancel = nullptr;
};

/// Runs one manifest: opens it (unpacking a bundle), reads the external data, resolves and runs
/// it with `observer`. An error when it could not run at all (unreadable, invalid, bad data).
using ManifestRunner = std::function<Result<engine::RunResult>(const ManifestRunRequest &, engine::RunObserver &)>;

/// Facts shared by every worker, gathered again when older than two minutes. Thread-safe.
class FactsCache {
public:
    static constexpr std::chrono::minutes kMaxAge {2};

    FactsCache(FactSources sources, AgentLog &log);
    /// The facts, gathered first when none are held or they are older than kMaxAge. A failed
    /// gathering keeps (and returns) the facts held, logging why.
    Json get();

private:
    std::mutex m_mutex;
    FactSources m_sources;
    AgentLog &m_log;
    Json m_facts;
    std::chrono::steady_clock::time_point m_gathered {};
};

/// What every worker of one agent shares.
struct AgentShared {
    AgentShared(AgentConfig config_, AgentLog &log_, AgentMetrics &metrics_, const ContextEnvironment &natsEnvironment,
        FactSources facts_, ManifestRunner runner_, std::string version_);

    AgentConfig config;
    AgentLog &log;
    AgentMetrics &metrics;
    NatsLink nats;
    FactsCache facts;
    StatusBoard status;
    ManifestRunner runner;
    std::string version;
    /// One run at a time on a host, as upstream's agent does: two manifests never race.
    std::mutex runMutex;
    /// Set to stop runs between resources.
    std::atomic<bool> cancel {false};
};

/// The thread that keeps one manifest source applied: fetches it (watching obj:// sources and
/// polling http(s):// ones every 30 s) into the cache, applies it on change and every interval
/// (with jitter, and backing off after failures), runs health checks in between and remediates
/// critical ones. Runs go on from the cached bundle while its server is unreachable.
class SourceWorker {
public:
    static constexpr std::chrono::seconds kPollInterval {30};

    SourceWorker(AgentShared &shared, std::string source);
    ~SourceWorker();
    SourceWorker(const SourceWorker &) = delete;
    SourceWorker &operator=(const SourceWorker &) = delete;

    /// Starts the thread: with `once`, one fetch and apply, then it ends.
    void start(bool once);
    /// Asks the thread to end after its current run.
    void requestStop();
    void join();
    /// Whether the latest run ran and no resource failed.
    bool succeeded() const { return m_succeeded.load(); }
    /// True once the thread has ended.
    bool finished() const { return m_finished.load(); }

private:
    void loop();
    void loopIteration();
    void waitUntil(std::chrono::steady_clock::time_point deadline);
    bool isRemote() const;
    void loadCacheMeta();
    void saveCacheMeta();
    bool refresh();
    bool refreshObject();
    bool refreshHttp();
    Result<void> installDownload(const std::filesystem::path &download);
    void fetchFailed(const Error &error);
    SourceRunReport run(RunMode mode);
    void publishRun(const SourceRunReport &report);
    /// Publishes the .run message and stores the status; false when NATS did not take them.
    bool deliverRun(const SourceRunReport &report);
    std::chrono::milliseconds nextApplyDelay(bool ok);

    AgentShared &m_shared;
    std::string m_source;
    std::string m_shown;
    std::filesystem::path m_cacheFile;
    std::string m_digest;
    HttpValidators m_validators;
    std::string m_lastFetchError;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    bool m_changed = false; ///< the watch saw a new meta record
    std::uint64_t m_generation = 0; ///< of the NATS connection last caught up with
    /// The latest run whose report NATS did not take (unreachable, a JetStream call timed out);
    /// sent again on every turn of the loop until it is, so the status never stays a run behind.
    std::optional<SourceRunReport> m_undelivered;
    bool m_runSent = false; ///< its .run message went out; only the status is missing
    bool m_statusFailed = false; ///< the last status put failed (warned once, then debug)

    std::chrono::steady_clock::time_point m_nextApply {};
    std::chrono::steady_clock::time_point m_nextPoll {};
    std::chrono::steady_clock::time_point m_nextHealth {};
    int m_failures = 0;
    std::mt19937 m_random {std::random_device {}()};

    std::atomic<bool> m_succeeded {false};
    std::atomic<bool> m_finished {false};
    std::thread m_thread;
};

/// The cache file of `source` in `cacheDir`: named from the SHA-256 of the URL.
std::filesystem::path cacheFileFor(const std::filesystem::path &cacheDir, const std::string &source);

/// Writes `data` to `path` atomically (a temporary file beside it, renamed) with mode 0600.
Result<void> writePrivateFile(const std::filesystem::path &path, const std::string &data);

} // namespace ccm::fleet
