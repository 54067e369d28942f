// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/resources/service/service_type.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::engine {

/// Whether a word `systemctl is-active` prints means the service runs: "active" and "reloading"
/// do; "inactive", "failed", "activating" and "deactivating" do not (a start or stop job will
/// settle them); nullopt for any other word.
std::optional<bool> systemdActiveRunning(std::string_view word);

/// Whether a word `systemctl is-enabled` prints means the service starts at boot: "enabled",
/// "enabled-runtime", "alias", "static", "indirect", "generated" and "transient" do; "linked",
/// "linked-runtime", "masked", "masked-runtime" and "disabled" do not; nullopt for any other word
/// ("not-found", "bad" and whatever systemd may add).
std::optional<bool> systemdEnabledAtBoot(std::string_view word);

/// Manages system units with systemctl, always with --system. Status runs `systemctl is-active
/// --system NAME` and `systemctl is-enabled --system NAME`; the changes run `systemctl start|stop|
/// restart|enable|disable --system NAME`, the first of them in the provider's life preceded by one
/// `systemctl daemon-reload` so that unit files written earlier in the run are seen. Every
/// systemctl call holds serviceGlobalLock().
class SystemdServiceProvider : public ServiceProvider {
public:
    explicit SystemdServiceProvider(CommandRunner &runner);

    [[nodiscard]] std::string_view name() const override { return "systemd"; }

    /// Errors: "service NAME not found" (is-enabled says not-found), an invalid unit file (bad),
    /// "invalid systemctl is-active output" / "invalid systemctl is-enabled output" for words
    /// outside the tables, and systemctl that cannot run or is killed.
    [[nodiscard]] Result<ServiceState> status(const std::string &service) override;
    /// Errors name the command, its exit code and what it wrote to stderr.
    [[nodiscard]] Result<void> start(const std::string &service) override;
    [[nodiscard]] Result<void> stop(const std::string &service) override;
    [[nodiscard]] Result<void> restart(const std::string &service) override;
    [[nodiscard]] Result<void> enable(const std::string &service) override;
    [[nodiscard]] Result<void> disable(const std::string &service) override;

private:
    /// A status query's result, whatever its exit code; an Error when it could not run or did not
    /// end by itself.
    Result<CommandResult> query(const std::string &verb, const std::string &service);
    /// Runs a command that changes the system, reloading the daemon first when not done yet.
    Result<void> change(const std::string &verb, const std::string &service);
    /// Runs argv and fails unless it exits 0; the lock must be held.
    Result<void> runChecked(const std::vector<std::string> &argv);

    CommandRunner &m_runner;
    /// Set once daemon-reload succeeded; only touched with serviceGlobalLock() held.
    bool m_reloaded = false;
};

/// Chooses systemd (priority 1) when systemctl is in the runner's fixed PATH and systemd runs
/// as the init system, which it tells by /run/systemd/system being a directory.
class SystemdServiceProviderFactory : public ProviderFactory {
public:
    /// `root` is where the probes look for /run/systemd/system and the PATH directories; tests
    /// point it at a directory of their own.
    explicit SystemdServiceProviderFactory(std::filesystem::path root = "/");

    [[nodiscard]] std::string_view typeName() const override { return "service"; }
    [[nodiscard]] std::string_view name() const override { return "systemd"; }
    [[nodiscard]] Result<std::optional<int>> manageable(const Json &properties, const LazyFacts &facts) const override;
    /// What is missing: systemctl in PATH, a running systemd, or both; empty when neither.
    [[nodiscard]] std::string unavailableReason() const override;
    [[nodiscard]] std::unique_ptr<Provider> create(CommandRunner &runner) const override;

private:
    std::filesystem::path m_root;
};

} // namespace ccm::engine
