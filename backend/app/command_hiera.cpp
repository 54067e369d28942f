// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/hiera_source.h"
#include "app/input_options.h"
#include "app/option_value.h"
#include "base/utf8.h"
#include "core/facts/facts.h"
#include "core/hiera/hiera.h"
#include "core/model/json_query.h"
#include "core/model/manifest_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <ostream>
#include <string_view>
#include <unistd.h>

namespace ccm::cli {
namespace {
// File-local names in a namespace of their own: the library is compiled in unity batches.
namespace hiera_command {

constexpr std::string_view kHieraUsage = R"(Usage: ccm-backend hiera COMMAND [ARGUMENTS] [OPTIONS]

Resolves Hiera data as upstream CCM's `ccm hiera` does: a YAML or JSON document with
hierarchy, data and overrides, resolved against the facts of this host and the
command line.

Commands:
  parse FILE [FACT=VALUE]...  resolve a Hiera document and print the data (also:
                              resolve)
  facts [FACT=VALUE]...       print the facts a document is resolved against

Run 'ccm-backend hiera COMMAND --help' for the options of a command.
)";

constexpr std::string_view kParseUsage
    = R"(Usage: ccm-backend hiera parse FILE [FACT=VALUE]... [-D KEY=VALUE]... [--data-file FILE]
                          [--facts FILE] [-E] [--query QUERY] [--yaml | --env]
                          [--env-prefix PREFIX] [--context NAME | --nats URL]

Resolves the Hiera document FILE (a path, an http(s):// URL or kv://BUCKET/KEY; default
$HIERA_INPUT) and prints the data as JSON: `data`, with the overrides of the matching
entries of `hierarchy.order` merged over it (`merge: first` or `deep`), templates
expanded with the facts. Other top-level keys, such as a manifest's ccm, are ignored.
The facts are this host's, then the process environment (-E), then --facts, then the
FACT=VALUE arguments, each over the ones before. Keys are printed sorted. Also: resolve.

Arguments:
  FILE                the Hiera document; default $HIERA_INPUT
  FACT=VALUE          a fact (a string; repeatable)

Options:
  -D, --data KEY=VALUE
                      set a data value (a string) over the resolved data; repeatable
  --data-file FILE    a YAML or JSON map merged over the resolved data (maps merged
                      recursively, other values replaced), before -D; also an
                      http(s):// URL or kv://BUCKET/KEY
  --facts FILE        facts from a JSON or YAML map, merged over the system's and -E
  -E, --env-facts     the process environment as facts (one string fact per variable)
  -S, --system-facts  this host's facts, which are always used (accepted as upstream's
                      documentation spells it)
  --query QUERY       print only what the gjson path QUERY selects in the data, such as
                      web.port, packages.#, users.#(admin==true)#.name; null when it
                      selects nothing
  --yaml              print YAML instead of JSON
  --env               print PREFIX_KEY=VALUE lines, one per top-level key, keys upper
                      case and sorted: strings as they are, numbers, anything else as
                      JSON; a value that is not a map prints PREFIX_VALUE=JSON
  --env-prefix PREFIX the prefix of --env's names (default: HIERA)
  --http-user USER[:PASSWORD]
                      basic auth for http(s):// documents (password from
                      $CCM_HTTP_PASSWORD when omitted); credentials in the URL win
  --http-ca FILE      verify https:// servers with this PEM CA bundle, not the system's
  --context NAME      the NATS context for kv:// documents (default: $NATS_CONTEXT,
                      else CCM)
  --nats URL          connect to this NATS server instead; no context is read
)";

constexpr std::string_view kFactsUsage
    = R"(Usage: ccm-backend hiera facts [FACT=VALUE]... [--facts FILE] [-E] [--query QUERY]

Prints the facts `hiera parse` resolves against, as JSON with sorted keys: this host's,
then the process environment (-E), then --facts, then the FACT=VALUE arguments.

Arguments:
  FACT=VALUE          a fact (a string; repeatable)

Options:
  --facts FILE        facts from a JSON or YAML map, merged over the system's and -E
  -E, --env-facts     the process environment as facts (one string fact per variable)
  -S, --system-facts  this host's facts, which are always used (accepted as upstream's
                      documentation spells it)
  --query QUERY       print only what the gjson path QUERY selects: a string as it is,
                      a number or boolean as written, maps and lists as JSON, and an
                      empty line when it selects nothing or null
)";

/// What the hiera commands were asked: the options of parse, of which facts uses some.
struct HieraOptions {
    std::optional<std::string> input;
    std::vector<std::pair<std::string, std::string>> facts; ///< FACT=VALUE arguments, in order
    std::optional<std::string> factsFile;
    bool environmentFacts = false;
    std::vector<std::pair<std::string, std::string>> data; ///< -D KEY=VALUE, in order
    std::optional<std::string> dataFile;
    std::optional<std::string> query;
    bool yaml = false;
    bool env = false;
    std::string envPrefix = "HIERA";
    fleet::SourceOptions sources = sourceOptionsFromEnvironment();
};

/// KEY=VALUE split at its first '=', made valid UTF-8; nullopt without '=' or with an empty key.
std::optional<std::pair<std::string, std::string>> keyValue(const std::string &text)
{
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        return std::nullopt;
    return std::pair {toValidUtf8(text.substr(0, equals)), toValidUtf8(text.substr(equals + 1))};
}

/// Takes the option at args[index] that `hiera facts` and `hiera parse` share; false when it is
/// not one of them.
Result<bool> takeFactOption(const std::vector<std::string> &args, std::size_t &index, HieraOptions &options)
{
    if (args[index] == "-E" || args[index] == "--env-facts") {
        options.environmentFacts = true;
        return true;
    }
    // Upstream's documentation has -S/--system-facts; its code always uses this host's facts.
    if (args[index] == "-S" || args[index] == "--system-facts")
        return true;
    for (std::string_view name : {"--facts", "--query"}) {
        auto value = optionValue(args, index, name);
        if (!value)
            continue;
        if (!*value)
            return value->error();
        // As upstream, an empty --query is no query.
        if (name == "--facts")
            options.factsFile = value->value();
        else if (!value->value().empty())
            options.query = value->value();
        return true;
    }
    return false;
}

/// Takes an option only `hiera parse` has; false when it is not one of them.
Result<bool> takeParseOption(const std::vector<std::string> &args, std::size_t &index, HieraOptions &options)
{
    const std::string &arg = args[index];
    if (arg == "--yaml" || arg == "--env") {
        (arg == "--yaml" ? options.yaml : options.env) = true;
        return true;
    }
    if (auto source = takeSourceOption(args, index, options.sources); !source || source.value())
        return source;
    if (auto data = optionValue(args, index, "--data", "-D")) {
        if (!*data)
            return data->error();
        auto pair = keyValue(data->value());
        if (!pair)
            return Error {"usage", "-D expects KEY=VALUE, not '" + toValidUtf8(data->value()) + "'"};
        options.data.push_back(std::move(*pair));
        return true;
    }
    for (std::string_view name : {"--data-file", "--env-prefix"}) {
        auto value = optionValue(args, index, name);
        if (!value)
            continue;
        if (!*value)
            return value->error();
        if (name == "--data-file")
            options.dataFile = value->value();
        else
            options.envPrefix = value->value();
        return true;
    }
    return false;
}

/// Reads the arguments of `hiera parse` (withInput) or `hiera facts`; an error is a usage error.
/// Sets `help` for --help.
Result<HieraOptions> parseArguments(const std::vector<std::string> &args, bool withInput, bool &help)
{
    HieraOptions options;
    bool positional = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (!positional && (arg == "-h" || arg == "--help")) {
            help = true;
            return options;
        }
        if (!positional && arg == "--") {
            positional = true;
            continue;
        }
        if (!positional && arg.size() > 1 && arg.front() == '-') {
            auto taken = takeFactOption(args, i, options);
            if (taken && !taken.value() && withInput)
                taken = takeParseOption(args, i, options);
            if (!taken)
                return taken.error();
            if (!taken.value())
                return Error {"usage", "unknown option '" + arg + "'"};
            continue;
        }
        if (withInput && !options.input) {
            options.input = arg;
            continue;
        }
        auto pair = keyValue(arg);
        if (!pair)
            return Error {"usage", "a fact is FACT=VALUE, not '" + toValidUtf8(arg) + "'"};
        options.facts.push_back(std::move(*pair));
    }
    if (withInput && !options.input) {
        if (const char *input = std::getenv("HIERA_INPUT"); input && *input)
            options.input = input;
        else
            return Error {"usage", "FILE is required (or $HIERA_INPUT)"};
    }
    return options;
}

/// The process environment as string facts; a variable's value is everything after its first '='.
Json environmentFacts()
{
    Json facts = Json::object();
    MemberSetter members(facts);
    for (char **entry = ::environ; entry && *entry; ++entry) {
        if (auto pair = keyValue(*entry))
            members[pair->first] = pair->second;
    }
    return facts;
}

/// The facts of the options: the system's and the custom fact files' (gathered when first read),
/// then -E, then --facts, then the arguments. The --facts file is read now, so that its errors
/// come first.
Result<LazyFacts> assembleFacts(const HieraOptions &options)
{
    auto system = prepareFacts(FactSources {});
    if (!system)
        return system.error();
    Json file = Json::object();
    if (options.factsFile) {
        FactSources only;
        only.customDirectories.clear();
        only.includeSystem = false;
        only.factsFile = *options.factsFile;
        auto read = gatherFacts(only);
        if (!read)
            return read.error();
        file = std::move(read).value();
    }
    return LazyFacts::deferred([base = std::move(system).value(), file = std::move(file),
                                   withEnvironment = options.environmentFacts, arguments = options.facts] {
        Json facts = base.get();
        if (!facts.is_object())
            facts = Json::object();
        if (withEnvironment) {
            const Json environment = environmentFacts();
            MemberSetter members(facts);
            for (const auto &[key, value] : environment.items())
                members[key] = value;
        }
        deepMerge(facts, file);
        MemberSetter members(facts);
        for (const auto &[key, value] : arguments)
            members[key] = value;
        return facts;
    });
}

/// The value as upstream prints it: map keys sorted (Go's encoders sort them), and whole numbers
/// written as floats made integers, as upstream's resolver does.
Json upstreamOrder(const Json &value)
{
    if (value.is_object()) {
        std::vector<const Json::object_t::value_type *> members;
        for (const auto &member : value.get_ref<const Json::object_t &>())
            members.push_back(&member);
        std::sort(members.begin(), members.end(), [](const auto *a, const auto *b) { return a->first < b->first; });
        Json out = Json::object();
        for (const auto *member : members)
            appendMember(out, member->first, upstreamOrder(member->second));
        return out;
    }
    if (value.is_array()) {
        Json out = Json::array();
        for (const Json &item : value)
            out.push_back(upstreamOrder(item));
        return out;
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        constexpr double limit = 9007199254740992.0; // 2^53: every whole double below is exact
        if (std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= limit)
            return static_cast<std::int64_t>(number);
    }
    return value;
}

std::string jsonText(const Json &value, int indent = -1)
{
    return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// upstream's --env output: PREFIX_KEY=VALUE per top-level key, or PREFIX_VALUE=JSON.
std::string envText(const Json &value, const std::string &prefix)
{
    if (!value.is_object())
        return prefix + "_VALUE=" + jsonText(value) + '\n';
    std::string out;
    for (const auto &[key, item] : value.items()) {
        std::string name = key;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
        out += prefix + '_' + name + '=' + (item.is_string() ? item.get<std::string>() : jsonText(item)) + '\n';
    }
    return out;
}

/// Prints the text as upstream does: without surrounding whitespace, then a newline.
void printTrimmed(std::ostream &out, std::string_view text)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const std::size_t last = text.find_last_not_of(" \t\r\n");
    out << (first == std::string_view::npos ? std::string_view() : text.substr(first, last - first + 1)) << '\n';
}

/// Runs --query on the value; prints the error and returns nullopt when the query is refused.
std::optional<std::optional<Json>> runQuery(
    const Json &value, const std::string &query, std::string_view command, std::ostream &err)
{
    auto found = queryJson(value, query);
    if (!found) {
        err << "ccm-backend hiera " << command << ": " << found.error().message << '\n';
        return std::nullopt;
    }
    return std::move(found).value();
}

/// The data of the document: -D and --data-file read, the document read and resolved; errors and
/// warnings printed. nullopt on failure.
std::optional<Json> resolveDocument(const HieraOptions &options, const LazyFacts &facts, std::ostream &err)
{
    Json overrides = Json::object();
    if (options.dataFile) {
        auto data = loadDataFile(*options.dataFile, options.sources);
        if (!data) {
            err << "ccm-backend hiera parse: --data-file " << data.error().message << '\n';
            return std::nullopt;
        }
        overrides = std::move(data).value();
    }
    MemberSetter members(overrides);
    for (const auto &[key, value] : options.data)
        members[key] = value;

    auto source = readDataSource(*options.input, options.sources);
    if (!source) {
        err << "ccm-backend hiera parse: " << source.error().message << '\n';
        return std::nullopt;
    }
    const DataResolution resolution = resolveHieraDocument(source->text, facts, overrides);
    for (const Diagnostic &diagnostic : resolution.diagnostics)
        err << formatDiagnostic(source->shownName, diagnostic) << '\n';
    if (!resolution.ok())
        return std::nullopt;
    return resolution.data;
}

int parseCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    bool help = false;
    auto options = parseArguments(args, true, help);
    if (help) {
        out << kParseUsage;
        return Success;
    }
    if (!options) {
        err << "ccm-backend hiera parse: " << options.error().message << '\n' << kParseUsage;
        return UsageError;
    }
    auto facts = assembleFacts(options.value());
    if (!facts) {
        err << "ccm-backend hiera parse: " << facts.error().message << '\n';
        return Failure;
    }
    auto data = resolveDocument(options.value(), facts.value(), err);
    if (!data)
        return Failure;
    Json result = upstreamOrder(*data);
    if (options->query) {
        auto found = runQuery(result, *options->query, "parse", err);
        if (!found)
            return UsageError;
        result = found->value_or(Json());
    }
    if (options->yaml)
        printTrimmed(out, toYaml(result));
    else if (options->env)
        printTrimmed(out, envText(result, options->envPrefix));
    else
        printTrimmed(out, jsonText(result, 2));
    return Success;
}

int factsSubcommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    bool help = false;
    auto options = parseArguments(args, false, help);
    if (help) {
        out << kFactsUsage;
        return Success;
    }
    if (!options) {
        err << "ccm-backend hiera facts: " << options.error().message << '\n' << kFactsUsage;
        return UsageError;
    }
    auto facts = assembleFacts(options.value());
    if (!facts) {
        err << "ccm-backend hiera facts: " << facts.error().message << '\n';
        return Failure;
    }
    const Json value = upstreamOrder(facts->get());
    if (!options->query) {
        out << jsonText(value, 2) << '\n';
        return Success;
    }
    auto found = runQuery(value, *options->query, "facts", err);
    if (!found)
        return UsageError;
    const Json &selected = found->value_or(Json());
    if (selected.is_string())
        out << selected.get<std::string>() << '\n';
    else if (selected.is_null())
        out << '\n';
    else
        out << jsonText(selected, selected.is_structured() ? 2 : -1) << '\n';
    return Success;
}

} // namespace hiera_command
} // namespace

int hieraCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    using namespace hiera_command;
    if (args.empty() || args.front() == "-h" || args.front() == "--help") {
        (args.empty() ? err : out) << kHieraUsage;
        return args.empty() ? UsageError : Success;
    }
    const std::string &command = args.front();
    if (command == "parse" || command == "resolve")
        return parseCommand(args, out, err);
    if (command == "facts")
        return factsSubcommand(args, out, err);
    err << "ccm-backend hiera: unknown command '" << command << "'\n" << kHieraUsage;
    return UsageError;
}

} // namespace ccm::cli
