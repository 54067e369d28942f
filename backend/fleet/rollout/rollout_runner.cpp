// SPDX-License-Identifier: Apache-2.0
// Taking a rollout through its rings, resuming one, and pausing or aborting one.
#include "fleet/rollout/rollout_runner.h"

#include "base/user_database.h"
#include "core/model/transaction_event.h"
#include "fleet/agent/agent_report.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/object_url.h"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <nats/nats.h>
#include <thread>
#include <unistd.h>

namespace ccm::fleet {
namespace {

/// Reads of CCM_STATUS in a row that must find nobody watching a ring before its gate says so.
constexpr int kEmptyReadsToConclude = 3;

using Clock = std::chrono::system_clock;

/// The subject every agent's `.run` messages go to.
constexpr const char *kRunSubject = "ccm.agent.*.run";

bool finished(RolloutState state)
{
    return state == RolloutState::Passed || state == RolloutState::Failed || state == RolloutState::RolledBack;
}

/// True when a ring is on its previous release, or was never changed.
bool untouched(const RingRecord &ring)
{
    return ring.state == RingState::Pending || ring.state == RingState::Restored
        || ring.state == RingState::RestoreFailed;
}

std::string seconds(std::chrono::seconds value)
{
    return std::to_string(value.count()) + "s";
}

/// The `.run` subscription of one wait: every agent's runs, as they come.
class RunFeed {
public:
    explicit RunFeed(NatsConnection &connection)
    {
        natsSubscription *raw = nullptr;
        if (natsConnection_SubscribeSync(&raw, connection.connection(), kRunSubject) == NATS_OK) {
            m_subscription.reset(raw);
            natsSubscription_SetPendingLimits(raw, 1'000'000, 512 * 1024 * 1024);
        }
    }

    /// The next run message within `wait`, or nothing.
    std::optional<Json> next(std::chrono::milliseconds wait)
    {
        if (!m_subscription) {
            std::this_thread::sleep_for(wait);
            return std::nullopt;
        }
        natsMsg *raw = nullptr;
        if (natsSubscription_NextMsg(&raw, m_subscription.get(), wait.count()) != NATS_OK)
            return std::nullopt;
        const NatsMsgPtr message(raw);
        const int length = natsMsg_GetDataLength(message.get());
        return parseRunMessage(
            std::string_view(natsMsg_GetData(message.get()), static_cast<std::size_t>(std::max(0, length))));
    }

private:
    NatsSubscriptionPtr m_subscription;
};

/// True when `owner` ("user@host pid N") names a process of this host that no longer exists: a
/// rollout it ran needs no waiting for its heartbeat to age.
bool ownerGone(const std::string &owner)
{
    const std::string self = processOwner();
    const std::string prefix = self + " pid ";
    if (!owner.starts_with(prefix))
        return false;
    pid_t pid = 0;
    const std::string number = owner.substr(prefix.size());
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), pid);
    if (error != std::errc() || end != number.data() + number.size() || pid <= 0)
        return false;
    return ::kill(pid, 0) != 0 && errno == ESRCH;
}

} // namespace

std::string processOwner()
{
    std::string user = "uid" + std::to_string(::getuid());
    if (auto entry = findUser(::getuid()); entry && entry->has_value())
        user = (*entry)->name;
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
        std::snprintf(host, sizeof host, "localhost");
    return user + "@" + host;
}

RolloutRunner::RolloutRunner(NatsConnection &connection, KvBucket &records, RolloutPublisher &publisher,
    RolloutProgress progress, RolloutTiming timing)
    : m_connection(connection)
    , m_records(records)
    , m_publisher(publisher)
    , m_progress(std::move(progress))
    , m_timing(timing)
{
}

std::string RolloutRunner::sourceOf(const RolloutRecord &record, const RingRecord &ring) const
{
    return ObjectUrl {record.bucket, ring.name}.toString();
}

void RolloutRunner::emit(const RolloutRecord &record, const std::string &event, Json fields)
{
    if (!m_progress)
        return;
    Json message = Json::object();
    appendMember(message, "event", event);
    appendMember(message, "rollout", record.id);
    for (auto &[key, value] : fields.items())
        appendMember(message, key, value);
    m_progress(message);
}

Result<void> RolloutRunner::save(RolloutRecord &record)
{
    record.updated = Clock::now();
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto written = m_records.update(record.id, rolloutToJson(record).dump(), record.revision);
        if (written) {
            record.revision = *written;
            return {};
        }
        if (!hasCode(written.error(), NatsErrc::Changed))
            return written.error().withContext("writing rollout " + record.id);
        // Someone asked for a pause or an abort; anything else means another process took it over.
        auto current = load(record.id);
        if (!current)
            return current.error();
        if (current->owner != record.owner)
            return Error {"busy", "rollout " + record.id + " was taken over by " + current->owner};
        record.request = current->request;
        record.revision = current->revision;
    }
    return Error {"busy", "rollout " + record.id + " keeps being written by someone else"};
}

Result<RolloutRecord> RolloutRunner::load(const std::string &id)
{
    if (!isRolloutId(id))
        return Error {
            "not_found", "'" + id + "' is not a rollout id (12 letters and digits, as `rollout status` lists them)"};
    auto entry = m_records.entry(id);
    if (!entry)
        return entry.error();
    if (!entry->has_value())
        return Error {"not_found", "there is no rollout " + id + " in " + std::string(kRolloutsBucket)};
    auto parsed = parseRollout((*entry)->value);
    if (!parsed)
        return parsed.error();
    RolloutRecord record = std::move(parsed).value();
    record.revision = (*entry)->revision;
    return record;
}

Result<RolloutRecord> RolloutRunner::start(RolloutRecord record)
{
    record.id = newRolloutId();
    record.owner = processOwner() + " pid " + std::to_string(::getpid());
    record.state = RolloutState::Running;
    record.created = Clock::now();
    record.revision = 0;
    if (auto saved = save(record); !saved)
        return saved.error();
    Json rings = Json::array();
    for (const RingRecord &ring : record.rings)
        rings.push_back(ring.name);
    emit(record, "started",
        Json {{"digest", record.digest}, {"rings", rings}, {"max_failed", record.maxFailed},
            {"ring_timeout_seconds", record.ringTimeout.count()}, {"settle_seconds", record.settle.count()}});
    if (auto ran = run(record); !ran)
        return ran.error();
    return record;
}

Result<RolloutRecord> RolloutRunner::takeOver(const std::string &id, bool forAbort)
{
    auto loaded = load(id);
    if (!loaded)
        return loaded.error();
    RolloutRecord record = std::move(loaded).value();
    if (finished(record.state))
        return Error {"finished",
            "rollout " + id + " has ended (" + std::string(rolloutStateName(record.state)) + "): " + record.report};
    if (record.state == RolloutState::Running && !record.abandoned(Clock::now(), m_timing.abandonedAfter)
        && !ownerGone(record.owner))
        return Error {"busy",
            "rollout " + id + " is being run by " + record.owner + " (its record was written "
                + std::to_string(
                    std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - record.updated).count())
                + "s ago)"};
    record.owner = processOwner() + " pid " + std::to_string(::getpid());
    record.state = RolloutState::Running;
    record.request = forAbort ? "abort" : "";
    if (auto saved = save(record); !saved)
        return hasCode(saved.error(), NatsErrc::Changed)
            ? Error {"busy", "rollout " + id + " was taken over by another process at the same moment"}
            : saved.error();
    emit(record, "resumed", Json {{"owner", record.owner}});
    return record;
}

Result<RolloutRecord> RolloutRunner::resume(const std::string &id)
{
    auto taken = takeOver(id, false);
    if (!taken)
        return taken;
    RolloutRecord record = std::move(taken).value();
    if (auto ran = run(record); !ran)
        return ran.error();
    return record;
}

Result<RolloutRecord> RolloutRunner::request(const std::string &id, const std::string &what)
{
    for (;;) {
        auto loaded = load(id);
        if (!loaded)
            return loaded;
        RolloutRecord record = std::move(loaded).value();
        if (finished(record.state))
            return record;
        const bool live = record.state == RolloutState::Running
            && !record.abandoned(Clock::now(), m_timing.abandonedAfter) && !ownerGone(record.owner);
        if (!live && what == "pause") {
            if (record.state == RolloutState::Paused)
                return record;
            record.state = RolloutState::Paused;
            record.report = "paused by " + processOwner() + " while no process ran it";
            auto written = m_records.update(id, rolloutToJson(record).dump(), record.revision);
            if (written)
                return record;
            if (!hasCode(written.error(), NatsErrc::Changed))
                return written.error();
            continue;
        }
        if (!live) {
            auto taken = takeOver(id, true);
            if (!taken)
                return taken;
            RolloutRecord aborting = std::move(taken).value();
            if (auto ran = run(aborting); !ran)
                return ran.error();
            return aborting;
        }
        if (record.request != what) {
            record.request = what;
            auto written = m_records.update(id, rolloutToJson(record).dump(), record.revision);
            if (!written && !hasCode(written.error(), NatsErrc::Changed))
                return written.error();
            if (!written)
                continue;
            emit(record, "requested", Json {{"request", what}, {"owner", record.owner}});
        }
        if (what == "pause")
            return record;
        // The process running it rolls back; follow the record until it ends or its process dies.
        if (stopping())
            return Error {"interrupted", "stopped following rollout " + id + "; its abort goes on"};
        std::this_thread::sleep_for(m_timing.statusEvery);
    }
}

Result<void> RolloutRunner::run(RolloutRecord &record)
{
    const auto gateClosed = [&record] {
        for (const RingRecord &ring : record.rings)
            if (ring.state == RingState::Failed || ring.state == RingState::RollingBack
                || ring.state == RingState::Restored || ring.state == RingState::RestoreFailed)
                return true;
        return false;
    };
    for (std::size_t i = record.currentRing(); i < record.rings.size() && !gateClosed(); ++i) {
        if (record.request == "abort")
            break;
        if (record.request == "pause" && record.rings[i].state == RingState::Pending) {
            record.state = RolloutState::Paused;
            record.request.clear();
            record.report = "paused before ring " + record.rings[i].name + "; `ccm-backend rollout resume " + record.id
                + "` goes on";
            if (auto saved = save(record); !saved)
                return saved;
            emit(record, "paused", Json {{"ring", record.rings[i].name}});
            return {};
        }
        auto passed = runRing(record, i);
        if (!passed && passed.error().code == "aborted")
            break;
        if (!passed)
            return passed.error();
        if (!*passed)
            break;
    }
    if (auto ended = conclude(record, gateClosed()); !ended)
        return ended;
    record.request.clear();
    if (auto saved = save(record); !saved)
        return saved;
    emit(record, "done", Json {{"state", std::string(rolloutStateName(record.state))}, {"report", record.report}});
    return {};
}

Result<void> RolloutRunner::conclude(RolloutRecord &record, bool gateClosed)
{
    const auto changedRing = [&record] {
        for (std::size_t i = record.rings.size(); i-- > 0;)
            if (!untouched(record.rings[i]))
                return i;
        return std::size_t(0);
    };
    const bool aborted = record.request == "abort";
    if (!aborted && !gateClosed && record.currentRing() == record.rings.size()) {
        record.state = RolloutState::Passed;
        record.report = "every ring passed its gate";
    } else {
        const std::size_t last = changedRing();
        const RingRecord &closed = record.rings[std::min(record.currentRing(), record.rings.size() - 1)];
        const std::string why
            = aborted ? "aborted on request" : "the gate of ring " + closed.name + " closed: " + closed.verdict;
        if (record.rollback || aborted) {
            if (auto back = rollBack(record, last); !back)
                return back;
            bool restored = true;
            for (const RingRecord &ring : record.rings)
                restored = restored && ring.state != RingState::RestoreFailed;
            record.state = restored ? RolloutState::RolledBack : RolloutState::Failed;
            record.report = why
                + (restored ? "; every changed ring is back on its previous release"
                            : "; restoring the previous release did not complete everywhere");
        } else {
            record.state = RolloutState::Failed;
            record.report = why + "; the rings were left as they are (--no-rollback)";
        }
    }
    return {};
}

Result<bool> RolloutRunner::runRing(RolloutRecord &record, std::size_t index)
{
    RingRecord &ring = record.rings[index];
    if (ring.state == RingState::Pending) {
        emit(record, "ring", Json {{"ring", ring.name}, {"index", index}, {"rings", record.rings.size()}});
        auto previous = m_publisher.snapshot(ring.name);
        if (!previous)
            return previous.error().withContext("ring " + ring.name);
        ring.previous = *previous;
        ring.state = RingState::Publishing;
        if (auto saved = save(record); !saved)
            return saved.error();
    }
    if (ring.state == RingState::Publishing)
        if (auto published = publishRing(record, ring); !published)
            return published.error();
    auto verdict = waitForRing(record, ring, record.digest, true);
    if (!verdict)
        return verdict.error();
    ring.verdict = verdict->summary;
    ring.state = verdict->passed ? RingState::Passed : RingState::Failed;
    if (auto saved = save(record); !saved)
        return saved.error();
    emit(record, "gate",
        Json {{"ring", ring.name}, {"passed", verdict->passed}, {"hosts", verdict->hosts},
            {"applied", verdict->applied}, {"failed", verdict->failed}, {"silent", verdict->silent},
            {"allowed", verdict->allowed}, {"summary", verdict->summary}});
    return verdict->passed;
}

Result<void> RolloutRunner::publishRing(RolloutRecord &record, RingRecord &ring)
{
    auto current = m_publisher.snapshot(ring.name);
    if (!current)
        return current.error().withContext("ring " + ring.name);
    if (*current != record.digest) {
        const std::string message = "rollout " + record.id + (record.message.empty() ? "" : ": " + record.message);
        if (auto published = m_publisher.publish(ring.name, record.digest, message); !published)
            return published.error().withContext("publishing to ring " + ring.name);
    }
    ring.published = Clock::now();
    ring.state = RingState::Waiting;
    ring.hosts = Json::object();
    if (auto saved = save(record); !saved)
        return saved;
    emit(record, "published", Json {{"ring", ring.name}, {"digest", record.digest}, {"previous", ring.previous}});
    return {};
}

Result<GateVerdict> RolloutRunner::waitForRing(
    RolloutRecord &record, RingRecord &ring, const std::string &digest, bool gate)
{
    auto budget = FailureBudget::parse(record.maxFailed);
    if (!budget)
        return budget.error();
    RingWatch watch(sourceOf(record, ring), digest);
    watch.restoreHosts(ring.hosts);
    RunFeed feed(m_connection);
    const auto timeLimit = record.ringTimeout;
    const auto deadline = (gate && ring.published ? *ring.published : Clock::now()) + timeLimit;
    std::optional<Clock::time_point> settleEnd;
    if (gate && ring.state == RingState::Settling)
        settleEnd = Clock::now() + record.settle;
    auto nextStatus = Clock::now();
    // Reads of CCM_STATUS in a row that found no host watching the ring. One is not enough to
    // conclude nobody does: a read during a cluster's failover can come back empty.
    int emptyReads = 0;
    std::map<std::string, RingHost> told;
    const auto ending = [&ring, &watch](GateVerdict verdict) {
        ring.hosts = watch.hostsToJson();
        return verdict;
    };
    for (;;) {
        if (stopping())
            return Error {"interrupted", "interrupted; `ccm-backend rollout resume " + record.id + "` goes on"};
        const auto now = Clock::now();
        if (now >= nextStatus) {
            auto status = readFleetStatus(m_connection, now);
            if (status) {
                watch.observeStatus(*status);
                emptyReads = watch.hosts().empty() ? emptyReads + 1 : 0;
            }
            ring.hosts = watch.hostsToJson();
            if (auto saved = save(record); !saved)
                return saved.error();
            if (gate && record.request == "abort")
                return Error {"aborted", "aborted on request"};
            nextStatus = now + m_timing.statusEvery;
        } else if (auto run = feed.next(std::min<std::chrono::milliseconds>(m_timing.statusEvery,
                       std::chrono::duration_cast<std::chrono::milliseconds>(nextStatus - now)))) {
            watch.observeRun(*run);
        }
        tellHosts(record, ring.name, watch, told);
        const GateVerdict verdict = watch.verdict(*budget);
        if (emptyReads >= kEmptyReadsToConclude && watch.hosts().empty())
            return ending(verdict); // nobody watches this ring: nothing to wait for, nothing to judge by
        if (gate && verdict.failed > verdict.allowed)
            return ending(verdict);
        if (watch.allReported()) {
            if (!gate || record.settle.count() == 0)
                return ending(verdict);
            if (!settleEnd) {
                settleEnd = Clock::now() + record.settle;
                ring.state = RingState::Settling;
                if (auto saved = save(record); !saved)
                    return saved.error();
                emit(record, "settling", Json {{"ring", ring.name}, {"settle_seconds", record.settle.count()}});
            } else if (Clock::now() >= *settleEnd) {
                return ending(verdict);
            }
        }
        if (Clock::now() >= deadline) {
            watch.closeWaiting("reported no run of " + digest + " within " + seconds(timeLimit));
            return ending(watch.verdict(*budget));
        }
    }
}

void RolloutRunner::tellHosts(
    const RolloutRecord &record, const std::string &ring, const RingWatch &watch, std::map<std::string, RingHost> &told)
{
    for (const auto &[identity, host] : watch.hosts()) {
        const auto known = told.find(identity);
        if (known != told.end() && known->second.state == host.state)
            continue;
        told[identity] = host;
        emit(record, "host",
            Json {{"ring", ring}, {"identity", identity}, {"state", std::string(ringHostStateName(host.state))},
                {"reason", host.reason}, {"digest", watch.digest()}});
    }
}

Result<void> RolloutRunner::rollBack(RolloutRecord &record, std::size_t through)
{
    for (std::size_t j = through + 1; j-- > 0;) {
        RingRecord &ring = record.rings[j];
        if (untouched(ring))
            continue;
        ring.state = RingState::RollingBack;
        if (auto saved = save(record); !saved)
            return saved;
        emit(record, "rolling_back", Json {{"ring", ring.name}, {"previous", ring.previous}});
        const std::string message = "rollback of rollout " + record.id;
        auto current = m_publisher.snapshot(ring.name);
        if (!current)
            return current.error().withContext("ring " + ring.name);
        // The gate's verdict stays, the restore's is added: both explain the ring's state.
        const std::string gate = ring.verdict.substr(0, ring.verdict.find("; restore: "));
        const std::string before = gate.empty() ? std::string() : gate + "; ";
        if (ring.previous.empty()) {
            if (auto removed = m_publisher.remove(ring.name, message); !removed)
                return removed;
            ring.verdict = before + "removed " + ring.name
                + ", which did not exist before the rollout; its agents keep running what they fetched from their "
                  "cache";
            ring.state = RingState::Restored;
        } else if (*current == ring.previous) {
            ring.verdict = before + "still on its previous release";
            ring.state = RingState::Restored;
        } else {
            if (auto published = m_publisher.publish(ring.name, ring.previous, message); !published)
                return published.error().withContext("restoring ring " + ring.name);
            ring.hosts = Json::object();
            auto verdict = waitForRing(record, ring, ring.previous, false);
            if (!verdict)
                return verdict.error();
            const bool back = verdict->silent == 0;
            ring.state = back ? RingState::Restored : RingState::RestoreFailed;
            ring.verdict = before + "restore: " + verdict->summary;
        }
        if (auto saved = save(record); !saved)
            return saved;
        emit(record, "restored",
            Json {{"ring", ring.name}, {"state", std::string(ringStateName(ring.state))}, {"summary", ring.verdict}});
    }
    return {};
}

} // namespace ccm::fleet
