// SPDX-License-Identifier: Apache-2.0
#include "fleet_methods.h"

#include "bundle.h"
#include "bundle_source.h"
#include "diagnostic.h"
#include "nats_connection.h"
#include "nats_context.h"
#include "object_store.h"
#include "object_url.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::notificationLine;
using protocol::RpcError;
using protocol::RpcResult;
namespace fs = std::filesystem;

namespace {

RpcError invalidParam(std::string_view name, std::string_view problem)
{
    return RpcError {ErrorCode::InvalidParams, "params." + std::string(name) + " " + std::string(problem),
        Json {{"path", std::string(name)}}};
}

/// The string param `name`: nullopt when absent and not required; an error when it is required
/// and missing, not a string, empty or holds a NUL.
RpcResult<std::optional<std::string>> stringParam(const Json &params, std::string_view name, bool required)
{
    const auto found = params.find(name);
    if (found == params.end()) {
        if (required)
            return invalidParam(name, "is required: a string");
        return std::optional<std::string>();
    }
    if (!found->is_string())
        return invalidParam(name, "must be a string, not " + describeJsonType(*found));
    const std::string &text = found->get_ref<const std::string &>();
    if (text.empty() || text.find('\0') != std::string::npos)
        return invalidParam(name, "must be a non-empty string without NUL characters");
    return std::optional<std::string>(text);
}

/// An absolute path param.
RpcResult<std::optional<std::string>> pathParam(const Json &params, std::string_view name, bool required)
{
    auto value = stringParam(params, name, required);
    if (value && value.value() && !fs::path(*value.value()).is_absolute())
        return invalidParam(name, "must be an absolute path");
    return value;
}

/// The error code of a failed fleet operation, from the code of the Error it returned.
ErrorCode fleetErrorCode(const std::string &code)
{
    if (code == "unreachable")
        return ErrorCode::Unreachable;
    if (code == "auth_failed")
        return ErrorCode::AuthFailed;
    if (code == "no_jetstream")
        return ErrorCode::NoJetStream;
    if (code == "bucket_not_found" || code == "object_not_found" || code == "not_found" || code == "context_not_found")
        return ErrorCode::NotFound;
    return ErrorCode::TransferFailed;
}

/// A failed fleet operation as the client sees it; the fleet library's messages already say
/// what to check.
RpcError fleetError(const Error &error)
{
    return RpcError {fleetErrorCode(error.code), error.message, Json {{"cause", error.code}}};
}

Json findingsJson(const std::vector<BundleFinding> &findings)
{
    Json list = Json::array();
    for (const BundleFinding &finding : findings) {
        list.push_back(Json {{"severity", severityName(finding.diagnostic.severity)}, {"file", finding.file},
            {"line", finding.diagnostic.position.line}, {"column", finding.diagnostic.position.column},
            {"path", finding.diagnostic.path}, {"message", finding.diagnostic.message},
            {"text", formatBundleFinding(finding)}});
    }
    return list;
}

/// The plan for bundle.list and bundle.export: the manifest's text, placed in base_dir.
RpcResult<BundlePlan> planFromParams(const Json &params)
{
    auto manifest = stringParam(params, "manifest", true);
    if (!manifest)
        return manifest.error();
    auto base = pathParam(params, "base_dir", true);
    if (!base)
        return base.error();
    const fs::path baseDirectory(*base.value());
    std::error_code ec;
    if (!fs::is_directory(baseDirectory, ec))
        return invalidParam("base_dir", "names no directory: " + baseDirectory.string());
    auto name = stringParam(params, "name", false);
    if (!name)
        return name.error();
    const std::string fileName = name.value().value_or(std::string(kBundleManifestName));
    if (fileName.find('/') != std::string::npos || fileName == "." || fileName == "..")
        return invalidParam("name", "must be a file name without '/'");
    BundleOptions options;
    options.manifestText = *manifest.value();
    if (const auto include = params.find("include"); include != params.end()) {
        if (!include->is_array())
            return invalidParam("include", "must be a list of paths, not " + describeJsonType(*include));
        for (const Json &path : *include) {
            if (!path.is_string() || path.get_ref<const std::string &>().empty()
                || path.get_ref<const std::string &>().find('\0') != std::string::npos)
                return invalidParam("include", "must hold non-empty paths");
            // Relative paths are the manifest's, not the daemon's working directory's.
            options.includes.push_back((baseDirectory / path.get<std::string>()).lexically_normal());
        }
    }
    return planBundle(baseDirectory / fileName, options);
}

Json membersJson(const BundlePlan &plan)
{
    Json members = Json::array();
    for (const BundleMember &member : plan.members)
        members.push_back(member.path);
    members.push_back(std::string(kBundleChecksumsName));
    return members;
}

RpcResult<Json> listBundle(const Json &params)
{
    auto plan = planFromParams(params);
    if (!plan)
        return plan.error();
    const BundlePlan &planned = plan.value();
    return Json {{"ok", planned.ok()}, {"members", membersJson(planned)}, {"findings", findingsJson(planned.findings)}};
}

RpcResult<Json> exportBundle(const Json &params)
{
    auto output = pathParam(params, "output", true);
    if (!output)
        return output.error();
    const std::string target = *output.value();
    if (!isBundlePath(target))
        return invalidParam("output", "must end in .tar.gz or .tgz");
    auto plan = planFromParams(params);
    if (!plan)
        return plan.error();
    const BundlePlan &planned = plan.value();
    if (!planned.ok())
        return RpcError {ErrorCode::InvalidBundle,
            "the manifest cannot be bundled; fix the errors listed and try again; nothing was written",
            Json {{"findings", findingsJson(planned.findings)}}};
    if (auto written = writeBundle(planned, target); !written)
        return RpcError {ErrorCode::TransferFailed, written.error().message, Json {{"cause", written.error().code}}};
    return Json {{"output", target}, {"members", membersJson(planned)}, {"findings", findingsJson(planned.findings)}};
}

/// The NATS server a request names with `context` or `nats`, as `ccm-backend publish` picks it.
RpcResult<fleet::NatsSettings> natsSettings(const Json &params)
{
    fleet::NatsSelection selection;
    auto context = stringParam(params, "context", false);
    if (!context)
        return context.error();
    auto url = stringParam(params, "nats", false);
    if (!url)
        return url.error();
    selection.context = context.value();
    selection.url = url.value();
    auto settings = fleet::resolveNatsSettings(selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return fleetError(settings.error());
    return std::move(settings).value();
}

RpcResult<Json> publishBundle(const Json &params, const Notify &notify)
{
    auto file = pathParam(params, "file", true);
    if (!file)
        return file.error();
    auto bucket = stringParam(params, "bucket", true);
    if (!bucket)
        return bucket.error();
    auto name = stringParam(params, "name", false);
    if (!name)
        return name.error();
    auto settings = natsSettings(params);
    if (!settings)
        return settings.error();
    const fs::path path(*file.value());
    const std::string objectName = name.value().value_or(path.filename().string());

    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return invalidParam("file", "names no regular file: " + path.string());
    const std::uint64_t total = fs::file_size(path, ec);
    std::ifstream input(path, std::ios::binary);
    if (!input)
        return RpcError {ErrorCode::TransferFailed, path.string() + ": cannot be read: " + std::strerror(errno)};

    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    auto store = fleet::ObjectStore::openOrCreate(*connection.value(), *bucket.value());
    if (!store) {
        if (store.error().code == "bad_name")
            return invalidParam("bucket", "may hold only letters, digits, '-' and '_'");
        return fleetError(store.error());
    }
    const auto progress = [&](std::uint64_t sent) {
        if (notify)
            notify(notificationLine("bundle.progress", Json {{"sent", sent}, {"total", total}}));
    };
    auto info = store.value().put(objectName, input, progress);
    if (!info)
        return fleetError(info.error().withContext(path.string()));
    return Json {{"bucket", info->bucket}, {"name", info->name}, {"size", info->size}, {"digest", info->digest},
        {"url", fleet::ObjectUrl {info->bucket, info->name}.toString()}};
}

/// Where opened bundles go: the user's runtime directory, else the temporary directory.
fs::path openedBundlesParent()
{
    std::error_code ec;
    for (const char *variable : {"XDG_RUNTIME_DIR", "TMPDIR"}) {
        const char *value = std::getenv(variable);
        if (value != nullptr && *value == '/' && fs::is_directory(value, ec))
            return value;
    }
    return "/tmp";
}

/// A private directory that is removed with everything in it when the object goes.
class ScratchDirectory {
public:
    explicit ScratchDirectory(const fs::path &parent)
    {
        std::string pattern = (parent / "ccm-download-XXXXXX").string();
        if (::mkdtemp(pattern.data()) != nullptr)
            m_path = pattern;
        else
            m_error = std::strerror(errno);
    }
    ~ScratchDirectory()
    {
        std::error_code ignored;
        if (!m_path.empty())
            fs::remove_all(m_path, ignored);
    }
    ScratchDirectory(const ScratchDirectory &) = delete;
    ScratchDirectory &operator=(const ScratchDirectory &) = delete;

    const fs::path &path() const { return m_path; }
    const std::string &error() const { return m_error; }

private:
    fs::path m_path;
    std::string m_error;
};

/// Downloads the bundle at a remote `location` (http(s):// or obj://) into `destination`.
RpcResult<void> fetchRemote(const std::string &location, const Json &params, const fs::path &destination)
{
    const fleet::SourceKind kind = fleet::sourceKind(location);
    if (kind != fleet::SourceKind::HttpBundle && kind != fleet::SourceKind::ObjectBundle)
        return invalidParam("location",
            "must be an http(s):// or obj://BUCKET/NAME URL, or the absolute path of a .tar.gz or .tgz bundle");
    fleet::SourceOptions options;
    for (const char *name : {"context", "nats"}) {
        auto value = stringParam(params, name, false);
        if (!value)
            return value.error();
        (name == std::string_view("context") ? options.nats.context : options.nats.url) = value.value();
    }
    if (auto fetched = fleet::fetchBundle(location, options, destination); !fetched)
        return fleetError(fetched.error());
    return {};
}

RpcResult<Json> openBundle(const Json &params)
{
    auto location = stringParam(params, "location", true);
    if (!location)
        return location.error();
    const std::string where = *location.value();
    const fs::path parent = openedBundlesParent();
    std::optional<ScratchDirectory> scratch;
    fs::path archive;
    if (where.find("://") != std::string::npos) {
        scratch.emplace(parent);
        if (scratch->path().empty())
            return RpcError {
                ErrorCode::TransferFailed, "cannot create a directory in " + parent.string() + ": " + scratch->error()};
        archive = scratch->path() / "bundle.tar.gz";
        if (auto fetched = fetchRemote(where, params, archive); !fetched)
            return fetched.error();
    } else {
        if (!fs::path(where).is_absolute() || !isBundlePath(where))
            return invalidParam("location",
                "must be an http(s):// or obj://BUCKET/NAME URL, or the absolute path of a .tar.gz or .tgz bundle");
        archive = where;
    }
    auto unpacked = UnpackedBundle::unpack(archive, {}, parent);
    if (!unpacked)
        return RpcError {ErrorCode::InvalidBundle, where + ": " + unpacked.error().message};
    UnpackedBundle opened = std::move(unpacked).value();
    const fs::path manifest = opened.manifestPath();
    const fs::path base = opened.baseDirectory();
    // The directory outlives the request: the client removes it when it is done with it.
    const fs::path directory = opened.release();
    return Json {{"directory", directory.string()}, {"manifest", manifest.string()}, {"base_dir", base.string()}};
}

} // namespace

RpcResult<Json> runFleetMethod(std::string_view method, const Json &params, const Notify &notify)
{
    if (method == "bundle.list")
        return listBundle(params);
    if (method == "bundle.export")
        return exportBundle(params);
    if (method == "bundle.publish")
        return publishBundle(params, notify);
    if (method == "bundle.open")
        return openBundle(params);
    return RpcError {ErrorCode::MethodNotFound, "no method '" + std::string(method) + "'"};
}

} // namespace ccm::daemon
