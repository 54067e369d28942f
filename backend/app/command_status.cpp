// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "core/facts/facts.h"
#include "core/model/manifest_writer.h"
#include "engine/resource_status.h"
#include "engine/util/command_runner.h"

#include <filesystem>
#include <ostream>
#include <string_view>

namespace ccm::cli {
namespace {

constexpr std::string_view kStatusUsage
    = R"(Usage: ccm-backend status TYPE NAME [--json] [--provider NAME] [--property KEY=VALUE]... [--properties JSON]

Shows the current state of one resource on this host as its provider reports it,
changing nothing: a summary line, then the state as the type's events carry it
(ensure and metadata). TYPE is one of archive, exec, file, package, scaffold,
service; NAME is the resource's name (a path, a package, a unit). Also: info.

With properties (--property, --properties) it also lists the differences between
them and the state, compared as apply compares them: ensure, content or source
(checksum), owner, group and mode of a file; ensure (present, absent, latest or a
version) of a package; ensure and enable of a service; ensure, checksum, owner,
group and creates of an archive; creates of an exec.

An exec's state can be told only from its creates file: without --property
creates=PATH the command says that the state cannot be told without running the
command. A scaffold's state is its target compared with what its templates
render: give --property source=DIR (templates are rendered into a staging
directory, post commands included; the target is only read).

Options:
  --json                 print JSON: the state with "summary", "differences" and
                         "notes" added ({"supported": false, "reason"} when the
                         state cannot be told)
  --provider NAME        use this provider (default: the one apply would choose)
  --property KEY=VALUE   a property to compare with the state (repeatable); VALUE
                         is a string, true and false are booleans
  --properties JSON      the properties to compare as one JSON map
  -h, --help             show this help

Exit status: 0 when the state was told (also when it cannot be told for the
type), 1 when looking failed (a provider error, an invalid property), 2 on a
usage error (an unknown type, a missing NAME, an unknown option).
)";

struct StatusOptions {
    std::string type;
    std::string name;
    bool json = false;
    Json properties = Json::object();
};

/// Reads `--property KEY=VALUE` into options; false with a message on a bad one.
bool takeProperty(const std::string &text, StatusOptions &options, std::ostream &err)
{
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0) {
        err << "ccm-backend status: --property needs KEY=VALUE, not '" << text << "'\n";
        return false;
    }
    const std::string value = text.substr(equals + 1);
    options.properties[text.substr(0, equals)]
        = value == "true" ? Json(true) : (value == "false" ? Json(false) : Json(value));
    return true;
}

bool takeProperties(const std::string &text, StatusOptions &options, std::ostream &err)
{
    Json parsed = Json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        err << "ccm-backend status: --properties needs a JSON map such as '{\"ensure\": \"present\"}'\n";
        return false;
    }
    for (auto &[key, value] : parsed.items())
        options.properties[key] = value;
    return true;
}

/// The options; nullopt after a usage error or --help, with `exit` set.
std::optional<StatusOptions> parseOptions(
    const std::vector<std::string> &args, std::ostream &out, std::ostream &err, int &exit)
{
    StatusOptions options;
    std::vector<std::string> positional;
    exit = UsageError;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        const bool takesValue = arg == "--provider" || arg == "--property" || arg == "--properties";
        if (takesValue && i + 1 >= args.size()) {
            err << "ccm-backend status: " << arg << " needs a value\n";
            return std::nullopt;
        }
        if (arg == "-h" || arg == "--help") {
            out << kStatusUsage;
            exit = Success;
            return std::nullopt;
        } else if (arg == "--json") {
            options.json = true;
        } else if (arg == "--provider") {
            options.properties["provider"] = args[++i];
        } else if (arg == "--property") {
            if (!takeProperty(args[++i], options, err))
                return std::nullopt;
        } else if (arg == "--properties") {
            if (!takeProperties(args[++i], options, err))
                return std::nullopt;
        } else if (arg.size() > 1 && arg.front() == '-') {
            err << "ccm-backend status: unknown option '" << arg << "'\n" << kStatusUsage;
            return std::nullopt;
        } else {
            positional.push_back(arg);
        }
    }
    if (positional.size() != 2) {
        err << "ccm-backend status: " << (positional.size() < 2 ? "TYPE and NAME are required" : "too many arguments")
            << "\n"
            << kStatusUsage;
        return std::nullopt;
    }
    options.type = positional[0];
    options.name = positional[1];
    return options;
}

/// The state with the summary first and the differences and notes after it, as printed.
Json printed(const engine::ResourceState &state)
{
    Json shown = Json::object();
    shown["summary"] = state.summary;
    for (const auto &[key, value] : state.state.items())
        shown[key] = value;
    Json differences = Json::array();
    for (const engine::StateDifference &difference : state.differences)
        differences.push_back(
            {{"property", difference.property}, {"current", difference.current}, {"wanted", difference.wanted}});
    shown["differences"] = std::move(differences);
    shown["notes"] = state.notes;
    return shown;
}

void print(const engine::ResourceState &state, bool json, std::ostream &out)
{
    if (!state.supported) {
        if (json)
            out << Json {{"supported", false}, {"reason", state.reason}}.dump(2) << '\n';
        else
            out << state.reason << '\n';
        return;
    }
    Json shown = printed(state);
    if (json) {
        out << shown.dump(2) << '\n';
        return;
    }
    if (shown["differences"].empty())
        shown.erase("differences");
    if (shown["notes"].empty())
        shown.erase("notes");
    const std::string text = toYaml(shown);
    out << text << (text.ends_with('\n') ? "" : "\n");
}

} // namespace

int resourceStatusCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    int exit = UsageError;
    auto options = parseOptions(args, out, err, exit);
    if (!options)
        return exit;
    const std::vector<std::string> types = engine::statusTypeNames();
    if (std::ranges::find(types, options->type) == types.end()) {
        err << "ccm-backend status: unknown resource type '" << options->type << "'; the types are";
        for (const std::string &type : types)
            err << ' ' << type;
        err << '\n';
        return UsageError;
    }
    auto facts = prepareFacts();
    if (!facts) {
        err << "ccm-backend status: " << facts.error().message << '\n';
        return Failure;
    }
    ProcessRunner runner;
    std::error_code error;
    // This process's own rights decide what it reads: no mayRead.
    const engine::StatusContext context {.runner = runner,
        .facts = facts.value(),
        .workingDirectory = std::filesystem::current_path(error),
        .mayRead = {}};
    auto state
        = engine::resourceStatus(engine::standardCatalog(), options->type, options->name, options->properties, context);
    if (!state) {
        err << "ccm-backend status: " << options->type << " " << options->name << ": " << state.error().message << '\n';
        return Failure;
    }
    print(state.value(), options->json, out);
    return Success;
}

} // namespace ccm::cli
