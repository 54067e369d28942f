// SPDX-License-Identifier: Apache-2.0
// The registration stream of upstream CCM: service entries under
// choria.ccm.registration.v1.CLUSTER.PROTOCOL.SERVICE.ADDRESS.INSTANCE, the latest one per subject,
// as the agent's register_when_stable and `ccm-backend registration` write them.
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "fleet/nats/nats_context.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct __natsSubscription;

namespace ccm::fleet {

class NatsConnection;

inline constexpr const char *kRegistrationSubjectPrefix = "choria.ccm.registration.v1";
inline constexpr const char *kDefaultRegistrationStream = "REGISTRATION";

/// One registered service instance, with upstream's fields.
struct RegistrationEntry {
    std::string cluster;
    std::string service;
    std::string protocol;
    std::string address; ///< an IPv4 or IPv6 address
    Json port; ///< an integer; null when the entry has none
    std::int64_t priority = 100;
    std::map<std::string, std::string> annotations;
    std::string ttl; ///< "never", a duration as Go prints it ("30s", "1m0s"), or empty for none
};

/// Checks an entry as upstream's RegistrationEntry.Validate does: cluster, protocol and service
/// are names ([a-zA-Z][a-zA-Z0-9_-]*), the address an IP address, the port 1-65535 when set, the
/// priority 1-255. Error code "invalid_registration", the message naming the field.
Result<void> validateRegistration(const RegistrationEntry &entry);

/// Reads a TTL as upstream's ParseRegistrationTTL does ("never", or a duration such as "30s",
/// "1h30m", "2d") and gives it as upstream writes it: "never", or Go's form of the duration
/// ("1m0s"). Error code "invalid_registration".
Result<std::string> normalizeRegistrationTtl(const std::string &text);

/// Upstream's instance id: FNV-1a 64 over cluster, service, protocol, address and port, in hex.
std::string registrationInstanceId(const RegistrationEntry &entry);
/// The subject the entry is published on.
std::string registrationSubject(const RegistrationEntry &entry);
/// The subject matching the entries of cluster, protocol, service and address, where "" or "*" is
/// any; the instance is always any.
std::string registrationFilter(
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address);

/// The entry as upstream writes it: cluster, service, protocol, address, port, priority, then
/// annotations and ttl when set.
Json registrationJson(const RegistrationEntry &entry);
/// The entry with upstream's Go field names (Cluster, Service, Protocol, Address, Port, Priority,
/// Annotations, TTL), as upstream's templates see the results of registrations().
Json registrationTemplateJson(const RegistrationEntry &entry);
/// Reads an entry from its JSON text. Error code "bad_registration" when the text is not a JSON
/// object or a field has the wrong type.
Result<RegistrationEntry> parseRegistration(std::string_view text);

/// How `registration init` sets up the stream.
struct RegistrationStreamSettings {
    std::string name = kDefaultRegistrationStream;
    int replicas = 1; ///< 1-5
    std::chrono::nanoseconds maxAge = std::chrono::minutes(1);
};

/// Creates the registration stream as upstream does, or updates its configuration when it exists:
/// subjects choria.ccm.registration.v1.>, one message per subject, rollups and per-message TTLs
/// allowed, the max age also as the TTL of the markers the server leaves when entries expire,
/// deletes denied, purges allowed. Returns the configuration the server answered with.
Result<Json> createOrUpdateRegistrationStream(NatsConnection &connection, const RegistrationStreamSettings &settings);

/// Publishes the entry to the stream as the agent does: a JetStream publish with Nats-Rollup: sub,
/// Nats-TTL when the entry has a ttl, and Nats-Expected-Stream naming `stream`.
Result<void> publishRegistrationEntry(
    NatsConnection &connection, const std::string &stream, const RegistrationEntry &entry);

/// Removes the entry's messages from the stream (a purge of its subject), as upstream's rm does.
Result<void> removeRegistrationEntry(
    NatsConnection &connection, const std::string &stream, const RegistrationEntry &entry);

/// What a lookup found: the entries sorted by address then port, and what was left out because it
/// could not be read (one line each, naming the subject).
struct RegistrationLookup {
    std::vector<RegistrationEntry> entries;
    std::vector<std::string> skipped;
};

/// The current entries matching the filter (see registrationFilter()): the latest message of each
/// subject, leaving out the markers the server writes for expired, deleted or purged entries.
/// Error code "stream_not_found" when the stream does not exist.
Result<RegistrationLookup> lookupRegistrations(NatsConnection &connection, const std::string &stream,
    const std::string &cluster, const std::string &protocol, const std::string &service, const std::string &address);

/// A change seen by a RegistrationWatch.
struct RegistrationEvent {
    enum class Action { Register, Remove };
    Action action = Action::Register;
    /// The entry; for a removal only cluster, protocol, service and address, read from the subject.
    RegistrationEntry entry;
    /// For a removal: the server's marker reason (MaxAge, Remove, Purge), or for an entry gone
    /// without a marker "MaxAge" when it was older than the stream's max age, else "Purge".
    std::string reason;
};

/// Follows the entries matching a filter: first the current ones, then every new or updated entry
/// and every removal, through an ordered consumer. Removals that leave no marker in the stream (a
/// purge, or an expiry on a server without subject delete markers) are found by comparing the
/// stream's subjects with the entries seen, at most every `checkInterval`.
class RegistrationWatch {
public:
    static Result<std::unique_ptr<RegistrationWatch>> start(NatsConnection &connection, const std::string &stream,
        const std::string &filter, std::chrono::milliseconds checkInterval = std::chrono::seconds(1));
    ~RegistrationWatch();
    RegistrationWatch(const RegistrationWatch &) = delete;
    RegistrationWatch &operator=(const RegistrationWatch &) = delete;

    /// The events that arrived within `timeout` (none when nothing did). An error when the stream
    /// went away or the connection failed.
    Result<std::vector<RegistrationEvent>> next(std::chrono::milliseconds timeout);

private:
    struct Seen {
        std::int64_t timestampNs = 0;
        RegistrationEntry entry;
    };

    RegistrationWatch(NatsConnection &connection, std::string stream, std::string filter,
        __natsSubscription *subscription, std::chrono::milliseconds checkInterval);
    Result<void> findVanished(std::vector<RegistrationEvent> &events);

    NatsConnection &m_connection;
    std::string m_stream;
    std::string m_filter;
    __natsSubscription *m_subscription;
    std::chrono::milliseconds m_checkInterval;
    std::chrono::steady_clock::time_point m_lastCheck;
    std::map<std::string, Seen> m_seen; ///< by subject: the entries present as far as the watch knows
};

/// registrations() for templates: looks entries up in one stream through a NATS connection made
/// on the first lookup, and keeps each answer (and a failed connection), so a manifest calling it
/// many times sees one list and fails once. Thread-safe.
class RegistrationReader {
public:
    RegistrationReader(NatsSelection selection, ContextEnvironment environment, std::string stream);
    ~RegistrationReader();
    RegistrationReader(const RegistrationReader &) = delete;
    RegistrationReader &operator=(const RegistrationReader &) = delete;

    /// The matching entries as registrationTemplateJson() gives them, sorted by address then port.
    Result<Json> lookup(const std::string &cluster, const std::string &protocol, const std::string &service,
        const std::string &address);

private:
    std::mutex m_mutex;
    NatsSelection m_selection;
    ContextEnvironment m_environment;
    std::string m_stream;
    std::unique_ptr<NatsConnection> m_connection;
    std::optional<Error> m_connectError;
    std::map<std::array<std::string, 4>, Result<Json>> m_answers;
};

} // namespace ccm::fleet
