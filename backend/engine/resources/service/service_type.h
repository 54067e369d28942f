// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/json.h"
#include "engine/resource.h"

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace ccm::engine {

/// A service resource's properties, resolved and checked.
struct ServiceProperties {
    /// The unit name as written ("nginx" or "nginx.service").
    std::string name;
    /// true for ensure: running (the default), false for stopped.
    bool running = true;
    /// Whether the service starts at boot; nullopt leaves the boot configuration alone.
    std::optional<bool> enable;

    /// Reads the resolved properties of resource `name`. The name may hold only letters, digits
    /// and . _ + : ~ - (validation's message when it does not) and must not start with '-', which
    /// the service manager would read as an option. ensure is running or stopped (missing or empty
    /// is running); enable is true, false or unset; templates leave "true"/"false" as text.
    static Result<ServiceProperties> fromJson(const std::string &name, const Json &properties);
};

/// What a service provider found out about a service.
struct ServiceState {
    bool running = false;
    bool enabled = false;
    /// The service manager's own words for both, for messages ("failed", "masked"); empty when
    /// the provider has none.
    std::string activeState;
    std::string enabledState;

    /// "running" or "stopped".
    [[nodiscard]] std::string ensure() const { return ensureText(running ? Ensure::Running : Ensure::Stopped); }
};

/// The status as it goes into the event: {"ensure": "running"|"stopped", "metadata": {"name",
/// "provider", "enabled", "running"}}.
Json serviceStateToJson(const std::string &name, const ServiceState &state, std::string_view provider);

/// Held by a service provider while it runs the service manager, so that resources managed from
/// several threads of one process never drive it concurrently.
std::mutex &serviceGlobalLock();

/// The part of the service type that talks to the init system. Every call names one service;
/// an Error names the command that failed and what it said.
class ServiceProvider : public Provider {
public:
    /// Whether the service runs now and whether it starts at boot; changes nothing.
    [[nodiscard]] virtual Result<ServiceState> status(const std::string &service) = 0;
    /// Starts the service; the type calls it only for a stopped service.
    [[nodiscard]] virtual Result<void> start(const std::string &service) = 0;
    /// Stops the service; the type calls it only for a running service.
    [[nodiscard]] virtual Result<void> stop(const std::string &service) = 0;
    /// Stops and starts the service (a subscribed resource changed).
    [[nodiscard]] virtual Result<void> restart(const std::string &service) = 0;
    /// Makes the service start at boot.
    [[nodiscard]] virtual Result<void> enable(const std::string &service) = 0;
    /// Makes the service not start at boot.
    [[nodiscard]] virtual Result<void> disable(const std::string &service) = 0;
};

/// Keeps a service running or stopped and, independently, enabled or disabled at boot.
///
/// Phase one, the running state: a refresh (a subscribed resource changed) restarts the service
/// when ensure is running and it runs already; otherwise a running service that should be stopped
/// is stopped and a stopped one that should run is started (a refresh of a stopped service starts
/// it, a refresh with ensure: stopped is ignored). Phase two, when enable is set and differs from
/// the boot configuration: enable or disable. In noop nothing is called and the noop message says
/// what would have been done ("Would have started, would have enabled"). After changes the state
/// is read again and must match ensure and enable (when set).
class ServiceType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "service"; }
    [[nodiscard]] std::string defaultEnsure() const override { return ensureText(Ensure::Running); }

    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// Running or stopped, enabled or not, and whether ensure and enable (when set) are met.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
