// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/facts/facts.h"
#include "core/model/json.h"
#include "core/model/transaction_event.h"
#include "engine/run.h"
#include "fleet/agent/bundle_source.h"

#include <atomic>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccm::cli {

/// What every `ensure` shares, from the flags upstream's `ccm ensure` takes before and after the
/// type (and their environment variables).
struct EnsureSettings {
    bool noop = false;
    /// --session DIR, or $CCM_SESSION_STORE; unset runs without a session.
    std::optional<std::filesystem::path> session;
    /// --hiera FILE, or $CCM_HIERA_DATA, default ".hiera": data resolved against the facts and
    /// given to templates as `data`; a missing file is no data.
    std::string hieraFile = ".hiera";
    /// --read-env (default true): merge ./.env's KEY=VALUE lines into the environment templates see.
    bool readEnv = true;
    /// --context/--nats: how kv lookups in templates reach NATS.
    fleet::SourceOptions sources;
    /// Facts beyond the system's (`ensure api pipe --facts`).
    FactSources facts;
    /// Data merged over the Hiera file's (`ensure api pipe --data`).
    std::optional<std::string> dataFile;
    /// Set (by a signal handler) to stop before the resource runs; unset never stops. A resource
    /// that has begun runs to its end and is recorded.
    const std::atomic<bool> *cancel = nullptr;
};

/// Consumes a common ensure option at args[index] (and its value, advancing index): --noop,
/// --session, --hiera, --read-env/--no-read-env, --context, --nats. False when args[index] is not
/// one; an error when its value is missing or wrong.
Result<bool> takeEnsureOption(const std::vector<std::string> &args, std::size_t &index, EnsureSettings &settings);

/// Settings with the environment's defaults ($CCM_SESSION_STORE, $CCM_HIERA_DATA).
EnsureSettings ensureSettingsFromEnvironment();

/// What templates and expressions of an ensured resource (or an apply given --hiera and
/// --read-env) resolve against: the facts, the Hiera file's data resolved against them (a missing
/// file is none), the process environment with ./.env merged in when asked, and --data over all.
Result<ResolveOptions> ensureInputs(const EnsureSettings &settings);

/// Ensures one resource: `properties` (with `name`) of `type` are checked against the type's
/// schema, their templates resolved against ensureInputs(), and the resource run as a one-resource
/// manifest would be (control, guards, health checks), in noop when asked. With a session,
/// `require` fails the resource when a required resource's last event in the session failed,
/// `subscribe` refreshes it when a subscribed one changed earlier in the session, and the event is
/// recorded in the session. Errors (bad properties with their property path, an unreadable Hiera
/// file, a session that cannot be used) leave nothing applied.
Result<TransactionEvent> ensureResource(
    std::string_view type, const Json &properties, const EnsureSettings &settings, engine::RunObserver &observer);

/// `ensure api pipe`: one request (JSON or YAML, upstream's resource_ensure_request) read from
/// `in`, the resource ensured, and one resource_ensure_response written to `out`; `args` are the
/// arguments after `pipe`. A bad request is answered with an error response.
int ensureApiPipe(const std::vector<std::string> &args, const EnsureSettings &settings, std::istream &in,
    std::ostream &out, std::ostream &err);

} // namespace ccm::cli
