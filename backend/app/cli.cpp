// SPDX-License-Identifier: Apache-2.0
#include "app/cli.h"

#include "app/commands.h"
#include "app/run_reporter.h"
#include "lazy_libraries/lazy_library.h"

#include <array>
#include <iostream>
#include <string_view>

namespace ccm::cli {
namespace {

/// A command of ccm-backend: its synopsis (its name first) and what it does, as --help lists
/// them, beside the function that runs it, so that no command is listed without running or runs
/// without being listed.
struct Command {
    std::string_view synopsis;
    std::string_view summary; ///< pre-wrapped lines
    int (*run)(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

    [[nodiscard]] std::string_view name() const { return synopsis.substr(0, synopsis.find(' ')); }
};

constexpr std::array kCommands {
    Command {"validate FILE... [--json]",
        "check manifests against the schemas and rules of every\n"
        "resource type; prints FILE:LINE:COL: error: message lines\n"
        "and exits 0 when all are valid, 1 otherwise",
        validateCommand},
    Command {"render MANIFEST",
        "resolve data, hierarchy, templates and defaults and print\n"
        "the manifest as an apply would run it",
        renderCommand},
    Command {"bundle MANIFEST -o FILE.tar.gz [--list] [--include PATH]...",
        "export the manifest and every file it reaches as a\n"
        "reproducible bundle",
        bundleCommand},
    Command {"facts [PATH]", "print the facts templates see, or the value at PATH", factsCommand},
    Command {"apply MANIFEST [--noop]",
        "run a manifest on this host: one line per resource and a\n"
        "summary, or one JSON event per line with --json",
        applyCommand},
    Command {"serve [--socket PATH] [--user]",
        "run the daemon the designer talks to: JSON-RPC 2.0\n"
        "over a Unix socket",
        serveCommand},
    Command {"publish FILE --bucket BUCKET",
        "put a bundle into a NATS JetStream object store and\n"
        "print its obj:// URL",
        publishCommand},
    Command {"releases --bucket B [--name N] [--json]",
        "list the recorded releases of a bucket's objects, newest\n"
        "first; --prune --keep N removes older ones",
        releasesCommand},
    Command {"rollback --bucket B --name N --sign KEY.pem",
        "publish an earlier release of an object again (the one\n"
        "before the current, or --to DIGEST), signed",
        rollbackCommand},
    Command {"rollout FILE --bucket B --ring NAME...",
        "roll a signed release out ring by ring, each behind a\n"
        "health gate, rolling back when one closes; status,\n"
        "resume, pause and abort of rollouts",
        rolloutCommand},
    Command {"agent --config FILE [--once]",
        "keep this host converged on a fleet agent\n"
        "configuration's manifests",
        agentCommand},
    Command {"fleet preview|status|keygen",
        "preview a manifest on every host of a NATS fleet in\n"
        "noop, show the hosts' last runs, make a signing key",
        fleetCommand},
    Command {"ensure TYPE NAME [ENSURE] [OPTIONS]",
        "ensure one resource (package, service, file, exec,\n"
        "archive, scaffold) as upstream's ccm ensure does;\n"
        "ensure api pipe answers JSON or YAML requests on stdin",
        ensureCommand},
    Command {"status TYPE NAME [--json]",
        "show a resource's current state on this host as its\n"
        "provider reports it (also: info)",
        resourceStatusCommand},
    Command {"capture [--package P] [--service P] [--file PATH]",
        "write this host's packages, services and files as a\n"
        "manifest, proven by a noop that changes nothing",
        captureCommand},
    Command {"session new|report",
        "start a session that carries require and subscribe\n"
        "across ensure calls; report on it",
        sessionCommand},
    Command {"hiera parse|facts",
        "resolve a hierarchical data file against facts; show\n"
        "the facts it resolves with",
        hieraCommand},
    Command {"registration init|create|rm|query|watch",
        "manage and look up service registrations in the NATS\n"
        "registration stream (also: reg)",
        registrationCommand},
    Command {"client METHOD [PARAMS]",
        "call a method of a running backend and print its\n"
        "notifications and answer as JSON lines",
        clientCommand},
};

/// Upstream's other names for commands, accepted so that its users' scripts keep working.
std::string_view canonicalName(std::string_view command)
{
    if (command == "info")
        return "status";
    if (command == "reg" || command == "r")
        return "registration";
    return command;
}

/// The column the summaries start at; a longer synopsis has its summary on the next line.
constexpr std::size_t kSummaryColumn = 30;

void printUsage(std::ostream &out)
{
    out << "Usage: ccm-backend COMMAND [OPTIONS]\n\nResolves, validates and applies CCM manifests.\n\nCommands:\n";
    const std::string indent(kSummaryColumn, ' ');
    for (const Command &command : kCommands) {
        out << "  " << command.synopsis;
        const std::size_t used = 2 + command.synopsis.size();
        if (used + 3 <= kSummaryColumn)
            out << std::string(kSummaryColumn - used, ' ');
        else
            out << '\n' << indent;
        std::string_view summary = command.summary;
        for (std::size_t end = summary.find('\n'); end != std::string_view::npos; end = summary.find('\n')) {
            out << summary.substr(0, end) << '\n' << indent;
            summary.remove_prefix(end + 1);
        }
        out << summary << '\n';
    }
    out << "\nRun 'ccm-backend COMMAND --help' for the options of a command.\n\n"
           "Options:\n"
           "  -h, --help                  show this help\n"
           "  --version                   show the version\n"
           "  --debug                     print the debug lines of runs too (before the command)\n"
           "  --info                      print informational lines of runs (the default)\n";
}

} // namespace

int runCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    // Upstream's global --debug and --info come before the command.
    std::size_t first = 0;
    for (; first < args.size() && (args[first] == "--debug" || args[first] == "--info"); ++first) {
        if (args[first] == "--debug")
            setRunLogLevel(engine::LogLevel::Debug);
    }
    if (first == args.size()) {
        printUsage(err);
        return UsageError;
    }
    const std::string &command = args[first];
    const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(first) + 1, args.end());
    if (command == "-h" || command == "--help" || command == "help") {
        printUsage(out);
        return Success;
    }
    if (command == "--version") {
        out << "ccm-backend " << CCM_VERSION << '\n';
        return Success;
    }
    for (const Command &known : kCommands) {
        if (known.name() == canonicalName(command))
            return known.run(rest, out, err);
    }
    err << "ccm-backend: unknown command '" << command << "'\n\n";
    printUsage(err);
    return UsageError;
}

int run(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        return runCommand(args, std::cout, std::cerr);
    } catch (const lazy::LibraryUnavailable &e) {
        // A library the command needs is not installed (or is too old): its message names it
        // and what needed it.
        std::cerr << "ccm-backend: " << e.what() << '\n';
        return LibraryMissing;
    } catch (const std::exception &e) {
        // Last line of defence: a bug must still end with a message, not an abort.
        std::cerr << "ccm-backend: internal error: " << e.what() << '\n';
        return Failure;
    }
}

} // namespace ccm::cli
