// SPDX-License-Identifier: Apache-2.0
#include "app/agent_preview.h"
#include "app/commands.h"
#include "app/input_options.h"
#include "app/manifest_input.h"
#include "core/facts/environ.h"
#include "core/model/manifest.h"
#include "engine/prepared_manifest.h"
#include "engine/run.h"
#include "fleet/agent/agent.h"
#include "fleet/nats/kv_reader.h"
#include "fleet/preview/seen_requests.h"
#include "fleet/registration/registration_store.h"

#include <csignal>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <ostream>
#include <pthread.h>
#include <sstream>
#include <string>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kAgentUsage
    = R"(Usage: ccm-backend agent --config FILE [--once] [--context NAME] [--debug|--info]

Keeps this host converged on the manifests of an agent configuration (upstream CCM's
agent.yaml, plus identity and preview; see docs/agent.md): watches obj:// sources, polls
http(s):// ones, applies on change and every interval, runs health checks and remediates,
publishes events, runs and status to NATS and serves Prometheus metrics.

Options:
  --config FILE   the agent configuration
  --once          fetch and apply every source once, then exit: 0 when no run failed
  --context NAME  the NATS context to connect with, over the configuration's
                  nats_context (default: $NATS_CONTEXT when set)
  --debug, --info log from debug or from info up, over the configuration's log_level
  -h, --help      show this help

Signals: SIGTERM and SIGINT stop runs before their next resource and exit; SIGHUP reads
the configuration again (a configuration with errors is logged and the old one kept).
Logs go to stderr, one line each, with syslog priorities when $JOURNAL_STREAM is set.
)";

/// Runs one manifest for the agent as `apply` would: opened (a bundle unpacked), resolved
/// against the agent's facts, the environment and the external data, then run; with
/// `checkOnly`, everything but the run.
Result<engine::RunResult> runAgentManifest(const fleet::ManifestRunRequest &request, engine::RunObserver &observer)
{
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
    sources.nats.context = request.natsContext;
    sources.requiredSigners = request.requiredSigners;
    auto manifest = ManifestInput::open(request.manifest.string(), sources);
    if (!manifest)
        return manifest.error();
    ResolveOptions inputs;
    inputs.facts = request.facts;
    inputs.environ = processEnviron();
    auto reader = std::make_shared<fleet::KvReader>(sources.nats, sources.environment);
    inputs.kvGet = [reader](const std::string &bucket, const std::string &key) { return reader->get(bucket, key); };
    // registrations() looks in the stream the agent's register_when_stable entries go to.
    auto registry
        = std::make_shared<fleet::RegistrationReader>(sources.nats, sources.environment, sources.registrationStream);
    inputs.registrations
        = [registry](const std::string &cluster, const std::string &protocol, const std::string &service,
              const std::string &address) { return registry->lookup(cluster, protocol, service, address); };
    if (!request.externalDataUrl.empty()) {
        auto data = loadDataFile(request.externalDataUrl, sources);
        if (!data)
            return makeError(fleet::ManifestRunErrc::ExternalData, "external_data_url: " + data.error().message);
        inputs.externalData = std::move(data).value();
    }
    inputs.baseDirectory = manifest->baseDirectory();
    const FileText file = readManifestFile(manifest->file().string());
    if (file.problem)
        return makeError(fleet::ManifestRunErrc::Invalid, request.shownName + ": " + file.problem->message);
    const std::string shown = manifest->shownName() == request.manifest.string()
        ? request.shownName
        : request.shownName + "(manifest.yaml)";
    const engine::PreparedManifest prepared = engine::prepareManifestText(file.text, shown, inputs);
    if (!prepared.ok())
        return makeError(fleet::ManifestRunErrc::Invalid, prepared.diagnosticText());
    if (request.checkOnly)
        return engine::RunResult {};
    engine::RunOptions options;
    options.healthCheckOnly = request.mode == fleet::RunMode::Health;
    options.cancel = request.cancel;
    ProcessRunner runner;
    return engine::runManifest(prepared.resolved, inputs, options, runner, observer);
}

/// The agent of the current configuration, with the metrics endpoint it asks for.
class AgentProcess {
public:
    AgentProcess(fleet::AgentLog &log, bool once)
        : m_log(log)
        , m_once(once)
    {
    }

    /// Starts an agent with `config`, replacing the running one (which finishes its run first).
    /// A metrics port that cannot be bound is an error; `keepGoing` logs it and runs without.
    Result<void> start(fleet::AgentConfig config, bool keepGoing)
    {
        stop(false);
        m_log.setLevel(config.logLevel);
        if (auto served = serveMetrics(config.monitorPort); !served) {
            if (!keepGoing)
                return served;
            m_log.error(served.error().message);
        }
        fleet::Agent::Environment environment;
        environment.version = CCM_VERSION;
        m_agent = std::make_unique<fleet::Agent>(
            std::move(config), runAgentManifest, m_log, m_metrics, m_outbox, std::move(environment));
        if (m_agent->config().preview.enabled)
            m_agent->addService(std::make_unique<AgentPreviewService>(seenRequests(m_agent->config().cacheDir)));
        return m_agent->start(m_once);
    }

    void stop(bool cancelRuns)
    {
        if (m_agent)
            m_agent->stop(cancelRuns);
        m_agent.reset();
    }

    fleet::Agent *agent() const { return m_agent.get(); }

private:
    /// The preview requests seen, one store for the life of the process: the responders of every
    /// connection and every configuration share it. A reload that moves cache_dir carries the ids
    /// over to the file of the new one.
    std::shared_ptr<fleet::SeenRequests> seenRequests(const std::filesystem::path &cacheDir)
    {
        const std::filesystem::path file = AgentPreviewService::seenRequestsFile(cacheDir);
        if (m_seen && m_seen->file() == file)
            return m_seen;
        const auto now = fleet::Clock::now();
        auto loaded = fleet::SeenRequests::load(file, now);
        if (loaded.problem)
            m_log.warn("fleet preview: " + loaded.problem->message);
        if (m_seen)
            if (auto moved = loaded.store->absorb(*m_seen, now); !moved)
                m_log.error("fleet preview: " + moved.error().message);
        m_seen = std::move(loaded.store);
        return m_seen;
    }

    /// Serves the metrics on `port` (none for 0), keeping the server when the port is unchanged.
    Result<void> serveMetrics(int port)
    {
        if (port == m_metricsPort)
            return {};
        m_metricsServer.reset();
        m_metricsPort = 0;
        if (port == 0)
            return {};
        // Its lines take the agent's form (priority prefix under journald) like every other.
        auto server
            = fleet::MetricsServer::start(port, m_metrics, [this](const std::string &line) { m_log.warn(line); });
        if (!server)
            return server.error();
        m_metricsServer = std::move(server).value();
        m_metricsPort = port;
        m_log.info("serving metrics on http://127.0.0.1:" + std::to_string(port) + "/metrics");
        return {};
    }

    fleet::AgentLog &m_log;
    bool m_once;
    fleet::AgentMetrics m_metrics;
    /// Reports NATS has not taken yet; kept across reloads.
    fleet::ReportOutbox m_outbox;
    std::unique_ptr<fleet::MetricsServer> m_metricsServer;
    int m_metricsPort = 0;
    std::shared_ptr<fleet::SeenRequests> m_seen;
    std::unique_ptr<fleet::Agent> m_agent;
};

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and the threads it starts, so they arrive
/// only through waitForSignal(); restores the mask when it goes.
class BlockedSignals {
public:
    BlockedSignals()
    {
        sigemptyset(&m_set);
        sigaddset(&m_set, SIGINT);
        sigaddset(&m_set, SIGTERM);
        sigaddset(&m_set, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
    }
    ~BlockedSignals() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
    BlockedSignals(const BlockedSignals &) = delete;
    BlockedSignals &operator=(const BlockedSignals &) = delete;

    /// The signal received within `timeout`, or 0.
    int waitForSignal(std::chrono::milliseconds timeout) const
    {
        timespec wait {};
        wait.tv_sec = static_cast<time_t>(timeout.count() / 1000);
        wait.tv_nsec = static_cast<long>((timeout.count() % 1000) * 1000000);
        const int signal = sigtimedwait(&m_set, nullptr, &wait);
        return signal > 0 ? signal : 0;
    }

private:
    sigset_t m_set {};
    sigset_t m_old {};
};

/// What the agent's command line asks for.
struct AgentCommandLine {
    std::string configFile;
    bool once = false;
    /// --context, else $NATS_CONTEXT: over the configuration's nats_context.
    std::optional<std::string> context;
    /// --debug or --info: over the configuration's log_level.
    std::optional<std::string> logLevel;
};

/// The configuration file with the command line's overrides.
Result<fleet::AgentConfig> loadConfig(const AgentCommandLine &commandLine)
{
    auto loaded = fleet::loadAgentConfig(commandLine.configFile);
    if (!loaded)
        return loaded;
    fleet::AgentConfig config = std::move(loaded).value();
    if (commandLine.context)
        config.natsContext = *commandLine.context;
    if (commandLine.logLevel)
        config.logLevel = *commandLine.logLevel;
    return config;
}

void reload(AgentProcess &process, const AgentCommandLine &commandLine, fleet::AgentLog &log)
{
    const std::string &configFile = commandLine.configFile;
    auto config = loadConfig(commandLine);
    if (!config) {
        std::istringstream problems(config.error().message);
        for (std::string line; std::getline(problems, line);)
            log.error("SIGHUP: keeping the running configuration: " + line);
        return;
    }
    log.info("SIGHUP: reloading " + configFile);
    if (auto started = process.start(std::move(config).value(), true); !started)
        log.error("SIGHUP: the new configuration cannot start: " + started.error().message);
}

/// Serves signals until the agent is told to end (or, with --once, has run every source).
int serveSignals(
    AgentProcess &process, const BlockedSignals &signals, const AgentCommandLine &commandLine, fleet::AgentLog &log)
{
    const bool once = commandLine.once;
    for (;;) {
        const int signal = signals.waitForSignal(std::chrono::milliseconds(once ? 100 : 1000));
        if (signal == SIGHUP && !once) {
            reload(process, commandLine, log);
        } else if (signal == SIGINT || signal == SIGTERM) {
            log.info(std::string("stopping on ") + (signal == SIGINT ? "SIGINT" : "SIGTERM"));
            process.stop(true);
            return Success;
        }
        if (once && process.agent() && process.agent()->finished()) {
            const bool ok = process.agent()->succeeded();
            process.stop(false);
            return ok ? Success : Failure;
        }
    }
}

/// Reads the command line; the exit status when it ends here.
std::optional<int> parseAgentArguments(
    const std::vector<std::string> &args, AgentCommandLine &commandLine, std::ostream &out, std::ostream &err)
{
    if (const char *context = std::getenv("NATS_CONTEXT"); context != nullptr && *context != '\0')
        commandLine.context = context;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << kAgentUsage;
            return Success;
        }
        if (arg == "--once") {
            commandLine.once = true;
        } else if (arg == "--debug" || arg == "--info") {
            commandLine.logLevel = arg.substr(2);
        } else if ((arg == "--config" || arg == "--context") && i + 1 < args.size()) {
            (arg == "--config" ? commandLine.configFile : commandLine.context.emplace()) = args[++i];
        } else {
            err << "ccm-backend agent: "
                << (arg == "--config" || arg == "--context" ? arg + " needs a value" : "unknown argument '" + arg + "'")
                << '\n'
                << kAgentUsage;
            return UsageError;
        }
    }
    if (commandLine.configFile.empty()) {
        err << "ccm-backend agent: --config FILE is required\n" << kAgentUsage;
        return UsageError;
    }
    return std::nullopt;
}

} // namespace

int agentCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    AgentCommandLine commandLine;
    if (const auto status = parseAgentArguments(args, commandLine, out, err))
        return *status;
    auto config = loadConfig(commandLine);
    if (!config) {
        std::istringstream problems(config.error().message);
        for (std::string problem; std::getline(problems, problem);)
            err << "ccm-backend agent: " << problem << '\n';
        return UsageError;
    }
    const char *journal = std::getenv("JOURNAL_STREAM");
    fleet::AgentLog log(err, journal != nullptr && *journal != '\0');
    const BlockedSignals signals;
    AgentProcess process(log, commandLine.once);
    if (auto started = process.start(std::move(config).value(), false); !started) {
        log.error(started.error().message);
        return Failure;
    }
    return serveSignals(process, signals, commandLine, log);
}

} // namespace ccm::cli
