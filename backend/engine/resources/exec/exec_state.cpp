// SPDX-License-Identifier: Apache-2.0
// The exec type's answer to status: what `creates` says, the one state a command leaves that can
// be looked at without running anything.
#include "engine/resource_status.h"
#include "engine/resources/exec/exec_type.h"
#include "engine/resources/resource_support.h"

namespace ccm::engine {

Result<ResourceState> ExecType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &context) const
{
    auto *execs = dynamic_cast<ExecProvider *>(&provider);
    if (!execs)
        return wrongProvider(provider, "an exec provider");
    auto parsed = ExecProperties::fromJson(name, properties, context.workingDirectory);
    if (!parsed)
        return parsed.error();
    ResourceState result;
    if (parsed->creates.empty()) {
        result.supported = false;
        result.reason = "the state of an exec resource cannot be told without running its command"
                        " (or its onlyif and unless guards); give creates to tell it from a file";
        return result;
    }
    auto state = execs->status(parsed.value());
    if (!state)
        return state.error();
    const bool exists = state->createsSatisfied;
    result.state = Json {{"ensure", exists ? "present" : "absent"},
        {"metadata",
            {{"name", name}, {"provider", std::string(execs->name())}, {"creates", parsed->creates},
                {"creates_exists", exists}}}};
    result.summary = exists ? "creates " + parsed->creates + " exists: the command would not run"
                            : "creates " + parsed->creates + " does not exist: the command would run";
    if (!exists && (!parsed->onlyIf.empty() || !parsed->unless.empty()))
        result.notes.emplace_back(
            "the onlyif and unless guards were not run; they may still keep the command from running");
    if (!exists && parsed->refreshOnly)
        result.notes.emplace_back("refreshonly: the command runs only when a subscribed resource changes");
    if (!exists)
        addDifference(result, "creates", false, true);
    return result;
}

} // namespace ccm::engine
