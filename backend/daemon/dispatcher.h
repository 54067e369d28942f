// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rate_limited_log.h"
#include "base/result.h"
#include "core/model/json.h"
#include "core/model/resolve.h"
#include "daemon/peer.h"
#include "engine/run.h"
#include "protocol/protocol.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace ccm::daemon {

// The daemon is the protocol's server: its names are the daemon's own.
using protocol::ErrorCode;
using protocol::errorLine;
using protocol::kMaxLineBytes;
using protocol::kMaxNesting;
using protocol::kProtocolVersion;
using protocol::notificationLine;
using protocol::reasonName;
using protocol::responseLine;
using protocol::RpcError;
using protocol::RpcResult;

/// Identifies a connection for as long as the daemon runs; never reused.
using ConnectionId = std::uint64_t;

/// A validated and resolved apply.start, ready to run.
struct ApplyJob {
    ConnectionId owner = 0;
    /// The id of the apply.start request, which the final response answers.
    Json requestId;
    ResolvedManifest manifest;
    ResolveOptions inputs;
    /// Everything but `cancel`, which belongs to the run.
    engine::RunOptions options;
    /// What must live as long as the run: the unpacked bundle of a `source`.
    std::shared_ptr<const void> keepAlive;
};

/// Where applies go: the dispatcher starts and cancels runs through it.
class ApplyControl {
public:
    virtual ~ApplyControl();

    /// The outcome of start(): the id of the new run, or of the run that is in the way.
    struct Started {
        bool started = false;
        std::string run;
    };

    /// The run going now and the connection that started it.
    struct Running {
        std::string run;
        ConnectionId owner = 0;
    };

    /// Starts `job` unless a run is going.
    virtual Started start(ApplyJob job) = 0;
    /// The run going now, if any.
    [[nodiscard]] virtual std::optional<Running> running() const = 0;
    /// Asks the run `run` to stop before its next resource; false when no such run is going.
    virtual bool cancel(std::string_view run) = 0;
};

/// Who sent a line.
struct Caller {
    ConnectionId connection = 0;
    Peer peer;
    Role role = Role::None;
};

/// What a request line comes to: an answer due now, or work too heavy for the I/O thread.
struct Dispatched {
    /// The response line to send now; nullopt when there is none (yet).
    std::optional<std::string> reply;
    /// Set for the manifest, editor and bundle methods and apply.start once the request has passed
    /// every check that needs no manifest parsing, authorization included. May run on any thread;
    /// returns the response line, or nullopt for an apply.start whose run answers when it ends.
    std::function<std::optional<std::string>()> work;
};

/// A request that passed the protocol's checks.
struct Request {
    Json id;
    std::string method;
    Json params;
};

/// Parses request lines, checks them against the protocol and the caller's role, and answers
/// them: hello and facts at once, validate and render through a Dispatched::work, apply.start
/// through ApplyControl, whose run answers later. Never throws for any input.
class Dispatcher {
public:
    /// Sends a notification line to a connection while its request runs; any thread.
    using Notify = std::function<void(ConnectionId connection, std::string line)>;

    /// `facts` gathers the facts of this host (called per request that needs them); `notify`
    /// carries the notifications of requests other than apply.start (bundle.progress).
    Dispatcher(ApplyControl &applies, std::function<Result<Json>()> facts, Notify notify = {});

    /// Handles one line (newline removed) up to the point where a manifest would be parsed.
    Dispatched dispatch(const Caller &caller, std::string_view line);

    /// dispatch() with its work done at once. Returns the response line, or nullopt when nothing
    /// is due now: a notification from the client, or an apply.start whose run answers when it ends.
    std::optional<std::string> handleLine(const Caller &caller, std::string_view line);

    /// Ends the fleet previews `connection` started, or every one with nullopt (the daemon
    /// stops): nobody is left to read their answers. Any thread.
    void cancelFleetWork(std::optional<ConnectionId> connection);

    /// Logs rejected input of `uid` as "uid UID: MESSAGE", rate-limited per uid and `reason`
    /// (docs/protocol.md, Limits), the message cut to a bounded length. The server logs its own
    /// rejections (oversized lines, refused connections) here too. Any thread.
    void reject(uid_t uid, std::string_view reason, std::string_view message);
    /// The log reject() writes to, for the server to flush when intervals end and when it stops.
    RateLimitedLog &rejections() { return m_rejections; }

private:
    /// One method of the protocol: who may call it and what serves it.
    struct Method;
    /// The manifest of a request, checked (`source` authorized) but not read yet.
    struct ManifestRequest;
    /// The methods of the protocol; a name not in it is method_not_found.
    static const Method *findMethod(std::string_view name);

    /// dispatch() but for fitting the answers in a line; sets `id` once the request's is read.
    Dispatched route(const Caller &caller, std::string_view line, Json &id);
    /// Refuses the request when the caller may not call `method`, before any parameter is looked at.
    RpcResult<void> authorize(const Caller &caller, const Method &method) const;

    // The handlers of the methods, called once the caller is authorized; each checks its params.
    RpcResult<Dispatched> hello(const Caller &caller, Request &request);
    RpcResult<Dispatched> factsGet(const Caller &caller, Request &request);
    RpcResult<Dispatched> applyCancel(const Caller &caller, Request &request);
    RpcResult<Dispatched> manifestMethod(const Caller &caller, Request &request);
    RpcResult<Dispatched> applyStart(const Caller &caller, Request &request);
    RpcResult<Dispatched> fleetMethod(const Caller &caller, Request &request);
    RpcResult<Dispatched> editorMethod(const Caller &caller, Request &request);
    RpcResult<Dispatched> resourceStatus(const Caller &caller, Request &request);
    /// host.inventory and host.capture, off the I/O thread.
    RpcResult<Dispatched> hostMethod(const Caller &caller, Request &request);
    /// The result of template.render, expression.evaluate or data.resolve, off the I/O thread.
    RpcResult<Json> editorResult(
        const Caller &caller, const std::string &method, const Json &params, const std::filesystem::path &base);

    /// The work that reads and parses the manifest off the I/O thread; the request moves into it.
    Dispatched manifestWork(const Caller &caller, Request &request, const ManifestRequest &manifest);
    /// The response line of a manifest request, or nullopt for an apply.start whose run answers.
    std::optional<std::string> prepare(const Caller &caller, const Json &id, const std::string &method,
        const Json &params, const ManifestRequest &manifest);
    /// Validates or renders the manifest, or resolves it and hands an apply.start's run to
    /// ApplyControl (then nullopt).
    RpcResult<std::optional<Json>> prepareChecked(const Caller &caller, const Json &id, const std::string &method,
        const Json &params, const ManifestRequest &manifest);

    /// The cancel flags of the fleet methods running now, by the connection that asked.
    std::mutex m_fleetMutex;
    std::multimap<ConnectionId, std::shared_ptr<std::atomic<bool>>> m_fleetCancels;

    ApplyControl &m_applies;
    std::function<Result<Json>()> m_facts;
    Notify m_notify;
    RateLimitedLog m_rejections;
};

} // namespace ccm::daemon
