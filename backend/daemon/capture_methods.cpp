// SPDX-License-Identifier: Apache-2.0
#include "daemon/capture_methods.h"

#include "core/capture/captured_manifest.h"
#include "daemon/params.h"
#include "engine/capture/host_inventory.h"
#include "engine/util/command_runner.h"
#include "engine/util/user_identity.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::RpcError;
using protocol::RpcResult;

namespace {

/// The first member of `params` not in `allowed`, as the invalid_params error of it.
RpcResult<void> hostOnlyMembers(const Json &params, std::string_view method, std::span<const std::string_view> allowed)
{
    for (const auto &[key, value] : params.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
            continue;
        std::string known;
        for (std::string_view name : allowed)
            known += (known.empty() ? "" : ", ") + std::string(name);
        return Params::invalid(key, "is not a param of " + std::string(method) + "; it takes " + known);
    }
    return {};
}

/// How an engine error of the inventory or the capture reaches the client: its message, and its
/// code in data.cause. The codes are taken one by one; one the engine adds later is a failure to
/// read the host (transfer_failed) until it is placed here.
RpcError hostEngineError(const Error &error, Role role)
{
    if (error.code == "not_found" || error.code == "no_package_manager" || error.code == "no_service_manager")
        return RpcError {ErrorCode::NotFound, error.message, Json {{"cause", error.code}}};
    if (error.code == "permission")
        return RpcError {ErrorCode::Unauthorized, error.message,
            Json {{"role", std::string(roleName(role))}, {"cause", error.code}}};
    if (error.code == "not_directory") {
        RpcError invalid = Params::invalid("path", "is not a directory: " + error.message);
        invalid.data["cause"] = error.code;
        return invalid;
    }
    if (error.code == "bad_request" || error.code == "limit") {
        // A capture of more than the limits allow asks for too much under its paths: narrowing
        // them (excludes) is the way out, so the error names the files.
        RpcError invalid = Params::invalid("files", error.message);
        invalid.data["cause"] = error.code;
        return invalid;
    }
    return RpcError {ErrorCode::TransferFailed, error.message, Json {{"cause", error.code}}};
}

/// The runner the queries of a request go through: the peer's credentials for somebody else.
struct HostQueryRunner {
    ProcessRunner processes;
    std::optional<IdentityRunner> asPeer;

    HostQueryRunner(const Peer &peer, bool someoneElse)
    {
        if (someoneElse)
            asPeer.emplace(processes, engine::userCredentials(peer));
    }
    CommandRunner &runner() { return asPeer ? static_cast<CommandRunner &>(*asPeer) : processes; }
};

std::string hostModeText(std::uint32_t mode)
{
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

Json hostPackagesJson(const std::vector<engine::InstalledPackage> &packages)
{
    Json list = Json::array();
    for (const engine::InstalledPackage &package : packages)
        list.push_back(Json {{"name", package.name}, {"version", package.version}, {"arch", package.arch},
            {"summary", package.summary}});
    return Json {{"packages", std::move(list)}};
}

Json hostServicesJson(const std::vector<engine::ServiceUnit> &services)
{
    Json list = Json::array();
    for (const engine::ServiceUnit &unit : services)
        list.push_back(Json {{"name", unit.name}, {"running", unit.running}, {"enabled", unit.enabled},
            {"active_state", unit.activeState}, {"enabled_state", unit.enabledState}, {"description", unit.description},
            {"capturable", unit.capturable}, {"reason", unit.reason}});
    return Json {{"services", std::move(list)}};
}

Json hostListingJson(const engine::DirectoryListing &listing)
{
    Json entries = Json::array();
    for (const engine::DirectoryEntry &entry : listing.entries) {
        Json item = {{"name", entry.name}, {"kind", std::string(engine::entryKindName(entry.kind))},
            {"owner", entry.owner}, {"group", entry.group}, {"mode", hostModeText(entry.mode)}, {"size", entry.size},
            {"readable", entry.readable}, {"private", entry.privateToOwner}};
        if (entry.kind == engine::EntryKind::Symlink)
            item["link_target"] = entry.linkTarget;
        entries.push_back(std::move(item));
    }
    return Json {{"path", listing.path.string()}, {"truncated", listing.truncated}, {"entries", std::move(entries)}};
}

/// A list member of the selection: nullopt when absent, else its strings, each checked.
RpcResult<std::vector<std::string>> hostSelectionList(const Params &params, std::string_view name, bool paths)
{
    auto list = params.optionalList(name, paths ? "a list of absolute paths" : "a list of glob patterns");
    if (!list)
        return list.error();
    std::vector<std::string> items;
    if (*list == nullptr)
        return items;
    const Json &values = **list;
    if (values.size() > kMaxCaptureSelection)
        return Params::invalid(name,
            "has " + std::to_string(values.size()) + " items, more than the " + std::to_string(kMaxCaptureSelection)
                + " one capture takes; capture in parts or use glob patterns");
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string pointer = std::string(name) + "/" + std::to_string(i);
        const std::string shown = std::string(name) + "[" + std::to_string(i) + "]";
        if (!values[i].is_string())
            return Params::invalidAt(pointer, shown, "must be a string, not " + describeJsonType(values[i]));
        const std::string &item = values[i].get_ref<const std::string &>();
        if (item.empty() || item.find('\0') != std::string::npos)
            return Params::invalidAt(pointer, shown, "must be a non-empty string without NUL characters");
        if (paths && !std::filesystem::path(item).is_absolute())
            return Params::invalidAt(pointer, shown, "must be an absolute path, not '" + item + "'");
        items.push_back(item);
    }
    return items;
}

/// The selection as `ccm-backend capture` options.
std::vector<std::string> hostSelectionCommand(const engine::CaptureRequest &request)
{
    std::vector<std::string> command {"ccm-backend", "capture"};
    const auto add = [&command](const char *option, const auto &values) {
        for (const auto &value : values) {
            command.emplace_back(option);
            command.emplace_back(std::filesystem::path(value).string());
        }
    };
    add("--package", request.packages);
    add("--service", request.services);
    add("--file", request.files);
    add("--exclude", request.excludes);
    if (request.data)
        command.emplace_back("--data");
    if (request.pin)
        command.emplace_back("--pin");
    if (request.includePrivate)
        command.emplace_back("--include-private");
    return command;
}

} // namespace

RpcResult<void> checkInventoryParams(const Json &params)
{
    static constexpr std::string_view kMembers[] = {"kind", "path", "max"};
    if (auto only = hostOnlyMembers(params, "host.inventory", kMembers); !only)
        return only;
    const Params read(params);
    auto kind = read.string("kind");
    if (!kind)
        return kind.error();
    const bool files = *kind == "files";
    if (!files && *kind != "packages" && *kind != "services")
        return Params::invalid("kind", "must be packages, services or files, not '" + std::string(*kind) + "'");
    if (!files) {
        for (const char *name : {"path", "max"})
            if (read.has(name))
                return Params::invalid(name, "goes with kind files only");
        return {};
    }
    if (auto path = read.path("path"); !path)
        return path.error();
    auto most = read.optionalInteger("max");
    if (!most)
        return most.error();
    if (*most && (**most < 1 || static_cast<std::uint64_t>(**most) > kMaxInventoryEntries))
        return Params::invalid("max", "must be from 1 to " + std::to_string(kMaxInventoryEntries));
    return {};
}

RpcResult<Json> hostInventoryResult(const Peer &peer, Role role, bool someoneElse, const Json &params)
{
    const std::string &kind = params.at("kind").get_ref<const std::string &>();
    if (kind == "files") {
        const auto most = params.find("max");
        const std::size_t limit = most != params.end() ? most->get<std::size_t>() : kMaxInventoryEntries;
        auto listing = engine::listDirectory(
            params.at("path").get<std::string>(), someoneElse ? std::optional<Peer>(peer) : std::nullopt, limit);
        if (!listing)
            return hostEngineError(listing.error(), role);
        return hostListingJson(*listing);
    }
    HostQueryRunner runner(peer, someoneElse);
    if (kind == "packages") {
        auto packages = engine::listInstalledPackages(runner.runner());
        if (!packages)
            return hostEngineError(packages.error(), role);
        return hostPackagesJson(*packages);
    }
    auto services = engine::listServices(runner.runner());
    if (!services)
        return hostEngineError(services.error(), role);
    return hostServicesJson(*services);
}

RpcResult<engine::CaptureRequest> captureSelection(const Json &params)
{
    const Params read(params);
    engine::CaptureRequest request;
    auto packages = hostSelectionList(read, "packages", false);
    if (!packages)
        return packages.error();
    request.packages = std::move(packages).value();
    auto services = hostSelectionList(read, "services", false);
    if (!services)
        return services.error();
    request.services = std::move(services).value();
    auto files = hostSelectionList(read, "files", true);
    if (!files)
        return files.error();
    request.files.assign(files->begin(), files->end());
    auto excludes = hostSelectionList(read, "excludes", false);
    if (!excludes)
        return excludes.error();
    request.excludes = std::move(excludes).value();
    for (auto [name, flag] : {std::pair {"data", &request.data}, std::pair {"pin", &request.pin},
             std::pair {"include_private", &request.includePrivate}}) {
        auto value = read.flag(name);
        if (!value)
            return value.error();
        *flag = *value;
    }
    if (request.packages.empty() && request.services.empty() && request.files.empty())
        return Params::invalid("files", "is required when packages and services are not given: nothing to capture");
    request.command = hostSelectionCommand(request);
    return request;
}

RpcResult<void> checkCaptureParams(const Json &params)
{
    if (auto only = hostOnlyMembers(params, "host.capture", kCaptureSelectionMembers); !only)
        return only;
    if (auto selection = captureSelection(params); !selection)
        return selection.error();
    return {};
}

RpcResult<Json> hostCaptureResult(const Peer &peer, Role role, bool someoneElse, const Json &params)
{
    auto selection = captureSelection(params);
    if (!selection)
        return selection.error();
    engine::CaptureRequest request = std::move(selection).value();
    request.limits.maxFileBytes = std::min(request.limits.maxFileBytes, kMaxCaptureFileBytes);
    request.limits.maxTotalBytes = std::min(request.limits.maxTotalBytes, kMaxCaptureTotalBytes);
    if (someoneElse)
        request.reader = peer;
    HostQueryRunner runner(peer, someoneElse);
    auto capture = engine::captureHost(request, runner.runner());
    if (!capture)
        return hostEngineError(capture.error(), role);
    Json result = captureToJson(*capture);
    result["yaml"] = captureToYaml(*capture);
    return result;
}

} // namespace ccm::daemon
