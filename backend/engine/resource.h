// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/lazy_facts.h"
#include "core/model/ensure.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "core/template/template_scope.h"
#include "engine/util/command_runner.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::engine {

class ChecksumReadAhead;

/// Severity of a run's log messages (command output, notes of a type or provider).
enum class LogLevel { Debug, Info, Warning, Error };

/// Where types and providers send log messages about the resource they work on.
class Logger {
public:
    virtual ~Logger();
    virtual void log(LogLevel level, std::string_view message) = 0;

    void info(std::string_view message) { log(LogLevel::Info, message); }
    void warning(std::string_view message) { log(LogLevel::Warning, message); }
};

/// The part of a type that touches the system. A type's own provider interface (FileProvider,
/// ExecProvider, ...) derives from this; the type casts to it. A run creates one provider of each
/// kind it needs and hands it every resource that selects it, so a provider keeps no state about
/// one resource but may remember, for the run, answers that do not change within it (user names).
class Provider {
public:
    virtual ~Provider();
    [[nodiscard]] virtual std::string_view name() const = 0;
};

/// Creates one provider of one type and says when it can manage a resource.
class ProviderFactory {
public:
    virtual ~ProviderFactory();
    [[nodiscard]] virtual std::string_view typeName() const = 0;
    [[nodiscard]] virtual std::string_view name() const = 0;

    /// The priority this provider has for the resource (higher wins), or nullopt when it cannot
    /// manage it on this host. `properties` are the resource's resolved properties; `facts` the
    /// run's facts, gathered only if the provider reads them. An Error means the question itself
    /// failed and the resource fails with it.
    [[nodiscard]] virtual Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const = 0;

    /// Why the provider cannot manage resources here, for the message when `provider:` forces it
    /// ("/bin/sh does not exist"). Empty when there is nothing more to say than "not manageable".
    [[nodiscard]] virtual std::string unavailableReason() const { return {}; }

    [[nodiscard]] virtual std::unique_ptr<Provider> create(CommandRunner &runner) const = 0;
};

/// The providers of every type, chosen by priority.
class ProviderRegistry {
public:
    void add(std::unique_ptr<ProviderFactory> factory);

    /// The provider for a resource: the one `provider:` names when set (an error when it is
    /// unknown for the type or cannot manage the resource), otherwise the manageable one with the
    /// highest priority (an error "no suitable provider" when there is none).
    [[nodiscard]] Result<const ProviderFactory *> select(
        std::string_view type, const Json &properties, const LazyFacts &facts) const;

    /// The names of the providers of a type, in the order they were added.
    [[nodiscard]] std::vector<std::string> providerNames(std::string_view type) const;

private:
    std::vector<std::unique_ptr<ProviderFactory>> m_factories;
};

/// A child manifest to run inside the current run (the apply type): its path, the data merged
/// over its own, and the modes it may only strengthen.
struct ChildManifestRequest {
    std::filesystem::path path; ///< absolute, or relative to the current manifest's directory
    Json data = Json::object();
    bool noop = false;
    bool healthCheckOnly = false;
    bool allowApply = true;
};

/// How the resources of a child manifest ended.
struct ChildManifestOutcome {
    std::size_t resources = 0;
    std::size_t changed = 0;
    std::size_t failed = 0;
    std::size_t skipped = 0;
    bool noop = false;
    bool healthCheckOnly = false;
};

/// A subscription that fired: the resource it names changed in this run.
struct RefreshCause {
    /// The reference as `subscribe` lists it, "type#name" or "type#alias".
    std::string reference;
    /// The change only would have happened (a noop run, or a child manifest applied with noop).
    bool noop = false;
};

/// What a type sees of the run while it applies one resource.
struct ApplyContext {
    /// Whether to change nothing and only say what would be done.
    bool noop = false;
    /// The subscriptions of this resource that fired (exec, service); it refreshes when any did.
    std::vector<RefreshCause> refreshCauses {};
    /// Every process the type starts goes through it; in a preview it runs them as the preview
    /// user (runner.identity()).
    CommandRunner &runner;
    Logger &log;
    /// The run's facts: reading them (get()) gathers them the first time.
    const LazyFacts &facts;
    /// The directory of the manifest the resource belongs to; relative paths resolve against it.
    std::filesystem::path workingDirectory;
    /// Whether a content diff may be put into the event (the caller may read the file).
    std::function<bool(const std::filesystem::path &)> mayShowDiff;
    /// Runs a child manifest in this run (set for the apply type).
    std::function<Result<ChildManifestOutcome>(const ChildManifestRequest &)> runChildManifest;
    /// The manifest's resolved data and the environment that manifest templates see, for types that
    /// render templates of their own (scaffold); null stands for an empty map.
    const Json *data = nullptr;
    const Json *environ = nullptr;
    /// kvGet() for those templates; empty when the run has no NATS access.
    KvGetFunction kvGet {};
    /// registrations() for those templates; empty: it finds nothing.
    RegistrationsFunction registrations {};
    /// Checksums of the run's files read ahead on another thread (file type); null when none are.
    ChecksumReadAhead *checksumReadAhead = nullptr;

    /// Whether a resource this one subscribes to changed in this run.
    [[nodiscard]] bool refresh() const { return !refreshCauses.empty(); }
    /// What made the resource refresh: "subscribed to file#/etc/a, which would change".
    [[nodiscard]] std::string refreshCause() const;
    /// The refresh with its cause, as a noop message or report: "would refresh: subscribed to ..."
    /// in a noop run, "refreshed: subscribed to ..." in a real one.
    [[nodiscard]] std::string refreshMessage() const;
};

/// One property in which a resource on this host differs from what its properties ask for.
struct StateDifference {
    std::string property;
    /// What the host has, and what the property asks for, in the property's own terms.
    Json current;
    Json wanted;
};

/// What a resource is on this host now, as ResourceType::currentState() tells it.
struct ResourceState {
    /// false when the state of such a resource cannot be told without changing something (an exec
    /// without creates): `reason` says why, the other fields are empty.
    bool supported = true;
    std::string reason;
    /// One line for people: "present, 0644 root:root, sha256 1f2e3d4c5b6a…", "installed 1.24.0-1".
    std::string summary;
    /// The state as the type's events carry it ({"ensure": ..., "metadata": {...}}).
    Json state = Json::object();
    /// The properties that differ, in the order apply checks them; empty without properties.
    std::vector<StateDifference> differences;
    /// What could not be told or compared, and why ("the content of /etc/shadow is not compared:
    /// uid 1000 may not read it").
    std::vector<std::string> notes;
};

/// What a type sees while it tells a resource's current state. Nothing is changed on the host.
struct StatusContext {
    /// Every process a provider starts to look (dpkg-query, systemctl) goes through it.
    CommandRunner &runner;
    const LazyFacts &facts;
    /// Relative paths in the properties (source, creates) resolve against it.
    std::filesystem::path workingDirectory;
    /// Whether the caller may read a file's content (for its checksum); unset allows every file.
    std::function<bool(const std::filesystem::path &)> mayRead;

    /// Whether the caller may read `path`.
    [[nodiscard]] bool readable(const std::filesystem::path &path) const { return !mayRead || mayRead(path); }
};

/// The text of the error a type gives when the provider acted but a second look at the system
/// shows the resource still differs from what was asked.
inline constexpr std::string_view kDesiredStateNotAchieved = "desired state not achieved";

/// The logic of one resource type: decides from the provider's status, calls the provider only when
/// not in noop, and verifies the result.
class ResourceType {
public:
    virtual ~ResourceType();
    [[nodiscard]] virtual std::string_view name() const = 0;

    /// The ensure value a resource of this type has when it sets none.
    [[nodiscard]] virtual std::string defaultEnsure() const { return {}; }

    /// Applies one resource. `properties` are resolved, deferred templates included, without the
    /// name. The type records what happened in `event`: changed, refreshed, noopMessage,
    /// finalEnsure, status and diff. An Error fails the resource with its message.
    [[nodiscard]] virtual Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const = 0;

    /// The file whose content applying the resource `name` with these resolved `properties` will
    /// read to compare with what it declares; nothing when it reads none (the default). The run
    /// asks every resource before it starts, and reads the files ahead on another thread when
    /// there are enough of them (engine/util/checksum_read_ahead.h), so that their checksums are
    /// ready when apply wants them.
    [[nodiscard]] virtual std::optional<std::filesystem::path> contentToCompare(
        [[maybe_unused]] const std::string &name, [[maybe_unused]] const Json &properties) const
    {
        return std::nullopt;
    }

    /// Whether apply still runs when a run only checks health. Only for a type whose apply changes
    /// nothing itself and leads to health checks (apply: its child manifest runs health-check-only
    /// too); every other type is skipped then and only the resource's own health checks run.
    [[nodiscard]] virtual bool appliesWhenCheckingHealthOnly() const { return false; }

    /// The state of resource `name` on this host as `provider` reports it, changing nothing.
    /// `properties` (resolved; an empty map when none are given) are compared with that state with
    /// the comparisons apply makes; only the properties set are compared. The default says the
    /// state of this type cannot be told.
    [[nodiscard]] virtual Result<ResourceState> currentState(
        const std::string &name, const Json &properties, Provider &provider, const StatusContext &context) const;

    /// Hides secrets in a resource's resolved properties before they are put into its event, which
    /// is logged, shown and published. Called after apply, on the properties the event carries;
    /// the default keeps them as they are.
    virtual void redact([[maybe_unused]] Json &properties) const {}
};

/// The resource types and providers a run can use.
class Catalog {
public:
    void addType(std::unique_ptr<ResourceType> type);
    void addProvider(std::unique_ptr<ProviderFactory> factory) { m_providers.add(std::move(factory)); }

    [[nodiscard]] const ResourceType *type(std::string_view name) const;
    [[nodiscard]] const ProviderRegistry &providers() const { return m_providers; }

private:
    std::vector<std::unique_ptr<ResourceType>> m_types;
    ProviderRegistry m_providers;
};

/// Every type and provider this build has (file, exec, apply and their providers).
const Catalog &standardCatalog();

} // namespace ccm::engine
