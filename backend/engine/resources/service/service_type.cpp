// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/service/service_type.h"

#include "base/text.h"
#include "base/utf8.h"
#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

#include <utility>
#include <vector>

namespace ccm::engine {

namespace {

Result<void> checkName(const std::string &name)
{
    if (name.empty())
        return invalidProperty("service name must not be empty");
    if (auto problem = nameCharacterProblem(name))
        return invalidProperty("service name '" + toValidUtf8(name) + "' " + *problem);
    if (name.front() == '-')
        return invalidProperty("service name '" + name + "' must not start with -");
    return {};
}

Result<bool> ensureProperty(const Json &properties)
{
    const auto found = properties.find("ensure");
    if (found == properties.end() || found->is_null())
        return true;
    if (found->is_string()) {
        const std::string &text = found->get_ref<const std::string &>();
        const std::optional<Ensure> state = text.empty() ? Ensure::Running : parseEnsure(text);
        if (state == Ensure::Running || state == Ensure::Stopped)
            return state == Ensure::Running;
        return invalidProperty("ensure must be running or stopped, not '" + toValidUtf8(text) + "'");
    }
    return invalidProperty("ensure must be running or stopped, not " + found->dump());
}

/// enable is a tri-state: missing or null leaves the boot configuration alone.
Result<std::optional<bool>> enableProperty(const Json &properties)
{
    const auto found = properties.find("enable");
    if (found == properties.end() || found->is_null())
        return std::optional<bool>();
    if (found->is_boolean())
        return std::optional<bool>(found->get<bool>());
    if (found->is_string()) {
        const std::string_view text = trimAsciiSpace(found->get_ref<const std::string &>());
        if (text == "true")
            return std::optional<bool>(true);
        if (text == "false")
            return std::optional<bool>(false);
        return invalidProperty(
            "enable must be true or false, not '" + toValidUtf8(found->get_ref<const std::string &>()) + "'");
    }
    return invalidProperty("enable must be true or false, not " + found->dump());
}

/// How the running state is changed in phase one.
enum class RunAction { None, Start, Stop, Restart };

/// How the boot configuration is changed in phase two.
enum class BootAction { None, Enable, Disable };

RunAction runAction(const ServiceProperties &wanted, const ServiceState &state, bool refresh)
{
    if (wanted.running)
        return state.running ? (refresh ? RunAction::Restart : RunAction::None) : RunAction::Start;
    return state.running ? RunAction::Stop : RunAction::None;
}

BootAction bootAction(const ServiceProperties &wanted, const ServiceState &state)
{
    if (!wanted.enable || *wanted.enable == state.enabled)
        return BootAction::None;
    return *wanted.enable ? BootAction::Enable : BootAction::Disable;
}

/// What the service would have done: "Would have started, would have enabled"; a restart says what
/// made it ("would refresh: subscribed to file#/etc/app.conf, which would change; would have enabled").
std::string noopMessage(RunAction run, BootAction boot, const ApplyContext &context)
{
    std::string message;
    switch (run) {
    case RunAction::Start:
        message = "Would have started";
        break;
    case RunAction::Stop:
        message = "Would have stopped";
        break;
    case RunAction::Restart:
        message = context.refreshMessage();
        break;
    case RunAction::None:
        break;
    }
    if (boot != BootAction::None) {
        const char *separator = message.empty() ? "Would have "
            : run == RunAction::Restart         ? "; would have "
                                                : ", would have ";
        message += separator + std::string(boot == BootAction::Enable ? "enabled" : "disabled");
    }
    return message;
}

/// The state word with the service manager's own word when that says more ("stopped (failed)").
std::string described(const std::string &word, const std::string &managerWord)
{
    return managerWord.empty() || managerWord == word ? word : word + " (" + managerWord + ")";
}

/// What still differs after the changes, or empty when the state is the desired one.
std::string difference(const ServiceProperties &wanted, const ServiceState &state)
{
    std::string text;
    if (wanted.running != state.running) {
        text = "service is " + described(state.ensure(), state.activeState) + ", wanted "
            + ensureText(wanted.running ? Ensure::Running : Ensure::Stopped);
    }
    if (wanted.enable && *wanted.enable != state.enabled) {
        const std::string is = state.enabled ? "enabled" : "disabled";
        text += (text.empty() ? "" : "; ") + std::string("service is ") + described(is, state.enabledState)
            + " at boot, wanted " + (*wanted.enable ? "enabled" : "disabled");
    }
    return text;
}

Result<void> changeRunning(ServiceProvider &services, RunAction run, const std::string &name, ApplyContext &context)
{
    switch (run) {
    case RunAction::Start:
        context.log.info("starting service");
        return services.start(name);
    case RunAction::Stop:
        context.log.info("stopping service");
        return services.stop(name);
    case RunAction::Restart:
        context.log.info("restarting service: " + context.refreshCause());
        return services.restart(name);
    case RunAction::None:
        break;
    }
    return {};
}

Result<void> changeBoot(ServiceProvider &services, BootAction boot, const std::string &name, ApplyContext &context)
{
    if (boot == BootAction::Enable) {
        context.log.info("enabling service at boot");
        return services.enable(name);
    }
    if (boot == BootAction::Disable) {
        context.log.info("disabling service at boot");
        return services.disable(name);
    }
    return {};
}

} // namespace

std::mutex &serviceGlobalLock()
{
    static std::mutex lock;
    return lock;
}

Result<ServiceProperties> ServiceProperties::fromJson(const std::string &name, const Json &properties)
{
    if (!properties.is_object())
        return invalidProperty(std::string("service properties must be a map, not ") + properties.type_name());
    if (auto checked = checkName(name); !checked)
        return checked.error();
    ServiceProperties parsed;
    parsed.name = name;
    auto running = ensureProperty(properties);
    if (!running)
        return running.error();
    parsed.running = *running;
    auto enable = enableProperty(properties);
    if (!enable)
        return enable.error();
    parsed.enable = *enable;
    return parsed;
}

Json serviceStateToJson(const std::string &name, const ServiceState &state, std::string_view provider)
{
    return Json {{"ensure", state.ensure()},
        {"metadata",
            {{"name", name}, {"provider", std::string(provider)}, {"enabled", state.enabled},
                {"running", state.running}}}};
}

Result<void> ServiceType::apply(const std::string &name, const Json &properties, Provider &provider,
    ApplyContext &context, TransactionEvent &event) const
{
    auto *services = dynamic_cast<ServiceProvider *>(&provider);
    if (!services)
        return wrongProvider(provider, "a service provider");
    auto parsed = ServiceProperties::fromJson(name, properties);
    if (!parsed)
        return parsed.error();
    const ServiceProperties &wanted = *parsed;

    auto initial = services->status(wanted.name);
    if (!initial)
        return initial.error();
    event.status = serviceStateToJson(wanted.name, *initial, provider.name());
    event.finalEnsure = initial->ensure();

    const RunAction run = runAction(wanted, *initial, context.refresh());
    const BootAction boot = bootAction(wanted, *initial);
    if (run == RunAction::None && boot == BootAction::None)
        return {};

    event.changed = true;
    event.refreshed = run == RunAction::Restart;
    if (context.noop) {
        event.noopMessage = noopMessage(run, boot, context);
        context.log.log(LogLevel::Debug, event.noopMessage);
        return {};
    }

    if (auto done = changeRunning(*services, run, wanted.name, context); !done)
        return done.error();
    if (auto done = changeBoot(*services, boot, wanted.name, context); !done)
        return done.error();

    auto after = services->status(wanted.name);
    if (!after)
        return after.error();
    event.status = serviceStateToJson(wanted.name, *after, provider.name());
    event.finalEnsure = after->ensure();
    if (const std::string differs = difference(wanted, *after); !differs.empty())
        return desiredStateNotAchieved(differs);
    return {};
}

void registerServiceResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<ServiceType>());
    registerSystemdServiceProvider(catalog);
}

} // namespace ccm::engine
