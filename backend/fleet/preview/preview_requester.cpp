// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/preview_requester.h"

#include "base/temp_dir.h"
#include "core/bundle/bundle.h"
#include "fleet/agent/fleet_status.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/nats_handles.h"
#include "fleet/nats/object_store.h"
#include "fleet/nats/object_url.h"
#include "fleet/preview/preview_wire.h"

#include <algorithm>
#include <fstream>
#include <future>
#include <map>
#include <nats/nats.h>
#include <sstream>
#include <unordered_map>

namespace ccm::fleet {
namespace {

constexpr std::size_t kMaxProblems = 100;
/// Answers of one host held back while an earlier one is missing.
constexpr std::size_t kMaxEarlyAnswers = 10'000;
/// Hosts one preview tracks; answers naming more identities are dropped.
constexpr std::size_t kMaxHosts = 200'000;
/// The age past which no request can still need its bundle object: the longest a request lives,
/// plus the skew allowed between the clocks that wrote and that read it. An object stamped further
/// than this in the future is as stale: no working requester's clock runs that far ahead, and
/// waiting for the time it gives could keep it for ever.
constexpr auto kStalePreviewAge = kMaxRequestLifetime + kMaxClockSkew;

Result<std::string> readBytes(const std::filesystem::path &path, std::uint64_t maxBytes)
{
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        return Error {"io", path.string() + ": " + error.message()};
    if (size > maxBytes)
        return Error {"too_large", path.string() + ": " + std::to_string(size) + " bytes is more than the limit"};
    std::ifstream stream(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << stream.rdbuf();
    if (!stream)
        return Error {"io", path.string() + ": cannot read"};
    return bytes.str();
}

Result<std::string> bundleManifest(
    const std::filesystem::path &manifest, const std::filesystem::path &output, std::uint64_t maxBytes)
{
    const BundlePlan plan = planBundle(manifest);
    if (!plan.ok()) {
        std::string text = "the manifest cannot be bundled:";
        for (const BundleFinding &finding : plan.findings)
            text += "\n" + formatBundleFinding(finding);
        return Error {"invalid_manifest", text};
    }
    if (auto written = writeBundle(plan, output); !written)
        return written.error();
    return readBytes(output, maxBytes);
}

std::string stringMember(const Json &object, const char *key)
{
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

} // namespace

std::string_view hostStateName(HostState state)
{
    switch (state) {
    case HostState::Accepted:
        return "accepted";
    case HostState::Running:
        return "running";
    case HostState::Declined:
        return "declined";
    case HostState::Done:
        return "done";
    case HostState::Failed:
        return "failed";
    case HostState::Silent:
        break;
    }
    return "silent";
}

std::size_t summaryCount(const Json &summary, const char *key)
{
    if (!summary.is_object())
        return 0;
    const auto found = summary.find(key);
    if (found == summary.end() || !found->is_number_integer() || found->get<std::int64_t>() < 0)
        return 0;
    return found->get<std::size_t>();
}

std::size_t classCount(const HostPreview &host, ChangeClass change)
{
    if (host.comparison.state != PreviewComparison::State::Compared)
        return 0;
    return static_cast<std::size_t>(
        std::ranges::count_if(host.comparison.classes, [change](const auto &entry) { return entry.second == change; }));
}

std::string comparisonNote(const HostPreview &host)
{
    if (host.state != HostState::Done)
        return {};
    switch (host.comparison.state) {
    case PreviewComparison::State::Compared:
        return {};
    case PreviewComparison::State::None:
        return host.comparison.reason;
    case PreviewComparison::State::Absent:
        break;
    }
    return "not compared: the agent predates drift classes";
}

Json comparisonSummary(const HostPreview &host)
{
    const PreviewComparison &comparison = host.comparison;
    if (comparison.state == PreviewComparison::State::None)
        return Json {{"state", "none"}, {"reason", comparison.reason}};
    if (comparison.state == PreviewComparison::State::Absent)
        return Json {{"state", "absent"}};
    Json summary {{"state", "compared"}, {"source", comparison.source}, {"digest", comparison.digest}};
    for (const ChangeClass change :
        {ChangeClass::Intended, ChangeClass::Drift, ChangeClass::Added, ChangeClass::Failed, ChangeClass::Uncompared})
        summary[std::string(changeClassName(change))] = classCount(host, change);
    return summary;
}

namespace {

/// Puts each kept event's class into it, once the host compared.
void classEvents(HostPreview &host)
{
    if (host.comparison.state != PreviewComparison::State::Compared)
        return;
    for (Json &event : host.events) {
        if (!event.is_object())
            continue;
        const std::string resource = event.contains("resource") && event["resource"].is_string()
            ? event["resource"].get<std::string>()
            : stringMember(event, "type") + '#' + stringMember(event, "name");
        event["class"] = changeClassName(classOf(host.comparison, resource).value_or(ChangeClass::Unchanged));
    }
}

} // namespace

Json fleetPreviewTotals(const FleetPreview &preview)
{
    std::size_t silent = 0, declined = 0, failed = 0, changed = 0, resourcesFailed = 0;
    std::size_t intended = 0, drift = 0, uncompared = 0, stable = 0;
    for (const HostPreview &host : preview.hosts) {
        stable += host.stable.size();
        silent += host.state == HostState::Silent;
        declined += host.state == HostState::Declined;
        failed += host.state == HostState::Failed;
        changed += summaryCount(host.summary, "changed");
        resourcesFailed += summaryCount(host.summary, "failed");
        intended += classCount(host, ChangeClass::Intended);
        drift += classCount(host, ChangeClass::Drift);
        uncompared += host.state == HostState::Done && host.comparison.state != PreviewComparison::State::Compared;
    }
    return Json {{"hosts", preview.hosts.size()}, {"answered", preview.hosts.size() - silent}, {"silent", silent},
        {"declined", declined}, {"failed", failed}, {"changed", changed}, {"resources_failed", resourcesFailed},
        {"intended", intended}, {"drift", drift}, {"uncompared_hosts", uncompared}, {"stable", stable}};
}

std::optional<ExpressionError> selectorError(std::string_view select)
{
    auto parsed = Expression::parse(select);
    if (!parsed)
        return parsed.error();
    return std::nullopt;
}

Result<std::string> previewBundleBytes(const std::string &source, const SourceOptions &sources)
{
    const auto directory = TempDir::create("ccm-preview");
    if (!directory)
        return directory.error().withContext("cannot hold the bundle");
    const std::filesystem::path bundle = directory->path() / "bundle.tar.gz";
    switch (sourceKind(source)) {
    case SourceKind::YamlFile:
        return bundleManifest(source, bundle, sources.maxBytes);
    case SourceKind::LocalBundle:
        return readBytes(source, sources.maxBytes);
    case SourceKind::HttpBundle:
    case SourceKind::ObjectBundle:
        break;
    }
    if (auto fetched = fetchBundle(source, sources, bundle); !fetched)
        return fetched.error().withContext(redactUrl(source));
    return readBytes(bundle, sources.maxBytes);
}

PreviewCollector::PreviewCollector(
    std::string id, const PreviewRequestOptions &options, const PreviewCallbacks &callbacks)
    : m_id(std::move(id))
    , m_options(options)
    , m_callbacks(callbacks)
    , m_parts(PartAssembler::Limits {65536, options.maxAnswerBytes, options.maxAnswerBytes})
{
}

void PreviewCollector::expect(const std::string &identity)
{
    if (m_hosts.try_emplace(identity).second)
        ++m_open;
}

bool PreviewCollector::allFinished(std::chrono::steady_clock::time_point now, bool anyExpected) const
{
    if (m_open != 0 || m_hosts.empty())
        return false;
    return anyExpected || now - m_lastAnswer >= m_options.quiet;
}

void PreviewCollector::problem(const std::string &text)
{
    if (m_problems.size() < kMaxProblems)
        m_problems.push_back(text);
}

PreviewCollector::Track &PreviewCollector::track(const std::string &identity)
{
    auto [found, added] = m_hosts.try_emplace(identity);
    if (added)
        ++m_open;
    return found->second;
}

void PreviewCollector::receive(std::string_view payload)
{
    m_anyAnswer = true; // only answers come to the request's own inbox
    auto answer = decodeAnswer(payload);
    if (!answer)
        return problem(answer.error().message);
    if (answer->id != m_id)
        return;
    if (m_hosts.size() >= kMaxHosts && !m_hosts.contains(answer->identity))
        return problem(
            "more than " + std::to_string(kMaxHosts) + " hosts answered; " + answer->identity + " is ignored");
    m_lastAnswer = std::chrono::steady_clock::now();
    if (answer->type != "part")
        return deliver(std::move(answer).value());
    auto whole = m_parts.add(*answer);
    if (!whole) {
        problem(whole.error().message);
        Track &host = track(answer->identity);
        host.host.message = whole.error().message;
        return finishHost(host, HostState::Failed);
    }
    if (!whole->has_value())
        return;
    auto joined = decodeAnswer(**whole);
    if (!joined || joined->type == "part" || joined->identity != answer->identity || joined->seq != answer->seq)
        return problem(answer->identity + ": message " + std::to_string(answer->seq) + " does not reassemble");
    deliver(std::move(joined).value());
}

void PreviewCollector::deliver(PreviewAnswer answer)
{
    Track &host = track(answer.identity);
    if (host.host.identity.empty())
        host.host.identity = answer.identity;
    if (host.finished || answer.seq < host.nextSeq)
        return;
    if (answer.seq > host.nextSeq) {
        if (host.early.size() >= kMaxEarlyAnswers) {
            host.host.message = "too many answers arrived out of order";
            return finishHost(host, HostState::Failed);
        }
        host.early.emplace(answer.seq, std::move(answer));
        return;
    }
    apply(host, answer);
    ++host.nextSeq;
    // Each held answer leaves the map before it is applied: one that finishes the host clears it.
    while (!host.finished && !host.early.empty() && host.early.begin()->first == host.nextSeq) {
        PreviewAnswer next = std::move(host.early.begin()->second);
        host.early.erase(host.early.begin());
        apply(host, next);
        ++host.nextSeq;
    }
}

void PreviewCollector::finishHost(Track &track, HostState state)
{
    track.host.state = state;
    track.early.clear();
    if (!track.finished)
        --m_open;
    track.finished = true;
    m_parts.forget(track.host.identity);
}

void PreviewCollector::applyEvent(HostPreview &host, Json &event)
{
    // A stable event of a host answering in format 1 is what format 2 names in `done`.
    if (isStableEvent(event) && host.stable.size() < kMaxComparedResources) {
        const auto resource = event.find("resource");
        if (resource != event.end() && resource->is_string() && !resource->get_ref<const std::string &>().empty()
            && resource->get_ref<const std::string &>().size() <= kMaxComparedName) {
            host.stable.push_back(std::move(resource->get_ref<std::string &>()));
            return;
        }
    }
    ++host.eventCount;
    if (m_callbacks.event)
        m_callbacks.event(host.identity, event);
    if (m_options.keepEvents)
        host.events.push_back(std::move(event));
}

void PreviewCollector::applyDone(Track &track, Json &message)
{
    HostPreview &host = track.host;
    host.summary = std::move(message["summary"]);
    host.cancelled = message["cancelled"].get<bool>();
    host.aborted = message["aborted"].get<bool>();
    for (const Json &line : message["diagnostics"])
        host.diagnostics.push_back(line.get<std::string>());
    if (const auto compare = message.find("compare"); compare != message.end())
        if (auto comparison = comparisonFromJson(*compare))
            host.comparison = std::move(comparison).value();
    if (const auto stable = message.find("stable"); stable != message.end()) {
        // Checked by decodeAnswer: "answers" is 2, the names are strings within the limits.
        host.answers = 2;
        const std::size_t room = kMaxComparedResources - std::min(kMaxComparedResources, host.stable.size());
        host.stable.reserve(host.stable.size() + std::min(room, stable->size()));
        for (Json &name : *stable) {
            if (host.stable.size() >= kMaxComparedResources)
                break;
            host.stable.push_back(std::move(name.get_ref<std::string &>()));
        }
    }
    classEvents(host);
    finishHost(track, HostState::Done);
    if (m_callbacks.done)
        m_callbacks.done(host);
}

void PreviewCollector::apply(Track &track, PreviewAnswer &answer)
{
    HostPreview &host = track.host;
    Json &message = answer.message;
    const std::string &type = answer.type;
    if (type == "accepted") {
        host.state = HostState::Accepted;
        if (m_callbacks.accepted)
            m_callbacks.accepted(host.identity);
    } else if (type == "progress") {
        host.state = HostState::Running;
        if (m_callbacks.progress)
            m_callbacks.progress(host.identity, message["done"].get<std::uint64_t>(),
                message["total"].get<std::uint64_t>(), message["current"].get<std::string>());
    } else if (type == "event") {
        applyEvent(host, message["event"]);
    } else if (type == "events") {
        for (Json &event : message["events"])
            applyEvent(host, event);
    } else if (type == "done") {
        applyDone(track, message);
    } else if (type == "failed") {
        host.message = stringMember(message, "message");
        finishHost(track, HostState::Failed);
        if (m_callbacks.failed)
            m_callbacks.failed(host.identity, host.message);
    } else if (type == "declined") {
        host.message = stringMember(message, "message");
        finishHost(track, HostState::Declined);
        if (m_callbacks.declined)
            m_callbacks.declined(host.identity, stringMember(message, "reason"), host.message);
    }
}

FleetPreview PreviewCollector::finish(bool cancelled)
{
    FleetPreview preview;
    preview.id = m_id;
    preview.cancelled = cancelled;
    preview.problems = std::move(m_problems);
    preview.hosts.reserve(m_hosts.size());
    for (auto &[identity, track] : m_hosts) {
        if (!track.finished)
            track.host.state = HostState::Silent;
        track.host.identity = identity;
        preview.hosts.push_back(std::move(track.host));
    }
    std::sort(preview.hosts.begin(), preview.hosts.end(),
        [](const HostPreview &a, const HostPreview &b) { return a.identity < b.identity; });
    return preview;
}

namespace {

/// Removes the preview objects of `store` that no request can need any more: those of requesters
/// that died or lost their connection before they removed their own. An object's age is taken
/// from its meta record's mtime (official clients write it); one without a readable mtime is
/// removed too. Failures are left to the next requester.
void removeStalePreviews(NatsConnection &connection, ObjectStore &store, Clock::time_point now)
{
    const std::string stream = "OBJ_" + store.bucket();
    const std::string metas = "$O." + store.bucket() + ".M.>";
    jsOptions options;
    jsOptions_Init(&options);
    options.Stream.Info.SubjectsFilter = metas.c_str();
    jsStreamInfo *rawInfo = nullptr;
    jsErrCode errorCode = static_cast<jsErrCode>(0);
    if (js_GetStreamInfo(&rawInfo, connection.jetStream(), stream.c_str(), &options, &errorCode) != NATS_OK)
        return;
    const StreamInfoPtr info(rawInfo);
    if (info->State.Subjects == nullptr)
        return;
    std::vector<std::string> stale;
    for (int i = 0; i < info->State.Subjects->Count; ++i) {
        natsMsg *raw = nullptr;
        if (js_GetLastMsg(&raw, connection.jetStream(), stream.c_str(), info->State.Subjects->List[i].Subject, nullptr,
                &errorCode)
            != NATS_OK)
            continue;
        const NatsMsgPtr message(raw);
        const std::string_view text(natsMsg_GetData(message.get()),
            static_cast<std::size_t>(std::max(0, natsMsg_GetDataLength(message.get()))));
        if (jsonNestingBeyond(text, 16))
            continue;
        const Json meta = parseJson(text, false);
        if (!meta.is_object())
            continue;
        const std::string name = stringMember(meta, "name");
        const auto deleted = meta.find("deleted");
        if (!name.starts_with("preview-") || (deleted != meta.end() && deleted->is_boolean() && deleted->get<bool>()))
            continue;
        const auto written = parseRfc3339(stringMember(meta, "mtime"));
        if (!written || *written < now - kStalePreviewAge || *written > now + kStalePreviewAge)
            stale.push_back(name);
    }
    for (const std::string &name : stale)
        (void)store.remove(name);
}

struct Published {
    std::string id;
    std::string objectName;
};

/// Stores the bundle and publishes the signed request; the reply subject is `inbox`.
Result<Published> publishRequest(NatsConnection &connection, ObjectStore &store, const PreviewRequestOptions &options,
    const std::string &bundle, const std::string &inbox)
{
    PreviewRequest request;
    request.id = newPreviewId();
    request.issued = Clock::now();
    // Agents check expiry when a request arrives; the margin covers a request that waits in a
    // busy agent's queue no longer than the requester waits.
    request.expires
        = request.issued + std::min<Clock::duration>(kMaxRequestLifetime, options.timeout + std::chrono::minutes(1));
    request.reply = inbox;
    request.select = options.select;
    if (options.compare)
        request.compare = PreviewCompare {options.target};
    request.answers = kPreviewAnswersFormat;
    const std::string name = "preview-" + request.id;
    std::istringstream data(bundle);
    auto stored = store.put(name, data);
    if (!stored)
        return stored.error().withContext("storing the bundle");
    request.bundle = PreviewBundleRef {store.bucket(), name, stored->digest};
    auto payload = encodeSignedRequest(request, options.key);
    if (!payload)
        return payload.error();
    const std::string subject(kPreviewRequestSubject);
    const natsStatus status = natsConnection_Publish(
        connection.connection(), subject.c_str(), payload->data(), static_cast<int>(payload->size()));
    if (status != NATS_OK) {
        (void)store.remove(name);
        return makeError(
            NatsErrc::Nats, "cannot publish the preview request: " + std::string(natsStatus_GetText(status)));
    }
    natsConnection_Flush(connection.connection());
    return Published {request.id, name};
}

/// The notice of a preview no host answered: agents give no answer to a request they do not
/// trust, so the likely reason is that none trusts the signing key. `expected` counts the hosts
/// CCM_STATUS lists as alive.
std::string silenceNotice(const FleetPreview &preview, std::size_t expected, const PreviewRequestOptions &options)
{
    const std::string fingerprint = keyFingerprint(options.key.publicKey);
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(options.timeout).count();
    std::string text = expected == 0 ? "no agent answered within " + std::to_string(seconds)
            + "s, and CCM_STATUS lists no live agent. Either no agent with preview.enabled reports to this NATS "
              "server, or none trusts the key that signed the request (fingerprint "
            + fingerprint + ")."
                                     : "none of the " + std::to_string(expected) + " agent" + (expected == 1 ? "" : "s")
            + " CCM_STATUS lists as alive answered within " + std::to_string(seconds)
            + "s. The likely reason: none trusts the key that signed the request (fingerprint " + fingerprint + ").";
    text += " An agent gives no answer to a request signed by a key missing from its preview.trusted_keys; it logs "
            "why instead. To check, on an agent: journalctl -u ccm-agent -p warning | grep "
        + preview.id + " (\"signed by the untrusted key " + fingerprint + "\" means it does not trust it).";
    std::string publicFile = "the public key 'ccm-backend fleet keygen' wrote beside the private key";
    if (!options.keyFile.empty()) {
        const std::string &file = options.keyFile;
        publicFile = (file.ends_with(".pem") ? file.substr(0, file.size() - 4) : file) + ".pub.pem";
    }
    text += " To trust the key: copy " + publicFile + " (fingerprint " + fingerprint
        + ") to every agent, list it under preview.trusted_keys in /etc/choria/ccm/agent.yaml with preview.enabled: "
          "true, and run systemctl reload ccm-agent.";
    return text;
}

/// Reads answers from `subscription` into `collector` until every host finished, the timeout or
/// a cancel; true when cancelled.
/// CCM_STATUS as it is being read, beside the answers: with thousands of hosts, reading it takes
/// about as long as they need to answer.
struct StatusReading {
    std::future<Result<FleetStatus>> reading;
    std::optional<std::size_t> expected; ///< the live hosts, once read
    std::optional<Error> error;

    /// Takes the status once read (waiting for it with `block`): the collector expects its live hosts.
    void settle(PreviewCollector &collector, bool block)
    {
        if (expected || error || !reading.valid()
            || (!block && reading.wait_for(std::chrono::seconds(0)) != std::future_status::ready))
            return;
        auto status = reading.get();
        if (!status) {
            error = status.error().withContext("reading " + std::string(kStatusBucket));
            return;
        }
        expected = 0;
        for (const HostStatus &host : status->hosts)
            if (!host.stale) {
                collector.expect(host.identity);
                ++*expected;
            }
    }
};

/// Messages read are given back to the NATS client this many at a time (see collect()).
constexpr std::size_t kMessagesFreedTogether = 256;

bool collect(natsSubscription *subscription, PreviewCollector &collector, const PreviewRequestOptions &options,
    StatusReading &hosts)
{
    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    // The NATS client frees a message on a thread of its own, woken for each one it is given:
    // messages read are given back in batches, which wakes it once a batch.
    std::vector<NatsMsgPtr> read;
    read.reserve(kMessagesFreedTogether);
    for (;;) {
        if (options.cancel != nullptr && options.cancel->load())
            return true;
        hosts.settle(collector, false);
        if (hosts.error)
            return false;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline || (hosts.expected && collector.allFinished(now, *hosts.expected > 0)))
            return false;
        const auto wait = std::min<std::chrono::steady_clock::duration>(deadline - now, std::chrono::milliseconds(100));
        natsMsg *raw = nullptr;
        const natsStatus status = natsSubscription_NextMsg(&raw, subscription,
            std::max<std::int64_t>(1, std::chrono::duration_cast<std::chrono::milliseconds>(wait).count()));
        NatsMsgPtr message(raw);
        if (status != NATS_OK || !message)
            continue;
        const int length = natsMsg_GetDataLength(message.get());
        const char *data = natsMsg_GetData(message.get());
        collector.receive(std::string_view(data == nullptr ? "" : data, static_cast<std::size_t>(std::max(0, length))));
        read.push_back(std::move(message));
        if (read.size() >= kMessagesFreedTogether)
            read.clear();
    }
}

} // namespace

Result<void> checkTarget(const std::optional<std::string> &target)
{
    if (target
        && (!isObjectUrl(*target) || !parseObjectUrl(*target) || target->size() > 1024
            || target->find_first_of(" \t\r\n") != std::string::npos))
        return Error {"target", "the target '" + *target + "' is not an obj://BUCKET/NAME URL"};
    return {};
}

Result<FleetPreview> runFleetPreview(
    NatsConnection &connection, const PreviewRequestOptions &options, const PreviewCallbacks &callbacks)
{
    if (options.select)
        if (const auto error = selectorError(*options.select))
            return Error {"selector", "the selector '" + *options.select + "': " + error->describe()};
    if (auto target = checkTarget(options.target); !target)
        return target.error();
    auto bundle
        = options.bundle ? Result<std::string>(*options.bundle) : previewBundleBytes(options.source, options.sources);
    if (!bundle)
        return bundle.error();
    // The server removes a preview bundle once no request for it can be valid, so one whose
    // requester died (or lost the server) before removing it does not live on.
    auto store = ObjectStore::openOrCreate(connection, std::string(kPreviewBucket),
        std::chrono::duration_cast<std::chrono::seconds>(kStalePreviewAge), options.replicas);
    if (!store)
        return store.error();
    removeStalePreviews(connection, store.value(), Clock::now());
    natsInbox *rawInbox = nullptr;
    natsInbox_Create(&rawInbox);
    const NatsInboxPtr inbox(rawInbox);
    natsSubscription *rawSubscription = nullptr;
    if (rawInbox == nullptr
        || natsConnection_SubscribeSync(&rawSubscription, connection.connection(), rawInbox) != NATS_OK)
        return makeError(NatsErrc::Nats, "cannot subscribe to an inbox for the answers");
    const NatsSubscriptionPtr subscription(rawSubscription);
    natsSubscription_SetPendingLimits(
        subscription.get(), -1, static_cast<int>(std::min<std::size_t>(options.maxAnswerBytes, INT32_MAX)));
    auto published = publishRequest(connection, store.value(), options, *bundle, rawInbox);
    if (!published)
        return published.error();
    if (callbacks.published)
        callbacks.published(published->id);
    PreviewCollector collector(published->id, options, callbacks);
    StatusReading status {
        std::async(std::launch::async, [&connection] { return readFleetStatus(connection, Clock::now()); }), {}, {}};
    const bool cancelled = collect(subscription.get(), collector, options, status);
    status.settle(collector, true);
    (void)store.value().remove(published->objectName);
    if (status.error)
        return *status.error;
    FleetPreview preview = collector.finish(cancelled);
    if (!cancelled && !collector.anyAnswer()) {
        preview.notice = silenceNotice(preview, status.expected.value_or(0), options);
        for (HostPreview &host : preview.hosts)
            host.message = "no answer: this agent may not trust the signing key (fingerprint "
                + keyFingerprint(options.key.publicKey) + ")";
    }
    return preview;
}

} // namespace ccm::fleet
