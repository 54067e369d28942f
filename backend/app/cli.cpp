// SPDX-License-Identifier: Apache-2.0
#include "app/cli.h"

#include "app/commands.h"

#include <iostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kUsage = R"(Usage: ccm-backend COMMAND [OPTIONS]

Resolves, validates and applies CCM manifests.

Commands:
  validate FILE... [--json]   check manifests against the schemas and rules of every
                              resource type; prints FILE:LINE:COL: error: message lines
                              and exits 0 when all are valid, 1 otherwise
  render MANIFEST             resolve data, hierarchy, templates and defaults and print
                              the manifest as an apply would run it
  bundle MANIFEST -o FILE.tar.gz [--list] [--include PATH]...
                              export the manifest and every file it reaches as a
                              reproducible bundle
  facts [PATH]                print the facts templates see, or the value at PATH
  apply MANIFEST [--noop]     run a manifest on this host: one line per resource and a
                              summary, or one JSON event per line with --json
  serve [--socket PATH] [--user]
                              run the daemon the designer talks to: JSON-RPC 2.0
                              over a Unix socket
  publish FILE --bucket BUCKET
                              put a bundle into a NATS JetStream object store and
                              print its obj:// URL
  agent --config FILE [--once]
                              keep this host converged on a fleet agent
                              configuration's manifests
  fleet preview|status|keygen
                              preview a manifest on every host of a NATS fleet in
                              noop, show the hosts' last runs, make a signing key
  client METHOD [PARAMS]      call a method of a running backend and print its
                              notifications and answer as JSON lines

Run 'ccm-backend COMMAND --help' for the options of a command.

Options:
  -h, --help                  show this help
  --version                   show the version
)";

} // namespace

int runCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty()) {
        err << kUsage;
        return UsageError;
    }
    const std::string &command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "-h" || command == "--help" || command == "help") {
        out << kUsage;
        return Success;
    }
    if (command == "--version") {
        out << "ccm-backend " << CCM_VERSION << '\n';
        return Success;
    }
    if (command == "validate")
        return validateCommand(rest, out, err);
    if (command == "render")
        return renderCommand(rest, out, err);
    if (command == "bundle")
        return bundleCommand(rest, out, err);
    if (command == "facts")
        return factsCommand(rest, out, err);
    if (command == "agent")
        return agentCommand(rest, out, err);
    if (command == "apply")
        return applyCommand(rest, out, err);
    if (command == "serve")
        return serveCommand(rest, out, err);
    if (command == "publish")
        return publishCommand(rest, out, err);
    if (command == "fleet")
        return fleetCommand(rest, out, err);
    if (command == "client")
        return clientCommand(rest, out, err);
    err << "ccm-backend: unknown command '" << command << "'\n\n" << kUsage;
    return UsageError;
}

int run(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        return runCommand(args, std::cout, std::cerr);
    } catch (const std::exception &e) {
        // Last line of defence: a bug must still end with a message, not an abort.
        std::cerr << "ccm-backend: internal error: " << e.what() << '\n';
        return Failure;
    }
}

} // namespace ccm::cli
