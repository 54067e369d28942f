// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rate_limited_log.h"
#include "base/result.h"
#include "core/model/json.h"
#include "engine/resource.h"
#include "fleet/agent/bundle_source.h"
#include "fleet/preview/preview_wire.h"
#include "fleet/preview/seen_requests.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct __natsConnection;
struct __natsSubscription;
struct __natsMsg;

namespace ccm::fleet {

class NatsConnection;

/// The bundle a host runs now for one of its sources, as its cache keeps it: what a proposal is
/// compared with (docs/fleet.md, "Drift versus intent").
struct CurrentBundle {
    std::filesystem::path archive; ///< the cached bundle; read, never written
    std::string source; ///< the source's URL as shown (no credentials)
    /// Raw Ed25519 keys one of which must have signed it (the agent's bundle_keys); empty: any.
    std::vector<std::string> requiredSigners;
};

struct PreviewResponderOptions {
    std::string identity; ///< this host's name in answers
    /// PEM public keys whose signatures this host accepts (preview.trusted_keys); at least one.
    std::vector<std::filesystem::path> trustedKeys;
    /// The user whose rights guards run with, diffs are shown for and templates read with.
    std::string previewUser = "nobody";
    /// This host's facts; called from the responder's worker thread, so it must be thread-safe.
    std::function<Json()> facts;
    /// Where bundles are fetched and unpacked, each into a private directory removed after. It is
    /// made this user's with mode 0711 (its parent must exist): others pass through it, to the
    /// unpacked bundle the preview user is given, and neither list nor write it.
    std::filesystem::path workDirectory;
    /// Caps for fetched bundles (maxBytes).
    SourceOptions sources;
    /// The current bundle to compare a proposal with, for the request's target ("obj://...") or,
    /// without one, the host's only remote source; an error whose message says why there is none.
    /// Called from the worker thread. Unset: no host bundle is ever compared.
    std::function<Result<CurrentBundle>(const std::optional<std::string> &target)> currentBundle;
    /// Where rejections and failures are reported; may be empty. Called from NATS and worker threads.
    std::function<void(engine::LogLevel, const std::string &)> log;
    /// Whether capture requests addressed to this host are answered (preview.capture); when not,
    /// each is dropped with a warning and never answered.
    bool capture = false;
    /// Requests waiting while one runs; more are refused (logged, not answered).
    std::size_t maxQueued = 16;
    /// The ids of the requests accepted so far. Responders that follow one another (a new
    /// connection, a reload) share one, so a captured request runs once; a store of the
    /// responder's own, in memory, when empty.
    std::shared_ptr<SeenRequests> seen;
};

/// Answers signed fleet preview requests on ccm.preview.request (docs/fleet.md, "Fleet preview"):
/// verifies each (signature, trusted key, expiry, lifetime, replay, noop) and drops a failing one
/// with a warning; evaluates the selector on the facts; fetches the bundle by digest, unpacks it
/// and runs it in noop, whatever the request says, as the preview user; streams the answers to the
/// request's reply subject. One preview runs at a time; others queue. A capture request
/// (capture_wire.h) is answered only by the host it names, only with `capture` on, by a capture
/// of the host read as the preview user, queued like previews.
class PreviewResponder {
public:
    /// Subscribes on `connection`, which must outlive the responder. Errors: a trusted key that
    /// cannot be read, an empty key list, a work directory that cannot be made or is not this
    /// user's, the subscription's.
    static Result<std::unique_ptr<PreviewResponder>> start(NatsConnection &connection, PreviewResponderOptions options);

    /// Stops listening, cancels a running preview and waits for it.
    ~PreviewResponder();
    PreviewResponder(const PreviewResponder &) = delete;
    PreviewResponder &operator=(const PreviewResponder &) = delete;

    /// Requests refused before they were answered, and previews finished, so far.
    [[nodiscard]] std::size_t rejected() const { return m_rejected.load(); }
    [[nodiscard]] std::size_t finished() const { return m_finished.load(); }

private:
    PreviewResponder(NatsConnection &connection, PreviewResponderOptions options);
    static void onMessage(
        __natsConnection *connection, __natsSubscription *subscription, __natsMsg *message, void *closure);
    void receive(std::string_view payload);
    void reject(const std::string &id, const std::string &reason);
    void work();
    void answer(const PreviewRequest &request);
    void answerCapture(const PreviewRequest &request);

    NatsConnection &m_connection;
    PreviewResponderOptions m_options;
    std::vector<std::string> m_trusted;
    __natsSubscription *m_subscription = nullptr;

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<PreviewRequest> m_queue;
    bool m_stopping = false;
    std::atomic<bool> m_cancel {false};
    std::atomic<std::size_t> m_rejected {0};
    /// The warnings about refused requests, rate-limited: anyone who may publish on the request
    /// subject can send garbage without end.
    RateLimitedLog m_rejections {[this](const std::string &line) {
        if (m_options.log)
            m_options.log(engine::LogLevel::Warning, line);
    }};
    std::atomic<std::size_t> m_finished {0};
    std::thread m_worker;
};

} // namespace ccm::fleet
