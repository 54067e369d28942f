// SPDX-License-Identifier: Apache-2.0
#include "fleet/agent/fleet_status.h"

#include "fleet/nats/election_retry.h"
#include "fleet/nats/kv_bucket.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/preview/preview_wire.h"

#include <algorithm>

namespace ccm::fleet {
namespace {

std::string replaceOutside(std::string_view text, std::string_view allowedPunctuation)
{
    std::string out(text);
    for (char &c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && allowedPunctuation.find(c) == std::string_view::npos)
            c = '_';
    return out;
}

} // namespace

std::string subjectToken(std::string_view identity)
{
    return replaceOutside(identity, "_-");
}

std::string statusKey(std::string_view identity)
{
    return replaceOutside(identity, "-/_=.");
}

Result<HostStatus> parseHostStatus(
    const std::string &key, std::string_view value, std::chrono::system_clock::time_point now)
{
    const auto bad = [&key](const std::string &what) {
        return Error {"bad_status", std::string(kStatusBucket) + "/" + key + ": " + what};
    };
    if (jsonNestingBeyond(value, 64))
        return bad("nested too deeply");
    Json json = parseJson(value, false);
    if (!json.is_object())
        return bad("the value is not a JSON object");
    const auto identity = json.find("identity");
    const auto time = json.find("time");
    const auto interval = json.find("interval_seconds");
    if (identity == json.end() || !identity->is_string() || identity->get_ref<const std::string &>().empty())
        return bad("\"identity\" must be a non-empty string");
    if (time == json.end() || !time->is_string())
        return bad("\"time\" must be an RFC 3339 time");
    auto parsed = parseRfc3339(time->get_ref<const std::string &>());
    if (!parsed)
        return bad("\"time\": " + parsed.error().message);
    if (interval == json.end() || !interval->is_number() || interval->get<double>() < 0)
        return bad("\"interval_seconds\" must be a number of seconds");
    HostStatus host;
    host.identity = identity->get<std::string>();
    host.time = *parsed;
    host.ageSeconds = std::chrono::duration_cast<std::chrono::seconds>(now - host.time).count();
    host.stale = static_cast<double>(host.ageSeconds) > 2 * interval->get<double>() + 60;
    host.value = std::move(json);
    return host;
}

namespace {

Result<FleetStatus> readFleetStatusOnce(NatsConnection &connection, std::chrono::system_clock::time_point now);

} // namespace

Result<FleetStatus> readFleetStatus(NatsConnection &connection, std::chrono::system_clock::time_point now)
{
    const auto deadline = std::chrono::steady_clock::now() + kElectionRetryFor;
    for (;;) {
        auto status = readFleetStatusOnce(connection, now);
        // jetStreamError() names a timeout this way; anything else is an answer.
        const bool timedOut = !status && status.error().message.find("(no answer within ") != std::string::npos;
        if (!timedOut || std::chrono::steady_clock::now() >= deadline)
            return status;
    }
}

namespace {

Result<FleetStatus> readFleetStatusOnce(NatsConnection &connection, std::chrono::system_clock::time_point now)
{
    auto bucket = KvBucket::open(connection, std::string(kStatusBucket));
    if (!bucket && hasCode(bucket.error(), NatsErrc::BucketNotFound))
        return FleetStatus {};
    if (!bucket)
        return bucket.error();
    auto entries = bucket.value().entries();
    if (!entries)
        return entries.error();
    FleetStatus status;
    for (const auto &[key, value] : *entries) {
        auto host = parseHostStatus(key, value, now);
        if (host)
            status.hosts.push_back(std::move(host).value());
        else
            status.problems.push_back(host.error().message);
    }
    std::sort(status.hosts.begin(), status.hosts.end(),
        [](const HostStatus &a, const HostStatus &b) { return a.identity < b.identity; });
    return status;
}

} // namespace

Json hostStatusToJson(const HostStatus &host)
{
    const auto member = [&host](const char *key, Json fallback) {
        const auto found = host.value.find(key);
        return found == host.value.end() ? fallback : *found;
    };
    return Json {{"identity", host.identity}, {"time", host.value["time"]}, {"age_seconds", host.ageSeconds},
        {"stale", host.stale}, {"summary", member("summary", Json::object())},
        {"failed_resources", member("failed_resources", Json::array())}, {"runs", member("runs", Json::array())}};
}

} // namespace ccm::fleet
