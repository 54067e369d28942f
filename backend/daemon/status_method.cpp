// SPDX-License-Identifier: Apache-2.0
#include "daemon/status_method.h"

#include "core/facts/lazy_facts.h"
#include "daemon/params.h"
#include "engine/resource_status.h"
#include "engine/util/command_runner.h"
#include "engine/util/user_identity.h"

#include <unistd.h>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::RpcError;
using protocol::RpcResult;

namespace {

/// The properties without the strings that still hold templates, whose names go into `unresolved`.
Json resolvedOnly(const Json &properties, std::vector<std::string> &unresolved)
{
    Json kept = Json::object();
    for (const auto &[key, value] : properties.items()) {
        if (value.is_string() && value.get_ref<const std::string &>().find("{{") != std::string::npos)
            unresolved.push_back(key);
        else
            kept[key] = value;
    }
    return kept;
}

bool isParamsError(const Error &error)
{
    return error.code == "unknown_type" || error.code == "invalid_property";
}

} // namespace

RpcResult<void> checkStatusParams(const Json &params)
{
    const Params read(params);
    for (const char *name : {"type", "name"}) {
        auto value = read.string(name);
        if (!value)
            return value.error();
        if (value->empty())
            return Params::invalid(name, "must not be empty");
        if (value->find('\0') != std::string_view::npos)
            return Params::invalid(name, "must not contain a NUL character");
    }
    auto properties = read.optionalObject("properties");
    if (!properties)
        return properties.error();
    // Paths the providers look at: a NUL would end them early, so another path would be looked at.
    for (const char *key : {"source", "creates", "extract_parent"}) {
        if (!*properties)
            break;
        const auto found = (*properties)->find(key);
        if (found != (*properties)->end() && found->is_string()
            && found->get_ref<const std::string &>().find('\0') != std::string::npos)
            return Params::invalidAt(std::string("/properties/") + key, std::string("properties.") + key,
                "must not contain a NUL character");
    }
    if (auto base = read.optionalString("base_dir"); !base) {
        return base.error();
    } else if (*base && !std::filesystem::path(**base).is_absolute()) {
        return Params::invalid("base_dir", "must be an absolute path");
    }
    return {};
}

RpcResult<Json> resourceStatusResult(
    const Peer &peer, bool someoneElse, const Json &params, const std::function<Result<Json>()> &facts)
{
    const std::string type = params.at("type").get<std::string>();
    const std::string name = params.at("name").get<std::string>();
    std::vector<std::string> unresolved;
    const auto given = params.find("properties");
    const Json properties
        = given != params.end() && given->is_object() ? resolvedOnly(*given, unresolved) : Json::object();
    const auto base = params.find("base_dir");

    ProcessRunner processes;
    std::optional<IdentityRunner> asPeer;
    if (someoneElse)
        asPeer.emplace(processes, engine::userCredentials(peer));
    const LazyFacts lazyFacts = LazyFacts::deferred([facts] {
        auto gathered = facts();
        return gathered ? std::move(gathered).value() : Json::object();
    });
    engine::StatusContext context {.runner = asPeer ? static_cast<CommandRunner &>(*asPeer) : processes,
        .facts = lazyFacts,
        .workingDirectory = base != params.end() && base->is_string() ? base->get<std::string>() : std::string("/"),
        .mayRead = {}};
    std::optional<engine::ThreadFileIdentity> files;
    if (someoneElse) {
        context.mayRead = [peer](const std::filesystem::path &path) { return engine::userMayRead(peer, path); };
        if (::geteuid() == 0) {
            files.emplace(peer);
            if (!files->active())
                return RpcError {ErrorCode::InternalError,
                    "cannot take on the identity of uid " + std::to_string(peer.uid) + " to look at the resource"};
        }
    }
    Result<engine::ResourceState> state
        = engine::resourceStatus(engine::standardCatalog(), type, name, properties, context);
    files.reset();
    if (!state) {
        if (isParamsError(state.error()))
            return Params::invalid(state.error().code == "unknown_type" ? "type" : "properties", state.error().message);
        engine::ResourceState failed;
        failed.supported = false;
        failed.reason = state.error().message;
        return engine::resourceStateToJson(failed);
    }
    for (const std::string &key : unresolved)
        state.value().notes.push_back(key + " holds a template and is not compared; send its resolved value");
    return engine::resourceStateToJson(state.value());
}

} // namespace ccm::daemon
