// SPDX-License-Identifier: Apache-2.0
#include "daemon/fleet_methods.h"

#include "base/signing_key.h"
#include "base/temp_dir.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/bundle/bundle_signature.h"
#include "core/capture/captured_manifest.h"
#include "core/model/diagnostic.h"
#include "daemon/capture_methods.h"
#include "daemon/fleet_errors.h"
#include "daemon/params.h"
#include "daemon/release_methods.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "fleet/preview/capture_requester.h"
#include "fleet/preview/preview_requester.h"
#include "fleet/release/release_store.h"
#include "fleet/rollout/rollout_runner.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <spdlog/spdlog.h>
#include <system_error>

namespace ccm::daemon {

using protocol::ErrorCode;
using protocol::notificationLine;
using protocol::RpcError;
using protocol::RpcResult;
namespace fs = std::filesystem;

namespace {

/// The bounds of fleet.preview's timeout_ms: a preview holds one of the daemon's worker threads.
constexpr std::int64_t kShortestPreviewMs = 100;
constexpr std::int64_t kLongestPreviewMs = 3600000;

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
RpcResult<BundlePlan> planFromParams(const Params &params)
{
    auto manifest = params.text("manifest");
    if (!manifest)
        return manifest.error();
    auto base = params.path("base_dir");
    if (!base)
        return base.error();
    const fs::path baseDirectory(base.value());
    std::error_code ec;
    if (!fs::is_directory(baseDirectory, ec))
        return Params::invalid("base_dir", "names no directory: " + baseDirectory.string());
    auto name = params.optionalText("name");
    if (!name)
        return name.error();
    const std::string fileName = name.value().value_or(std::string(kBundleManifestName));
    if (fileName.find('/') != std::string::npos || fileName == "." || fileName == "..")
        return Params::invalid("name", "must be a file name without '/'");
    BundleOptions options;
    options.manifestText = std::move(manifest).value();
    auto include = params.optionalList("include", "a list of paths");
    if (!include)
        return include.error();
    if (const Json *paths = include.value()) {
        for (const Json &path : *paths) {
            if (!path.is_string() || path.get_ref<const std::string &>().empty()
                || path.get_ref<const std::string &>().find('\0') != std::string::npos)
                return Params::invalid("include", "must hold non-empty paths");
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

RpcResult<Json> listBundle(const Params &params)
{
    auto plan = planFromParams(params);
    if (!plan)
        return plan.error();
    const BundlePlan &planned = plan.value();
    return Json {{"ok", planned.ok()}, {"members", membersJson(planned)}, {"findings", findingsJson(planned.findings)}};
}

RpcResult<Json> exportBundle(const Params &params)
{
    auto output = params.path("output");
    if (!output)
        return output.error();
    const std::string target = output.value();
    if (!isBundlePath(target))
        return Params::invalid("output", "must end in .tar.gz or .tgz");
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
RpcResult<fleet::NatsSettings> natsSettings(const Params &params)
{
    fleet::NatsSelection selection;
    auto context = params.optionalText("context");
    if (!context)
        return context.error();
    auto url = params.optionalText("nats");
    if (!url)
        return url.error();
    selection.context = context.value();
    selection.url = url.value();
    auto settings = fleet::resolveNatsSettings(selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return fleetError(settings.error());
    return std::move(settings).value();
}

/// The file bundle.publish puts: params.file, or its copy signed with params.key in `directory`;
/// and the fingerprint of the key that signed it ("" when unsigned).
RpcResult<std::pair<fs::path, std::string>> releaseFile(
    const Params &params, const fs::path &file, const fs::path &directory)
{
    auto keyPath = params.optionalPath("key");
    if (!keyPath)
        return keyPath.error();
    if (!keyPath.value()) {
        auto check = readBundleSignature(file);
        const bool signedBundle = check && check->state == BundleSignatureCheck::State::Signed;
        return std::pair {file, signedBundle ? check->signature->fingerprint() : std::string()};
    }
    auto key = loadPrivateKey(*keyPath.value());
    if (!key)
        return keyError("key", key.error());
    const fs::path signedFile = directory / "signed.tar.gz";
    auto check = signBundleFile(file, key.value(), signedFile);
    if (!check)
        return RpcError {ErrorCode::InvalidBundle, "cannot sign " + file.string() + ": " + check.error().message};
    return std::pair {signedFile, check->signature->fingerprint()};
}

RpcResult<Json> publishBundle(const Params &params, const Notify &notify)
{
    auto file = params.path("file");
    if (!file)
        return file.error();
    auto bucket = params.text("bucket");
    if (!bucket)
        return bucket.error();
    auto name = params.optionalText("name");
    auto message = params.optionalText("message");
    if (!name || !message)
        return !name ? name.error() : message.error();
    auto settings = natsSettings(params);
    if (!settings)
        return settings.error();
    auto replicas = fleetBucketReplicas(params);
    if (!replicas)
        return replicas.error();
    const fs::path source(file.value());
    const std::string objectName = name.value().value_or(source.filename().string());

    std::error_code ec;
    if (!fs::is_regular_file(source, ec))
        return Params::invalid("file", "names no regular file: " + source.string());
    const auto scratch = TempDir::create("ccm-publish");
    if (!scratch)
        return RpcError {ErrorCode::InternalError, scratch.error().message};
    auto release = releaseFile(params, source, scratch->path());
    if (!release)
        return release.error();
    const fs::path &path = release->first;
    const std::uint64_t total = fs::file_size(path, ec);
    std::ifstream input(path, std::ios::binary);
    if (!input)
        return RpcError {ErrorCode::TransferFailed, path.string() + ": cannot be read: " + std::strerror(errno)};

    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    auto store = fleet::ReleaseStore::open(*connection.value(), bucket.value(), true, replicas.value());
    if (!store)
        return bucketError(store.error());
    const auto progress = [&](std::uint64_t sent) {
        if (notify)
            notify(notificationLine("bundle.progress", Json {{"sent", sent}, {"total", total}}));
    };
    auto info = store.value().objects().put(objectName, input, progress);
    if (!info)
        return fleetError(info.error().withContext(path.string()));
    if (auto kept = store.value().keep(path); !kept)
        return fleetError(kept.error().withContext("the object is published, but it could not be kept for rollbacks"));
    fleet::Release recorded;
    recorded.name = info->name;
    recorded.bucket = info->bucket;
    recorded.digest = info->digest;
    recorded.size = info->size;
    recorded.time = std::chrono::system_clock::now();
    recorded.publisher = fleet::processOwner();
    recorded.signer = release->second;
    recorded.message = message.value().value_or("");
    if (auto written = store.value().record(recorded); !written)
        return fleetError(
            written.error().withContext("the object is published, but its release could not be recorded"));
    return Json {{"bucket", info->bucket}, {"name", info->name}, {"size", info->size}, {"digest", info->digest},
        {"url", fleet::ObjectUrl {info->bucket, info->name}.toString()}, {"signer", release->second},
        {"release", releaseResultJson(recorded)}};
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

/// Downloads the bundle at a remote `location` (http(s):// or obj://) into `destination`.
RpcResult<void> fetchRemote(const std::string &location, const Params &params, const fs::path &destination)
{
    const fleet::SourceKind kind = fleet::sourceKind(location);
    if (kind != fleet::SourceKind::HttpBundle && kind != fleet::SourceKind::ObjectBundle)
        return Params::invalid("location",
            "must be an http(s):// or obj://BUCKET/NAME URL, or the absolute path of a .tar.gz or .tgz bundle");
    fleet::SourceOptions options;
    for (const char *name : {"context", "nats"}) {
        auto value = params.optionalText(name);
        if (!value)
            return value.error();
        (name == std::string_view("context") ? options.nats.context : options.nats.url) = value.value();
    }
    if (auto fetched = fleet::fetchBundle(location, options, destination); !fetched)
        return fleetError(fetched.error());
    return {};
}

RpcResult<Json> openBundle(const Params &params)
{
    auto location = params.text("location");
    if (!location)
        return location.error();
    const std::string where = location.value();
    const fs::path parent = openedBundlesParent();
    std::optional<Result<UnpackedBundle>> unpacked;
    if (where.find("://") != std::string::npos) {
        auto download = BundleDownload::create(parent);
        if (!download)
            return RpcError {ErrorCode::TransferFailed, download.error().message};
        if (auto fetched = fetchRemote(where, params, download->archivePath()); !fetched)
            return fetched.error();
        unpacked.emplace(UnpackedBundle::unpack(std::move(download).value()));
    } else {
        if (!fs::path(where).is_absolute() || !isBundlePath(where))
            return Params::invalid("location",
                "must be an http(s):// or obj://BUCKET/NAME URL, or the absolute path of a .tar.gz or .tgz bundle");
        unpacked.emplace(UnpackedBundle::unpack(where, {}, parent));
    }
    if (!*unpacked)
        return RpcError {ErrorCode::InvalidBundle, where + ": " + unpacked->error().message};
    UnpackedBundle opened = std::move(*unpacked).value();
    const fs::path manifest = opened.manifestPath();
    const fs::path base = opened.baseDirectory();
    // The directory outlives the request: the client removes it when it is done with it.
    const fs::path directory = opened.release();
    return Json {{"directory", directory.string()}, {"manifest", manifest.string()}, {"base_dir", base.string()}};
}

/// fleet.status: every host's last report in CCM_STATUS.
RpcResult<Json> fleetStatus(const Params &params)
{
    auto settings = natsSettings(params);
    if (!settings)
        return settings.error();
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    auto status = fleet::readFleetStatus(*connection.value(), std::chrono::system_clock::now());
    if (!status)
        return fleetError(status.error().withContext("reading " + std::string(fleet::kStatusBucket)));
    Json hosts = Json::array();
    for (const fleet::HostStatus &host : status->hosts)
        hosts.push_back(fleet::hostStatusToJson(host));
    return Json {{"hosts", std::move(hosts)}};
}

/// public_pem and fingerprint of a raw public key.
RpcResult<Json> publicKeyJson(const std::string &publicKey)
{
    auto pem = publicKeyPem(publicKey);
    if (!pem)
        return keyError("private", pem.error());
    return Json {{"public_pem", pem.value()}, {"fingerprint", keyFingerprint(publicKey)}};
}

RpcResult<Json> fleetKeygen(const Params &params)
{
    auto privatePath = params.path("private");
    if (!privatePath)
        return privatePath.error();
    auto publicPath = params.optionalPath("public");
    if (!publicPath)
        return publicPath.error();
    auto overwrite = params.flag("overwrite");
    if (!overwrite)
        return overwrite.error();
    const std::string privateFile = privatePath.value();
    const std::string publicFile = publicPath.value().value_or(
        (privateFile.ends_with(".pem") ? privateFile.substr(0, privateFile.size() - 4) : privateFile) + ".pub.pem");
    if (publicFile == privateFile)
        return Params::invalid("public", "must differ from params.private");
    auto key = generateSigningKey();
    if (!key)
        return keyError("private", key.error());
    if (auto written = writeKeyPair(*key, privateFile, publicFile, overwrite.value()); !written)
        return keyError("private", written.error());
    auto info = publicKeyJson(key->publicKey);
    if (!info)
        return info.error();
    Json result {{"private", privateFile}, {"public", publicFile}};
    result.update(info.value());
    return result;
}

RpcResult<Json> fleetKeyinfo(const Params &params)
{
    auto privatePath = params.path("private");
    if (!privatePath)
        return privatePath.error();
    auto key = loadPrivateKey(privatePath.value());
    if (!key)
        return keyError("private", key.error());
    return publicKeyJson(key->publicKey);
}

/// The bytes of a bundle of the manifest text in params (manifest, base_dir, name, include).
RpcResult<std::string> bundleOfText(const Params &params)
{
    auto plan = planFromParams(params);
    if (!plan)
        return plan.error();
    if (!plan->ok())
        return RpcError {ErrorCode::InvalidBundle,
            "the manifest cannot be bundled for the fleet; fix the errors listed and try again",
            Json {{"findings", findingsJson(plan->findings)}}};
    const auto scratch = TempDir::create("ccm-download", openedBundlesParent());
    if (!scratch)
        return RpcError {ErrorCode::InternalError, scratch.error().message};
    const fs::path archive = scratch->path() / "bundle.tar.gz";
    if (auto written = writeBundle(plan.value(), archive); !written)
        return RpcError {ErrorCode::InternalError, "cannot build the bundle: " + written.error().message};
    std::ifstream input(archive, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(input)), std::istreambuf_iterator<char>());
    if (!input.good() && !input.eof())
        return RpcError {ErrorCode::InternalError, "cannot read the bundle just built: " + archive.string()};
    return bytes;
}

/// What fleet.preview runs: `source`, or a bundle of the manifest text, checked as apply.start
/// checks them.
RpcResult<void> previewInput(const Params &params, fleet::PreviewRequestOptions &options)
{
    auto source = params.optionalText("source");
    if (!source)
        return source.error();
    const bool hasManifest = params.has("manifest");
    if (hasManifest && source.value())
        return Params::invalid("source", "cannot go with manifest: send one of them");
    if (!hasManifest && !source.value())
        return Params::invalid("manifest", "is required: a string (or source, a bundle path or URL)");
    if (!source.value()) {
        auto bytes = bundleOfText(params);
        if (!bytes)
            return bytes.error();
        options.bundle = std::move(bytes).value();
        return {};
    }
    if (params.has("base_dir"))
        return Params::invalid("base_dir", "cannot go with source: a bundle's manifest directory is its base");
    const std::string &where = *source.value();
    const fleet::SourceKind kind = fleet::sourceKind(where);
    if (kind == fleet::SourceKind::YamlFile)
        return Params::invalid("source",
            "must be a .tar.gz or .tgz bundle, an http(s):// or an obj://BUCKET/KEY URL; send a manifest's text "
            "as manifest");
    if (kind == fleet::SourceKind::LocalBundle && !fs::path(where).is_absolute())
        return Params::invalid("source", "must be an absolute path when it names a local bundle");
    options.source = where;
    return {};
}

/// The options of fleet.preview but for its input: key, select, timeout_ms, context and nats.
RpcResult<void> previewOptions(const Params &params, fleet::PreviewRequestOptions &options)
{
    auto keyPath = params.path("key");
    if (!keyPath)
        return keyPath.error();
    auto select = params.optionalText("select");
    if (!select)
        return select.error();
    if (select.value())
        if (const auto error = fleet::selectorError(*select.value()))
            return Params::invalid("select", "does not parse: " + error->describe() + "; nothing was sent");
    options.select = select.value();
    auto target = params.optionalText("target");
    if (!target)
        return target.error();
    if (auto checked = fleet::checkTarget(target.value()); !checked)
        return Params::invalid("target", "must be an obj://BUCKET/NAME URL; nothing was sent");
    options.target = target.value();
    auto replicas = fleetBucketReplicas(params);
    if (!replicas)
        return replicas.error();
    options.replicas = std::move(replicas).value();
    auto timeout = params.optionalInteger("timeout_ms");
    if (!timeout)
        return timeout.error();
    if (const std::optional<std::int64_t> milliseconds = timeout.value()) {
        if (*milliseconds < kShortestPreviewMs || *milliseconds > kLongestPreviewMs)
            return Params::invalid("timeout_ms",
                "must be between " + std::to_string(kShortestPreviewMs) + " and " + std::to_string(kLongestPreviewMs)
                    + " (milliseconds)");
        options.timeout = std::chrono::milliseconds(*milliseconds);
    }
    for (const char *name : {"context", "nats"}) {
        auto value = params.optionalText(name);
        if (!value)
            return value.error();
        (name == std::string_view("context") ? options.sources.nats.context : options.sources.nats.url) = value.value();
    }
    auto key = loadPrivateKey(keyPath.value());
    if (!key)
        return keyError("key", key.error());
    options.key = std::move(key).value();
    options.keyFile = keyPath.value();
    options.keepEvents = false; // they go to the client as they come
    return {};
}

/// What a done host's fleet.host notification adds: "stable" (the resources that did not change,
/// whose events were not sent), "compare" (comparisonSummary) and, when it compared, "classes":
/// the class of each resource that changed or failed (others unchanged).
Json comparisonParams(const fleet::HostPreview &host)
{
    Json params {{"stable", host.stable}, {"compare", fleet::comparisonSummary(host)}};
    if (host.comparison.state != fleet::PreviewComparison::State::Compared)
        return params;
    Json classes = Json::object();
    for (const auto &[resource, change] : host.comparison.classes)
        classes[resource] = fleet::changeClassName(change);
    params["classes"] = std::move(classes);
    return params;
}

/// The fleet.host and fleet.event notifications of a preview whose id `request` holds once it
/// is published.
fleet::PreviewCallbacks previewNotifications(const Notify &notify, std::string &request)
{
    const auto host = [&notify, &request](const std::string &identity, std::string_view state, Json extra) {
        Json params {{"request", request}, {"identity", identity}, {"state", std::string(state)}};
        params.update(extra);
        if (notify)
            notify(notificationLine("fleet.host", params));
    };
    fleet::PreviewCallbacks callbacks;
    callbacks.published = [&request](const std::string &id) { request = id; };
    callbacks.accepted = [host](const std::string &identity) { host(identity, "accepted", Json::object()); };
    callbacks.progress
        = [host](const std::string &identity, std::uint64_t done, std::uint64_t total, const std::string &current) {
              host(identity, "running", Json {{"done", done}, {"total", total}, {"current", current}});
          };
    callbacks.event = [&notify, &request](const std::string &identity, const Json &event) {
        if (notify)
            notify(
                notificationLine("fleet.event", Json {{"request", request}, {"identity", identity}, {"event", event}}));
    };
    callbacks.done
        = [host](const fleet::HostPreview &finished) { host(finished.identity, "done", comparisonParams(finished)); };
    callbacks.failed = [host](const std::string &identity, const std::string &message) {
        host(identity, "failed", Json {{"message", message}});
    };
    callbacks.declined = [host](const std::string &identity, const std::string &reason, const std::string &message) {
        host(identity, "declined", Json {{"message", message.empty() ? reason : reason + ": " + message}});
    };
    return callbacks;
}

Json previewResult(const fleet::FleetPreview &preview)
{
    Json hosts = Json::array();
    for (const fleet::HostPreview &host : preview.hosts) {
        Json entry {{"identity", host.identity}, {"state", std::string(fleet::hostStateName(host.state))}};
        if (!host.summary.is_null())
            entry["summary"] = host.summary;
        if (host.state == fleet::HostState::Done)
            entry["compare"] = fleet::comparisonSummary(host);
        if (!host.message.empty())
            entry["message"] = host.message;
        hosts.push_back(std::move(entry));
    }
    Json result {{"request", preview.id}, {"hosts", std::move(hosts)}, {"totals", fleet::fleetPreviewTotals(preview)}};
    if (!preview.notice.empty())
        result["notice"] = preview.notice;
    return result;
}

RpcResult<Json> fleetPreview(const Params &params, const Notify &notify, const std::atomic<bool> &cancel)
{
    fleet::PreviewRequestOptions options;
    if (auto checked = previewOptions(params, options); !checked)
        return checked.error();
    if (auto input = previewInput(params, options); !input)
        return input.error();
    options.cancel = &cancel;
    auto settings = fleet::resolveNatsSettings(options.sources.nats, options.sources.environment);
    if (!settings)
        return fleetError(settings.error());
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    std::string request;
    const fleet::PreviewCallbacks callbacks = previewNotifications(notify, request);
    auto preview = fleet::runFleetPreview(*connection.value(), options, callbacks);
    if (!preview)
        return fleetError(preview.error().withContext("fleet preview"));
    spdlog::info("fleet preview {} ended: {} hosts{}", preview->id, preview->hosts.size(),
        preview->cancelled ? ", cancelled" : "");
    if (preview->cancelled)
        return RpcError {ErrorCode::Cancelled, "the fleet preview was cancelled", Json {{"request", preview->id}}};
    return previewResult(preview.value());
}

/// The agent's capture request of fleet.capture's params: host, the selection (as host.capture
/// takes it), key, timeout_ms, context and nats, and no other member; `nats` gets the server.
RpcResult<fleet::CaptureRequestOptions> fleetCaptureOptions(const Params &params, fleet::NatsSelection &nats)
{
    static constexpr std::string_view kOwnMembers[] = {"host", "key", "timeout_ms", "context", "nats"};
    for (const auto &[name, value] : params.json().items())
        if (std::ranges::find(kOwnMembers, name) == std::end(kOwnMembers)
            && std::ranges::find(kCaptureSelectionMembers, name) == std::end(kCaptureSelectionMembers))
            return Params::invalid(name, "is not a member of fleet.capture's params");
    fleet::CaptureRequestOptions options;
    auto host = params.text("host");
    if (!host)
        return host.error();
    if (host->size() > fleet::kMaxCaptureHostBytes)
        return Params::invalid("host", "is longer than an agent identity may be");
    auto selection = captureSelection(params.json());
    if (!selection)
        return selection.error();
    options.selection.host = host.value();
    options.selection.packages = selection->packages;
    options.selection.services = selection->services;
    for (const fs::path &file : selection->files)
        options.selection.files.push_back(file.string());
    options.selection.excludes = selection->excludes;
    options.selection.data = selection->data;
    options.selection.pin = selection->pin;
    options.selection.includePrivate = selection->includePrivate;
    // previewOptions() reads the members fleet.capture shares with fleet.preview.
    fleet::PreviewRequestOptions shared;
    if (auto checked = previewOptions(params, shared); !checked)
        return checked.error();
    options.key = std::move(shared.key);
    options.keyFile = shared.keyFile;
    options.timeout = shared.timeout;
    nats = shared.sources.nats;
    return options;
}

/// fleet.capture: one agent's capture of its host, as host.capture answers, plus "identity".
RpcResult<Json> fleetCapture(const Params &params, const std::atomic<bool> &cancel)
{
    fleet::NatsSelection nats;
    auto read = fleetCaptureOptions(params, nats);
    if (!read)
        return read.error();
    fleet::CaptureRequestOptions options = std::move(read).value();
    options.cancel = &cancel;
    auto settings = fleet::resolveNatsSettings(nats, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return fleetError(settings.error());
    auto connection = fleet::NatsConnection::connect(settings.value());
    if (!connection)
        return fleetError(connection.error());
    auto answer = fleet::runFleetCapture(*connection.value(), options);
    if (!answer && answer.error().code == "cancelled")
        return RpcError {ErrorCode::Cancelled, "the fleet capture was cancelled"};
    if (!answer && answer.error().code == "bad_request")
        return RpcError {
            ErrorCode::InvalidParams, answer.error().message, Json {{"path", "files"}, {"cause", answer.error().code}}};
    if (!answer)
        return fleetError(answer.error());
    Json result = captureToJson(answer->capture);
    result["yaml"] = captureToYaml(answer->capture);
    result["identity"] = answer->identity;
    spdlog::info(
        "fleet capture {} from {}: {} resources", answer->id, answer->identity, answer->capture.resources.size());
    if (result.dump(-1, ' ', false, Json::error_handler_t::replace).size() > protocol::kMaxLineBytes - 4096)
        return RpcError {ErrorCode::TransferFailed,
            "the capture from " + answer->identity
                + " is larger than one answer of the protocol may be; capture less, or run ccm-backend fleet capture "
                  "-o OUT.tar.gz",
            Json {{"cause", "too_large"}}};
    return result;
}

} // namespace

RpcResult<BundlePlan> bundlePlanOfParams(const Params &params)
{
    return planFromParams(params);
}

Json bundleFindingsJson(const std::vector<BundleFinding> &findings)
{
    return findingsJson(findings);
}

RpcResult<fleet::NatsSettings> natsSettingsOfParams(const Params &params)
{
    return natsSettings(params);
}

RpcResult<fleet::BucketReplicas> fleetBucketReplicas(const Params &params)
{
    auto count = params.optionalInteger("replicas");
    if (!count)
        return count.error();
    fleet::BucketReplicas replicas;
    if (const std::optional<std::int64_t> asked = count.value()) {
        if (*asked < fleet::BucketReplicas::kMin || *asked > fleet::BucketReplicas::kMax)
            return Params::invalid("replicas", "must be from 1 to 5 (the replicas of the buckets this creates)");
        replicas.asked = static_cast<int>(*asked);
    }
    replicas.setting = "replicas";
    replicas.note = [](const std::string &text, bool warning) {
        if (warning)
            spdlog::warn("{}", text);
        else
            spdlog::info("{}", text);
    };
    return replicas;
}

RpcResult<Json> runFleetMethod(
    std::string_view method, const Json &json, const Notify &notify, const std::atomic<bool> &cancel)
{
    if (isReleaseMethod(method))
        return runReleaseMethod(method, json, notify, cancel);
    const Params params(json);
    if (method == "fleet.status")
        return fleetStatus(params);
    if (method == "fleet.preview")
        return fleetPreview(params, notify, cancel);
    if (method == "fleet.capture")
        return fleetCapture(params, cancel);
    if (method == "fleet.keygen")
        return fleetKeygen(params);
    if (method == "fleet.keyinfo")
        return fleetKeyinfo(params);
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
