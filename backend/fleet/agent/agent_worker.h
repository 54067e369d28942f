// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/error_code.h"
#include "core/facts/facts.h"
#include "core/model/json.h"
#include "engine/run.h"
#include "fleet/agent/agent_config.h"
#include "fleet/agent/agent_log.h"
#include "fleet/agent/agent_nats.h"
#include "fleet/agent/agent_report.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/agent/metrics_server.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
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
    /// Checks a fetched bundle before it may replace the cached one: everything a run does up to
    /// the resources (unpacked, checksums verified, the data read, resolved and validated), no
    /// resource run; the result is empty.
    bool checkOnly = false;
    /// Raw Ed25519 public keys (bundle_keys) one of which must have signed the bundle; empty:
    /// any bundle, signed or not, as upstream's agent takes them. Set for remote sources only.
    std::vector<std::string> requiredSigners {};
};

/// Why a ManifestRunner could not run a manifest, beyond the errors of opening it.
enum class ManifestRunErrc {
    /// The external data could not be read: not the bundle's fault, so a bundle being checked is
    /// neither taken nor refused, and is checked again later.
    ExternalData,
    /// The manifest cannot be read, or is not valid.
    Invalid,
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
    AgentShared(AgentConfig config_, AgentLog &log_, AgentMetrics &metrics_, ReportOutbox &outbox_,
        const ContextEnvironment &natsEnvironment, FactSources facts_, ManifestRunner runner_, std::string version_);

    AgentConfig config;
    AgentLog &log;
    AgentMetrics &metrics;
    ReportOutbox &outbox;
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
/// critical ones. Runs go on from the cached bundle while its server is unreachable. A fetched
/// bundle replaces the cached one only once it unpacks, verifies and validates; one that does
/// not (or an object larger than kMaxBundleBytes, refused before it is fetched) is reported once
/// and not fetched again until the source changes, and runs go on from the last good bundle.
class SourceWorker {
public:
    /// The largest bundle taken, as `apply` takes.
    static constexpr std::uint64_t kMaxBundleBytes = 256ull * 1024 * 1024;

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
    /// Takes the bundle `download` (of `digest`) as the cached one once it passes the check;
    /// true when it did. A bundle that fails it is refused.
    bool adoptDownload(const std::filesystem::path &download, const std::string &digest);
    /// True (logged at debug) when `digest` is the refused bundle, which is not taken again.
    bool stillRefused(const std::string &digest);
    /// Refuses the bundle `digest` for `reason` (logged once, counted, in the status and runs).
    void refuse(const std::string &digest, const Error &reason);
    void clearRefusal();
    void fetchFailed(const Error &error);
    SourceRunReport run(RunMode mode);
    void publishRun(const SourceRunReport &report);
    /// Sends the status as it stands, without a run.
    void publishStatus();
    std::chrono::milliseconds nextApplyDelay(bool ok);
    /// How long until the source is asked again: the poll interval, or sooner after a failed
    /// fetch (1 s, doubling up to the poll interval), so that a bundle a watch announced during a
    /// server's failover is not left for a whole poll interval.
    std::chrono::milliseconds nextPollDelay();

    AgentShared &m_shared;
    std::string m_source;
    std::string m_shown;
    std::filesystem::path m_cacheFile;
    std::filesystem::path m_downloadFile; ///< where a fetched bundle waits for its check
    std::string m_digest;
    HttpValidators m_validators; ///< of the newest version seen, taken or refused
    std::string m_lastFetchError;
    bool m_fetchFailed = false; ///< the last refresh() failed to fetch
    std::chrono::milliseconds m_fetchRetry {1000}; ///< the next wait after a failed fetch
    /// The source's newest bundle when it was refused; kept in the cache's record, so a reload or
    /// a restart neither fetches nor reports it again.
    std::optional<BundleRefusal> m_refused;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    bool m_changed = false; ///< the watch saw a new meta record
    std::uint64_t m_generation = 0; ///< of the NATS connection last caught up with

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

} // namespace ccm::fleet

template<> struct ccm::ErrorCodeNames<ccm::fleet::ManifestRunErrc> {
    using E = ccm::fleet::ManifestRunErrc;
    static constexpr std::array kNames {
        std::pair {E::ExternalData, std::string_view("external_data")},
        std::pair {E::Invalid, std::string_view("invalid")},
    };
};
