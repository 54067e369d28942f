// SPDX-License-Identifier: Apache-2.0
#include "dispatcher.h"

#include "bundle.h"
#include "bundle_source.h"
#include "diagnostic.h"
#include "environ.h"
#include "fleet_methods.h"
#include "kv_reader.h"
#include "prepared_manifest.h"
#include "utf8.h"
#include "validator.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <variant>

namespace ccm::daemon {

ApplyControl::~ApplyControl() = default;

namespace {

/// A method's answer: a result, an error, or nothing yet (an apply answers when it ends).
struct Deferred { };
using Reply = std::variant<Json, RpcError, Deferred>;

RpcError invalidParam(std::string_view name, std::string_view problem)
{
    return RpcError {ErrorCode::InvalidParams, "params." + std::string(name) + " " + std::string(problem),
        Json {{"path", std::string(name)}}};
}

/// The member `name` of params when it is present; an error when it has the wrong type or is
/// required and missing.
template<typename Check>
std::variant<const Json *, RpcError> param(
    const Json &params, std::string_view name, bool required, Check isRightType, std::string_view typeWords)
{
    const auto found = params.find(name);
    if (found == params.end()) {
        if (required)
            return invalidParam(name, "is required: " + std::string(typeWords));
        return static_cast<const Json *>(nullptr);
    }
    if (!isRightType(*found))
        return invalidParam(name, "must be " + std::string(typeWords) + ", not " + describeJsonType(*found));
    return &*found;
}

std::variant<const Json *, RpcError> stringParam(const Json &params, std::string_view name, bool required)
{
    return param(
        params, name, required, [](const Json &v) { return v.is_string(); }, "a string");
}

std::variant<const Json *, RpcError> boolParam(const Json &params, std::string_view name, bool required)
{
    return param(
        params, name, required, [](const Json &v) { return v.is_boolean(); }, "a boolean");
}

std::variant<const Json *, RpcError> objectParam(const Json &params, std::string_view name)
{
    return param(
        params, name, false, [](const Json &v) { return v.is_object(); }, "a map");
}

/// base_dir: absolute, default "/".
std::variant<std::filesystem::path, RpcError> baseDirectory(const Json &params)
{
    auto found = stringParam(params, "base_dir", false);
    if (auto *error = std::get_if<RpcError>(&found))
        return *error;
    const Json *value = std::get<const Json *>(found);
    if (value == nullptr)
        return std::filesystem::path("/");
    const std::string &text = value->get_ref<const std::string &>();
    if (text.find('\0') != std::string::npos || !std::filesystem::path(text).is_absolute())
        return invalidParam("base_dir", "must be an absolute path");
    return std::filesystem::path(text);
}

Json diagnosticsJson(const Diagnostics &diagnostics)
{
    Json list = Json::array();
    for (const Diagnostic &diagnostic : diagnostics) {
        Json entry = Json::object();
        entry["severity"] = severityName(diagnostic.severity);
        entry["message"] = diagnostic.message;
        entry["path"] = diagnostic.path;
        entry["line"] = diagnostic.position.line;
        entry["column"] = diagnostic.position.column;
        list.push_back(std::move(entry));
    }
    return list;
}

/// A client's method name as it may go into the log: at most 64 characters, control characters
/// escaped, so that nobody can forge log lines or flood the log through it.
std::string loggable(std::string_view method)
{
    constexpr std::size_t kLongest = 64;
    std::string text;
    for (const char c : method.substr(0, kLongest)) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            constexpr char kHex[] = "0123456789abcdef";
            text += "\\x";
            text += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
            text += kHex[static_cast<unsigned char>(c) & 0xf];
        } else {
            text += c;
        }
    }
    if (method.size() > kLongest)
        text += "...";
    return text;
}

RpcError unauthorized(const Caller &caller, std::string_view what)
{
    return RpcError {ErrorCode::Unauthorized,
        "user " + caller.peer.user + " (role " + std::string(roleName(caller.role)) + ") may not " + std::string(what),
        Json {{"role", std::string(roleName(caller.role))}}};
}

/// What manifests of a request resolve against: the host's facts with the request's facts merged
/// over them, the daemon's own environment (a client's working directory and .env mean nothing
/// here) and the request's data.
std::variant<ResolveOptions, RpcError> resolveInputs(
    const std::function<Result<Json>()> &gather, const Json &params, std::filesystem::path base, bool withData)
{
    auto extraFacts = objectParam(params, "facts");
    if (auto *error = std::get_if<RpcError>(&extraFacts))
        return *error;
    const Json *data = nullptr;
    if (withData) {
        auto found = objectParam(params, "data");
        if (auto *error = std::get_if<RpcError>(&found))
            return *error;
        data = std::get<const Json *>(found);
    }
    auto facts = gather();
    if (!facts)
        return RpcError {ErrorCode::InternalError, "cannot gather facts: " + facts.error().message};
    ResolveOptions options;
    options.facts = std::move(facts).value();
    if (const Json *overlay = std::get<const Json *>(extraFacts))
        deepMerge(options.facts, *overlay);
    options.environ = processEnviron(std::filesystem::path());
    if (data != nullptr)
        options.externalData = *data;
    options.baseDirectory = std::move(base);
    return options;
}

/// Whether the server fetches remote sources for `peer`: only as the peer's own backend (or for
/// root), so that a user never reaches the network with the system backend's identity.
bool mayFetchRemote(const Peer &peer)
{
    return peer.uid == ::geteuid() || peer.uid == 0;
}

/// The `source` param: a local bundle path or an http(s):// or obj:// URL, checked and authorized
/// before anything is fetched.
std::optional<RpcError> checkSource(const Caller &caller, const std::string &source)
{
    if (source.empty() || source.find('\0') != std::string::npos)
        return invalidParam("source", "must be a bundle path or an http(s):// or obj:// URL");
    switch (fleet::sourceKind(source)) {
    case fleet::SourceKind::YamlFile:
        return invalidParam("source",
            "must be a .tar.gz or .tgz bundle, an http(s):// or an obj://BUCKET/KEY URL; send a manifest's text "
            "as manifest");
    case fleet::SourceKind::HttpBundle:
    case fleet::SourceKind::ObjectBundle:
        if (!mayFetchRemote(caller.peer))
            return RpcError {ErrorCode::Unauthorized,
                "user " + caller.peer.user + " may not have this server fetch " + fleet::redactUrl(source)
                    + ": remote sources are fetched by the user's own backend (ccm-backend serve --user); fleet "
                      "operations never use the system backend's network identity or credentials",
                Json {{"role", std::string(roleName(caller.role))}}};
        return std::nullopt;
    case fleet::SourceKind::LocalBundle:
        break;
    }
    if (!std::filesystem::path(source).is_absolute())
        return invalidParam("source", "must be an absolute path when it names a local bundle");
    if (caller.peer.uid != ::geteuid() && !peerMayRead(caller.peer, source))
        return RpcError {ErrorCode::Unauthorized, "user " + caller.peer.user + " may not read " + source,
            Json {{"role", std::string(roleName(caller.role))}}};
    return std::nullopt;
}

/// A bundle named by a `source`, fetched and unpacked in a private directory that goes with it.
class SourceBundle {
public:
    ~SourceBundle()
    {
        bundle.reset();
        if (!download.empty()) {
            std::error_code ignored;
            std::filesystem::remove_all(download, ignored);
        }
    }

    std::filesystem::path download; ///< the private directory a remote bundle was fetched into
    std::optional<UnpackedBundle> bundle;
};

RpcError sourceUnavailable(const std::string &source, const Error &error)
{
    const std::string shown = fleet::redactUrl(source);
    std::string message = error.message;
    for (const std::string &prefix : {"fetching " + shown + ": ", shown + ": "})
        if (message.starts_with(prefix))
            message = message.substr(prefix.size());
    return RpcError {ErrorCode::SourceUnavailable, shown + ": " + message, Json {{"source", shown}}};
}

/// Fetches (for a URL) and unpacks `source`. With `owner`, what was unpacked is handed to that
/// peer, whose identity reads the manifest's files.
std::variant<std::shared_ptr<SourceBundle>, RpcError> openSource(
    const std::string &source, const std::optional<Peer> &owner)
{
    auto opened = std::make_shared<SourceBundle>();
    std::filesystem::path archive = source;
    if (fleet::sourceKind(source) != fleet::SourceKind::LocalBundle) {
        std::error_code error;
        std::filesystem::path base = std::filesystem::temp_directory_path(error);
        if (error)
            base = "/tmp";
        std::string pattern = (base / "ccm-source-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            return RpcError {ErrorCode::InternalError,
                "cannot create a temporary directory in " + base.string() + ": " + std::strerror(errno)};
        opened->download = pattern;
        archive = opened->download / "bundle.tar.gz";
        auto fetched = fleet::fetchBundle(source, fleet::SourceOptions {}, archive);
        if (!fetched)
            return sourceUnavailable(source, fetched.error());
    }
    // A local bundle of a peer is opened with the peer's identity, so that what the permission
    // check allowed is what is read, even if the path changed since; it is unpacked from that
    // open file.
    struct Descriptor {
        int fd = -1;
        ~Descriptor()
        {
            if (fd >= 0)
                ::close(fd);
        }
    } openedArchive;
    if (owner && opened->download.empty()) {
        int openError = 0;
        {
            const PeerFileAccess access(*owner);
            if (!access.active())
                return RpcError {ErrorCode::InternalError,
                    "cannot take on the identity of uid " + std::to_string(owner->uid) + " to open " + source};
            openedArchive.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
            openError = errno;
        }
        if (openedArchive.fd < 0 && (openError == EACCES || openError == EPERM))
            return RpcError {
                ErrorCode::Unauthorized, "user " + owner->user + " may not read " + source, Json {{"role", "preview"}}};
        if (openedArchive.fd < 0)
            return sourceUnavailable(source, Error {"io", std::strerror(openError)});
        archive = "/proc/self/fd/" + std::to_string(openedArchive.fd);
    }
    auto bundle = UnpackedBundle::unpack(archive, {}, opened->download);
    if (!bundle)
        return sourceUnavailable(source, bundle.error());
    opened->bundle.emplace(std::move(bundle).value());
    if (!opened->download.empty()) {
        std::error_code ignored;
        std::filesystem::remove(archive, ignored);
    }
    if (owner) {
        for (const std::string &path : opened->bundle->createdPaths())
            if (::lchown(path.c_str(), owner->uid, owner->gid) != 0)
                return RpcError {ErrorCode::InternalError,
                    "cannot hand " + path + " to uid " + std::to_string(owner->uid) + ": " + std::strerror(errno)};
    }
    return opened;
}

} // namespace

Dispatcher::Dispatcher(ApplyControl &applies, std::function<Result<Json>()> facts, Notify notify)
    : m_applies(applies)
    , m_facts(std::move(facts))
    , m_notify(std::move(notify))
{
}

namespace {

struct Request {
    Json id;
    std::string method;
    Json params;
};

/// Checks the JSON-RPC shape: a Request, an error to answer, or nothing for a notification.
std::variant<Request, RpcError, Deferred> parseRequest(
    std::string_view line, const Caller &caller, Json &id, RejectionLog &rejections)
{
    if (const std::size_t bad = invalidUtf8Offset(line); bad != std::string_view::npos)
        return RpcError {ErrorCode::ParseError, "invalid UTF-8 at byte " + std::to_string(bad)};
    if (const auto deep = jsonNestingBeyond(line, kMaxNesting))
        return RpcError {ErrorCode::ParseError,
            "JSON nested deeper than " + std::to_string(kMaxNesting) + " levels at byte " + std::to_string(*deep)};
    Json message;
    try {
        message = parseJson(line);
    } catch (const Json::parse_error &e) {
        return RpcError {ErrorCode::ParseError, "invalid JSON at byte " + std::to_string(e.byte)};
    }
    if (message.is_array())
        return RpcError {ErrorCode::InvalidRequest, "batches are not supported; send one request per line"};
    if (!message.is_object())
        return RpcError {
            ErrorCode::InvalidRequest, "a request must be a JSON object, not " + describeJsonType(message)};
    const auto idMember = message.find("id");
    const bool notification = idMember == message.end();
    if (!notification) {
        if (!idMember->is_string() && !idMember->is_number_integer())
            return RpcError {ErrorCode::InvalidRequest, "id must be a string or an integer"};
        id = *idMember;
    }
    std::optional<RpcError> problem;
    const auto version = message.find("jsonrpc");
    const auto method = message.find("method");
    const auto params = message.find("params");
    if (version == message.end() || !version->is_string() || version->get_ref<const std::string &>() != "2.0")
        problem = RpcError {ErrorCode::InvalidRequest, "jsonrpc must be \"2.0\""};
    else if (method == message.end() || !method->is_string())
        problem = RpcError {ErrorCode::InvalidRequest, "method must be a string"};
    else if (params != message.end() && !params->is_object())
        problem = invalidParam("params", "must be a map, not " + describeJsonType(*params));
    if (notification) {
        // Nobody waits for an answer to a notification; a broken one is only worth a log line.
        if (problem)
            rejections.reject(caller.peer.uid, "malformed_notification", "malformed notification: " + problem->message);
        return Deferred {};
    }
    if (problem)
        return *problem;
    return Request {*idMember, method->get<std::string>(), params == message.end() ? Json::object() : *params};
}

} // namespace

Dispatched Dispatcher::dispatch(const Caller &caller, std::string_view line)
{
    Json id = nullptr;
    try {
        auto parsed = parseRequest(line, caller, id, m_rejections);
        if (std::holds_alternative<Deferred>(parsed))
            return {};
        // `logged` stands for the message in the log when it would quote the client's raw text.
        const auto rejected = [&](const RpcError &error, std::optional<std::string> logged = std::nullopt) {
            m_rejections.reject(
                caller.peer.uid, reasonName(error.code), "rejected request: " + logged.value_or(error.message));
            return Dispatched {errorLine(id, error), {}};
        };
        if (auto *error = std::get_if<RpcError>(&parsed))
            return rejected(*error);
        Request &request = std::get<Request>(parsed);
        const Json &params = request.params;

        const auto answer = [&](const std::variant<Json, RpcError> &reply) {
            if (auto *result = std::get_if<Json>(&reply))
                return Dispatched {responseLine(request.id, *result), {}};
            return Dispatched {errorLine(request.id, std::get<RpcError>(reply)), {}};
        };
        const auto failed = [](const auto &checked) { return std::holds_alternative<RpcError>(checked); };

        const bool known = request.method == "backend.hello" || request.method == "manifest.validate"
            || request.method == "manifest.render" || request.method == "facts.get" || request.method == "apply.start"
            || request.method == "apply.cancel" || isFleetMethod(request.method);
        if (!known)
            return rejected(RpcError {ErrorCode::MethodNotFound, "no method '" + request.method + "'"},
                "no method '" + loggable(request.method) + "'");
        // They use the daemon's own files and NATS credentials: a system backend must not
        // lend root's to other users, who run their own user backend for them.
        if (isFleetMethod(request.method) && caller.peer.uid != ::geteuid())
            return rejected(unauthorized(caller,
                "call " + request.method
                    + " on a backend running as another user; use your own user backend (ccm-backend serve "
                      "--user)"));
        if (caller.role == Role::None && request.method != "backend.hello")
            return rejected(unauthorized(caller, "call " + request.method));
        spdlog::info("uid {}: {}", caller.peer.uid, request.method);

        if (request.method == "backend.hello") {
            for (const char *name : {"client", "version"}) {
                if (auto checked = stringParam(params, name, true); failed(checked))
                    return answer(std::get<RpcError>(checked));
            }
            Json result = Json::object();
            result["server"] = "ccm-backend";
            result["version"] = CCM_VERSION;
            result["protocol"] = kProtocolVersion;
            result["role"] = roleName(caller.role);
            result["user"] = caller.peer.user;
            result["uid"] = caller.peer.uid;
            return answer(result);
        }
        if (isFleetMethod(request.method)) {
            Dispatched heavy;
            heavy.work = [this, caller, id = request.id, method = request.method, params = std::move(request.params)] {
                const Notify &notify = m_notify;
                const ConnectionId connection = caller.connection;
                try {
                    const auto reply = runFleetMethod(method, params, [&notify, connection](std::string message) {
                        if (notify)
                            notify(connection, std::move(message));
                    });
                    if (auto *result = std::get_if<Json>(&reply))
                        return std::optional<std::string>(responseLine(id, *result));
                    return std::optional<std::string>(errorLine(id, std::get<RpcError>(reply)));
                } catch (const std::exception &e) {
                    spdlog::error("uid {}: internal error: {}", caller.peer.uid, e.what());
                    return std::optional<std::string>(
                        errorLine(id, RpcError {ErrorCode::InternalError, std::string("internal error: ") + e.what()}));
                }
            };
            return heavy;
        }
        if (request.method == "facts.get") {
            auto facts = m_facts();
            if (!facts)
                return answer(RpcError {ErrorCode::InternalError, "cannot gather facts: " + facts.error().message});
            return answer(Json {{"facts", std::move(facts).value()}});
        }
        if (request.method == "apply.cancel") {
            auto run = stringParam(params, "run", true);
            if (failed(run))
                return answer(std::get<RpcError>(run));
            const std::string &runId = std::get<const Json *>(run)->get_ref<const std::string &>();
            const auto going = m_applies.running();
            if (!going || going->run != runId)
                return answer(invalidParam("run", "names no run that is going: '" + runId + "'"));
            // A previewer may stop its own preview, not somebody else's apply.
            if (caller.role != Role::Apply && going->owner != caller.connection)
                return answer(unauthorized(caller, "cancel another client's run"));
            if (!m_applies.cancel(runId))
                return answer(invalidParam("run", "names no run that is going: '" + runId + "'"));
            return answer(Json {{"run", runId}, {"cancelling", true}});
        }

        auto manifest = stringParam(params, "manifest", false);
        if (failed(manifest))
            return answer(std::get<RpcError>(manifest));
        auto source = stringParam(params, "source", false);
        if (failed(source))
            return answer(std::get<RpcError>(source));
        const bool hasManifest = std::get<const Json *>(manifest) != nullptr;
        const Json *sourceValue = std::get<const Json *>(source);
        if (hasManifest && sourceValue != nullptr)
            return answer(invalidParam("source", "cannot go with manifest: send one of them"));
        if (!hasManifest && sourceValue == nullptr)
            return answer(invalidParam("manifest", "is required: a string (or source, a bundle path or URL)"));
        if (sourceValue != nullptr && params.contains("base_dir"))
            return answer(invalidParam("base_dir", "cannot go with source: a bundle's manifest directory is its base"));
        if (sourceValue != nullptr) {
            if (auto refused = checkSource(caller, sourceValue->get_ref<const std::string &>()))
                return answer(*refused);
        }
        auto base = baseDirectory(params);
        if (failed(base))
            return answer(std::get<RpcError>(base));

        std::optional<bool> noop;
        bool healthCheckOnly = false;
        if (request.method == "apply.start") {
            auto noopParam = boolParam(params, "noop", true);
            if (failed(noopParam))
                return answer(std::get<RpcError>(noopParam));
            noop = std::get<const Json *>(noopParam)->get<bool>();
            auto healthParam = boolParam(params, "health_check_only", false);
            if (failed(healthParam))
                return answer(std::get<RpcError>(healthParam));
            if (const Json *value = std::get<const Json *>(healthParam))
                healthCheckOnly = value->get<bool>();
            if (!*noop && caller.role != Role::Apply)
                return answer(unauthorized(caller, "apply for real; only a preview (noop: true)"));
            if (const auto going = m_applies.running())
                return answer(
                    RpcError {ErrorCode::Busy, "another apply is running: " + going->run, {{"run", going->run}}});
        }
        // The manifest is parsed off the I/O thread: the request moves into the work.
        Dispatched heavy;
        heavy.work = [this, caller, id = request.id, method = request.method, params = std::move(request.params),
                         base = std::get<std::filesystem::path>(base), noop, healthCheckOnly] {
            try {
                return prepare(caller, id, method, params, base, noop, healthCheckOnly);
            } catch (const std::exception &e) {
                spdlog::error("uid {}: internal error: {}", caller.peer.uid, e.what());
                return std::optional<std::string>(
                    errorLine(id, RpcError {ErrorCode::InternalError, std::string("internal error: ") + e.what()}));
            }
        };
        return heavy;
    } catch (const std::exception &e) {
        spdlog::error("uid {}: internal error: {}", caller.peer.uid, e.what());
        return {errorLine(id, RpcError {ErrorCode::InternalError, std::string("internal error: ") + e.what()}), {}};
    }
}

std::optional<std::string> Dispatcher::handleLine(const Caller &caller, std::string_view line)
{
    Dispatched dispatched = dispatch(caller, line);
    if (dispatched.work)
        return dispatched.work();
    return std::move(dispatched.reply);
}

std::optional<std::string> Dispatcher::prepare(const Caller &caller, const Json &id, const std::string &method,
    const Json &params, const std::filesystem::path &base, std::optional<bool> noop, bool healthCheckOnly)
{
    const auto answer = [&](Reply reply) -> std::optional<std::string> {
        if (auto *result = std::get_if<Json>(&reply))
            return responseLine(id, *result);
        if (auto *error = std::get_if<RpcError>(&reply))
            return errorLine(id, *error);
        return std::nullopt;
    };
    // A previewer's manifest files (resources_jet_file, Hiera data) are read with the previewer's
    // own rights: the rendered result must not show what that user could not read.
    const bool asPeer = caller.role == Role::Preview && caller.peer.uid != ::geteuid() && ::geteuid() == 0;
    std::string text;
    std::string shownName = "manifest";
    std::filesystem::path baseDirectory = base;
    std::shared_ptr<SourceBundle> opened;
    if (const auto source = params.find("source"); source != params.end()) {
        const std::string &name = source->get_ref<const std::string &>();
        auto result = openSource(name, asPeer ? std::optional<Peer>(caller.peer) : std::nullopt);
        if (auto *error = std::get_if<RpcError>(&result))
            return answer(*error);
        opened = std::get<std::shared_ptr<SourceBundle>>(std::move(result));
        const FileText file = readManifestFile(opened->bundle->manifestPath().string());
        if (file.problem)
            return answer(sourceUnavailable(name, Error {"io", file.problem->message}));
        text = file.text;
        baseDirectory = opened->bundle->baseDirectory();
        shownName = fleet::redactUrl(name) + '('
            + opened->bundle->manifestPath().lexically_relative(opened->bundle->directory()).generic_string() + ')';
    } else {
        text = params.at("manifest").get_ref<const std::string &>();
    }
    if (method == "manifest.validate") {
        const Diagnostics diagnostics = validateManifestText(text);
        return answer(Json {{"valid", !hasErrors(diagnostics)}, {"diagnostics", diagnosticsJson(diagnostics)}});
    }

    const bool isApply = method == "apply.start";
    auto inputs = resolveInputs(m_facts, params, baseDirectory, isApply);
    if (std::holds_alternative<RpcError>(inputs))
        return answer(std::get<RpcError>(inputs));
    if (mayFetchRemote(caller.peer)) {
        auto reader
            = std::make_shared<fleet::KvReader>(fleet::NatsSelection {}, fleet::ContextEnvironment::fromProcess());
        std::get<ResolveOptions>(inputs).kvGet
            = [reader](const std::string &bucket, const std::string &key) { return reader->get(bucket, key); };
    } else {
        std::get<ResolveOptions>(inputs).kvGet = [](const std::string &, const std::string &) -> Result<std::string> {
            return Error {"unauthorized",
                "this is the system backend serving another user; NATS is reached by the user's own backend "
                "(ccm-backend serve --user)"};
        };
    }
    std::optional<PeerFileAccess> peerAccess;
    if (asPeer) {
        peerAccess.emplace(caller.peer);
        if (!peerAccess->active())
            return answer(RpcError {ErrorCode::InternalError,
                "cannot take on the identity of uid " + std::to_string(caller.peer.uid)
                    + " to read the manifest's files"});
    }
    engine::PreparedManifest prepared = engine::prepareManifestText(text, shownName, std::get<ResolveOptions>(inputs));
    peerAccess.reset();
    if (!prepared.ok()) {
        return answer(RpcError {ErrorCode::InvalidManifest, "the manifest is invalid",
            {{"diagnostics", diagnosticsJson(prepared.diagnostics)}}});
    }
    if (!isApply)
        return answer(Json {{"yaml", renderedManifestYaml(prepared.resolved)}});

    ApplyJob job;
    job.owner = caller.connection;
    job.requestId = id;
    job.manifest = std::move(prepared.resolved);
    job.inputs = std::move(std::get<ResolveOptions>(inputs));
    job.options.noop = *noop;
    job.options.healthCheckOnly = healthCheckOnly;
    job.keepAlive = std::move(opened);
    // A preview for somebody else must not let them run commands or read files as root.
    if (*noop && caller.peer.uid != 0 && caller.peer.uid != ::geteuid()) {
        job.options.guardCredentials = peerCredentials(caller.peer);
        job.options.mayShowDiff
            = [peer = caller.peer](const std::filesystem::path &path) { return peerMayRead(peer, path); };
        if (asPeer) {
            job.options.readAsCaller = [peer = caller.peer](const std::function<void()> &read) {
                const PeerFileAccess access(peer);
                if (!access.active())
                    return false;
                read();
                return true;
            };
        }
    }
    // Another client may have started a run while this manifest was prepared: start() says so.
    const ApplyControl::Started started = m_applies.start(std::move(job));
    if (!started.started)
        return answer(RpcError {ErrorCode::Busy, "another apply is running: " + started.run, {{"run", started.run}}});
    spdlog::info("uid {}: run {} started ({})", caller.peer.uid, started.run, *noop ? "noop" : "apply");
    return std::nullopt;
}

} // namespace ccm::daemon
