// SPDX-License-Identifier: Apache-2.0
#include "engine/run.h"

#include "core/template/template_scope.h"
#include "engine/health_check.h"
#include "engine/prepared_manifest.h"
#include "engine/util/checksum_read_ahead.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

namespace ccm::engine {

RunObserver::~RunObserver() = default;
void RunObserver::message(std::string_view)
{
}
void RunObserver::resourceStarting(std::string_view, std::size_t, std::size_t)
{
}
void RunObserver::resourceFinished(const TransactionEvent &)
{
}
void RunObserver::log(LogLevel, std::string_view, std::string_view)
{
}

namespace {

/// What references need to know of the latest event of a resource.
struct ReferenceState {
    bool failed = false;
    bool unmet = false;
    bool changed = false;
    /// The change only would have happened (noop).
    bool noop = false;
};

/// One manifest being run: the top-level one or a child of an apply resource.
struct Frame {
    const ResolvedManifest &manifest;
    const ResolveOptions &inputs;
    bool noop = false;
    bool healthCheckOnly = false;
    int depth = 0;
};

/// Sends a type's log messages to the observer, tagged with the resource.
class ResourceLogger : public Logger {
public:
    ResourceLogger(RunObserver &observer, std::string resource)
        : m_observer(observer)
        , m_resource(std::move(resource))
    {
    }

    void log(LogLevel level, std::string_view message) override { m_observer.log(level, m_resource, message); }

private:
    RunObserver &m_observer;
    std::string m_resource;
};

std::vector<std::string> references(const Json &properties, const char *key)
{
    std::vector<std::string> list;
    const auto found = properties.find(key);
    if (found == properties.end() || !found->is_array())
        return list;
    for (const Json &item : *found)
        if (item.is_string())
            list.push_back(item.get<std::string>());
    return list;
}

std::string expressionFailure(const char *which, const std::string &text, const ExpressionError &error)
{
    std::string message = "control ";
    message += which;
    message += " expression '" + text + "': " + error.message;
    if (error.column > 0)
        message += " at column " + std::to_string(error.column);
    return message;
}

/// The control gate: whether the resource is managed, or why the question could not be answered.
Result<bool> controlAllows(const Json &properties, const ExpressionScope &scope)
{
    const auto control = properties.find("control");
    if (control == properties.end() || !control->is_object())
        return true;
    for (const char *which : {"if", "unless"}) {
        const std::string text = stringMember(*control, which);
        if (text.empty())
            continue;
        auto value = evaluateExpression(text, scope);
        if (!value)
            return Error {"control_failed", expressionFailure(which, text, value.error())};
        if (!value->is_boolean())
            return Error {"control_failed",
                std::string("control ") + which + " expression '" + text + "' must give true or false, not "
                    + describeJsonType(*value)};
        const bool outcome = value->get<bool>();
        if ((std::string_view(which) == "if") != outcome)
            return false;
    }
    return true;
}

/// Below this many files to compare, reading ahead costs more in starting a thread than it saves.
constexpr std::size_t kReadAheadMinimum = 32;

/// Reads ahead the files whose content the manifest's resources will compare (each type says
/// which, ResourceType::contentToCompare), when there are enough of them; null otherwise.
std::unique_ptr<ChecksumReadAhead> readAheadFor(const ResolvedManifest &manifest, const Catalog &catalog)
{
    std::vector<std::filesystem::path> paths;
    for (const ResolvedResource &resource : manifest.resources) {
        const ResourceType *type = catalog.type(resource.type);
        if (auto path = type ? type->contentToCompare(resource.name, resource.properties) : std::nullopt)
            paths.push_back(std::move(*path));
    }
    if (paths.size() < kReadAheadMinimum)
        return nullptr;
    return std::make_unique<ChecksumReadAhead>(std::move(paths));
}

/// The event for a resource about to run, before anything about it is known.
TransactionEvent startEvent(const Frame &frame, const ResolvedResource &resource, const ResourceType *type)
{
    TransactionEvent event;
    event.eventId = newEventId();
    event.timestamp = std::chrono::system_clock::now();
    event.type = resource.type;
    event.name = resource.name;
    event.alias = stringMember(resource.properties, "alias");
    event.noop = frame.noop;
    event.healthCheckOnly = frame.healthCheckOnly;
    event.requestedEnsure = stringMember(resource.properties, "ensure");
    if (event.requestedEnsure.empty() && type)
        event.requestedEnsure = type->defaultEnsure();
    return event;
}

class ManifestRun {
public:
    ManifestRun(const RunOptions &options, CommandRunner &runner, RunObserver &observer, const Catalog &catalog,
        std::unique_ptr<ChecksumReadAhead> readAhead)
        : m_options(options)
        , m_runner(runner)
        , m_observer(observer)
        , m_catalog(catalog)
        , m_readAhead(std::move(readAhead))
    {
    }

    /// Runs the resources of a frame; returns how they ended.
    ChildManifestOutcome runFrame(const Frame &frame);

    RunResult &result() { return m_result; }

private:
    TransactionEvent runResource(const Frame &frame, const ResolvedResource &resource);
    /// Applies the resource unless one of its requirements failed or was itself skipped.
    void applyWhenRequirementsMet(const Frame &frame, const ResolvedResource &resource, TransactionEvent &event);
    void apply(const Frame &frame, const ResolvedResource &resource, const Json &properties, TransactionEvent &event);
    void runHealthChecks(const Json &properties, TransactionEvent &event);
    Result<ChildManifestOutcome> runChild(const Frame &parent, const ChildManifestRequest &request);
    void record(const TransactionEvent &event, const Json &properties);
    /// The latest state of the resource a require or subscribe (relation) names; nullptr, with
    /// event failed, when no such resource has run before.
    const ReferenceState *latestRun(
        const std::string &relation, const std::string &reference, TransactionEvent &event) const;
    /// Runs `read` with RunOptions::readAsCaller; false when the caller's identity was refused.
    bool readAsCaller(const std::function<void()> &read) const
    {
        if (!m_options.readAsCaller) {
            read();
            return true;
        }
        return m_options.readAsCaller(read);
    }
    [[nodiscard]] bool stopping() const
    {
        return m_result.aborted || m_result.cancelled || (m_options.cancel && m_options.cancel->load());
    }

    const RunOptions &m_options;
    CommandRunner &m_runner;
    RunObserver &m_observer;
    const Catalog &m_catalog;
    std::unique_ptr<ChecksumReadAhead> m_readAhead;
    RunResult m_result;
    std::unordered_map<std::string, ReferenceState> m_latest;
    /// What RunOptions::priorOutcome answered, kept for the pointers latestRun() hands out.
    mutable std::unordered_map<std::string, ReferenceState> m_prior;
    std::unordered_map<const ProviderFactory *, std::unique_ptr<Provider>> m_providers;
    std::size_t m_done = 0;
    std::size_t m_total = 0;
};

ChildManifestOutcome ManifestRun::runFrame(const Frame &frame)
{
    ChildManifestOutcome outcome;
    outcome.noop = frame.noop;
    outcome.healthCheckOnly = frame.healthCheckOnly;
    if (frame.manifest.preMessage && !frame.manifest.preMessage->empty())
        m_observer.message(*frame.manifest.preMessage);
    m_total += frame.manifest.resources.size();
    std::size_t remaining = frame.manifest.resources.size();
    for (const ResolvedResource &resource : frame.manifest.resources) {
        if (stopping()) {
            if (m_options.cancel && m_options.cancel->load())
                m_result.cancelled = true;
            break;
        }
        --remaining;
        m_observer.resourceStarting(resource.label(), m_done, m_total);
        const TransactionEvent event = runResource(frame, resource);
        ++m_done;
        ++outcome.resources;
        if (event.failed)
            ++outcome.failed;
        else if (event.skipped)
            ++outcome.skipped;
        else if (event.changed)
            ++outcome.changed;
        // fail_on_error governs the manifest that sets it: a child stops itself, and its failure
        // reaches the parent as a failed apply resource, which the parent's own setting judges.
        if (event.failed && frame.manifest.failOnError) {
            m_observer.log(LogLevel::Error, resource.label(),
                frame.depth == 0 ? "stopping the run: the resource failed and fail_on_error is set"
                                 : "stopping the child manifest: the resource failed and fail_on_error is set");
            if (frame.depth == 0)
                m_result.aborted = true;
            break;
        }
    }
    // Resources a stopped run never reached no longer count towards the total.
    m_total -= remaining;
    if (!stopping() && outcome.failed == 0 && frame.manifest.postMessage && !frame.manifest.postMessage->empty())
        m_observer.message(*frame.manifest.postMessage);
    return outcome;
}

TransactionEvent ManifestRun::runResource(const Frame &frame, const ResolvedResource &resource)
{
    const auto started = std::chrono::steady_clock::now();
    const ResourceType *type = m_catalog.type(resource.type);
    TransactionEvent event = startEvent(frame, resource, type);

    const TemplateScope scope(frame.inputs.facts, frame.manifest.data, frame.inputs.environ, frame.inputs.baseDirectory,
        frame.inputs.kvGet, frame.inputs.registrations);
    // Control expressions and deferred templates may read files: they do so as the caller.
    std::optional<Result<bool>> managed;
    std::optional<Result<Json, TemplateFailure>> resolved;
    const bool readable = type && readAsCaller([&] {
        managed = controlAllows(resource.properties, scope);
        if (*managed && managed->value())
            resolved = resolveDeferred(resource, scope);
    });
    if (!type) {
        event.fail("resource type '" + resource.type + "' is not supported by this backend");
    } else if (!readable) {
        event.fail("cannot take on the caller's identity to read the manifest's files");
    } else if (!*managed) {
        event.fail(managed->error().message);
        m_observer.log(LogLevel::Error, resource.label(), "stopping the run: " + managed->error().message);
        m_result.aborted = true;
    } else if (!managed->value()) {
        event.skipped = true;
    } else if (!*resolved) {
        const TemplateFailure &failure = resolved->error();
        std::string property = failure.pointer.empty() ? std::string("template") : failure.pointer.substr(1);
        event.fail(property + ": " + failure.error.message);
    } else {
        event.properties = std::move(*resolved).value();
        applyWhenRequirementsMet(frame, resource, event);
    }

    // Resources that never got past the gate report their properties as resolved so far.
    if (event.properties.empty())
        event.properties = resource.properties;
    event.properties["name"] = resource.name;
    if (type)
        type->redact(event.properties);
    event.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started);
    record(event, resource.properties);
    m_result.summary.add(event);
    m_observer.resourceFinished(event);
    return event;
}

void ManifestRun::applyWhenRequirementsMet(
    const Frame &frame, const ResolvedResource &resource, TransactionEvent &event)
{
    for (const std::string &reference : references(resource.properties, "require")) {
        const ReferenceState *latest = latestRun("require", reference, event);
        if (latest && (latest->failed || latest->unmet))
            event.unmetRequirements.push_back(reference);
    }
    if (!event.failed && !event.unmetRequirements.empty())
        event.skipped = true;
    if (!event.failed && !event.skipped)
        apply(frame, resource, event.properties, event);
}

void ManifestRun::apply(
    const Frame &frame, const ResolvedResource &resource, const Json &properties, TransactionEvent &event)
{
    auto factory = m_catalog.providers().select(resource.type, properties, frame.inputs.facts);
    if (!factory) {
        event.fail(factory.error().message);
        return;
    }
    event.provider = std::string(factory.value()->name());

    const ResourceType *type = m_catalog.type(resource.type);
    if (!frame.healthCheckOnly || type->appliesWhenCheckingHealthOnly()) {
        std::vector<RefreshCause> causes;
        for (const std::string &reference : references(resource.properties, "subscribe")) {
            const ReferenceState *latest = latestRun("subscribe", reference, event);
            if (!latest)
                return;
            // A change that only would have happened must not make a real run restart or re-run
            // anything; a noop subscriber still reports the refresh it would do.
            const bool fired = latest->changed && (frame.noop || !latest->noop);
            const auto named = [&](const RefreshCause &cause) { return cause.reference == reference; };
            if (fired && std::ranges::none_of(causes, named))
                causes.push_back({.reference = reference, .noop = latest->noop});
        }

        ResourceLogger logger(m_observer, resource.label());
        ApplyContext context {.noop = frame.noop,
            .refreshCauses = std::move(causes),
            .runner = m_runner,
            .log = logger,
            .facts = frame.inputs.facts,
            .workingDirectory = frame.inputs.baseDirectory,
            .mayShowDiff = m_options.mayShowDiff,
            .runChildManifest = [&](const ChildManifestRequest &request) { return runChild(frame, request); },
            .data = &frame.manifest.data,
            .environ = &frame.inputs.environ,
            .kvGet = frame.inputs.kvGet,
            .registrations = frame.inputs.registrations,
            .checksumReadAhead = m_readAhead.get()};
        std::unique_ptr<Provider> &provider = m_providers[factory.value()];
        if (!provider)
            provider = factory.value()->create(m_runner);
        if (auto applied = type->apply(resource.name, properties, *provider, context, event); !applied) {
            event.fail(applied.error().message);
        }
        if (event.refreshed) {
            for (const RefreshCause &cause : context.refreshCauses)
                event.refreshedBy.push_back(cause.reference);
        }
        if (event.finalEnsure.empty() && !event.failed)
            event.finalEnsure = event.requestedEnsure;
    }
    runHealthChecks(properties, event);
}

const ReferenceState *ManifestRun::latestRun(
    const std::string &relation, const std::string &reference, TransactionEvent &event) const
{
    const auto latest = m_latest.find(reference);
    if (latest != m_latest.end())
        return &latest->second;
    if (m_options.priorOutcome) {
        if (const auto prior = m_options.priorOutcome(reference)) {
            const ReferenceState state {prior->failed, prior->unmet, prior->changed, prior->noop};
            return &m_prior.insert_or_assign(reference, state).first->second;
        }
        event.fail(
            relation + " " + reference + ": no such resource has run before this one, in this run or its session");
        return nullptr;
    }
    event.fail(relation + " " + reference + ": no such resource has run before this one");
    return nullptr;
}

void ManifestRun::runHealthChecks(const Json &properties, TransactionEvent &event)
{
    const auto checks = properties.find("health_checks");
    if (checks == properties.end() || !checks->is_array())
        return;
    const HealthCheckEnvironment environment {
        .runner = m_runner, .gossBinary = m_options.gossBinary, .scratchDirectory = {}, .cancel = m_options.cancel};
    for (const Json &check : *checks) {
        auto result = runHealthCheck(check, environment);
        if (!result) {
            event.fail("health check " + healthCheckLabel(check) + ": " + result.error().message);
            continue;
        }
        if (result->status != HealthCheckResult::Status::Ok) {
            std::string status(healthStatusName(result->status));
            for (char &c : status)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            std::string message = "health check status \"" + status + "\" (" + healthCheckLabel(check);
            if (!result->output.empty())
                message += ": " + result->output;
            event.fail(message + ")");
        }
        event.healthChecks.push_back(std::move(result).value());
    }
}

void ManifestRun::record(const TransactionEvent &event, const Json &properties)
{
    const ReferenceState state {event.failed, !event.unmetRequirements.empty(), event.changed, event.noop};
    m_latest[event.type + '#' + event.name] = state;
    if (const std::string alias = stringMember(properties, "alias"); !alias.empty())
        m_latest[event.type + '#' + alias] = state;
}

Result<ChildManifestOutcome> ManifestRun::runChild(const Frame &parent, const ChildManifestRequest &request)
{
    if (parent.depth + 1 > m_options.maxApplyDepth)
        return Error {"apply_depth",
            "child manifest " + request.path.string() + " would nest deeper than the limit of "
                + std::to_string(m_options.maxApplyDepth) + " levels"};
    const std::filesystem::path path
        = request.path.is_absolute() ? request.path : parent.inputs.baseDirectory / request.path;

    // The child sees the parent's facts and environment; its own data is resolved from its file,
    // then the apply resource's data, then the run's external data, which always wins.
    ResolveOptions inputs = parent.inputs;
    inputs.externalData = request.data.is_object() ? request.data : Json::object();
    deepMerge(inputs.externalData, parent.inputs.externalData);
    PreparedManifest child;
    if (!readAsCaller([&] { child = prepareManifestFile(path, inputs); }))
        return Error {
            "caller_identity", "cannot take on the caller's identity to read the child manifest " + path.string()};
    for (const Diagnostic &diagnostic : child.diagnostics)
        if (diagnostic.severity == Severity::Warning)
            m_observer.log(
                LogLevel::Warning, "apply#" + request.path.string(), formatDiagnostic(child.fileName, diagnostic));
    if (!child.ok()) {
        std::string text = child.diagnosticText();
        while (!text.empty() && text.back() == '\n')
            text.pop_back();
        return Error {"invalid_child_manifest", "child manifest " + path.string() + " is invalid:\n" + text};
    }
    if (!request.allowApply) {
        for (const ResolvedResource &resource : child.resolved.resources)
            if (resource.type == "apply")
                return Error {"apply_not_allowed",
                    "child manifest " + path.string() + " contains " + resource.label() + " but allow_apply is false"};
    }
    inputs.baseDirectory = path.parent_path();
    const Frame frame {.manifest = child.resolved,
        .inputs = inputs,
        .noop = parent.noop || request.noop,
        .healthCheckOnly = parent.healthCheckOnly || request.healthCheckOnly,
        .depth = parent.depth + 1};
    return runFrame(frame);
}

} // namespace

Json runResultToJson(const RunResult &result, bool noop)
{
    return Json {{"summary", summaryToJson(result.summary)}, {"cancelled", result.cancelled},
        {"aborted", result.aborted}, {"noop", noop}};
}

RunResult runManifest(const ResolvedManifest &manifest, const ResolveOptions &inputs, const RunOptions &options,
    CommandRunner &runner, RunObserver &observer, const Catalog &catalog)
{
    const auto started = std::chrono::steady_clock::now();
    std::optional<IdentityRunner> imposed;
    CommandRunner &processes
        = options.processCredentials ? imposed.emplace(runner, *options.processCredentials) : runner;
    ManifestRun run(options, processes, observer, catalog, readAheadFor(manifest, catalog));
    const Frame frame {.manifest = manifest,
        .inputs = inputs,
        .noop = options.noop,
        .healthCheckOnly = options.healthCheckOnly,
        .depth = 0};
    run.runFrame(frame);
    RunResult result = std::move(run.result());
    result.summary.runTime
        = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started);
    return result;
}

} // namespace ccm::engine
