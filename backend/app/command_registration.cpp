// SPDX-License-Identifier: Apache-2.0
// `ccm-backend registration` (also reg, r): upstream's commands for the registration stream, where
// agents publish the services of their stable resources (register_when_stable).
#include "app/commands.h"
#include "core/model/duration.h"
#include "core/model/manifest_writer.h"
#include "fleet/nats/nats_connection.h"
#include "fleet/nats/nats_context.h"
#include "fleet/registration/registration_store.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <csignal>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <unistd.h>

namespace ccm::cli {
namespace {

constexpr std::string_view kRegistrationUsage = R"(Usage: ccm-backend registration COMMAND [OPTIONS]

Manages and looks up the service registrations that agents publish for their stable
resources (register_when_stable) in a NATS JetStream stream. Also: reg, r.

Commands:
  init      create or update the registration stream
  create    publish a registration entry (also: c)
  rm        remove a registration entry (also: delete)
  query     print the entries matching CLUSTER, PROTOCOL, SERVICE and ADDRESS (also: q)
  watch     print entries as they are registered and removed, until interrupted

Run 'ccm-backend registration COMMAND --help' for the options of a command.
)";

constexpr std::string_view kConnectionOptions = R"(  -R, --registration STREAM
                    the stream holding the registrations (default: REGISTRATION)
  --context NAME    the NATS CLI context to connect with (default: $NATS_CONTEXT, else CCM)
  --nats URL        connect to this server (or comma-separated servers) instead
)";

constexpr std::string_view kInitUsage = R"(Usage: ccm-backend registration init [--replicas N] [--max-age D] [-R STREAM]
                                      [--context NAME | --nats URL]

Creates the registration stream, or updates its configuration when it exists, as
upstream CCM configures it: subjects choria.ccm.registration.v1.>, the latest message
of each subject kept, rollups and per-entry TTLs (Nats-TTL) allowed, entries older than
the max age removed with a marker that watchers see, deletes denied, purges allowed.

Options:
  --replicas N      stream replicas, 1 to 5 (default: 1)
  --max-age D       how long an entry is kept at most, a duration such as 30s, 1m,
                    2h (default: 1m)
)";

constexpr std::string_view kCreateUsage
    = R"(Usage: ccm-backend registration create --cluster C --service S --protocol P --address IP
                                        --port N [--priority N] [--ttl D] [-A KEY=VALUE]...
                                        [-R STREAM] [--context NAME | --nats URL]

Publishes a registration entry as agents do: on
choria.ccm.registration.v1.CLUSTER.PROTOCOL.SERVICE.ADDRESS.INSTANCE, replacing the
entry's earlier message, with its TTL as the message's Nats-TTL.

Options:
  --cluster NAME    the cluster (a letter, then letters, digits, _ and -)
  --service NAME    the service (same rule)
  --protocol NAME   the protocol (same rule)
  --address IP      the IPv4 or IPv6 address
  --port N          the port, 1 to 65535
  --priority N      the priority, 1 to 255 (default: 100)
  --ttl D           how long the entry lives, a duration or "never" (default: 30s)
  -A, --annotation KEY=VALUE
                    an annotation (repeatable)
)";

constexpr std::string_view kRmUsage
    = R"(Usage: ccm-backend registration rm --cluster C --service S --protocol P --address IP --port N
                                    [--force] [-R STREAM] [--context NAME | --nats URL]

Removes a registration entry (purges its subject from the stream). Asks for
confirmation on a terminal; without one, --force is needed. Also: delete.

Options:
  --cluster NAME    the cluster
  --service NAME    the service
  --protocol NAME   the protocol
  --address IP      the IPv4 or IPv6 address
  --port N          the port
  --force           remove without asking
)";

constexpr std::string_view kQueryUsage
    = R"(Usage: ccm-backend registration query [CLUSTER [PROTOCOL [SERVICE [ADDRESS]]]] [--json | --yaml]
                                       [-R STREAM] [--context NAME | --nats URL]

Prints the current entries matching CLUSTER, PROTOCOL, SERVICE and ADDRESS, each "*"
(any) when not given, grouped by service, or "No results found". Entries that cannot
be read are left out with a warning on stderr. Also: q.

Options:
  --json            print the entries as a JSON list
  --yaml            print the entries as a YAML list
)";

constexpr std::string_view kWatchUsage
    = R"(Usage: ccm-backend registration watch [CLUSTER [PROTOCOL [SERVICE [ADDRESS]]]] [--json]
                                       [-R STREAM] [--context NAME | --nats URL]

Prints the current entries matching CLUSTER, PROTOCOL, SERVICE and ADDRESS (each "*"
when not given), then every entry registered or updated and every entry removed (by
rm, a purge or its TTL or the stream's max age running out), until SIGINT or SIGTERM.

Options:
  --json            one JSON object per line: {"action": "register", "entry": {...}}
                    or {"action": "remove", "entry": {...}, "reason": "..."}
)";

/// A subcommand's command line: valued options (several for -A), flags and positional words.
struct RegistrationLine {
    std::map<std::string, std::string> values;
    std::vector<std::string> annotations;
    bool json = false;
    bool yaml = false;
    bool force = false;
    std::vector<std::string> positional;
    fleet::NatsSelection selection;
    std::string stream = fleet::kDefaultRegistrationStream;

    [[nodiscard]] std::string value(const std::string &option, const std::string &fallback = {}) const
    {
        const auto found = values.find(option);
        return found == values.end() ? fallback : found->second;
    }
};

/// What a subcommand takes.
struct Grammar {
    std::string_view name;
    std::string_view usage;
    std::vector<std::string> valued; ///< long options with a value
    std::vector<std::string> flags; ///< of --json, --yaml, --force
    std::size_t maxPositional = 0;
};

/// Splits "--name=value" (or "-Rvalue"); the value is nullopt when the argument has none.
std::pair<std::string, std::optional<std::string>> splitOption(const std::string &arg)
{
    if (arg.starts_with("--")) {
        const std::size_t equals = arg.find('=');
        if (equals != std::string::npos)
            return {arg.substr(0, equals), arg.substr(equals + 1)};
        return {arg, std::nullopt};
    }
    if ((arg.starts_with("-R") || arg.starts_with("-A")) && arg.size() > 2)
        return {arg.substr(0, 2), arg.substr(arg[2] == '=' ? 3 : 2)};
    return {arg, std::nullopt};
}

void storeValue(RegistrationLine &line, const std::string &name, const std::string &value)
{
    if (name == "--context")
        line.selection.context = value;
    else if (name == "--nats")
        line.selection.url = value;
    else if (name == "-R" || name == "--registration")
        line.stream = value;
    else if (name == "-A" || name == "--annotation")
        line.annotations.push_back(value);
    else
        line.values[name] = value;
}

/// Reads `args` (after the subcommand) into `line`; the exit code when the command ends there.
std::optional<int> parseLine(const std::vector<std::string> &args, const Grammar &grammar, RegistrationLine &line,
    std::ostream &out, std::ostream &err)
{
    const auto usageError = [&](const std::string &message) {
        err << "ccm-backend registration " << grammar.name << ": " << message << '\n' << grammar.usage;
        return std::optional<int>(UsageError);
    };
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "-h" || arg == "--help") {
            out << grammar.usage << '\n' << "Connection options:\n" << kConnectionOptions;
            return Success;
        }
        auto [name, inlineValue] = splitOption(arg);
        if (std::find(grammar.flags.begin(), grammar.flags.end(), name) != grammar.flags.end() && !inlineValue) {
            (name == "--json" ? line.json : name == "--yaml" ? line.yaml : line.force) = true;
            continue;
        }
        const bool common = name == "--context" || name == "--nats" || name == "-R" || name == "--registration";
        const bool valued = std::find(grammar.valued.begin(), grammar.valued.end(), name) != grammar.valued.end();
        if (common || valued) {
            if (!inlineValue && i + 1 >= args.size())
                return usageError("option " + name + " needs a value");
            storeValue(line, name, inlineValue ? *inlineValue : args[++i]);
            continue;
        }
        if (arg.starts_with("-") && arg != "-")
            return usageError("unknown option '" + arg + "'");
        if (line.positional.size() >= grammar.maxPositional)
            return usageError("unexpected argument '" + arg + "'");
        line.positional.push_back(arg);
    }
    return std::nullopt;
}

/// A value for a log line, quoted as Go's slog quotes one with spaces or quotes.
std::string logValue(const std::string &value)
{
    if (!value.empty() && value.find_first_of(" =\"\t\n") == std::string::npos)
        return value;
    return Json(value).dump();
}

/// One line as upstream's user log writes it: "15:04:05 INF message key=value ...".
void userLog(std::ostream &out, std::string_view level, std::string_view message,
    const std::vector<std::pair<std::string, std::string>> &fields)
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char clock[16];
    std::strftime(clock, sizeof clock, "%H:%M:%S", &local);
    out << clock << ' ' << level << ' ' << message;
    for (const auto &[key, value] : fields)
        out << ' ' << key << '=' << logValue(value);
    out << std::endl;
}

std::string portText(const Json &port)
{
    if (port.is_null())
        return "";
    return port.is_string() ? port.get<std::string>() : port.dump();
}

Result<std::unique_ptr<fleet::NatsConnection>> connect(const RegistrationLine &line)
{
    auto settings = fleet::resolveNatsSettings(line.selection, fleet::ContextEnvironment::fromProcess());
    if (!settings)
        return settings.error();
    return fleet::NatsConnection::connect(settings.value());
}

int fail(std::ostream &err, std::string_view command, const Error &error)
{
    err << "ccm-backend registration " << command << ": " << error.message << '\n';
    return error.code == "usage" || error.code == "invalid_registration" ? UsageError : Failure;
}

Result<std::int64_t> integerOption(const RegistrationLine &line, const std::string &option, std::int64_t fallback)
{
    const auto found = line.values.find(option);
    if (found == line.values.end())
        return fallback;
    std::int64_t number = 0;
    const std::string &text = found->second;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size())
        return Error {"usage", option + " expects a whole number, not '" + text + "'"};
    return number;
}

int initCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const Grammar grammar {"init", kInitUsage, {"--replicas", "--max-age"}, {}, 0};
    RegistrationLine line;
    if (auto done = parseLine(args, grammar, line, out, err))
        return *done;
    fleet::RegistrationStreamSettings settings;
    settings.name = line.stream;
    auto replicas = integerOption(line, "--replicas", 1);
    if (!replicas)
        return fail(err, "init", replicas.error());
    if (replicas.value() < 1 || replicas.value() > 5)
        return fail(err, "init", Error {"usage", "replicas must be between 1 and 5"});
    settings.replicas = static_cast<int>(replicas.value());
    if (const std::string age = line.value("--max-age"); !age.empty()) {
        auto parsed = parseDuration(age);
        if (!parsed)
            return fail(err, "init", Error {"usage", "--max-age: " + parsed.error().message});
        settings.maxAge = parsed.value();
    }
    auto connection = connect(line);
    if (!connection)
        return fail(err, "init", connection.error());
    auto config = fleet::createOrUpdateRegistrationStream(*connection.value(), settings);
    if (!config)
        return fail(err, "init", config.error());
    std::string subjects;
    for (const Json &subject : config->value("subjects", Json::array()))
        subjects += (subjects.empty() ? "" : " ") + (subject.is_string() ? subject.get<std::string>() : subject.dump());
    userLog(out, "INF", "Registration stream ready",
        {{"stream", config->value("name", settings.name)}, {"subjects", "[" + subjects + "]"},
            {"replicas", std::to_string(config->value("num_replicas", settings.replicas))}});
    if (!config->value("allow_msg_ttl", false))
        err << "ccm-backend registration init: warning: the server does not keep per-entry TTLs (nats-server "
               "2.11 or later does); entries live for the stream's max age\n";
    return Success;
}

/// The entry of create's and rm's options, checked as upstream checks one.
Result<fleet::RegistrationEntry> entryOfLine(const RegistrationLine &line, bool withTtl)
{
    for (const char *required : {"--cluster", "--service", "--protocol", "--address", "--port"}) {
        if (!line.values.contains(required))
            return Error {"usage", std::string("required option ") + required + " is missing"};
    }
    fleet::RegistrationEntry entry;
    entry.cluster = line.value("--cluster");
    entry.service = line.value("--service");
    entry.protocol = line.value("--protocol");
    entry.address = line.value("--address");
    auto port = integerOption(line, "--port", 0);
    if (!port)
        return port.error();
    entry.port = port.value();
    auto priority = integerOption(line, "--priority", withTtl ? 100 : 1);
    if (!priority)
        return priority.error();
    entry.priority = priority.value();
    if (withTtl) {
        auto ttl = fleet::normalizeRegistrationTtl(line.value("--ttl", "30s"));
        if (!ttl)
            return Error {"usage", "invalid registration entry: " + ttl.error().message};
        entry.ttl = ttl.value();
        for (const std::string &annotation : line.annotations) {
            const std::size_t equals = annotation.find('=');
            if (equals == std::string::npos)
                return Error {"usage", "--annotation expects KEY=VALUE, not '" + annotation + "'"};
            entry.annotations[annotation.substr(0, equals)] = annotation.substr(equals + 1);
        }
    }
    if (auto valid = fleet::validateRegistration(entry); !valid)
        return Error {"usage", "invalid registration entry: " + valid.error().message};
    return entry;
}

std::vector<std::pair<std::string, std::string>> entryFields(const fleet::RegistrationEntry &entry, bool withPriority)
{
    std::vector<std::pair<std::string, std::string>> fields {{"cluster", entry.cluster}, {"service", entry.service},
        {"protocol", entry.protocol}, {"address", entry.address}, {"port", portText(entry.port)}};
    if (withPriority)
        fields.emplace_back("priority", std::to_string(entry.priority));
    return fields;
}

int createCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const Grammar grammar {"create", kCreateUsage,
        {"--cluster", "--service", "--protocol", "--address", "--port", "--priority", "--ttl", "-A", "--annotation"},
        {}, 0};
    RegistrationLine line;
    if (auto done = parseLine(args, grammar, line, out, err))
        return *done;
    auto entry = entryOfLine(line, true);
    if (!entry)
        return fail(err, "create", entry.error());
    auto connection = connect(line);
    if (!connection)
        return fail(err, "create", connection.error());
    if (auto published = fleet::publishRegistrationEntry(*connection.value(), line.stream, entry.value()); !published)
        return fail(err, "create", published.error());
    userLog(out, "INF", "Registration entry created", entryFields(entry.value(), true));
    return Success;
}

/// Asks on the terminal whether to remove the entry; false when stdin is not a terminal.
std::optional<bool> confirmRemoval(const fleet::RegistrationEntry &entry, std::ostream &err)
{
    if (isatty(STDIN_FILENO) == 0)
        return std::nullopt;
    err << "? Remove registration entry " << entry.cluster << '/' << entry.service << '/' << entry.protocol << " at "
        << entry.address << ':' << portText(entry.port) << "? (y/N) " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer))
        return false;
    return answer == "y" || answer == "Y" || answer == "yes" || answer == "Yes";
}

int rmCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const Grammar grammar {
        "rm", kRmUsage, {"--cluster", "--service", "--protocol", "--address", "--port"}, {"--force"}, 0};
    RegistrationLine line;
    if (auto done = parseLine(args, grammar, line, out, err))
        return *done;
    auto entry = entryOfLine(line, false);
    if (!entry)
        return fail(err, "rm", entry.error());
    if (!line.force) {
        const std::optional<bool> confirmed = confirmRemoval(entry.value(), err);
        if (!confirmed)
            return fail(err, "rm",
                Error {"refused",
                    "not removing " + fleet::registrationSubject(entry.value())
                        + " without confirmation: standard input is not a terminal; pass --force to remove it"});
        if (!*confirmed) {
            out << "Not removed\n";
            return Success;
        }
    }
    auto connection = connect(line);
    if (!connection)
        return fail(err, "rm", connection.error());
    if (auto removed = fleet::removeRegistrationEntry(*connection.value(), line.stream, entry.value()); !removed)
        return fail(err, "rm", removed.error());
    userLog(out, "INF", "Registration entry removed", entryFields(entry.value(), false));
    return Success;
}

/// The filter's four positions from the positional words, "*" for those not given.
std::array<std::string, 4> filterOf(const RegistrationLine &line)
{
    std::array<std::string, 4> filter {"*", "*", "*", "*"};
    for (std::size_t i = 0; i < line.positional.size() && i < filter.size(); ++i)
        filter[i] = line.positional[i];
    return filter;
}

void printEntries(std::vector<fleet::RegistrationEntry> entries, std::ostream &out)
{
    std::stable_sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
        return std::tie(a.cluster, a.protocol, a.service) < std::tie(b.cluster, b.protocol, b.service);
    });
    const fleet::RegistrationEntry *previous = nullptr;
    for (const fleet::RegistrationEntry &entry : entries) {
        if (previous == nullptr || previous->cluster != entry.cluster || previous->service != entry.service)
            out << "Service: " << entry.service << " @ " << entry.cluster << "\n\n";
        previous = &entry;
        out << "       Cluster: " << entry.cluster << '\n'
            << "      Protocol: " << entry.protocol << '\n'
            << "       Service: " << entry.service << '\n'
            << "       Address: " << entry.address << '\n'
            << "          Port: " << portText(entry.port) << '\n'
            << "      Priority: " << entry.priority << '\n';
        if (!entry.annotations.empty()) {
            out << "   Annotations:\n";
            for (const auto &[key, value] : entry.annotations)
                out << "                " << key << ": " << value << '\n';
        }
        out << '\n';
    }
}

int queryCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const Grammar grammar {"query", kQueryUsage, {}, {"--json", "--yaml"}, 4};
    RegistrationLine line;
    if (auto done = parseLine(args, grammar, line, out, err))
        return *done;
    if (line.json && line.yaml)
        return fail(err, "query", Error {"usage", "--json and --yaml cannot be combined"});
    auto connection = connect(line);
    if (!connection)
        return fail(err, "query", connection.error());
    const auto filter = filterOf(line);
    auto found
        = fleet::lookupRegistrations(*connection.value(), line.stream, filter[0], filter[1], filter[2], filter[3]);
    if (!found)
        return fail(err, "query", found.error());
    for (const std::string &skipped : found->skipped)
        err << "ccm-backend registration query: warning: left out " << skipped << '\n';
    if (line.json || line.yaml) {
        Json list = Json::array();
        for (const fleet::RegistrationEntry &entry : found->entries)
            list.push_back(fleet::registrationJson(entry));
        out << (line.json ? list.dump(2) + '\n' : list.empty() ? "[]\n" : toYaml(list));
        return Success;
    }
    if (found->entries.empty())
        out << "No results found\n";
    else
        printEntries(found->entries, out);
    return Success;
}

std::atomic<int> g_stopSignal {0};

extern "C" void stopWatching(int signal)
{
    g_stopSignal = signal;
}

void printEvent(const fleet::RegistrationEvent &event, bool json, std::ostream &out)
{
    const bool removal = event.action == fleet::RegistrationEvent::Action::Remove;
    if (json) {
        Json line = Json::object();
        line["action"] = removal ? "remove" : "register";
        line["entry"] = fleet::registrationJson(event.entry);
        if (removal) {
            line["entry"].erase("port");
            line["entry"].erase("priority");
            line["reason"] = event.reason;
        }
        out << line.dump() << std::endl;
        return;
    }
    if (removal) {
        auto fields = entryFields(event.entry, false);
        fields.pop_back();
        fields.emplace_back("reason", event.reason);
        userLog(out, "WRN", "Removed entry", fields);
        return;
    }
    auto fields = entryFields(event.entry, false);
    if (!event.entry.ttl.empty())
        fields.emplace_back("ttl", event.entry.ttl);
    userLog(out, "INF", "Updated entry", fields);
}

int watchCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    const Grammar grammar {"watch", kWatchUsage, {}, {"--json"}, 4};
    RegistrationLine line;
    if (auto done = parseLine(args, grammar, line, out, err))
        return *done;
    const auto filter = filterOf(line);
    for (std::size_t i = 0; i < filter.size(); ++i) {
        // The lookup checks the positions; a watch must not subscribe to a subject they break.
        const char *refused = i == 3 ? "*> \t\r\n" : ".*> \t\r\n";
        if (filter[i] != "*" && (filter[i].empty() || filter[i].find_first_of(refused) != std::string::npos))
            return fail(err, "watch",
                Error {"usage", "'" + filter[i] + "' cannot be watched: no dots, spaces or wildcards but a lone *"});
    }
    auto connection = connect(line);
    if (!connection)
        return fail(err, "watch", connection.error());
    auto watch = fleet::RegistrationWatch::start(
        *connection.value(), line.stream, fleet::registrationFilter(filter[0], filter[1], filter[2], filter[3]));
    if (!watch)
        return fail(err, "watch", watch.error());
    g_stopSignal = 0;
    struct sigaction action { };
    action.sa_handler = stopWatching;
    sigemptyset(&action.sa_mask);
    struct sigaction oldInterrupt { };
    struct sigaction oldTerminate { };
    sigaction(SIGINT, &action, &oldInterrupt);
    sigaction(SIGTERM, &action, &oldTerminate);
    int status = Success;
    while (g_stopSignal == 0) {
        auto events = watch.value()->next(std::chrono::milliseconds(250));
        if (!events) {
            status = fail(err, "watch", events.error());
            break;
        }
        for (const fleet::RegistrationEvent &event : events.value())
            printEvent(event, line.json, out);
    }
    sigaction(SIGINT, &oldInterrupt, nullptr);
    sigaction(SIGTERM, &oldTerminate, nullptr);
    return status;
}

/// The arguments with the connection options given before the command (as upstream takes
/// `registration --context X query`) moved after it.
std::vector<std::string> commandFirst(const std::vector<std::string> &args)
{
    std::size_t i = 0;
    while (i < args.size()) {
        const auto [name, inlineValue] = splitOption(args[i]);
        if (name != "--context" && name != "--nats" && name != "-R" && name != "--registration")
            break;
        i += inlineValue || i + 1 >= args.size() ? 1 : 2;
    }
    if (i == 0 || i >= args.size())
        return args;
    std::vector<std::string> ordered {args[i]};
    ordered.insert(ordered.end(), args.begin(), args.begin() + static_cast<std::ptrdiff_t>(i));
    ordered.insert(ordered.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
    return ordered;
}

} // namespace

int registrationCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    const std::vector<std::string> args = commandFirst(arguments);
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        (args.empty() ? err : out) << kRegistrationUsage;
        return args.empty() ? UsageError : Success;
    }
    const std::string &command = args[0];
    if (command == "init")
        return initCommand(args, out, err);
    if (command == "create" || command == "c")
        return createCommand(args, out, err);
    if (command == "rm" || command == "delete")
        return rmCommand(args, out, err);
    if (command == "query" || command == "q")
        return queryCommand(args, out, err);
    if (command == "watch")
        return watchCommand(args, out, err);
    err << "ccm-backend registration: unknown command '" << command << "'\n" << kRegistrationUsage;
    return UsageError;
}

} // namespace ccm::cli
