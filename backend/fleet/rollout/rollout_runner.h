// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "fleet/rollout/rollout_gate.h"
#include "fleet/rollout/rollout_record.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ccm::fleet {

class KvBucket;
class NatsConnection;

/// How a rollout puts releases on its rings' objects: through the release history, so that each
/// step is a recorded release and every release stays retrievable by its digest.
class RolloutPublisher {
public:
    virtual ~RolloutPublisher() = default;
    /// Makes sure the object `name` holds now is kept by its digest, and returns that digest;
    /// empty when there is no such object.
    virtual Result<std::string> snapshot(const std::string &name) = 0;
    /// Publishes the kept release `digest` as the object `name`, recording it with `message`.
    virtual Result<void> publish(const std::string &name, const std::string &digest, const std::string &message) = 0;
    /// Removes the object `name` (a ring whose object did not exist before the rollout).
    virtual Result<void> remove(const std::string &name, const std::string &message) = 0;
};

/// What a rollout tells as it goes: one JSON object per step, {"event": ..., "rollout": ID, ...}
/// with event started, ring, published, host, settling, gate, rolling_back, restored, paused,
/// done (docs/fleet.md, Rolling out).
using RolloutProgress = std::function<void(const Json &event)>;

struct RolloutTiming {
    std::chrono::milliseconds statusEvery {2000}; ///< how often CCM_STATUS is read and the record written
    std::chrono::seconds abandonedAfter {30}; ///< a record not written for this long has no live runner
};

/// Takes a rollout through its rings (docs/fleet.md, Rolling out): for each ring it records where
/// the ring stands, publishes the release, follows the ring's agents through CCM_STATUS and their
/// `.run` messages until each has reported it or the time limit passes, and applies the gate; on
/// a closed gate or an abort it puts every ring it changed back on its previous release and waits
/// for those agents to report it. Each step is written to the CCM_ROLLOUTS record before it is
/// taken, so `resume` can go on from wherever a killed process stopped.
class RolloutRunner {
public:
    RolloutRunner(NatsConnection &connection, KvBucket &records, RolloutPublisher &publisher, RolloutProgress progress,
        RolloutTiming timing = {});

    /// Creates the record of a new rollout of the kept release `record.digest` and runs it.
    Result<RolloutRecord> start(RolloutRecord record);
    /// Goes on with the rollout `id`: one that is paused, or running with no live process behind
    /// it (its record not written for RolloutTiming::abandonedAfter). Error code "busy" when a live
    /// process runs it.
    Result<RolloutRecord> resume(const std::string &id);
    /// Asks the process running `id` to pause after the ring it is on, or to abort and roll back;
    /// one with no live process (or paused) is aborted here. Returns the record as it ends.
    Result<RolloutRecord> request(const std::string &id, const std::string &what);

    /// Stops waiting soon (Ctrl-C): the record stays as it is, to be resumed.
    void interrupt() { m_interrupted = true; }
    /// Also stops waiting soon once `*cancel` is set (a client that went away).
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }

private:
    Result<void> run(RolloutRecord &record);
    Result<bool> runRing(RolloutRecord &record, std::size_t index);
    Result<void> publishRing(RolloutRecord &record, RingRecord &ring);
    Result<GateVerdict> waitForRing(RolloutRecord &record, RingRecord &ring, const std::string &digest, bool gate);
    Result<void> rollBack(RolloutRecord &record, std::size_t through);
    /// The rollout's end: passed, or rolled back (or left, with --no-rollback) after a closed gate
    /// or an abort; the state and report set.
    Result<void> conclude(RolloutRecord &record, bool gateClosed);
    /// A `host` event for each host whose state changed since `told`.
    void tellHosts(const RolloutRecord &record, const std::string &ring, const RingWatch &watch,
        std::map<std::string, RingHost> &told);
    Result<void> save(RolloutRecord &record);
    Result<RolloutRecord> load(const std::string &id);
    Result<RolloutRecord> takeOver(const std::string &id, bool forAbort);
    void emit(const RolloutRecord &record, const std::string &event, Json fields = Json::object());
    std::string sourceOf(const RolloutRecord &record, const RingRecord &ring) const;

    NatsConnection &m_connection;
    KvBucket &m_records;
    RolloutPublisher &m_publisher;
    RolloutProgress m_progress;
    RolloutTiming m_timing;
    std::atomic<bool> m_interrupted {false};
    const std::atomic<bool> *m_cancel = nullptr;

    [[nodiscard]] bool stopping() const { return m_interrupted || (m_cancel && *m_cancel); }
};

/// "user@host" of this process, for records.
std::string processOwner();

} // namespace ccm::fleet
