// SPDX-License-Identifier: Apache-2.0
#include "fleet/preview/preview_responder.h"

#include "base/file_reading.h"
#include "base/user_database.h"
#include "core/bundle/bundle.h"
#include "core/bundle/bundle_opener.h"
#include "core/expr/expression.h"
#include "core/model/diagnostic.h"
#include "core/model/manifest.h"
#include "core/model/transaction_event.h"
#include "engine/prepared_manifest.h"
#include "engine/run.h"
#include "engine/util/user_identity.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_errors.h"
#include "fleet/nats/object_store.h"
#include "fleet/preview/capture_answer.h"
#include "fleet/preview/preview_compare.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <nats/nats.h>
#include <ostream>
#include <set>
#include <streambuf>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ccm::fleet {
namespace {

/// Publishes the answers of one preview to its reply subject, numbering them and splitting those
/// larger than the server's max_payload.
class Answerer {
public:
    Answerer(NatsConnection &connection, const PreviewRequest &request, std::string identity)
        : m_connection(connection)
        , m_request(request)
        , m_identity(std::move(identity))
        , m_maxPayload(static_cast<std::size_t>(std::max<std::int64_t>(4096, connection.maxPayload())))
    {
    }

    /// The header of the next answer of `type`, for the caller to fill and send().
    Json next(std::string_view type) { return answerHeader(m_request.id, m_identity, m_seq++, type); }

    void send(const Json &message)
    {
        for (const std::string &payload : splitAnswer(message, m_maxPayload))
            natsConnection_Publish(
                m_connection.connection(), m_request.reply.c_str(), payload.data(), static_cast<int>(payload.size()));
    }

    void failed(const std::string &text)
    {
        Json message = next("failed");
        message["message"] = text;
        send(message);
    }

    void flush() { natsConnection_FlushTimeout(m_connection.connection(), m_connection.waitMs()); }

private:
    NatsConnection &m_connection;
    const PreviewRequest &m_request;
    std::string m_identity;
    std::size_t m_maxPayload;
    std::uint64_t m_seq = 0;
};

/// The least time between two progress answers in format 2, and the longest an event waits in
/// a batch.
constexpr std::chrono::milliseconds kPreviewProgressInterval {250};
/// A batch of events is sent once it holds this many, or about this many bytes of diffs and
/// messages (larger answers travel in parts, which cost the requester a copy).
constexpr std::size_t kEventsPerBatch = 100;
constexpr std::size_t kEventBatchBytes = 256 * 1024;

/// Streams the run's progress and events as answers. In format 1, a progress and an event answer
/// per resource. In format 2, progress at the start and then at most every
/// kPreviewProgressInterval; events only for resources that are not stable (those are named in
/// `done`, stable()), sent in "events" batches at most kPreviewProgressInterval apart. The caller
/// sends what is left with flush() before `done`.
class AnswerObserver : public engine::RunObserver {
public:
    AnswerObserver(Answerer &answerer, ProposalOutcome &outcome, std::uint64_t format)
        : m_answerer(answerer)
        , m_outcome(outcome)
        , m_format(format)
    {
    }

    void resourceStarting(std::string_view resource, std::size_t done, std::size_t total) override
    {
        if (m_format >= 2) {
            const auto now = std::chrono::steady_clock::now();
            if (!m_batch.empty() && now - m_batchStarted >= kPreviewProgressInterval)
                flush();
            if (m_progressSent && now - m_lastProgress < kPreviewProgressInterval)
                return;
            m_progressSent = true;
            m_lastProgress = now;
        }
        Json message = m_answerer.next("progress");
        message["done"] = done;
        message["total"] = total;
        message["current"] = resource;
        m_answerer.send(message);
    }

    void resourceFinished(const TransactionEvent &event) override
    {
        m_outcome.add(event);
        if (m_format < 2) {
            Json message = m_answerer.next("event");
            message["event"] = eventToJson(event);
            m_answerer.send(message);
            return;
        }
        if (isStableEvent(event) && m_stable.size() < kMaxComparedResources) {
            std::string name = event.resource();
            if (!name.empty() && name.size() <= kMaxComparedName) {
                m_stable.push_back(std::move(name));
                return;
            }
        }
        if (m_batch.empty())
            m_batchStarted = std::chrono::steady_clock::now();
        m_batch.push_back(eventToJson(event));
        m_batchBytes += (event.diff ? event.diff->size() : 0) + event.noopMessage.size() + event.name.size();
        if (m_batch.size() >= kEventsPerBatch || m_batchBytes >= kEventBatchBytes
            || std::chrono::steady_clock::now() - m_batchStarted >= kPreviewProgressInterval)
            flush();
    }

    /// Sends the events batched so far (format 2).
    void flush()
    {
        if (m_batch.empty())
            return;
        Json message = m_answerer.next("events");
        message["events"] = std::exchange(m_batch, Json::array());
        m_batchBytes = 0;
        m_answerer.send(message);
    }

    /// The names of the resources whose events were left out (format 2).
    [[nodiscard]] const std::vector<std::string> &stable() const { return m_stable; }

private:
    Answerer &m_answerer;
    ProposalOutcome &m_outcome;
    std::uint64_t m_format;
    bool m_progressSent = false;
    std::chrono::steady_clock::time_point m_lastProgress;
    std::vector<std::string> m_stable;
    Json m_batch = Json::array();
    std::size_t m_batchBytes = 0;
    std::chrono::steady_clock::time_point m_batchStarted;
};

/// Keeps the events of the current bundle's run; nothing of it is sent but the classes.
class CurrentObserver : public engine::RunObserver {
public:
    explicit CurrentObserver(CurrentOutcome &outcome)
        : m_outcome(outcome)
    {
    }

    void resourceFinished(const TransactionEvent &event) override { m_outcome.add(event); }

private:
    CurrentOutcome &m_outcome;
};

/// The selector's verdict: true (run), false (declined: selector), or the evaluation error.
Result<bool> selects(const std::optional<std::string> &select, const Json &facts)
{
    if (!select)
        return true;
    const Json empty = Json::object();
    const StandardScope scope(facts, empty, empty);
    auto value = evaluateExpression(*select, scope);
    if (!value)
        return Error {"selector", "the selector '" + *select + "': " + value.error().describe()};
    if (!value->is_boolean())
        return Error {
            "selector", "the selector '" + *select + "' gave " + describeJsonType(*value) + ", not a boolean"};
    return value->get<bool>();
}

/// An output stream buffer that writes straight to a file descriptor: the archive is opened with
/// flags std::ofstream cannot give.
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd)
        : m_fd(fd)
    {
    }

protected:
    std::streamsize xsputn(const char *data, std::streamsize size) override
    {
        std::streamsize done = 0;
        while (done < size) {
            const ssize_t wrote = ::write(m_fd, data + done, static_cast<std::size_t>(size - done));
            if (wrote < 0 && errno == EINTR)
                continue;
            if (wrote <= 0)
                break;
            done += wrote;
        }
        return done;
    }

    int_type overflow(int_type c) override
    {
        if (traits_type::eq_int_type(c, traits_type::eof()))
            return traits_type::not_eof(c);
        const char byte = traits_type::to_char_type(c);
        return xsputn(&byte, 1) == 1 ? c : traits_type::eof();
    }

private:
    int m_fd;
};

/// Makes `directory` this user's, mode 0711, creating it (and missing parents) when needed.
Result<void> prepareWorkDirectory(const std::filesystem::path &directory)
{
    const auto failed = [&directory](const std::string &what) {
        return Error {"io", directory.string() + ": " + what};
    };
    std::error_code error;
    if (directory.has_parent_path())
        std::filesystem::create_directories(directory.parent_path(), error);
    if (error)
        return failed("cannot create the preview work directory: " + error.message());
    if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST)
        return failed("cannot create the preview work directory: " + std::string(std::strerror(errno)));
    struct stat info { };
    if (::lstat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::geteuid())
        return failed("the preview work directory is not a directory of this user; refused");
    if ((info.st_mode & 07777) != 0711 && ::chmod(directory.c_str(), 0711) != 0)
        return failed("cannot set the preview work directory's mode to 0711: " + std::string(std::strerror(errno)));
    return {};
}

/// Fetches the request's bundle into `archive`, a new file only this user may read, refusing an
/// object whose digest is not the signed one.
Result<void> fetchSignedBundle(NatsConnection &connection, const PreviewBundleRef &bundle, const SourceOptions &sources,
    const std::filesystem::path &archive)
{
    const std::string where = "obj://" + bundle.bucket + "/" + bundle.name;
    auto store = ObjectStore::open(connection, bundle.bucket);
    if (!store)
        return store.error().withContext(where);
    auto info = store.value().info(bundle.name);
    if (!info)
        return info.error().withContext(where);
    if (info->digest != bundle.digest)
        return makeError(NatsErrc::DigestMismatch,
            where + ": the object's digest " + info->digest + " is not the signed " + bundle.digest + "; refused");
    if (info->size > sources.maxBytes)
        return Error {"too_large", where + ": " + std::to_string(info->size) + " bytes is more than the limit"};
    const int fd = ::open(archive.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return Error {"io", archive.string() + ": cannot create: " + std::strerror(errno)};
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    auto fetched = store.value().get(bundle.name, out);
    const bool written = out.good();
    if (::close(fd) != 0 || (fetched && !written))
        return Error {"io", archive.string() + ": cannot write the bundle"};
    if (!fetched)
        return fetched.error().withContext(where);
    if (fetched->digest != bundle.digest)
        return makeError(NatsErrc::DigestMismatch, where + ": the object changed while it was fetched; refused");
    return {};
}

/// Lets the preview user read the unpacked bundle (group read, no write) when running as root.
void shareWithGroup(const UnpackedBundle &bundle, gid_t gid)
{
    if (::geteuid() != 0)
        return;
    for (const std::string &path : bundle.createdPaths()) {
        struct stat info { };
        if (::lstat(path.c_str(), &info) != 0)
            continue;
        [[maybe_unused]] const int owned = ::lchown(path.c_str(), 0, gid);
        ::chmod(path.c_str(), S_ISDIR(info.st_mode) ? 0750 : (info.st_mode & 0100 ? 0750 : 0640));
    }
}

std::vector<std::string> diagnosticLines(const engine::PreparedManifest &prepared)
{
    std::vector<std::string> lines;
    for (const Diagnostic &diagnostic : prepared.diagnostics)
        lines.push_back(formatDiagnostic(prepared.fileName, diagnostic));
    return lines;
}

/// The unpacked bundle's manifest, read and resolved with the preview user's rights.
Result<engine::PreparedManifest> prepareAs(
    const UnpackedBundle &bundle, const ResolveOptions &inputs, const engine::UserIdentity &peer)
{
    const FileText file = readManifestFile(bundle.manifestPath().string());
    if (file.problem)
        return Error {"invalid_manifest", formatDiagnostic("manifest.yaml", *file.problem)};
    engine::PreparedManifest prepared;
    {
        std::optional<engine::ThreadFileIdentity> access;
        if (::geteuid() == 0 && !access.emplace(peer).active())
            return Error {"run_as_failed", "cannot take on the identity of the preview user " + peer.name};
        prepared = engine::prepareManifestText(file.text, "manifest.yaml", inputs);
    }
    if (!prepared.ok())
        return Error {"invalid_manifest", "the bundle's manifest is invalid:\n" + prepared.diagnosticText()};
    return prepared;
}

/// The rules every run of a preview follows: noop, whatever the request says, and every process
/// as the preview user.
engine::RunOptions previewRunOptions(const engine::UserIdentity &peer, const std::atomic<bool> &cancel)
{
    engine::RunOptions options;
    options.noop = true; // whatever the request says: a preview never changes the host
    options.cancel = &cancel;
    engine::runAsUser(options, peer, true);
    return options;
}

ResolveOptions inputsOf(const UnpackedBundle &bundle, const Json &facts)
{
    ResolveOptions inputs;
    inputs.facts = facts;
    inputs.baseDirectory = bundle.baseDirectory();
    return inputs;
}

/// What a preview needs beside the request to run a bundle.
struct PreviewContext {
    const PreviewResponderOptions &settings;
    const Json &facts;
    const engine::UserIdentity &peer;
    const std::atomic<bool> &cancel;
};

/// The cached bundle's `bytes` unpacked: from a private copy, so that the bundle classed is the
/// one whose digest the answer names even when the agent replaces its cache meanwhile.
Result<UnpackedBundle> unpackCopy(const std::string &bytes, const std::filesystem::path &workDirectory)
{
    const std::filesystem::path archive = workDirectory / ("current-" + newPreviewId() + ".tar.gz");
    const int fd = ::open(archive.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return Error {"io", archive.string() + ": cannot create: " + std::strerror(errno)};
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    const bool written = out.good();
    std::error_code ignored;
    if (::close(fd) != 0 || !written) {
        std::filesystem::remove(archive, ignored);
        return Error {"io", archive.string() + ": cannot write the copy of the cached bundle"};
    }
    auto unpacked = UnpackedBundle::unpack(archive, {}, workDirectory);
    std::filesystem::remove(archive, ignored);
    return unpacked;
}

/// Runs the current bundle's resources that the proposal changes (and what they need) in noop,
/// under the same rules as the proposal, and classes the proposal's resources.
Result<std::map<std::string, ChangeClass>> classAgainst(const CurrentBundle &current, const std::string &bytes,
    const PreviewContext &context, const ProposalOutcome &proposal)
{
    const std::set<std::string> changed = proposal.changed();
    if (changed.empty())
        return classify(proposal, CurrentOutcome(), {});
    auto unpacked = unpackCopy(bytes, context.settings.workDirectory);
    if (!unpacked)
        return unpacked.error().withContext("unpacking it");
    if (!current.requiredSigners.empty())
        if (auto refused = unpacked->signatureCheck().refusalError(current.requiredSigners))
            return *refused;
    shareWithGroup(unpacked.value(), context.peer.gid);
    const ResolveOptions inputs = inputsOf(unpacked.value(), context.facts);
    auto prepared = prepareAs(unpacked.value(), inputs, context.peer);
    if (!prepared)
        return prepared.error();
    std::set<std::string> declared;
    for (const ResolvedResource &resource : prepared->resolved.resources)
        declared.insert(resource.label());
    const ResolvedManifest subset = subsetOf(prepared->resolved, resourcesToCompare(prepared->resolved, changed));
    CurrentOutcome outcome;
    CurrentObserver observer(outcome);
    ProcessRunner runner;
    engine::runManifest(subset, inputs, previewRunOptions(context.peer, context.cancel), runner, observer);
    return classify(proposal, outcome, declared);
}

/// The request's comparison: the current bundle the agent names, its digest, and the classes.
PreviewComparison compareWithCurrent(
    const PreviewCompare &compare, const PreviewContext &context, const ProposalOutcome &proposal)
{
    PreviewComparison comparison;
    comparison.state = PreviewComparison::State::None;
    if (!context.settings.currentBundle) {
        comparison.reason = "this host keeps no current bundle";
        return comparison;
    }
    auto current = context.settings.currentBundle(compare.target);
    if (!current) {
        comparison.reason = current.error().message;
        return comparison;
    }
    const auto &resources = proposal.resources();
    if (resources.size() > kMaxComparedResources
        || std::ranges::any_of(resources, [](const auto &entry) { return entry.first.size() > kMaxComparedName; })) {
        comparison.reason = "the proposal's changes are too many, or their names too long, to class";
        return comparison;
    }
    auto bytes = readTextFile(current->archive, context.settings.sources.maxBytes);
    if (!bytes) {
        comparison.reason = current->source
            + (hasCode(bytes.error(), ReadErrc::NotFound)
                    ? std::string(": no good bundle cached yet")
                    : ": the cached bundle cannot be read: " + bytes.error().message);
        return comparison;
    }
    auto classes = classAgainst(*current, *bytes, context, proposal);
    if (!classes) {
        comparison.reason = current->source + ": the cached bundle cannot be compared: " + classes.error().message;
        return comparison;
    }
    comparison.state = PreviewComparison::State::Compared;
    comparison.source = current->source;
    comparison.digest = objectDigest(*bytes);
    comparison.classes = std::move(classes).value();
    return comparison;
}

/// Runs the unpacked bundle in noop as `peer` would see it, streaming events, compares it with
/// the current bundle when the request asks, and sends `done`.
Result<void> runUnpacked(
    const UnpackedBundle &bundle, const PreviewRequest &request, const PreviewContext &context, Answerer &answerer)
{
    const ResolveOptions inputs = inputsOf(bundle, context.facts);
    auto prepared = prepareAs(bundle, inputs, context.peer);
    if (!prepared)
        return prepared.error();
    ProcessRunner runner;
    ProposalOutcome proposal;
    const std::uint64_t format = answerFormatFor(request);
    AnswerObserver observer(answerer, proposal, format);
    const engine::RunResult result = engine::runManifest(
        prepared->resolved, inputs, previewRunOptions(context.peer, context.cancel), runner, observer);
    observer.flush();
    Json done = answerer.next("done");
    done["summary"] = summaryToJson(result.summary);
    done["cancelled"] = result.cancelled;
    done["aborted"] = result.aborted;
    done["diagnostics"] = diagnosticLines(prepared.value());
    if (request.compare)
        done["compare"] = comparisonToJson(compareWithCurrent(*request.compare, context, proposal));
    if (format >= 2) {
        done["answers"] = format;
        done["stable"] = observer.stable();
    }
    answerer.send(done);
    return {};
}

/// Looks up the preview user, fetches and unpacks the bundle, and runs it.
Result<void> runPreview(NatsConnection &connection, const PreviewResponderOptions &settings,
    const std::atomic<bool> &cancel, const PreviewRequest &request, const Json &facts, Answerer &answerer)
{
    auto user = findUser(settings.previewUser);
    if (!user)
        return user.error().withContext("looking up the preview user " + settings.previewUser);
    if (!user->has_value())
        return Error {"no_user",
            "the preview user '" + settings.previewUser
                + "' does not exist on this host; create it or set preview.user to an existing user"};
    const engine::UserIdentity peer = engine::describeUser((*user)->uid, (*user)->gid);
    const std::filesystem::path archive = settings.workDirectory / ("preview-" + request.id + ".tar.gz");
    auto fetched = fetchSignedBundle(connection, request.bundle, settings.sources, archive);
    std::error_code ignored;
    if (!fetched) {
        std::filesystem::remove(archive, ignored);
        return fetched.error().withContext("fetching the bundle");
    }
    auto unpacked = UnpackedBundle::unpack(archive, {}, settings.workDirectory);
    std::filesystem::remove(archive, ignored);
    if (!unpacked)
        return unpacked.error().withContext("unpacking the bundle");
    shareWithGroup(unpacked.value(), peer.gid);
    return runUnpacked(unpacked.value(), request, PreviewContext {settings, facts, peer, cancel}, answerer);
}

} // namespace

PreviewResponder::PreviewResponder(NatsConnection &connection, PreviewResponderOptions options)
    : m_connection(connection)
    , m_options(std::move(options))
{
}

Result<std::unique_ptr<PreviewResponder>> PreviewResponder::start(
    NatsConnection &connection, PreviewResponderOptions options)
{
    if (options.trustedKeys.empty())
        return Error {"no_trusted_keys", "fleet preview needs at least one trusted public key (preview.trusted_keys)"};
    if (!options.seen)
        options.seen = std::make_shared<SeenRequests>();
    std::unique_ptr<PreviewResponder> responder(new PreviewResponder(connection, std::move(options)));
    for (const auto &path : responder->m_options.trustedKeys) {
        auto key = loadPublicKey(path);
        if (!key)
            return key.error().withContext("preview trusted key");
        responder->m_trusted.push_back(std::move(key).value());
    }
    if (auto prepared = prepareWorkDirectory(responder->m_options.workDirectory); !prepared)
        return prepared.error();
    responder->m_worker = std::thread([raw = responder.get()] { raw->work(); });
    const natsStatus status = natsConnection_Subscribe(&responder->m_subscription, connection.connection(),
        std::string(kPreviewRequestSubject).c_str(), &PreviewResponder::onMessage, responder.get());
    if (status != NATS_OK)
        return Error {
            "nats", "cannot subscribe to " + std::string(kPreviewRequestSubject) + ": " + natsStatus_GetText(status)};
    natsConnection_Flush(connection.connection());
    return responder;
}

PreviewResponder::~PreviewResponder()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_cancel = true;
    }
    m_wake.notify_all();
    // A drained subscription has finished its last callback, which unsubscribing alone does not
    // promise; only then may the callback's target go.
    if (m_subscription != nullptr) {
        if (natsSubscription_Drain(m_subscription) == NATS_OK)
            natsSubscription_WaitForDrainCompletion(m_subscription, 0);
        else
            natsSubscription_Unsubscribe(m_subscription);
        natsSubscription_Destroy(m_subscription);
    }
    if (m_worker.joinable())
        m_worker.join();
}

void PreviewResponder::onMessage(__natsConnection *, __natsSubscription *, __natsMsg *message, void *closure)
{
    auto *responder = static_cast<PreviewResponder *>(closure);
    const int length = natsMsg_GetDataLength(message);
    const char *data = natsMsg_GetData(message);
    responder->receive(
        std::string_view(data == nullptr ? "" : data, length < 0 ? 0 : static_cast<std::size_t>(length)));
    natsMsg_Destroy(message);
}

void PreviewResponder::reject(const std::string &id, const std::string &reason)
{
    // Whoever may publish on the subject can send requests as fast as the server forwards them.
    m_rejections.write("fleet preview", id.empty() ? "unreadable" : "refused",
        "rejected request " + (id.empty() ? std::string("(unreadable)") : id) + ": " + loggableText(reason));
    // Counted once logged, so whoever waits for the count finds the line.
    ++m_rejected;
}

void PreviewResponder::receive(std::string_view payload)
{
    auto decoded = decodeSignedRequest(payload);
    if (!decoded)
        return reject({}, decoded.error().message);
    const PreviewRequest &request = decoded->request;
    // A capture is for the one host it names; the others neither answer nor log it.
    if (request.capture && request.capture->host != m_options.identity)
        return;
    if (std::find(m_trusted.begin(), m_trusted.end(), decoded->publicKey) == m_trusted.end())
        return reject(request.id, "signed by the untrusted key " + keyFingerprint(decoded->publicKey));
    if (request.capture && !m_options.capture) {
        m_rejections.write(
            "fleet capture", "off", "dropped capture request " + request.id + ": preview.capture is off on this host");
        ++m_rejected;
        return;
    }
    const auto now = Clock::now();
    if (auto rules = checkRequestRules(request, now); !rules)
        return reject(request.id, rules.error().message);
    if (auto fresh = m_options.seen->remember(request, now); !fresh)
        return reject(request.id, fresh.error().message);
    {
        const std::lock_guard lock(m_mutex);
        if (m_queue.size() >= m_options.maxQueued)
            return reject(request.id, "too many previews are waiting on this host");
        m_queue.push_back(request);
    }
    m_wake.notify_one();
}

void PreviewResponder::work()
{
    for (;;) {
        PreviewRequest request;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_stopping)
                return;
            request = std::move(m_queue.front());
            m_queue.pop_front();
        }
        answer(request);
        ++m_finished;
    }
}

void PreviewResponder::answerCapture(const PreviewRequest &request)
{
    Answerer answerer(m_connection, request, m_options.identity);
    answerer.send(answerer.next("accepted"));
    answerer.flush();
    ProcessRunner runner;
    const CaptureAnswerSettings settings {m_options.previewUser, kMaxAnswerPayload - 1024, &m_cancel};
    auto capture = captureForRequest(*request.capture, settings, runner);
    if (!capture) {
        if (m_options.log)
            m_options.log(engine::LogLevel::Warning, "fleet capture " + request.id + ": " + capture.error().message);
        answerer.failed(capture.error().message);
    } else {
        Json message = answerer.next("capture");
        message["capture"] = std::move(capture).value();
        answerer.send(message);
        if (m_options.log)
            m_options.log(engine::LogLevel::Info, "fleet capture " + request.id + ": answered");
    }
    answerer.flush();
}

void PreviewResponder::answer(const PreviewRequest &request)
{
    if (request.capture)
        return answerCapture(request);
    Answerer answerer(m_connection, request, m_options.identity);
    const Json facts = m_options.facts ? m_options.facts() : Json::object();
    const auto selected = selects(request.select, facts);
    if (!selected || !*selected) {
        Json declined = answerer.next("declined");
        declined["reason"] = selected ? "selector" : "error";
        if (!selected)
            declined["message"] = selected.error().message;
        answerer.send(declined);
        answerer.flush();
        return;
    }
    Json accepted = answerer.next("accepted");
    accepted["facts_digest"] = objectDigest(facts.dump(-1, ' ', false, Json::error_handler_t::replace));
    answerer.send(accepted);
    const auto ran = runPreview(m_connection, m_options, m_cancel, request, facts, answerer);
    if (!ran) {
        if (m_options.log)
            m_options.log(engine::LogLevel::Warning, "fleet preview " + request.id + ": " + ran.error().message);
        answerer.failed(ran.error().message);
    }
    answerer.flush();
}

} // namespace ccm::fleet
