// SPDX-License-Identifier: Apache-2.0
#include "daemon/dispatcher.h"

#include "base/utf8.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/facts/environ.h"
#include "core/model/diagnostic.h"
#include "core/model/validator.h"
#include "daemon/capture_methods.h"
#include "daemon/editor_methods.h"
#include "daemon/fleet_methods.h"
#include "daemon/params.h"
#include "daemon/status_method.h"
#include "engine/prepared_manifest.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/nats/kv_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <vector>

namespace ccm::daemon {

ApplyControl::~ApplyControl() = default;

namespace {

/// The most of a client's text one log line quotes (loggableText()).
constexpr std::size_t kLongestLogged = 512;
/// The longest string id a request may have; every answer repeats it.
constexpr std::size_t kLongestId = 256;

/// base_dir: absolute, default "/".
RpcResult<std::filesystem::path> baseDirectory(const Params &params)
{
    auto found = params.optionalString("base_dir");
    if (!found)
        return found.error();
    if (!found.value())
        return std::filesystem::path("/");
    const std::string_view text = *found.value();
    if (text.find('\0') != std::string_view::npos || !std::filesystem::path(text).is_absolute())
        return Params::invalid("base_dir", "must be an absolute path");
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

RpcError unauthorized(const Caller &caller, std::string_view what)
{
    return RpcError {ErrorCode::Unauthorized,
        "user " + caller.peer.name + " (role " + std::string(roleName(caller.role)) + ") may not " + std::string(what),
        Json {{"role", std::string(roleName(caller.role))}}};
}

/// What manifests of a request resolve against: the host's facts with the request's facts merged
/// over them, the daemon's own environment (a client's working directory and .env mean nothing
/// here) and the request's data.
RpcResult<ResolveOptions> resolveInputs(
    const std::function<Result<Json>()> &gather, const Params &params, std::filesystem::path base, bool withData)
{
    auto extraFacts = params.optionalObject("facts");
    if (!extraFacts)
        return extraFacts.error();
    const Json *data = nullptr;
    if (withData) {
        auto found = params.optionalObject("data");
        if (!found)
            return found.error();
        data = *found;
    }
    auto facts = gather();
    if (!facts)
        return RpcError {ErrorCode::InternalError, "cannot gather facts: " + facts.error().message};
    ResolveOptions options;
    Json merged = std::move(facts).value();
    if (const Json *overlay = *extraFacts)
        deepMerge(merged, *overlay);
    options.facts = std::move(merged);
    options.environ = processEnviron(std::filesystem::path());
    if (data != nullptr)
        options.externalData = *data;
    options.baseDirectory = std::move(base);
    return options;
}

/// Whether `peer` is somebody other than root and the daemon's own user. What the daemon does for
/// such a peer must not lend it the daemon's rights: a preview for them neither runs commands nor
/// reads files as the daemon, and the daemon reaches no network with its own identity for them.
bool isSomeoneElse(const Peer &peer)
{
    return peer.uid != 0 && peer.uid != ::geteuid();
}

/// Whether the server fetches remote sources for `peer`: only as the peer's own backend (or for
/// root), so that a user never reaches the network with the system backend's identity.
bool mayFetchRemote(const Peer &peer)
{
    return !isSomeoneElse(peer);
}

/// The `source` param: a local bundle path or an http(s):// or obj:// URL, checked and authorized
/// before anything is fetched.
RpcResult<void> checkSource(const Caller &caller, const std::string &source)
{
    if (source.empty() || source.find('\0') != std::string::npos)
        return Params::invalid("source", "must be a bundle path or an http(s):// or obj:// URL");
    switch (fleet::sourceKind(source)) {
    case fleet::SourceKind::YamlFile:
        return Params::invalid("source",
            "must be a .tar.gz or .tgz bundle, an http(s):// or an obj://BUCKET/KEY URL; send a manifest's text "
            "as manifest");
    case fleet::SourceKind::HttpBundle:
    case fleet::SourceKind::ObjectBundle:
        if (!mayFetchRemote(caller.peer))
            return RpcError {ErrorCode::Unauthorized,
                "user " + caller.peer.name + " may not have this server fetch " + fleet::redactUrl(source)
                    + ": remote sources are fetched by the user's own backend (ccm-backend serve --user); fleet "
                      "operations never use the system backend's network identity or credentials",
                Json {{"role", std::string(roleName(caller.role))}}};
        return {};
    case fleet::SourceKind::LocalBundle:
        break;
    }
    if (!std::filesystem::path(source).is_absolute())
        return Params::invalid("source", "must be an absolute path when it names a local bundle");
    if (caller.peer.uid != ::geteuid() && !engine::userMayRead(caller.peer, source))
        return RpcError {ErrorCode::Unauthorized, "user " + caller.peer.name + " may not read " + source,
            Json {{"role", std::string(roleName(caller.role))}}};
    return {};
}

RpcError sourceUnavailable(const std::string &source, const Error &error)
{
    const std::string shown = fleet::redactUrl(source);
    std::string message = error.message;
    for (const std::string &prefix : {"fetching " + shown + ": ", shown + ": "})
        if (message.starts_with(prefix))
            message = message.substr(prefix.size());
    return RpcError {ErrorCode::SourceUnavailable, shown + ": " + message, Json {{"source", shown}}};
}

/// Fetches the bundle at the URL `source` into a private directory and unpacks it there.
RpcResult<std::shared_ptr<UnpackedBundle>> openRemoteSource(const std::string &source)
{
    auto download = BundleDownload::create();
    if (!download)
        return RpcError {ErrorCode::InternalError, download.error().message};
    auto fetched = fleet::fetchBundle(source, fleet::SourceOptions {}, download->archivePath());
    if (!fetched)
        return sourceUnavailable(source, fetched.error());
    auto bundle = UnpackedBundle::unpack(std::move(download).value());
    if (!bundle)
        return sourceUnavailable(source, bundle.error());
    return std::make_shared<UnpackedBundle>(std::move(bundle).value());
}

/// Fetches (for a URL) and unpacks `source`. With `owner`, what was unpacked is handed to that
/// peer, whose identity reads the manifest's files.
RpcResult<std::shared_ptr<UnpackedBundle>> openSource(const std::string &source, const std::optional<Peer> &owner)
{
    if (fleet::sourceKind(source) != fleet::SourceKind::LocalBundle)
        return openRemoteSource(source);
    std::filesystem::path archive = source;
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
    if (owner) {
        int openError = 0;
        {
            const engine::ThreadFileIdentity access(*owner);
            if (!access.active())
                return RpcError {ErrorCode::InternalError,
                    "cannot take on the identity of uid " + std::to_string(owner->uid) + " to open " + source};
            openedArchive.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
            openError = errno;
        }
        if (openedArchive.fd < 0 && (openError == EACCES || openError == EPERM))
            return RpcError {
                ErrorCode::Unauthorized, "user " + owner->name + " may not read " + source, Json {{"role", "preview"}}};
        if (openedArchive.fd < 0)
            return sourceUnavailable(source, Error {"io", std::strerror(openError)});
        archive = "/proc/self/fd/" + std::to_string(openedArchive.fd);
    }
    auto bundle = UnpackedBundle::unpack(archive);
    if (!bundle)
        return sourceUnavailable(source, bundle.error());
    auto opened = std::make_shared<UnpackedBundle>(std::move(bundle).value());
    if (owner) {
        for (const std::string &path : opened->createdPaths())
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
    , m_rejections([](const std::string &line) { spdlog::info("{}", line); })
{
}

void Dispatcher::reject(uid_t uid, std::string_view reason, std::string_view message)
{
    m_rejections.write("uid " + std::to_string(uid), reason, loggableText(message, kLongestLogged));
}

namespace {

/// Checks the JSON-RPC shape: a Request, an error to answer, or nullopt for a notification.
RpcResult<std::optional<Request>> parseRequest(
    std::string_view line, const Caller &caller, Json &id, Dispatcher &dispatcher)
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
        // Every answer repeats the id: a long one would make answers longer than a line may be.
        if (idMember->is_string() && idMember->get_ref<const std::string &>().size() > kLongestId)
            return RpcError {ErrorCode::InvalidRequest,
                "id must be an integer or a string of at most " + std::to_string(kLongestId) + " bytes"};
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
        problem = Params::invalid("params", "must be a map, not " + describeJsonType(*params));
    if (notification) {
        // Nobody waits for an answer to a notification; a broken one is only worth a log line.
        if (problem)
            dispatcher.reject(caller.peer.uid, "malformed_notification", "malformed notification: " + problem->message);
        return std::optional<Request>();
    }
    if (problem)
        return *problem;
    return std::optional<Request>(
        Request {*idMember, method->get<std::string>(), params == message.end() ? Json::object() : *params});
}

Dispatched answered(const Json &id, const Json &result)
{
    return Dispatched {responseLine(id, result), {}};
}

std::string internalErrorLine(const Caller &caller, const Json &id, const std::exception &e)
{
    // What the exception says may quote the request (a path, a name): it is cut like client input.
    const std::string what = loggableText(e.what(), kLongestLogged);
    spdlog::error("uid {}: internal error: {}", caller.peer.uid, what);
    return errorLine(id, RpcError {ErrorCode::InternalError, "internal error: " + what});
}

/// What a string param holds, which bounds its length: what its longest sensible value needs and
/// what the system or the agents take, so that no request has the daemon work on, log or echo
/// megabytes where a few hundred bytes do.
enum class ParamKind {
    Label, ///< a client's name or version, a template engine
    Name, ///< a file, bucket or NATS context name
    ObjectName, ///< an object store name
    Path, ///< a file or directory
    Url, ///< http(s):// or obj:// URLs, NATS server URLs
    Location, ///< a Path, or a Url when it holds "://"
    Selector, ///< a fleet preview's fact selector
    RunId, ///< a run's id
    Text, ///< the text of a manifest, template or expression: only the line limit bounds it
};

/// A string param of a method and its kind; with `list`, a list of such strings.
struct ParamBound {
    std::string_view name;
    ParamKind kind;
    bool list = false;
};

/// The bounds of a kind: bytes in all, bytes of each path component (0: not a path), and what
/// the bound is, for the error.
struct KindLimit {
    std::size_t bytes;
    std::size_t componentBytes;
    std::string_view why;
};

KindLimit limitOf(ParamKind kind)
{
    switch (kind) {
    case ParamKind::Label:
        return {256, 0, "the most a label may have"};
    case ParamKind::Name:
        return {255, 0, "the most a name may have (NAME_MAX)"};
    case ParamKind::ObjectName:
        return {1024, 0, "the most an object name may have"};
    case ParamKind::Path:
    case ParamKind::Location:
        return {4096, 255, "the most a path may have (PATH_MAX)"};
    case ParamKind::Url:
        return {8192, 0, "the most a URL may have"};
    case ParamKind::Selector:
        // What agents take (the request's fields are at most 4096 bytes); they drop a longer one unanswered.
        return {4096, 0, "the most a selector may have: agents ignore longer ones"};
    case ParamKind::RunId:
        return {128, 0, "the most a run id may have"};
    case ParamKind::Text:
        break;
    }
    return {kMaxLineBytes, 0, "the line limit"};
}

/// Checks one string against its kind; `path` (a JSON pointer) and `shown` name it in the error.
RpcResult<void> checkBound(std::string_view value, ParamKind kind, const std::string &path, const std::string &shown)
{
    if (kind == ParamKind::Location && value.find("://") != std::string_view::npos)
        kind = ParamKind::Url;
    const KindLimit limit = limitOf(kind);
    const auto tooLong = [&](const std::string &problem, std::size_t bytes) {
        RpcError error = Params::invalidAt(path, shown, problem);
        error.data["limit"] = bytes;
        return error;
    };
    if (value.size() > limit.bytes)
        return tooLong(
            "is longer than " + std::to_string(limit.bytes) + " bytes, " + std::string(limit.why), limit.bytes);
    if (limit.componentBytes > 0) {
        for (std::size_t start = 0; start < value.size();) {
            const std::size_t end = std::min(value.find('/', start), value.size());
            if (end - start > limit.componentBytes)
                return tooLong("has a component longer than " + std::to_string(limit.componentBytes)
                        + " bytes, the most a file name may have (NAME_MAX)",
                    limit.componentBytes);
            start = end + 1;
        }
    }
    return {};
}

/// Checks the string params of `params` named in `bounds`. A param of another type is left to the
/// method, which says what type it wants.
RpcResult<void> checkBounds(const std::vector<ParamBound> &bounds, const Json &params)
{
    for (const ParamBound &bound : bounds) {
        const auto found = params.find(bound.name);
        if (found == params.end())
            continue;
        const std::string name(bound.name);
        if (found->is_string()) {
            if (auto checked = checkBound(found->get_ref<const std::string &>(), bound.kind, name, name); !checked)
                return checked;
        } else if (bound.list && found->is_array()) {
            for (std::size_t i = 0; i < found->size(); ++i) {
                const Json &item = (*found)[i];
                if (!item.is_string())
                    continue;
                if (auto checked = checkBound(item.get_ref<const std::string &>(), bound.kind,
                        name + "/" + std::to_string(i), name + "[" + std::to_string(i) + "]");
                    !checked)
                    return checked;
            }
        }
    }
    return {};
}

/// The line of an answer to `id`, or a too_large error in its place when the answer is longer
/// than a line may be: the client would have to drop it, and its connection with it.
std::string fittedLine(const Json &id, std::string line)
{
    if (line.size() <= kMaxLineBytes)
        return line;
    return errorLine(id,
        RpcError {ErrorCode::TooLarge,
            "the answer is " + std::to_string(line.size()) + " bytes, more than the " + std::to_string(kMaxLineBytes)
                + " a line may have; ask for less",
            {{"limit", kMaxLineBytes}}});
}

} // namespace

struct Dispatcher::Method {
    std::string_view name;
    /// The least role that may call it.
    Role minimum = Role::Preview;
    /// Served only to a peer of the daemon's own uid: the method uses the daemon's own files and
    /// NATS credentials, which a system backend must not lend to other users.
    bool ownUidOnly = false;
    RpcResult<Dispatched> (Dispatcher::*handler)(const Caller &, Request &) = nullptr;
    /// Its string params and their bounds, checked before the handler runs.
    std::vector<ParamBound> params;
};

struct Dispatcher::ManifestRequest {
    std::filesystem::path base;
    /// Set for apply.start only.
    std::optional<bool> noop;
    bool healthCheckOnly = false;
};

const Dispatcher::Method *Dispatcher::findMethod(std::string_view name)
{
    using enum ParamKind;
    static const Method kMethods[] = {
        {"backend.hello", Role::None, false, &Dispatcher::hello, {{"client", Label}, {"version", Label}}},
        {"facts.get", Role::Preview, false, &Dispatcher::factsGet, {}},
        {"manifest.validate", Role::Preview, false, &Dispatcher::manifestMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"source", Location}}},
        {"manifest.render", Role::Preview, false, &Dispatcher::manifestMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"source", Location}}},
        {"apply.start", Role::Preview, false, &Dispatcher::applyStart,
            {{"manifest", Text}, {"base_dir", Path}, {"source", Location}}},
        {"apply.cancel", Role::Preview, false, &Dispatcher::applyCancel, {{"run", RunId}}},
        {"template.render", Role::Preview, false, &Dispatcher::editorMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"text", Text}, {"engine", Label}, {"path", Path}}},
        {"expression.evaluate", Role::Preview, false, &Dispatcher::editorMethod,
            {{"manifest", Text}, {"base_dir", Path}}},
        {"data.resolve", Role::Preview, false, &Dispatcher::editorMethod, {{"manifest", Text}, {"base_dir", Path}}},
        {"resource.status", Role::Preview, false, &Dispatcher::resourceStatus,
            {{"type", Label}, {"name", Text}, {"base_dir", Path}}},
        {"host.inventory", Role::Preview, false, &Dispatcher::hostMethod, {{"kind", Label}, {"path", Path}}},
        {"host.capture", Role::Preview, false, &Dispatcher::hostMethod,
            {{"packages", Label, true}, {"services", Label, true}, {"files", Path, true}, {"excludes", Path, true}}},
        {"bundle.list", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"name", Name}, {"include", Path, true}}},
        {"bundle.export", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"name", Name}, {"include", Path, true}, {"output", Path}}},
        {"bundle.publish", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"file", Path}, {"bucket", Name}, {"name", ObjectName}, {"key", Path}, {"message", Text},
                {"context", Name}, {"nats", Url}}},
        {"bundle.open", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"location", Location}, {"context", Name}, {"nats", Url}}},
        {"fleet.status", Role::Preview, true, &Dispatcher::fleetMethod, {{"context", Name}, {"nats", Url}}},
        {"fleet.preview", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"name", Name}, {"include", Path, true}, {"source", Location},
                {"key", Path}, {"select", Selector}, {"context", Name}, {"nats", Url}}},
        {"fleet.capture", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"host", ObjectName}, {"key", Path}, {"packages", Label, true}, {"services", Label, true},
                {"files", Path, true}, {"excludes", Path, true}, {"context", Name}, {"nats", Url}}},
        {"fleet.keygen", Role::Preview, true, &Dispatcher::fleetMethod, {{"private", Path}, {"public", Path}}},
        {"fleet.keyinfo", Role::Preview, true, &Dispatcher::fleetMethod, {{"private", Path}}},
        {"fleet.releases", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"bucket", Name}, {"name", ObjectName}, {"context", Name}, {"nats", Url}}},
        {"fleet.rollback", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"bucket", Name}, {"name", ObjectName}, {"to", Label}, {"key", Path}, {"message", Text}, {"context", Name},
                {"nats", Url}}},
        {"fleet.rollouts", Role::Preview, true, &Dispatcher::fleetMethod, {{"context", Name}, {"nats", Url}}},
        {"fleet.rollout", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"manifest", Text}, {"base_dir", Path}, {"name", Name}, {"include", Path, true}, {"source", Path},
                {"bucket", Name}, {"rings", ObjectName, true}, {"key", Path}, {"max_failed", Label}, {"message", Text},
                {"context", Name}, {"nats", Url}}},
        {"fleet.rollout.control", Role::Preview, true, &Dispatcher::fleetMethod,
            {{"id", Label}, {"action", Label}, {"context", Name}, {"nats", Url}}},
    };
    for (const Method &method : kMethods)
        if (method.name == name)
            return &method;
    return nullptr;
}

RpcResult<void> Dispatcher::authorize(const Caller &caller, const Method &method) const
{
    if (method.ownUidOnly && caller.peer.uid != ::geteuid())
        return unauthorized(caller,
            "call " + std::string(method.name)
                + " on a backend running as another user; use your own user backend (ccm-backend serve --user)");
    if (caller.role < method.minimum)
        return unauthorized(caller, "call " + std::string(method.name));
    return {};
}

Dispatched Dispatcher::dispatch(const Caller &caller, std::string_view line)
{
    Json id = nullptr;
    Dispatched dispatched = route(caller, line, id);
    // Every answer, result or error, now or from the work, fits in a line.
    const auto fit = [this, uid = caller.peer.uid, id](std::string answer) {
        const std::size_t bytes = answer.size();
        std::string fitted = fittedLine(id, std::move(answer));
        if (fitted.size() != bytes)
            reject(uid, "too_large_answer",
                "an answer of " + std::to_string(bytes) + " bytes was longer than a line may be; sent too_large");
        return fitted;
    };
    if (dispatched.reply)
        dispatched.reply = fit(std::move(*dispatched.reply));
    if (dispatched.work)
        dispatched.work = [work = std::move(dispatched.work), fit]() -> std::optional<std::string> {
            std::optional<std::string> answer = work();
            if (answer)
                answer = fit(std::move(*answer));
            return answer;
        };
    return dispatched;
}

Dispatched Dispatcher::route(const Caller &caller, std::string_view line, Json &id)
{
    try {
        auto parsed = parseRequest(line, caller, id, *this);
        // `logged` stands for the message in the log when it would quote the client's raw text.
        const auto rejected = [&](const RpcError &error, std::optional<std::string> logged = std::nullopt) {
            reject(caller.peer.uid, reasonName(error.code), "rejected request: " + logged.value_or(error.message));
            return Dispatched {errorLine(id, error), {}};
        };
        if (!parsed)
            return rejected(parsed.error());
        if (!parsed->has_value())
            return {};
        Request &request = *parsed.value();
        const Method *method = findMethod(request.method);
        if (method == nullptr)
            return rejected(RpcError {ErrorCode::MethodNotFound, "no method '" + request.method + "'"},
                "no method '" + loggableText(request.method, 64) + "'");
        if (auto allowed = authorize(caller, *method); !allowed)
            return rejected(allowed.error());
        spdlog::info("uid {}: {}", caller.peer.uid, request.method);
        if (auto bounded = checkBounds(method->params, request.params); !bounded)
            return Dispatched {errorLine(request.id, bounded.error()), {}};
        auto handled = (this->*method->handler)(caller, request);
        if (!handled)
            return Dispatched {errorLine(request.id, handled.error()), {}};
        return std::move(handled).value();
    } catch (const std::exception &e) {
        return {internalErrorLine(caller, id, e), {}};
    }
}

RpcResult<Dispatched> Dispatcher::hello(const Caller &caller, Request &request)
{
    const Params params(request.params);
    for (const char *name : {"client", "version"}) {
        if (auto checked = params.string(name); !checked)
            return checked.error();
    }
    Json result = Json::object();
    result["server"] = "ccm-backend";
    result["version"] = CCM_VERSION;
    result["protocol"] = kProtocolVersion;
    result["role"] = roleName(caller.role);
    result["user"] = caller.peer.name;
    result["uid"] = caller.peer.uid;
    return answered(request.id, result);
}

RpcResult<Dispatched> Dispatcher::factsGet(const Caller &, Request &request)
{
    auto facts = m_facts();
    if (!facts)
        return RpcError {ErrorCode::InternalError, "cannot gather facts: " + facts.error().message};
    return answered(request.id, Json {{"facts", std::move(facts).value()}});
}

RpcResult<Dispatched> Dispatcher::applyCancel(const Caller &caller, Request &request)
{
    auto run = Params(request.params).string("run");
    if (!run)
        return run.error();
    const std::string runId(run.value());
    const auto going = m_applies.running();
    if (!going || going->run != runId)
        return Params::invalid("run", "names no run that is going: '" + runId + "'");
    // A previewer may stop its own preview, not somebody else's apply.
    if (caller.role != Role::Apply && going->owner != caller.connection)
        return unauthorized(caller, "cancel another client's run");
    if (!m_applies.cancel(runId))
        return Params::invalid("run", "names no run that is going: '" + runId + "'");
    return answered(request.id, Json {{"run", runId}, {"cancelling", true}});
}

RpcResult<Dispatched> Dispatcher::fleetMethod(const Caller &caller, Request &request)
{
    // Registered now, not when the work starts: a client that hangs up before then is cancelled too.
    const auto cancel = std::make_shared<std::atomic<bool>>(false);
    {
        const std::lock_guard lock(m_fleetMutex);
        m_fleetCancels.emplace(caller.connection, cancel);
    }
    Dispatched heavy;
    heavy.work = [this, caller, cancel, id = request.id, method = request.method, params = std::move(request.params)] {
        const Notify &notify = m_notify;
        const ConnectionId connection = caller.connection;
        std::optional<std::string> line;
        try {
            const auto reply = runFleetMethod(
                method, params,
                [&notify, connection](std::string message) {
                    if (notify)
                        notify(connection, std::move(message));
                },
                *cancel);
            line = reply ? responseLine(id, *reply) : errorLine(id, reply.error());
        } catch (const std::exception &e) {
            line = internalErrorLine(caller, id, e);
        }
        const std::lock_guard lock(m_fleetMutex);
        std::erase_if(m_fleetCancels, [&cancel](const auto &entry) { return entry.second == cancel; });
        return line;
    };
    return heavy;
}

void Dispatcher::cancelFleetWork(std::optional<ConnectionId> connection)
{
    // Entries go with the flag set: a work the pool drops unstarted never removes its own.
    const std::lock_guard lock(m_fleetMutex);
    std::erase_if(m_fleetCancels, [connection](const auto &entry) {
        if (connection && entry.first != *connection)
            return false;
        *entry.second = true;
        return true;
    });
}

namespace {

/// The manifest of validate, render and apply.start: its text (`manifest`) or a bundle
/// (`source`, authorized here), and the directory its relative paths start from.
RpcResult<std::filesystem::path> manifestBase(const Caller &caller, const Params &params)
{
    auto manifest = params.optionalString("manifest");
    if (!manifest)
        return manifest.error();
    auto source = params.optionalString("source");
    if (!source)
        return source.error();
    const bool hasManifest = manifest.value().has_value();
    const std::optional<std::string_view> sourceValue = source.value();
    if (hasManifest && sourceValue)
        return Params::invalid("source", "cannot go with manifest: send one of them");
    if (!hasManifest && !sourceValue)
        return Params::invalid("manifest", "is required: a string (or source, a bundle path or URL)");
    if (sourceValue && params.has("base_dir"))
        return Params::invalid("base_dir", "cannot go with source: a bundle's manifest directory is its base");
    if (sourceValue) {
        if (auto allowed = checkSource(caller, std::string(*sourceValue)); !allowed)
            return allowed.error();
    }
    return baseDirectory(params);
}

} // namespace

RpcResult<Dispatched> Dispatcher::manifestMethod(const Caller &caller, Request &request)
{
    auto base = manifestBase(caller, Params(request.params));
    if (!base)
        return base.error();
    return manifestWork(caller, request, ManifestRequest {std::move(base).value(), std::nullopt, false});
}

RpcResult<Dispatched> Dispatcher::applyStart(const Caller &caller, Request &request)
{
    const Params params(request.params);
    auto base = manifestBase(caller, params);
    if (!base)
        return base.error();
    auto noop = params.boolean("noop");
    if (!noop)
        return noop.error();
    auto healthCheckOnly = params.flag("health_check_only");
    if (!healthCheckOnly)
        return healthCheckOnly.error();
    ManifestRequest manifest {std::move(base).value(), noop.value(), healthCheckOnly.value()};
    if (!*manifest.noop && caller.role != Role::Apply)
        return unauthorized(caller, "apply for real; only a preview (noop: true)");
    if (const auto going = m_applies.running())
        return RpcError {ErrorCode::Busy, "another apply is running: " + going->run, {{"run", going->run}}};
    return manifestWork(caller, request, manifest);
}

Dispatched Dispatcher::manifestWork(const Caller &caller, Request &request, const ManifestRequest &manifest)
{
    // The manifest is parsed off the I/O thread: the request moves into the work.
    Dispatched heavy;
    heavy.work
        = [this, caller, id = request.id, method = request.method, params = std::move(request.params), manifest] {
              try {
                  return prepare(caller, id, method, params, manifest);
              } catch (const std::exception &e) {
                  return std::optional<std::string>(internalErrorLine(caller, id, e));
              }
          };
    return heavy;
}

std::optional<std::string> Dispatcher::handleLine(const Caller &caller, std::string_view line)
{
    Dispatched dispatched = dispatch(caller, line);
    if (dispatched.work)
        return dispatched.work();
    return std::move(dispatched.reply);
}

namespace {

/// The text of the manifest a request sends or names, the directory its paths start from, the
/// name it is shown by and, for a `source`, the unpacked bundle that must outlive the run.
struct ManifestText {
    std::string text;
    std::string shownName = "manifest";
    std::filesystem::path base;
    std::shared_ptr<UnpackedBundle> opened;
};

/// Reads the manifest's text; a `source` is fetched and unpacked, as `owner` when set.
RpcResult<ManifestText> readManifest(
    const Json &params, const std::filesystem::path &base, const std::optional<Peer> &owner)
{
    ManifestText manifest;
    manifest.base = base;
    const auto source = params.find("source");
    if (source == params.end()) {
        manifest.text = params.at("manifest").get_ref<const std::string &>();
        return manifest;
    }
    const std::string &name = source->get_ref<const std::string &>();
    auto opened = openSource(name, owner);
    if (!opened)
        return opened.error();
    manifest.opened = std::move(opened).value();
    const UnpackedBundle &bundle = *manifest.opened;
    const FileText file = readManifestFile(bundle.manifestPath().string());
    if (file.problem)
        return sourceUnavailable(name, Error {"io", file.problem->message});
    manifest.text = file.text;
    manifest.base = bundle.baseDirectory();
    manifest.shownName = fleet::redactUrl(name) + '('
        + bundle.manifestPath().lexically_relative(bundle.directory()).generic_string() + ')';
    return manifest;
}

/// kvGet() of templates: NATS through the daemon's own contexts, only for a peer the daemon may
/// fetch for.
void provideKvGet(ResolveOptions &inputs, const Peer &peer)
{
    if (mayFetchRemote(peer)) {
        auto reader
            = std::make_shared<fleet::KvReader>(fleet::NatsSelection {}, fleet::ContextEnvironment::fromProcess());
        inputs.kvGet = [reader](const std::string &bucket, const std::string &key) { return reader->get(bucket, key); };
        return;
    }
    inputs.kvGet = [](const std::string &, const std::string &) -> Result<std::string> {
        return Error {"unauthorized",
            "this is the system backend serving another user; NATS is reached by the user's own backend "
            "(ccm-backend serve --user)"};
    };
}

} // namespace

std::optional<std::string> Dispatcher::prepare(const Caller &caller, const Json &id, const std::string &method,
    const Json &params, const ManifestRequest &manifest)
{
    auto prepared = prepareChecked(caller, id, method, params, manifest);
    if (!prepared)
        return errorLine(id, prepared.error());
    if (!prepared->has_value())
        return std::nullopt;
    return responseLine(id, **prepared);
}

RpcResult<std::optional<Json>> Dispatcher::prepareChecked(
    const Caller &caller, const Json &id, const std::string &method, const Json &params, const ManifestRequest &request)
{
    // A previewer's manifest files (resources_jet_file, Hiera data) are read with the previewer's
    // own rights: the rendered result must not show what that user could not read.
    const bool asPeer = caller.role == Role::Preview && isSomeoneElse(caller.peer) && ::geteuid() == 0;
    auto manifest = readManifest(params, request.base, asPeer ? std::optional<Peer>(caller.peer) : std::nullopt);
    if (!manifest)
        return manifest.error();
    if (method == "manifest.validate") {
        // A previewer is not told what files it could not read declare: without them, a reference
        // only a child manifest could satisfy stays a warning.
        const Diagnostics diagnostics
            = validateManifestText(manifest->text, asPeer ? std::filesystem::path() : manifest->base);
        return std::optional<Json>(
            Json {{"valid", !hasErrors(diagnostics)}, {"diagnostics", diagnosticsJson(diagnostics)}});
    }
    const bool isApply = method == "apply.start";
    auto inputs = resolveInputs(m_facts, Params(params), manifest->base, isApply);
    if (!inputs)
        return inputs.error();
    provideKvGet(inputs.value(), caller.peer);
    std::optional<engine::ThreadFileIdentity> peerAccess;
    if (asPeer) {
        peerAccess.emplace(caller.peer);
        if (!peerAccess->active())
            return RpcError {ErrorCode::InternalError,
                "cannot take on the identity of uid " + std::to_string(caller.peer.uid)
                    + " to read the manifest's files"};
    }
    engine::PreparedManifest prepared = engine::prepareManifestText(manifest->text, manifest->shownName, *inputs);
    peerAccess.reset();
    if (!prepared.ok())
        return RpcError {ErrorCode::InvalidManifest, "the manifest is invalid",
            {{"diagnostics", diagnosticsJson(prepared.diagnostics)}}};
    if (!isApply)
        return std::optional<Json>(Json {{"yaml", renderedManifestYaml(prepared.resolved)}});

    ApplyJob job {caller.connection, id, std::move(prepared.resolved), std::move(inputs).value(), {},
        std::move(manifest.value().opened)};
    job.options.noop = *request.noop;
    job.options.healthCheckOnly = request.healthCheckOnly;
    if (*request.noop && isSomeoneElse(caller.peer))
        engine::runAsUser(job.options, caller.peer, asPeer);
    // Another client may have started a run while this manifest was prepared: start() says so.
    const ApplyControl::Started started = m_applies.start(std::move(job));
    if (!started.started)
        return RpcError {ErrorCode::Busy, "another apply is running: " + started.run, {{"run", started.run}}};
    spdlog::info("uid {}: run {} started ({})", caller.peer.uid, started.run, *request.noop ? "noop" : "apply");
    return std::optional<Json>();
}

RpcResult<Dispatched> Dispatcher::editorMethod(const Caller &caller, Request &request)
{
    const Params params(request.params);
    if (auto manifest = params.string("manifest"); !manifest)
        return manifest.error();
    auto base = baseDirectory(params);
    if (!base)
        return base.error();
    if (auto facts = params.optionalObject("facts"); !facts)
        return facts.error();
    if (auto checked = checkEditorParams(request.method, request.params); !checked)
        return checked.error();
    Dispatched heavy;
    heavy.work = [this, caller, id = request.id, method = request.method, params = std::move(request.params),
                     base = std::move(base).value()]() -> std::optional<std::string> {
        try {
            auto result = editorResult(caller, method, params, base);
            return result ? responseLine(id, *result) : errorLine(id, result.error());
        } catch (const std::exception &e) {
            return internalErrorLine(caller, id, e);
        }
    };
    return heavy;
}

RpcResult<Dispatched> Dispatcher::resourceStatus(const Caller &caller, Request &request)
{
    if (auto checked = checkStatusParams(request.params); !checked)
        return checked.error();
    Dispatched heavy;
    heavy.work = [this, caller, id = request.id, params = std::move(request.params)]() -> std::optional<std::string> {
        try {
            auto result = resourceStatusResult(caller.peer, isSomeoneElse(caller.peer), params, m_facts);
            return result ? responseLine(id, *result) : errorLine(id, result.error());
        } catch (const std::exception &e) {
            return internalErrorLine(caller, id, e);
        }
    };
    return heavy;
}

RpcResult<Dispatched> Dispatcher::hostMethod(const Caller &caller, Request &request)
{
    const bool inventory = request.method == "host.inventory";
    if (auto checked = inventory ? checkInventoryParams(request.params) : checkCaptureParams(request.params); !checked)
        return checked.error();
    // Listing a package database or reading a tree takes long: off the I/O thread.
    Dispatched heavy;
    heavy.work
        = [caller, inventory, id = request.id, params = std::move(request.params)]() -> std::optional<std::string> {
        try {
            const bool someoneElse = isSomeoneElse(caller.peer);
            auto result = inventory ? hostInventoryResult(caller.peer, caller.role, someoneElse, params)
                                    : hostCaptureResult(caller.peer, caller.role, someoneElse, params);
            return result ? responseLine(id, *result) : errorLine(id, result.error());
        } catch (const std::exception &e) {
            return internalErrorLine(caller, id, e);
        }
    };
    return heavy;
}

RpcResult<Json> Dispatcher::editorResult(
    const Caller &caller, const std::string &method, const Json &params, const std::filesystem::path &base)
{
    auto inputs = resolveInputs(m_facts, Params(params), base, false);
    if (!inputs)
        return inputs.error();
    provideKvGet(inputs.value(), caller.peer);
    // Template files are read with the previewer's own rights, as for manifest.render.
    std::optional<engine::ThreadFileIdentity> peerAccess;
    if (caller.role == Role::Preview && isSomeoneElse(caller.peer) && ::geteuid() == 0) {
        peerAccess.emplace(caller.peer);
        if (!peerAccess->active())
            return RpcError {ErrorCode::InternalError,
                "cannot take on the identity of uid " + std::to_string(caller.peer.uid)
                    + " to read the manifest's files"};
    }
    return runEditorMethod(method, params, params.at("manifest").get_ref<const std::string &>(), *inputs);
}

} // namespace ccm::daemon
