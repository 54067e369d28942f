// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/input_options.h"
#include "core/facts/facts.h"
#include "core/model/json_query.h"
#include "core/model/manifest_writer.h"

#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kFactsUsage
    = R"(Usage: ccm-backend facts [PATH] [--yaml] [--fact KEY=VALUE]... [--facts FILE]

Prints the facts manifests see as Facts: the system's (host, cpu, memory, network,
partitions), merged with the custom fact files of /etc/choria/ccm and
~/.config/choria/ccm and the command line. With PATH, prints only the value there:
a gjson query as upstream's `ccm facts QUERY` takes (a dotted path such as
host.info.platformFamily or network.interfaces.0.name, `#` for a list's length,
`network.interfaces.#.name`, `#(...)` queries and @modifiers; docs/cli.md lists the
subset); a string value is printed as it is.

Options:
  --yaml              print YAML instead of JSON
)";

/// The value the gjson query `path` picks from the facts; the exit status when there is none
/// (the message written to `err`).
Result<Json, int> queriedFact(const Json &facts, const std::string &path, std::ostream &err)
{
    auto queried = queryJson(facts, path);
    if (!queried) {
        err << "ccm-backend facts: " << queried.error().message << '\n';
        return UsageError;
    }
    std::optional<Json> found = std::move(queried).value();
    if (!found) {
        err << "ccm-backend facts: no fact at '" << path << "'\n";
        return Failure;
    }
    return std::move(*found);
}

} // namespace

int factsCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    bool yaml = false;
    std::optional<std::string> path;
    InputOptions input;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto taken = takeInputOption(args, i, input, false);
        if (!taken) {
            err << "ccm-backend facts: " << taken.error().message << '\n';
            return UsageError;
        }
        if (taken.value())
            continue;
        if (arg == "--yaml") {
            yaml = true;
        } else if (arg == "-h" || arg == "--help") {
            out << kFactsUsage << kInputOptionsUsage;
            return Success;
        } else if (arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend facts: unknown option '" << arg << "'\n" << kFactsUsage << kInputOptionsUsage;
            return UsageError;
        } else if (path) {
            err << "ccm-backend facts: only one PATH may be given\n";
            return UsageError;
        } else {
            path = arg;
        }
    }

    auto facts = gatherFacts(input.facts);
    if (!facts) {
        err << "ccm-backend facts: " << facts.error().message << '\n';
        return Failure;
    }
    Json value = std::move(facts).value();
    if (path) {
        auto found = queriedFact(value, *path, err);
        if (!found)
            return found.error();
        if (found->is_string() && !yaml) {
            out << found->get<std::string>() << '\n';
            return Success;
        }
        value = std::move(found).value();
    }
    if (yaml) {
        const std::string text = toYaml(value);
        out << text << (text.ends_with('\n') ? "" : "\n");
    } else {
        out << value.dump(2) << '\n';
    }
    return Success;
}

} // namespace ccm::cli
