// SPDX-License-Identifier: Apache-2.0
// The scaffold type's answer to status: the target compared with what the templates render.
#include "engine/resource_status.h"
#include "engine/resources/resource_support.h"
#include "engine/resources/scaffold/scaffold_type.h"

namespace ccm::engine {

namespace {

std::string scaffoldSummary(const ScaffoldState &state)
{
    if (!state.targetExists)
        return "absent, " + std::to_string(state.changed.size()) + " files to render";
    return "present, " + std::to_string(state.stable.size()) + " files as rendered, "
        + std::to_string(state.changed.size()) + " to change, " + std::to_string(state.purged.size()) + " not rendered";
}

} // namespace

Result<ResourceState> ScaffoldType::currentState(
    const std::string &name, const Json &properties, Provider &provider, const StatusContext &context) const
{
    auto *scaffolds = dynamic_cast<ScaffoldProvider *>(&provider);
    if (!scaffolds)
        return wrongProvider(provider, "a scaffold provider");
    ResourceState result;
    if (!isSet(properties, "source")) {
        result.supported = false;
        result.reason = "the state of a scaffold resource is its target compared with what its templates render;"
                        " give source (and the data the templates use) to tell it";
        return result;
    }
    Json read = properties;
    if (!isSet(read, "ensure"))
        read["ensure"] = ensureText(Ensure::Present);
    auto wanted = ScaffoldProperties::fromJson(name, read, context.workingDirectory);
    if (!wanted)
        return wanted.error();
    static const Json empty = Json::object();
    // Rendered into a staging directory, post commands included, as a preview does; the target is
    // only read.
    const TemplateEnvironment environment {.facts = context.facts.get(),
        .data = wanted->data ? *wanted->data : empty,
        .environ = empty,
        .baseDirectory = context.workingDirectory,
        .kvGet = {},
        .registrations = {}};
    auto state = scaffolds->status(environment, wanted.value());
    if (!state)
        return state.error();
    result.state = scaffoldStateToJson(wanted.value(), state.value(), scaffolds->name());
    result.summary = scaffoldSummary(state.value());
    if (isSet(properties, "ensure") && wanted->ensure != state->ensure)
        addDifference(result, "ensure", ensureText(state->ensure), ensureText(wanted->ensure));
    if (wanted->ensure == Ensure::Present) {
        if (!state->changed.empty())
            addDifference(result, "source", state->changed, "as rendered");
        if (wanted->purge && !state->purged.empty())
            addDifference(result, "purge", state->purged, Json::array());
    }
    return result;
}

} // namespace ccm::engine
