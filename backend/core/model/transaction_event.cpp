// SPDX-License-Identifier: Apache-2.0
#include "core/model/transaction_event.h"

#include "base/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>

namespace ccm {
namespace {

constexpr std::string_view kBase62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// KSUID timestamps count seconds from this moment (2014-05-13T16:53:20Z).
constexpr std::int64_t kKsuidEpoch = 1400000000;

std::optional<HealthCheckResult::Status> healthStatusFromName(std::string_view name)
{
    for (const auto status : {HealthCheckResult::Status::Ok, HealthCheckResult::Status::Warning,
             HealthCheckResult::Status::Critical, HealthCheckResult::Status::Unknown}) {
        if (healthStatusName(status) == name)
            return status;
    }
    return std::nullopt;
}

/// A report attribute value: as it is when it is one word, else quoted like a JSON string.
std::string attributeValue(const std::string &value)
{
    if (!value.empty() && value.find_first_of(" \t\n\"=") == std::string::npos)
        return value;
    return Json(value).dump();
}

} // namespace

std::optional<std::chrono::system_clock::time_point> parseTimestamp(std::string_view view)
{
    if (view.size() > 64)
        return std::nullopt;
    const std::string text(view);
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed)
            != 6
        || consumed != 19)
        return std::nullopt;
    std::size_t at = 19;
    std::int64_t nanoseconds = 0;
    if (at < text.size() && text[at] == '.') {
        ++at;
        int digits = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            if (digits < 9) {
                nanoseconds = nanoseconds * 10 + (text[at] - '0');
                ++digits;
            }
            ++at;
        }
        if (digits == 0)
            return std::nullopt;
        for (; digits < 9; ++digits)
            nanoseconds *= 10;
    }
    int offsetMinutes = 0;
    if (at < text.size() && text[at] == 'Z') {
        ++at;
    } else if (at + 6 == text.size() && (text[at] == '+' || text[at] == '-') && text[at + 3] == ':') {
        int offsetHours = 0, offsetRest = 0;
        if (std::sscanf(text.c_str() + at + 1, "%2d:%2d", &offsetHours, &offsetRest) != 2)
            return std::nullopt;
        offsetMinutes = (text[at] == '-' ? -1 : 1) * (offsetHours * 60 + offsetRest);
        at += 6;
    } else {
        return std::nullopt;
    }
    if (at != text.size() || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    std::tm utc {};
    utc.tm_year = year - 1900;
    utc.tm_mon = month - 1;
    utc.tm_mday = day;
    utc.tm_hour = hour;
    utc.tm_min = minute;
    utc.tm_sec = second;
    const std::int64_t seconds = static_cast<std::int64_t>(timegm(&utc)) - offsetMinutes * 60;
    // The clock counts nanoseconds in 64 bits, about 292 years either side of 1970; a time beyond
    // that (a peer's "7740-11-25T01:02:03Z") would overflow it.
    constexpr std::int64_t kClockSeconds
        = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::duration::max()).count() - 1;
    if (seconds > kClockSeconds || seconds < -kClockSeconds)
        return std::nullopt;
    return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
        std::chrono::seconds(seconds) + std::chrono::nanoseconds(nanoseconds)));
}

std::string_view healthStatusName(HealthCheckResult::Status status)
{
    switch (status) {
    case HealthCheckResult::Status::Ok:
        return "ok";
    case HealthCheckResult::Status::Warning:
        return "warning";
    case HealthCheckResult::Status::Critical:
        return "critical";
    case HealthCheckResult::Status::Unknown:
        break;
    }
    return "unknown";
}

namespace {

/// Appends `value` (not negative) with at least `width` digits, zero-padded.
void appendPadded(std::string &out, std::int64_t value, int width)
{
    std::array<char, 24> digits {};
    const auto end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
    out.append(static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, width - (end - digits.data()))), '0');
    out.append(digits.data(), end);
}

} // namespace

// Written digit by digit: formatting through printf cost more than the rest of a stable file's
// report.
std::string formatTimestamp(std::chrono::system_clock::time_point time)
{
    const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
    std::int64_t seconds = nanoseconds / 1000000000;
    std::int64_t fraction = nanoseconds % 1000000000;
    if (fraction < 0) {
        fraction += 1000000000;
        --seconds;
    }
    const std::time_t whole = static_cast<std::time_t>(seconds);
    std::tm utc {};
    gmtime_r(&whole, &utc);
    std::string text;
    text.reserve(32);
    appendPadded(text, std::int64_t {utc.tm_year} + 1900, 4);
    text += '-';
    appendPadded(text, utc.tm_mon + 1, 2);
    text += '-';
    appendPadded(text, utc.tm_mday, 2);
    text += 'T';
    appendPadded(text, utc.tm_hour, 2);
    text += ':';
    appendPadded(text, utc.tm_min, 2);
    text += ':';
    appendPadded(text, utc.tm_sec, 2);
    if (fraction > 0) {
        // RFC 3339 with nanoseconds, trailing zeros dropped, as Go's time.RFC3339Nano writes it.
        text += '.';
        appendPadded(text, fraction, 9);
        while (text.back() == '0')
            text.pop_back();
    }
    return text + 'Z';
}

std::string newEventId()
{
    // 4 bytes of time and 16 random bytes, written in base62 as 27 characters. The 160-bit number is
    // held as five 32-bit words, most significant first, and divided by 62 a word at a time.
    thread_local std::mt19937_64 generator {std::random_device {}()};
    const auto now
        = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::array<std::uint32_t, 5> words {};
    words[0] = static_cast<std::uint32_t>(now - kKsuidEpoch);
    for (std::size_t i = 1; i < words.size(); i += 2) {
        const std::uint64_t random = generator();
        words[i] = static_cast<std::uint32_t>(random >> 32);
        words[i + 1] = static_cast<std::uint32_t>(random);
    }
    std::string out(27, '0');
    for (std::size_t position = out.size(); position-- > 0;) {
        std::uint64_t remainder = 0;
        for (std::uint32_t &word : words) {
            const std::uint64_t value = (remainder << 32) | word;
            word = static_cast<std::uint32_t>(value / 62);
            remainder = value % 62;
        }
        out[position] = kBase62[remainder];
    }
    return out;
}

Json eventToJson(const TransactionEvent &event)
{
    Json json = Json::object();
    json["protocol"] = kTransactionEventProtocol;
    json["event_id"] = event.eventId;
    json["timestamp"] = formatTimestamp(event.timestamp);
    json["type"] = event.type;
    json["provider"] = event.provider;
    json["name"] = event.name;
    if (!event.alias.empty())
        json["alias"] = event.alias;
    json["requested_ensure"] = event.requestedEnsure;
    json["final_ensure"] = event.finalEnsure;
    json["duration"] = event.duration.count();
    json["properties"] = event.properties;
    json["status"] = event.status;
    if (!event.noopMessage.empty())
        json["noop_message"] = event.noopMessage;
    Json checks = Json::array();
    for (const HealthCheckResult &check : event.healthChecks) {
        Json item = {{"status", healthStatusName(check.status)}, {"tries", check.tries}};
        if (!check.output.empty())
            item["output"] = check.output;
        checks.push_back(std::move(item));
    }
    json["health_check"] = std::move(checks);
    json["health_check_only"] = event.healthCheckOnly;
    json["error"] = event.errors;
    json["changed"] = event.changed;
    json["refreshed"] = event.refreshed;
    json["failed"] = event.failed;
    json["skipped"] = event.skipped;
    json["noop"] = event.noop;
    json["unmet_requirements"] = event.unmetRequirements;
    if (event.diff)
        json["diff"] = *event.diff;
    if (!event.refreshedBy.empty())
        json["refreshed_by"] = event.refreshedBy;
    json["resource"] = event.resource();
    return json;
}

namespace {

Error invalidEvent(const std::string &why)
{
    return Error {"invalid_event", "transaction event: " + why};
}

std::optional<Error> readText(const Json &json, const char *key, std::string &out, bool required)
{
    const auto found = json.find(key);
    if (found == json.end() || found->is_null())
        return required ? std::optional<Error>(invalidEvent(std::string("missing '") + key + "'")) : std::nullopt;
    if (!found->is_string())
        return invalidEvent(std::string("'") + key + "' must be a string, not " + describeJsonType(*found));
    out = found->get<std::string>();
    return std::nullopt;
}

std::optional<Error> readFlag(const Json &json, const char *key, bool &out)
{
    const auto found = json.find(key);
    if (found == json.end() || found->is_null())
        return std::nullopt;
    if (!found->is_boolean())
        return invalidEvent(std::string("'") + key + "' must be a boolean, not " + describeJsonType(*found));
    out = found->get<bool>();
    return std::nullopt;
}

std::optional<Error> readStrings(const Json &json, const char *key, std::vector<std::string> &out)
{
    const auto found = json.find(key);
    if (found == json.end() || found->is_null())
        return std::nullopt;
    if (!found->is_array())
        return invalidEvent(std::string("'") + key + "' must be a list of strings");
    for (const Json &item : *found) {
        if (!item.is_string())
            return invalidEvent(std::string("'") + key + "' must be a list of strings");
        out.push_back(item.get<std::string>());
    }
    return std::nullopt;
}

std::optional<Error> readHealthChecks(const Json &json, std::vector<HealthCheckResult> &out)
{
    const auto checks = json.find("health_check");
    if (checks == json.end() || checks->is_null())
        return std::nullopt;
    if (!checks->is_array())
        return invalidEvent("'health_check' must be a list");
    for (const Json &item : *checks) {
        const auto status = item.is_object() ? healthStatusFromName(item.value("status", std::string())) : std::nullopt;
        if (!status || !item.contains("tries") || !item["tries"].is_number_integer())
            return invalidEvent("each 'health_check' entry needs a status (ok, warning, critical, unknown) and tries");
        out.push_back({*status, item["tries"].get<int>(), item.value("output", std::string())});
    }
    return std::nullopt;
}

} // namespace

Result<TransactionEvent> eventFromJson(const Json &json)
{
    if (!json.is_object())
        return invalidEvent("expected a JSON object, not " + describeJsonType(json));
    if (json.value("protocol", std::string()) != kTransactionEventProtocol)
        return invalidEvent("protocol must be " + std::string(kTransactionEventProtocol));

    TransactionEvent event;
    const auto text
        = [&](const char *key, std::string &out, bool required) { return readText(json, key, out, required); };
    const auto flag = [&](const char *key, bool &out) { return readFlag(json, key, out); };
    const auto strings = [&](const char *key, std::vector<std::string> &out) { return readStrings(json, key, out); };

    std::string timestamp;
    std::string diff;
    for (const auto &problem : {text("event_id", event.eventId, true), text("timestamp", timestamp, true),
             text("type", event.type, true), text("provider", event.provider, true), text("name", event.name, true),
             text("alias", event.alias, false), text("requested_ensure", event.requestedEnsure, true),
             text("final_ensure", event.finalEnsure, true), text("noop_message", event.noopMessage, false),
             text("diff", diff, false), flag("health_check_only", event.healthCheckOnly),
             flag("changed", event.changed), flag("refreshed", event.refreshed), flag("failed", event.failed),
             flag("skipped", event.skipped), flag("noop", event.noop), strings("error", event.errors),
             strings("unmet_requirements", event.unmetRequirements), strings("refreshed_by", event.refreshedBy)}) {
        if (problem)
            return *problem;
    }
    const auto parsedTime = parseTimestamp(timestamp);
    if (!parsedTime)
        return invalidEvent("'timestamp' is not an RFC 3339 time: " + timestamp);
    event.timestamp = *parsedTime;
    const auto duration = json.find("duration");
    if (duration == json.end() || !duration->is_number_integer())
        return invalidEvent("'duration' must be an integer number of nanoseconds");
    event.duration = std::chrono::nanoseconds(duration->get<std::int64_t>());
    event.properties = json.value("properties", Json::object());
    event.status = json.value("status", Json());
    if (json.contains("diff"))
        event.diff = diff;

    if (auto problem = readHealthChecks(json, event.healthChecks))
        return *problem;
    return event;
}

void RunSummary::add(const TransactionEvent &event)
{
    ++total;
    if (event.failed)
        ++failed;
    else if (event.skipped)
        ++skipped;
    else if (event.changed)
        ++changed;
    else
        ++stable;
    if (event.refreshed)
        ++refreshed;
    if (!event.unmetRequirements.empty())
        ++unmetRequirements;
    for (const HealthCheckResult &check : event.healthChecks) {
        switch (check.status) {
        case HealthCheckResult::Status::Ok:
            ++checksOk;
            break;
        case HealthCheckResult::Status::Warning:
            ++checksWarning;
            break;
        case HealthCheckResult::Status::Critical:
            ++checksCritical;
            break;
        case HealthCheckResult::Status::Unknown:
            ++checksUnknown;
            break;
        }
    }
    errors += event.errors.size();
}

Json summaryToJson(const RunSummary &summary)
{
    return Json {{"run_time", summary.runTime.count()}, {"total", summary.total}, {"stable", summary.stable},
        {"changed", summary.changed}, {"failed", summary.failed}, {"skipped", summary.skipped},
        {"refreshed", summary.refreshed}, {"unmet_requirements", summary.unmetRequirements},
        {"checks",
            {{"ok", summary.checksOk}, {"warning", summary.checksWarning}, {"critical", summary.checksCritical},
                {"unknown", summary.checksUnknown}}},
        {"errors", summary.errors}};
}

std::string formatDuration(std::chrono::nanoseconds duration)
{
    const double ns = static_cast<double>(duration.count());
    // to_chars rounds as printf does, at a fraction of its cost.
    const auto fixed = [](double value, int precision, std::string_view unit) {
        std::array<char, 32> buffer {};
        const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed,
            precision).ptr;
        return std::string(buffer.data(), end).append(unit);
    };
    if (ns < 1e3)
        return fixed(ns, 0, "ns");
    if (ns < 1e6)
        return fixed(ns / 1e3, 1, "µs");
    if (ns < 1e9)
        return fixed(ns / 1e6, 1, "ms");
    if (ns < 60e9)
        return fixed(ns / 1e9, 2, "s");
    const auto minutes = static_cast<long long>(ns / 60e9);
    const auto seconds = static_cast<long long>(ns / 1e9) % 60;
    return std::to_string(minutes) + 'm' + std::to_string(seconds) + 's';
}

namespace {

/// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string> &names)
{
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            text += i + 1 == names.size() ? " and " : ", ";
        text += names[i];
    }
    return text;
}

} // namespace

std::string subscriptionText(const std::vector<std::string> &changed, const std::vector<std::string> &wouldChange)
{
    std::string text = "subscribed to ";
    if (!changed.empty())
        text += listed(changed) + ", which changed";
    if (!changed.empty() && !wouldChange.empty())
        text += ", and to ";
    if (!wouldChange.empty())
        text += listed(wouldChange) + ", which would change";
    return text;
}

std::string refreshText(bool noop, const std::vector<std::string> &changed, const std::vector<std::string> &wouldChange)
{
    return (noop ? "would refresh: " : "refreshed: ") + subscriptionText(changed, wouldChange);
}

ReportLine reportLine(const TransactionEvent &event)
{
    // Log lines name a resource by its alias when it has one.
    std::string line = event.alias.empty() ? event.resource() : event.type + '#' + event.alias + " (alias)";
    ReportLevel level = ReportLevel::Info;
    if (event.failed) {
        level = ReportLevel::Error;
        line += " failed errors=" + attributeValue(joined(event.errors));
    } else if (!event.unmetRequirements.empty()) {
        level = ReportLevel::Error;
        line += " skipped due to unmet requirement unmet=" + attributeValue(joined(event.unmetRequirements));
    } else if (event.skipped) {
        level = ReportLevel::Warning;
        line += " skipped";
    } else if (event.refreshed) {
        level = ReportLevel::Warning;
        line += " refreshed";
    } else if (event.changed) {
        level = ReportLevel::Warning;
        line += " changed";
    } else {
        line += " stable";
    }
    line += " ensure=" + attributeValue(event.finalEnsure.empty() ? event.requestedEnsure : event.finalEnsure);
    line += " runtime=" + formatDuration(event.duration);
    if (!event.provider.empty())
        line += " provider=" + attributeValue(event.provider);
    if (event.noop && !event.noopMessage.empty())
        line += " noop=" + attributeValue(event.noopMessage);
    // A real run has no noop message to say why the resource refreshed; its subscriptions did.
    if (!event.noop && event.refreshed && !event.refreshedBy.empty())
        line += " message=" + attributeValue(refreshText(false, event.refreshedBy));
    return {level, std::move(line)};
}

std::string summaryText(const RunSummary &summary)
{
    const auto count = [](std::size_t n) { return std::to_string(n); };
    std::string text;
    text += "Run time: " + formatDuration(summary.runTime) + "\n";
    text += "Resources: total=" + count(summary.total) + " stable=" + count(summary.stable) + " changed="
        + count(summary.changed) + " failed=" + count(summary.failed) + " skipped=" + count(summary.skipped)
        + " refreshed=" + count(summary.refreshed) + " unmet_requirements=" + count(summary.unmetRequirements) + "\n";
    text += "Checked resources: ok=" + count(summary.checksOk) + " warning=" + count(summary.checksWarning)
        + " critical=" + count(summary.checksCritical) + " unknown=" + count(summary.checksUnknown) + "\n";
    text += "Errors: " + count(summary.errors) + "\n";
    return text;
}

} // namespace ccm
