// SPDX-License-Identifier: Apache-2.0
#include "app/ensure_run.h"

#include "app/commands.h"
#include "app/hiera_source.h"
#include "app/input_options.h"
#include "app/option_value.h"
#include "app/session_store.h"
#include "core/facts/environ.h"
#include "core/model/manifest.h"
#include "engine/prepared_manifest.h"
#include "engine/util/command_runner.h"

#include <cstdlib>
#include <ostream>

namespace ccm::cli {
namespace {

/// The types `ensure` manages.
constexpr std::array<std::string_view, 6> kEnsureTypes {"package", "service", "file", "exec", "archive", "scaffold"};

Result<bool> parseEnsureBool(std::string_view option, const std::string &text)
{
    if (text == "true" || text == "1" || text == "yes" || text == "on")
        return true;
    if (text == "false" || text == "0" || text == "no" || text == "off")
        return false;
    return Error {"usage", std::string(option) + " takes true or false, not '" + text + "'"};
}

bool isEnsureType(std::string_view type)
{
    return std::ranges::find(kEnsureTypes, type) != kEnsureTypes.end();
}

bool hasEnsureReferences(const Json &properties, const char *key)
{
    const auto found = properties.find(key);
    return found != properties.end() && !found->is_null() && !(found->is_array() && found->empty());
}

/// "PROPERTY: message" for a diagnostic about the one resource of an ensure manifest (whose body is
/// at /ccm/resources/0/TYPE), the property path written with dots ("health_checks.0.command"); the
/// message loses the resource's label, which the caller puts in front once.
std::string describeEnsureProblem(std::string_view type, const std::string &label, const Diagnostic &diagnostic)
{
    std::string message = diagnostic.message;
    if (message.starts_with(label + ": "))
        message.erase(0, label.size() + 2);
    const std::string prefix = "/ccm/resources/0/" + std::string(type);
    std::string property;
    if (diagnostic.path.starts_with(prefix + "/")) {
        property = diagnostic.path.substr(prefix.size() + 1);
        std::ranges::replace(property, '/', '.');
    }
    if (property.empty() || message.starts_with(property + " ") || message.starts_with(property + ":"))
        return message;
    return property + ": " + message;
}

/// Passes a run's reports on and keeps the resource's event.
class EnsureEventCapture : public engine::RunObserver {
public:
    explicit EnsureEventCapture(engine::RunObserver &inner)
        : m_inner(inner)
    {
    }
    void message(std::string_view text) override { m_inner.message(text); }
    void resourceStarting(std::string_view resource, std::size_t done, std::size_t total) override
    {
        m_inner.resourceStarting(resource, done, total);
    }
    void resourceFinished(const TransactionEvent &event) override
    {
        m_event = event;
        m_inner.resourceFinished(event);
    }
    void log(engine::LogLevel level, std::string_view resource, std::string_view message) override
    {
        m_inner.log(level, resource, message);
    }

    std::optional<TransactionEvent> &event() { return m_event; }

private:
    engine::RunObserver &m_inner;
    std::optional<TransactionEvent> m_event;
};

/// The one-resource manifest, validated and resolved; an error names the property at fault.
Result<engine::PreparedManifest> prepareEnsure(std::string_view type, const Json &properties,
    const ResolveOptions &inputs, bool withSession, engine::RunObserver &observer)
{
    Json resource = Json::object();
    resource[std::string(type)] = properties;
    const Json manifest {{"ccm", {{"resources", Json::array({resource})}}}};
    engine::PreparedManifest prepared = engine::prepareManifestText(manifest.dump(2), "ensure", inputs);
    const std::string label = std::string(type) + '#' + properties.value("name", std::string());
    std::string problems;
    for (const Diagnostic &diagnostic : prepared.diagnostics) {
        const bool reference = diagnostic.path.find("/require/") != std::string::npos
            || diagnostic.path.find("/subscribe/") != std::string::npos;
        if (diagnostic.severity == Severity::Error)
            problems += (problems.empty() ? "" : "; ") + describeEnsureProblem(type, label, diagnostic);
        else if (diagnostic.severity == Severity::Warning && !(withSession && reference))
            observer.log(engine::LogLevel::Warning, label, describeEnsureProblem(type, label, diagnostic));
    }
    if (!problems.empty())
        return Error {"invalid_resource", label + ": " + problems};
    if (prepared.resolved.resources.size() != 1)
        return Error {"invalid_resource", label + ": not one resource"};
    return prepared;
}

} // namespace

Result<bool> takeEnsureOption(const std::vector<std::string> &args, std::size_t &index, EnsureSettings &settings)
{
    const std::string &arg = args[index];
    if (arg == "--noop") {
        settings.noop = true;
        return true;
    }
    if (arg == "--read-env" || arg == "--no-read-env") {
        settings.readEnv = arg == "--read-env";
        return true;
    }
    if (arg.starts_with("--read-env=")) {
        auto value = parseEnsureBool("--read-env", arg.substr(std::string_view("--read-env=").size()));
        if (!value)
            return value.error();
        settings.readEnv = value.value();
        return true;
    }
    if (auto session = optionValue(args, index, "--session")) {
        if (!*session)
            return session->error();
        if (session->value().empty())
            return Error {"usage", "--session: the session store should not be empty"};
        settings.session = session->value();
        return true;
    }
    if (auto hiera = optionValue(args, index, "--hiera")) {
        if (!*hiera)
            return hiera->error();
        settings.hieraFile = hiera->value();
        return true;
    }
    auto registration = takeRegistrationOption(args, index, settings.sources);
    if (!registration || registration.value())
        return registration;
    return takeSourceOption(args, index, settings.sources);
}

EnsureSettings ensureSettingsFromEnvironment()
{
    EnsureSettings settings;
    settings.sources = sourceOptionsFromEnvironment();
    if (const char *session = std::getenv("CCM_SESSION_STORE"); session && *session)
        settings.session = session;
    if (const char *hiera = std::getenv("CCM_HIERA_DATA"); hiera && *hiera)
        settings.hieraFile = hiera;
    return settings;
}

Result<ResolveOptions> ensureInputs(const EnsureSettings &settings)
{
    InputOptions options;
    options.facts = settings.facts;
    options.sources = settings.sources;
    auto resolved = resolveInputs(options);
    if (!resolved)
        return resolved.error();
    ResolveOptions inputs = std::move(resolved).value();
    // resolveInputs() merges ./.env; without --read-env the environment is the process's alone.
    if (!settings.readEnv)
        inputs.environ = processEnviron(std::filesystem::path());
    Json overrides = Json::object();
    if (settings.dataFile) {
        auto data = loadDataFile(*settings.dataFile, settings.sources);
        if (!data)
            return data.error();
        overrides = std::move(data).value();
    }
    inputs.externalData = overrides;
    if (!settings.hieraFile.empty()) {
        auto data = resolveHieraSource(settings.hieraFile, inputs.facts, overrides, settings.sources);
        if (!data && data.error().code != "not_found")
            return data.error();
        if (data)
            inputs.externalData = std::move(data).value();
    }
    return inputs;
}

Result<TransactionEvent> ensureResource(
    std::string_view type, const Json &properties, const EnsureSettings &settings, engine::RunObserver &observer)
{
    if (!isEnsureType(type))
        return Error {"invalid_resource",
            "unknown resource type '" + std::string(type)
                + "'; ensure manages package, service, file, exec, archive "
                  "and scaffold"};
    if (!properties.is_object() || !properties.contains("name") || !properties["name"].is_string()
        || properties["name"].get<std::string>().empty())
        return Error {"invalid_resource", std::string(type) + ": name: a resource needs a name"};
    const bool references = hasEnsureReferences(properties, "require") || hasEnsureReferences(properties, "subscribe");
    if (references && !settings.session)
        return Error {"usage",
            "require and subscribe name resources of earlier ensure calls, which only a session records: give "
            "--session DIR or set CCM_SESSION_STORE (eval \"$(ccm-backend session new)\")"};
    std::optional<SessionStore> store;
    if (settings.session) {
        auto opened = SessionStore::open(*settings.session);
        if (!opened)
            return opened.error();
        if (auto writable = opened->checkWritable(); !writable)
            return writable.error();
        store.emplace(std::move(opened).value());
    }
    auto inputs = ensureInputs(settings);
    if (!inputs)
        return inputs.error();
    auto prepared = prepareEnsure(type, properties, inputs.value(), store.has_value(), observer);
    if (!prepared)
        return prepared.error();

    engine::RunOptions options;
    options.noop = settings.noop;
    options.cancel = settings.cancel;
    SessionContents contents;
    if (store && references) {
        auto read = store->read();
        if (!read)
            return read.error();
        contents = std::move(read).value();
        options.priorOutcome = [&contents](const std::string &reference) { return latestOutcome(contents, reference); };
    }
    EnsureEventCapture capture(observer);
    ProcessRunner runner;
    engine::runManifest(prepared->resolved, inputs.value(), options, runner, capture);
    if (!capture.event())
        return Error {"cancelled", "the run was cancelled before the resource ran"};
    if (store) {
        if (auto recorded = store->record(*capture.event()); !recorded)
            return Error {"session_record", recorded.error().message};
    }
    return std::move(*capture.event());
}

} // namespace ccm::cli
