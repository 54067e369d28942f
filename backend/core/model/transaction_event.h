// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm {

inline constexpr std::string_view kTransactionEventProtocol = "io.choria.ccm.v1.transaction.event";

/// The outcome of one health check of a resource.
struct HealthCheckResult {
    enum class Status { Ok, Warning, Critical, Unknown };

    Status status = Status::Unknown;
    int tries = 0;
    std::string output;

    friend bool operator==(const HealthCheckResult &, const HealthCheckResult &) = default;
};

/// "ok", "warning", "critical", "unknown" as on the wire.
std::string_view healthStatusName(HealthCheckResult::Status status);

/// What happened to one resource in a run (ENGINE-SPEC §6); the JSON form has the keys of CCM v1's
/// TransactionEvent plus `diff`, `refreshed_by` and `resource`.
struct TransactionEvent {
    std::string eventId;
    std::chrono::system_clock::time_point timestamp;
    std::string type;
    std::string provider;
    std::string name;
    std::string alias;
    std::string requestedEnsure;
    std::string finalEnsure;
    std::chrono::nanoseconds duration{0};
    Json properties = Json::object();
    Json status; ///< provider-specific state; null when none
    std::string noopMessage;
    std::vector<HealthCheckResult> healthChecks;
    bool healthCheckOnly = false;
    std::vector<std::string> errors;
    bool changed = false;
    bool refreshed = false;
    bool failed = false;
    bool skipped = false;
    bool noop = false;
    std::vector<std::string> unmetRequirements;
    /// Unified diff of a file's content change, when it may be shown.
    std::optional<std::string> diff;
    /// The subscriptions that made the resource refresh, each as its `subscribe` names it
    /// ("type#name" or "type#alias"); empty when it did not refresh.
    std::vector<std::string> refreshedBy;

    /// Marks the resource failed with message as one of its errors.
    void fail(std::string message)
    {
        failed = true;
        errors.push_back(std::move(message));
    }

    /// "type#name", the form references and reports use.
    [[nodiscard]] std::string resource() const { return type + '#' + name; }

    friend bool operator==(const TransactionEvent &, const TransactionEvent &) = default;
};

/// A new event id: a KSUID (27 base62 characters, sortable by time) as CCM uses.
std::string newEventId();

/// A UTC time as RFC 3339 with nanoseconds and trailing zeros dropped, as Go's time.RFC3339Nano
/// writes it ("2026-11-21T20:08:29.2296275Z"); the form of every timestamp in events.
std::string formatTimestamp(std::chrono::system_clock::time_point time);

/// Parses an RFC 3339 time, "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm)", keeping up to
/// nanoseconds; nullopt for anything else (including text over 64 characters, and times the system
/// clock cannot hold: before 1678 or after 2261).
std::optional<std::chrono::system_clock::time_point> parseTimestamp(std::string_view text);

/// The event as JSON, keys as in CCM v1 plus `diff` (when set), `refreshed_by` (when the resource
/// refreshed) and `resource`. Timestamps are UTC RFC 3339 with nanoseconds; the duration is in
/// nanoseconds.
Json eventToJson(const TransactionEvent &event);

/// Reads an event written by eventToJson (the designer reads the backend's stream with it).
/// Errors name the key that is missing or has the wrong kind.
Result<TransactionEvent> eventFromJson(const Json &json);

/// Counts of a run's events, as the summary after the report lines shows them.
struct RunSummary {
    std::size_t total = 0;
    std::size_t stable = 0;
    std::size_t changed = 0;
    std::size_t failed = 0;
    std::size_t skipped = 0;
    std::size_t refreshed = 0;
    std::size_t unmetRequirements = 0;
    std::size_t checksOk = 0;
    std::size_t checksWarning = 0;
    std::size_t checksCritical = 0;
    std::size_t checksUnknown = 0;
    std::size_t errors = 0;
    std::chrono::nanoseconds runTime{0};

    /// Counts one event: it lands in exactly one of failed, skipped, changed, stable (first
    /// match); refreshed, unmet requirements, checks and errors are counted besides.
    void add(const TransactionEvent &event);

    friend bool operator==(const RunSummary &, const RunSummary &) = default;
};

Json summaryToJson(const RunSummary &summary);

/// What made a resource refresh, for people: "subscribed to file#/etc/a, which changed",
/// "subscribed to file#/etc/a and exec#b, which would change". `changed` names the subscriptions
/// whose resource changed, `wouldChange` those whose change only would have happened (noop).
std::string subscriptionText(const std::vector<std::string> &changed, const std::vector<std::string> &wouldChange);

/// A refresh with its cause: "would refresh: subscribed to ..." when `noop`, else
/// "refreshed: subscribed to ...".
std::string refreshText(
    bool noop, const std::vector<std::string> &changed, const std::vector<std::string> &wouldChange = {});

/// How a report line is logged.
enum class ReportLevel { Info, Warning, Error };

/// The human report line of one event (ENGINE-SPEC §6), first match wins: failed, unmet
/// requirements, skipped, refreshed, changed, stable; with `ensure=`, `runtime=`, `provider=`, in
/// noop mode `noop=<message>`, and for a real refresh `message=` naming its cause (refreshText()).
struct ReportLine {
    ReportLevel level = ReportLevel::Info;
    std::string text;
};
ReportLine reportLine(const TransactionEvent &event);

/// The summary block printed after the lines.
std::string summaryText(const RunSummary &summary);

/// A duration for people: "1.2ms", "3.5s", "2m3s".
std::string formatDuration(std::chrono::nanoseconds duration);

} // namespace ccm
