// SPDX-License-Identifier: Apache-2.0
// A ring's hosts while a release reaches them, and the gate over them.
#include "fleet/rollout/rollout_gate.h"

#include "fleet/agent/fleet_status.h"

#include <array>
#include <charconv>
#include <cmath>

namespace ccm::fleet {
namespace {

constexpr std::array kStateNames {
    std::pair {RingHostState::Waiting, std::string_view("waiting")},
    std::pair {RingHostState::Applied, std::string_view("applied")},
    std::pair {RingHostState::Failed, std::string_view("failed")},
    std::pair {RingHostState::Silent, std::string_view("silent")},
};

/// The count at `key` of the map `object`, 0 when it is not a count.
std::size_t countMember(const Json &object, const char *key)
{
    if (!object.is_object())
        return 0;
    const auto member = object.find(key);
    return member != object.end() && member->is_number_unsigned() ? member->get<std::size_t>() : 0;
}

/// Why a run of the release counts as a failure, empty when it does not.
std::string failureOf(const Json &run)
{
    if (const std::string error = stringMember(run, "error"); !error.empty())
        return "could not run it: " + error;
    const Json &summary = run.contains("summary") ? run["summary"] : Json();
    const std::size_t failed = countMember(summary, "failed");
    const std::size_t critical
        = countMember(summary.is_object() && summary.contains("checks") ? summary["checks"] : Json(), "critical");
    std::string names;
    if (run.contains("failed_resources") && run["failed_resources"].is_array())
        for (const Json &name : run["failed_resources"])
            if (name.is_string())
                names += (names.empty() ? "" : ", ") + name.get<std::string>();
    std::string failure;
    if (failed > 0)
        failure = std::to_string(failed) + " failed resource" + (failed == 1 ? "" : "s")
            + (names.empty() ? "" : " (" + names + ")");
    if (critical > 0)
        failure += (failure.empty() ? "" : ", ") + std::to_string(critical) + " CRITICAL health check"
            + (critical == 1 ? "" : "s") + " (" + stringMember(run, "mode") + " run)";
    if (!failure.empty())
        return failure;
    if (run.value("aborted", false) == true)
        return "the run was aborted";
    return {};
}

} // namespace

Result<FailureBudget> FailureBudget::parse(std::string_view text)
{
    const auto bad = [&text] {
        return Error {"usage",
            "--max-failed: '" + std::string(text)
                + "' is neither a count (2) nor a percentage of the ring's hosts (10%)"};
    };
    FailureBudget budget;
    if (text.ends_with('%')) {
        const std::string number(text.substr(0, text.size() - 1));
        double value = 0;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (number.empty() || error != std::errc() || end != number.data() + number.size() || value < 0 || value > 100
            || !std::isfinite(value))
            return bad();
        budget.percent = value;
        return budget;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), budget.count);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return bad();
    return budget;
}

std::size_t FailureBudget::allowed(std::size_t hosts) const
{
    if (!percent)
        return count;
    return static_cast<std::size_t>(std::floor(static_cast<double>(hosts) * *percent / 100.0 + 1e-9));
}

std::string FailureBudget::text() const
{
    if (!percent)
        return std::to_string(count);
    std::array<char, 32> buffer {};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), *percent);
    return std::string(buffer.data(), result.ptr) + "%";
}

std::string_view ringHostStateName(RingHostState state)
{
    for (const auto &[value, name] : kStateNames)
        if (value == state)
            return name;
    return "waiting";
}

std::optional<RingHostState> parseRingHostState(std::string_view name)
{
    for (const auto &[value, known] : kStateNames)
        if (known == name)
            return value;
    return std::nullopt;
}

std::optional<Json> parseRunMessage(std::string_view text)
{
    constexpr std::size_t kMaxRunMessage = 1024 * 1024;
    constexpr int kMaxRunNesting = 64;
    if (text.empty() || text.size() > kMaxRunMessage || jsonNestingBeyond(text, kMaxRunNesting))
        return std::nullopt;
    Json run = parseJson(text, false);
    if (!run.is_object())
        return std::nullopt;
    return run;
}

RingWatch::RingWatch(std::string source, std::string digest)
    : m_source(std::move(source))
    , m_digest(std::move(digest))
{
}

void RingWatch::observeStatus(const FleetStatus &status)
{
    for (const HostStatus &host : status.hosts) {
        const Json runs = host.value.is_object() ? host.value.value("runs", Json::array()) : Json::array();
        if (!runs.is_array())
            continue;
        for (const Json &run : runs) {
            if (!run.is_object() || stringMember(run, "source") != m_source)
                continue;
            // A stale host is not waited for; one already followed keeps its place.
            if (host.stale && !m_hosts.contains(host.identity))
                continue;
            m_hosts.try_emplace(host.identity);
            judge(host.identity, run);
        }
    }
}

void RingWatch::observeRun(const Json &run)
{
    if (!run.is_object() || stringMember(run, "source") != m_source)
        return;
    const std::string identity = stringMember(run, "identity");
    if (identity.empty())
        return;
    m_hosts.try_emplace(identity);
    judge(identity, run);
}

void RingWatch::judge(const std::string &identity, const Json &run)
{
    RingHost &host = m_hosts[identity];
    if (host.state == RingHostState::Failed)
        return;
    if (stringMember(run, "manifest_digest") == m_digest) {
        const std::string failure = failureOf(run);
        if (!failure.empty())
            host = RingHost {RingHostState::Failed, failure};
        else if (host.state != RingHostState::Applied)
            host = RingHost {RingHostState::Applied, {}};
        return;
    }
    // The agent fetched the release and refused it (a bad signature, an invalid manifest).
    const Json refused = run.value("refused_bundle", Json::object());
    if (refused.is_object() && stringMember(refused, "digest") == m_digest)
        host = RingHost {RingHostState::Failed, "refused the bundle: " + stringMember(refused, "reason")};
}

void RingWatch::closeWaiting(const std::string &reason)
{
    for (auto &[identity, host] : m_hosts)
        if (host.state == RingHostState::Waiting)
            host = RingHost {RingHostState::Silent, reason};
}

bool RingWatch::allReported() const
{
    for (const auto &[identity, host] : m_hosts)
        if (host.state == RingHostState::Waiting)
            return false;
    return true;
}

GateVerdict RingWatch::verdict(const FailureBudget &budget) const
{
    GateVerdict verdict;
    verdict.hosts = m_hosts.size();
    for (const auto &[identity, host] : m_hosts) {
        verdict.applied += host.state == RingHostState::Applied ? 1 : 0;
        verdict.silent += host.state == RingHostState::Silent ? 1 : 0;
        verdict.waiting += host.state == RingHostState::Waiting ? 1 : 0;
        verdict.failed += host.state == RingHostState::Failed || host.state == RingHostState::Silent ? 1 : 0;
    }
    verdict.allowed = budget.allowed(verdict.hosts);
    verdict.passed = verdict.hosts > 0 && verdict.waiting == 0 && verdict.failed <= verdict.allowed;
    verdict.summary = std::to_string(verdict.hosts) + " host" + (verdict.hosts == 1 ? "" : "s") + ": "
        + std::to_string(verdict.applied) + " applied, " + std::to_string(verdict.failed) + " failed ("
        + std::to_string(verdict.silent) + " silent)"
        + (verdict.waiting ? ", " + std::to_string(verdict.waiting) + " waiting" : std::string()) + "; at most "
        + std::to_string(verdict.allowed) + " may fail";
    if (verdict.hosts == 0)
        verdict.summary = "no live agent watches " + m_source + ", so there is nothing to judge the release by";
    return verdict;
}

Json RingWatch::hostsToJson() const
{
    Json hosts = Json::object();
    for (const auto &[identity, host] : m_hosts) {
        Json entry {{"state", std::string(ringHostStateName(host.state))}};
        if (!host.reason.empty())
            entry["reason"] = host.reason;
        appendMember(hosts, identity, std::move(entry));
    }
    return hosts;
}

void RingWatch::restoreHosts(const Json &hosts)
{
    if (!hosts.is_object())
        return;
    for (const auto &[identity, entry] : hosts.items()) {
        const auto state = parseRingHostState(stringMember(entry, "state"));
        if (!state || identity.empty())
            continue;
        m_hosts[identity] = RingHost {*state, stringMember(entry, "reason")};
    }
}

} // namespace ccm::fleet
