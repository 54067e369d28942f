// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"
#include "app/ensure_run.h"
#include "app/run_reporter.h"
#include "base/file_reading.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <grp.h>
#include <iostream>
#include <map>
#include <ostream>
#include <pwd.h>
#include <string_view>
#include <unistd.h>

namespace ccm::cli {
namespace {

constexpr std::string_view kEnsureUsage = R"(Usage: ccm-backend ensure [COMMON OPTIONS] TYPE ARGUMENTS... [OPTIONS]
       ccm-backend ensure api pipe [OPTIONS]

Ensures one resource on this host, as an apply of a manifest holding only that resource
would: its arguments' templates are resolved against the facts, the Hiera data and the
environment, it is validated, its control (--if, --unless) and health checks (--check)
run as in a manifest, and one report line and the run's summary are printed. Options
may come before or after TYPE. With a session (--session or $CCM_SESSION_STORE) the
event is recorded there, and --require and --subscribe refer to resources that earlier
ensure calls of the session managed.

Commands:
  package             ensure a package: package|pkg NAME [ENSURE]
  service             ensure a service: service|svc NAME [ENSURE]
  file                ensure a file or directory: file NAME [ENSURE]
  exec                run a command: exec COMMAND
  archive             download and extract an archive: archive FILE URL
  scaffold            render a directory of templates: scaffold NAME [SOURCE] [ENSURE]
  api                 answer one ensure request read from stdin: api pipe

)";

constexpr std::string_view kCommonUsage = R"(Common options:
  --noop              change nothing; report what would change
  --session DIR       the session store to record in and to resolve --require and
                      --subscribe against (default: $CCM_SESSION_STORE)
  --hiera SOURCE      Hiera data (a YAML or JSON file with hierarchy, data and
                      overrides, an http(s):// URL or kv://BUCKET/KEY) resolved against
                      the facts and given to templates as data (default:
                      $CCM_HIERA_DATA, else .hiera; a missing file is no data)
  --read-env, --no-read-env
                      merge ./.env's KEY=VALUE lines into the environment templates
                      see (default: --read-env)
  --context NAME      the NATS context for kv lookups (default: $NATS_CONTEXT, else CCM)
  --nats URL          connect to this NATS server instead; no context is read
  -R, --registration STREAM
                      the JetStream stream registrations() looks services up in
                      (default: REGISTRATION)
  --http-user USER[:PASSWORD]
                      basic auth for an http(s):// Hiera source (password from
                      $CCM_HTTP_PASSWORD when omitted)
  --http-ca FILE      verify an https:// Hiera source with this PEM CA bundle
  --alias NAME        the resource's alias, for requires and subscribes
  --provider NAME     the provider to use instead of the one the facts select
  --require TYPE#NAME require success of a resource an earlier ensure of the session
                      managed (repeatable; needs a session)
  --if EXPRESSION     manage the resource only when the expression is true
  --unless EXPRESSION manage the resource only when the expression is false
  --check COMMAND     a Nagios-style health check command run after the resource
  --check-tries N     how often the check is tried before it fails (default: 5)
  --check-sleep DURATION
                      the time between tries (default: 1s)
  -h, --help          show this help
)";

constexpr std::string_view kExitUsage = R"(
Exit status: 0 when the resource is as asked (changed or stable) or was skipped by its
control, 1 when it failed (or a requirement failed), 2 when the command line, the
resource's properties or the Hiera data are wrong (nothing is applied then). SIGINT or
SIGTERM lets a resource that has begun finish; a second one ends the command at once.
)";

/// What each type takes besides the common options.
struct TypeHelp {
    std::string_view type;
    std::string_view usage;
    std::string_view text;
};

constexpr std::array<TypeHelp, 6> kTypeHelp {{
    {"package", "package|pkg NAME [ENSURE]",
        R"(Ensures a package: ENSURE is present (the default), latest, absent or a version.
)"},
    {"service", "service|svc NAME [ENSURE] [--enable|--disable] [-S TYPE#NAME]...",
        R"(Ensures a service: ENSURE is running (the default) or stopped.

Options:
  --enable            enable the service at boot
  --disable           disable the service at boot
  -S, --subscribe TYPE#NAME
                      restart the service when that resource changed earlier in the
                      session (repeatable; needs a session)
)"},
    {"file",
        "file NAME [ENSURE] [--owner USER[:GROUP]] [--mode MODE] [--content TEXT|--content-file FILE|--source FILE]",
        R"(Ensures a file: ENSURE is present (the default), absent or directory.

Options:
  --owner USER[:GROUP]
                      the owner and group (default: the user and group running the
                      command; a USER alone keeps the current group)
  --mode MODE         the octal mode (default: 0644, 0755 for a directory)
  --content TEXT      the file's content, resolved as a template
  --content-file FILE the file's content read from FILE, resolved as a template
  --source FILE       a file copied in place verbatim
)"},
    {"exec", "exec COMMAND [--creates FILE] [--returns CODE]... [--timeout DURATION] ...",
        R"(Runs a command, unless --creates names a file that exists or a guard says no.

Options:
  --creates FILE      do not run when this file exists
  --returns CODE      an exit code that means success (repeatable; default: 0)
  --timeout DURATION  the longest the command may run (default: 1m)
  --cwd DIR           the working directory of the command
  -e, --environment KEY=VALUE
                      an environment variable of the command (repeatable)
  --path PATH         the search path of executables (colon-separated)
  --refresh-only      run only when a subscribed resource changed
  -S, --subscribe TYPE#NAME
                      run when that resource changed earlier in the session
                      (repeatable; needs a session)
  --logoutput         log the command's output
  --exec-if COMMAND   run only when this command exits 0
  --exec-unless COMMAND
                      run only when this command does not exit 0
)"},
    {"archive", "archive FILE URL [-H K:V]... [--username USER] [--password PASS] [--checksum SHA256] ...",
        R"(Downloads the archive at URL to FILE and extracts it.

Options:
  -H, --header K:V    an HTTP header of the request (repeatable)
  --username USER     the HTTP basic auth user
  --password PASS     the HTTP basic auth password (default: $HTTP_PASSWORD)
  --checksum SHA256   the archive's hex SHA-256 checksum
  --extract DIR       the existing directory to extract into
  --creates FILE      do not extract when this file exists
  --cleanup           remove the archive after extracting it
  --owner USER[:GROUP]
                      the owner and group of the archive (default: the user and group
                      running the command)
)"},
    {"scaffold", "scaffold NAME [SOURCE] [ENSURE] [--engine jet|go] [--post PATTERN=TOOL]... ...",
        R"(Renders the templates of the directory SOURCE into the directory NAME. ENSURE is
present (the default) or absent.

Options:
  --engine jet|go     the template engine (default: jet)
  --skip-empty, --no-skip-empty
                      do not write files that render empty
  --left-delimiter TEXT
  --right-delimiter TEXT
                      the template delimiters
  --post PATTERN=TOOL run TOOL on the rendered files matching PATTERN (repeatable)
  --purge             remove files in NAME that the scaffold does not render
)"},
}};

/// One option of the ensure types: its names, whether it takes a value, and the types that take
/// it (empty: every type).
struct FlagSpec {
    std::string_view name;
    std::string_view shortName;
    bool takesValue = true;
    std::vector<std::string_view> types;
};

const std::vector<FlagSpec> &flagSpecs()
{
    static const std::vector<FlagSpec> specs {
        {"--alias", "", true, {}},
        {"--provider", "", true, {}},
        {"--require", "", true, {}},
        {"--if", "", true, {}},
        {"--unless", "", true, {}},
        {"--check", "", true, {}},
        {"--check-tries", "", true, {}},
        {"--check-sleep", "", true, {}},
        {"--enable", "", false, {"service"}},
        {"--disable", "", false, {"service"}},
        {"--subscribe", "-S", true, {"service", "exec"}},
        {"--owner", "", true, {"file", "archive"}},
        {"--mode", "", true, {"file"}},
        {"--content", "", true, {"file"}},
        {"--content-file", "", true, {"file"}},
        {"--source", "", true, {"file"}},
        {"--creates", "", true, {"exec", "archive"}},
        {"--returns", "", true, {"exec"}},
        {"--timeout", "", true, {"exec"}},
        {"--cwd", "", true, {"exec"}},
        {"--environment", "-e", true, {"exec"}},
        {"--path", "", true, {"exec"}},
        {"--refresh-only", "", false, {"exec"}},
        {"--logoutput", "", false, {"exec"}},
        {"--exec-if", "", true, {"exec"}},
        {"--exec-unless", "", true, {"exec"}},
        {"--header", "-H", true, {"archive"}},
        {"--username", "", true, {"archive"}},
        {"--password", "", true, {"archive"}},
        {"--checksum", "", true, {"archive"}},
        {"--extract", "", true, {"archive"}},
        {"--cleanup", "", false, {"archive"}},
        {"--engine", "", true, {"scaffold"}},
        {"--skip-empty", "", false, {"scaffold"}},
        {"--no-skip-empty", "", false, {"scaffold"}},
        {"--left-delimiter", "", true, {"scaffold"}},
        {"--right-delimiter", "", true, {"scaffold"}},
        {"--post", "", true, {"scaffold"}},
        {"--purge", "", false, {"scaffold"}},
    };
    return specs;
}

/// `ensure api --help`: the commands of the API.
constexpr std::string_view kEnsureApiUsage = R"(Usage: ccm-backend ensure api COMMAND

The ensure API, for programs in other languages: one request in, one response out.

Commands:
  pipe                read one request (JSON or YAML) on stdin, ensure its resource and
                      write one response on stdout (also: piped)
)";

/// The ensure command line as read: the common settings, the type, its positional arguments and
/// the values of every other option by its long name, in the order given.
struct EnsureCommandLine {
    EnsureSettings settings = ensureSettingsFromEnvironment();
    std::string type;
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>, std::less<>> flags;
    bool help = false;
    /// The arguments after `api pipe` (or `api piped`), when that was asked.
    std::optional<std::vector<std::string>> apiArguments;
    bool apiHelp = false; ///< `ensure api --help`: the commands of the API

    [[nodiscard]] bool has(std::string_view name) const { return flags.find(name) != flags.end(); }
    [[nodiscard]] std::optional<std::string> value(std::string_view name) const
    {
        const auto found = flags.find(name);
        if (found == flags.end() || found->second.empty())
            return std::nullopt;
        return found->second.back();
    }
    [[nodiscard]] std::vector<std::string> values(std::string_view name) const
    {
        const auto found = flags.find(name);
        return found == flags.end() ? std::vector<std::string>() : found->second;
    }
};

std::string canonicalType(std::string_view type)
{
    if (type == "pkg")
        return "package";
    if (type == "svc")
        return "service";
    return std::string(type);
}

const FlagSpec *findFlag(std::string_view arg, std::string &inlineValue, bool &hasInline)
{
    const auto equals = arg.find('=');
    hasInline = arg.starts_with("--") && equals != std::string_view::npos;
    const std::string_view name = hasInline ? arg.substr(0, equals) : arg;
    inlineValue = hasInline ? std::string(arg.substr(equals + 1)) : std::string();
    for (const FlagSpec &spec : flagSpecs()) {
        if (name == spec.name || (!spec.shortName.empty() && name == spec.shortName))
            return &spec;
    }
    return nullptr;
}

/// Reads one type option at args[index]; an error message when it is wrong, "" when it was taken,
/// nullopt when args[index] is none.
std::optional<std::string> takeTypeFlag(
    const std::vector<std::string> &args, std::size_t &index, EnsureCommandLine &line)
{
    std::string inlineValue;
    bool hasInline = false;
    const FlagSpec *spec = findFlag(args[index], inlineValue, hasInline);
    if (!spec)
        return std::nullopt;
    const std::string name(spec->name);
    if (!spec->takesValue) {
        if (hasInline)
            return "option " + name + " takes no value";
        line.flags[name].emplace_back();
        return "";
    }
    if (!hasInline) {
        if (index + 1 >= args.size())
            return "option " + name + " needs a value";
        inlineValue = args[++index];
    }
    line.flags[name].push_back(inlineValue);
    return "";
}

/// Upstream's documentation writes options as PROPERTY=VALUE after the name
/// (`ensure file F content="Listen 8080"`); its code does not take them. An argument after the
/// name whose PROPERTY is an option taking a value is read as --PROPERTY=VALUE; an error message
/// when that option is wrong, "" when taken, nullopt when the argument is none.
std::optional<std::string> takePropertyArgument(const std::string &arg, EnsureCommandLine &line)
{
    const auto equals = arg.find('=');
    if (line.positional.empty() || equals == std::string::npos || equals == 0)
        return std::nullopt;
    std::string option = "--" + arg.substr(0, equals);
    if (!std::ranges::all_of(option.substr(2), [](char c) { return (c >= 'a' && c <= 'z') || c == '_' || c == '-'; }))
        return std::nullopt;
    std::ranges::replace(option, '_', '-');
    std::string inlineValue;
    bool hasInline = false;
    const FlagSpec *spec = findFlag(option, inlineValue, hasInline);
    if (!spec || !spec->takesValue)
        return std::nullopt;
    const std::vector<std::string> spelled {option + arg.substr(equals)};
    std::size_t index = 0;
    return takeTypeFlag(spelled, index, line);
}

/// Reads the arguments; an error message for a usage error.
std::optional<std::string> parseEnsureArguments(const std::vector<std::string> &args, EnsureCommandLine &line)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (line.positional.empty() && line.type.empty() && arg == "api") {
            if (i + 1 < args.size() && (args[i + 1] == "-h" || args[i + 1] == "--help")) {
                line.apiHelp = true;
                return std::nullopt;
            }
            if (i + 1 < args.size() && args[i + 1] != "pipe" && args[i + 1] != "piped")
                return "api: unknown command '" + args[i + 1] + "'; expected pipe";
            if (i + 1 >= args.size())
                return "api: expected pipe";
            line.apiArguments = std::vector<std::string>(args.begin() + static_cast<std::ptrdiff_t>(i) + 2, args.end());
            return std::nullopt;
        }
        auto common = takeEnsureOption(args, i, line.settings);
        if (!common)
            return common.error().message;
        if (common.value())
            continue;
        if (arg == "-h" || arg == "--help") {
            line.help = true;
            continue;
        }
        if (auto problem = takeTypeFlag(args, i, line)) {
            if (!problem->empty())
                return *problem;
            continue;
        }
        if (arg.size() > 1 && arg.front() == '-')
            return "unknown option '" + arg + "'";
        if (line.type.empty()) {
            line.type = canonicalType(arg);
        } else if (auto property = takePropertyArgument(arg, line)) {
            if (!property->empty())
                return *property;
        } else {
            line.positional.push_back(arg);
        }
    }
    return std::nullopt;
}

const TypeHelp *typeHelp(std::string_view type)
{
    const auto found = std::ranges::find(kTypeHelp, type, &TypeHelp::type);
    return found == kTypeHelp.end() ? nullptr : &*found;
}

void printEnsureUsage(std::ostream &stream)
{
    stream << kEnsureUsage << kCommonUsage << kExitUsage;
}

void printTypeUsage(const TypeHelp &help, std::ostream &stream)
{
    stream << "Usage: ccm-backend ensure " << help.usage << "\n\n" << help.text << '\n' << kCommonUsage << kExitUsage;
}

/// The user and group running the command, as upstream's file and archive commands default them.
Result<std::pair<std::string, std::string>> currentOwner()
{
    const passwd *user = ::getpwuid(::getuid());
    if (!user)
        return Error {"usage", "cannot look up the current user (uid " + std::to_string(::getuid()) + ")"};
    const group *primary = ::getgrgid(::getgid());
    if (!primary)
        return Error {"usage", "cannot look up the current group (gid " + std::to_string(::getgid()) + ")"};
    return std::pair {std::string(user->pw_name), std::string(primary->gr_name)};
}

/// --owner USER[:GROUP] split at its first colon; a part left out is the current user's or group.
Result<void> setOwner(const EnsureCommandLine &line, Json &properties)
{
    auto current = currentOwner();
    const std::string owner = line.value("--owner").value_or("");
    const auto colon = owner.find(':');
    std::string user = owner.substr(0, colon);
    std::string group = colon == std::string::npos ? std::string() : owner.substr(colon + 1);
    if ((user.empty() || group.empty()) && !current)
        return current.error();
    properties["owner"] = user.empty() ? current->first : user;
    properties["group"] = group.empty() ? current->second : group;
    return {};
}

/// Copies the value of option `flag` (the last one given) into `property` when it was given.
void copyFlag(const EnsureCommandLine &line, std::string_view flag, const char *property, Json &properties)
{
    if (auto value = line.value(flag))
        properties[property] = *value;
}

/// The positional arguments of `type`: the names of those it requires, then its optional ones.
struct Positionals {
    std::vector<const char *> required;
    std::vector<const char *> optional;
};

Positionals positionalsOf(std::string_view type)
{
    if (type == "exec")
        return {{"name"}, {}};
    if (type == "archive")
        return {{"name", "url"}, {}};
    if (type == "scaffold")
        return {{"name"}, {"source", "ensure"}};
    return {{"name"}, {"ensure"}};
}

Result<void> takePositionals(const EnsureCommandLine &line, Json &properties)
{
    const Positionals names = positionalsOf(line.type);
    if (line.positional.size() < names.required.size())
        return Error {"usage", "ensure " + line.type + ": missing argument " + names.required[line.positional.size()]};
    if (line.positional.size() > names.required.size() + names.optional.size())
        return Error {"usage", "ensure " + line.type + ": unexpected argument '" + line.positional.back() + "'"};
    for (std::size_t i = 0; i < line.positional.size(); ++i) {
        const char *name = i < names.required.size() ? names.required[i] : names.optional[i - names.required.size()];
        properties[name] = line.positional[i];
    }
    return {};
}

Result<int> parseCount(std::string_view option, const std::string &text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return Error {"usage", std::string(option) + " expects a whole number, not '" + text + "'"};
    return value;
}

/// --alias, --provider, --require, --if, --unless and --check with its tries and sleep.
Result<void> setCommonProperties(const EnsureCommandLine &line, Json &properties)
{
    copyFlag(line, "--alias", "alias", properties);
    copyFlag(line, "--provider", "provider", properties);
    if (line.has("--require"))
        properties["require"] = line.values("--require");
    Json control = Json::object();
    copyFlag(line, "--if", "if", control);
    copyFlag(line, "--unless", "unless", control);
    if (!control.empty())
        properties["control"] = control;
    if (const auto command = line.value("--check")) {
        auto tries = parseCount("--check-tries", line.value("--check-tries").value_or("5"));
        if (!tries)
            return tries.error();
        properties["health_checks"] = Json::array({{{"command", *command}, {"tries", tries.value()},
            {"try_sleep", line.value("--check-sleep").value_or("1s")}}});
    } else if (line.has("--check-tries") || line.has("--check-sleep")) {
        return Error {"usage", "--check-tries and --check-sleep need --check COMMAND"};
    }
    return {};
}

Result<void> setServiceProperties(const EnsureCommandLine &line, Json &properties)
{
    if (line.has("--enable") && line.has("--disable"))
        return Error {"usage", "cannot specify both --enable and --disable"};
    if (line.has("--enable") || line.has("--disable"))
        properties["enable"] = line.has("--enable");
    if (line.has("--subscribe"))
        properties["subscribe"] = line.values("--subscribe");
    return {};
}

Result<void> setFileProperties(const EnsureCommandLine &line, Json &properties)
{
    const bool content = line.has("--content");
    const bool contentFile = line.has("--content-file");
    if (content && contentFile)
        return Error {"usage", "cannot specify both --content and --content-file"};
    if (line.has("--source") && (content || contentFile))
        return Error {"usage", "cannot specify both --source and --content or --content-file"};
    if (auto owner = setOwner(line, properties); !owner)
        return owner;
    const bool directory = properties.value("ensure", std::string()) == "directory";
    properties["mode"] = line.value("--mode").value_or(directory ? "0755" : "0644");
    copyFlag(line, "--content", "content", properties);
    copyFlag(line, "--source", "source", properties);
    if (const auto file = line.value("--content-file")) {
        auto text = readTextFile(*file, 64 * 1024 * 1024);
        if (!text)
            return Error {"usage", "--content-file: " + text.error().message};
        properties["content"] = std::move(text).value();
    }
    if (const auto source = line.value("--source"); source && !std::filesystem::is_regular_file(*source))
        return Error {"usage", "--source: " + *source + " is not an existing file"};
    return {};
}

Result<void> setExecProperties(const EnsureCommandLine &line, Json &properties)
{
    Json returns = Json::array();
    for (const std::string &code : line.has("--returns") ? line.values("--returns") : std::vector<std::string> {"0"}) {
        auto value = parseCount("--returns", code);
        if (!value)
            return value.error();
        returns.push_back(value.value());
    }
    properties["returns"] = std::move(returns);
    properties["timeout"] = line.value("--timeout").value_or("1m");
    copyFlag(line, "--cwd", "cwd", properties);
    copyFlag(line, "--path", "path", properties);
    copyFlag(line, "--creates", "creates", properties);
    copyFlag(line, "--exec-if", "onlyif", properties);
    copyFlag(line, "--exec-unless", "unless", properties);
    if (line.has("--environment"))
        properties["environment"] = line.values("--environment");
    if (line.has("--subscribe"))
        properties["subscribe"] = line.values("--subscribe");
    if (line.has("--refresh-only"))
        properties["refreshonly"] = true;
    if (line.has("--logoutput"))
        properties["logoutput"] = true;
    return {};
}

Result<void> setArchiveProperties(const EnsureCommandLine &line, Json &properties)
{
    Json headers = Json::object();
    for (const std::string &header : line.values("--header")) {
        const auto colon = header.find(':');
        if (colon == std::string::npos || colon == 0)
            return Error {"usage", "--header expects K:V, not '" + header + "'"};
        headers[header.substr(0, colon)] = header.substr(colon + 1);
    }
    if (!headers.empty())
        properties["headers"] = std::move(headers);
    copyFlag(line, "--username", "username", properties);
    if (auto password = line.value("--password"))
        properties["password"] = *password;
    else if (const char *fromEnvironment = std::getenv("HTTP_PASSWORD"); fromEnvironment && *fromEnvironment)
        properties["password"] = fromEnvironment;
    copyFlag(line, "--checksum", "checksum", properties);
    copyFlag(line, "--creates", "creates", properties);
    if (const auto extract = line.value("--extract")) {
        if (!std::filesystem::is_directory(*extract))
            return Error {"usage", "--extract: " + *extract + " is not an existing directory"};
        properties["extract_parent"] = *extract;
    }
    if (line.has("--cleanup"))
        properties["cleanup"] = true;
    return setOwner(line, properties);
}

Result<void> setScaffoldProperties(const EnsureCommandLine &line, Json &properties)
{
    const std::string engine = line.value("--engine").value_or("jet");
    if (engine != "jet" && engine != "go")
        return Error {"usage", "--engine must be jet or go, not '" + engine + "'"};
    properties["engine"] = engine;
    if (const auto source = properties.find("source");
        source != properties.end() && !std::filesystem::is_directory(source->get<std::string>()))
        return Error {
            "usage", "ensure scaffold: SOURCE " + source->get<std::string>() + " is not an existing directory"};
    if (line.has("--skip-empty") || line.has("--no-skip-empty"))
        properties["skip_empty"] = !line.has("--no-skip-empty");
    copyFlag(line, "--left-delimiter", "left_delimiter", properties);
    copyFlag(line, "--right-delimiter", "right_delimiter", properties);
    Json post = Json::array();
    for (const std::string &step : line.values("--post")) {
        const auto equals = step.find('=');
        if (equals == std::string::npos || equals == 0)
            return Error {"usage", "--post expects PATTERN=TOOL, not '" + step + "'"};
        post.push_back({{step.substr(0, equals), step.substr(equals + 1)}});
    }
    if (!post.empty())
        properties["post"] = std::move(post);
    if (line.has("--purge"))
        properties["purge"] = true;
    return {};
}

/// The resource's properties from the command line; a usage error when an option does not belong
/// to the type or a value is wrong.
Result<Json> ensureProperties(const EnsureCommandLine &line)
{
    for (const auto &[name, values] : line.flags) {
        const FlagSpec *spec = nullptr;
        for (const FlagSpec &candidate : flagSpecs())
            spec = candidate.name == name ? &candidate : spec;
        if (spec && !spec->types.empty() && std::ranges::find(spec->types, line.type) == spec->types.end())
            return Error {"usage", "ensure " + line.type + " does not take " + name};
    }
    // Upstream's defaults of ENSURE; exec and archive take none on the command line.
    Json properties = {{"ensure", line.type == "service" ? "running" : "present"}};
    if (auto taken = takePositionals(line, properties); !taken)
        return taken.error();
    Result<void> set = setCommonProperties(line, properties);
    if (set && line.type == "service")
        set = setServiceProperties(line, properties);
    else if (set && line.type == "file")
        set = setFileProperties(line, properties);
    else if (set && line.type == "exec")
        set = setExecProperties(line, properties);
    else if (set && line.type == "archive")
        set = setArchiveProperties(line, properties);
    else if (set && line.type == "scaffold")
        set = setScaffoldProperties(line, properties);
    if (!set)
        return set.error();
    return properties;
}

/// Ensures the resource and prints its report line and the summary as apply does.
int runEnsure(EnsureCommandLine &line, const Json &properties, std::ostream &out, std::ostream &err)
{
    // As apply: SIGINT or SIGTERM lets a resource that has begun finish (and be recorded in the
    // session); a second one ends the process at once.
    const CancelOnSignal cancelOnSignal;
    line.settings.cancel = cancelOnSignal.flag();
    RunReporter reporter(out, err, false, false);
    auto event = ensureResource(line.type, properties, line.settings, reporter);
    reporter.finish();
    if (!event) {
        err << "ccm-backend ensure: " << event.error().message << '\n';
        const bool failed = event.error().code == "session_record" || event.error().code == "cancelled";
        return failed ? Failure : UsageError;
    }
    engine::RunResult result;
    result.summary.add(event.value());
    result.summary.runTime = event->duration;
    out << '\n' << summaryText(result.summary) << std::flush;
    // A requirement that failed earlier in the session fails this call too: its resource was not
    // ensured.
    return event->unmetRequirements.empty() ? runExitStatus(result, false) : Failure;
}

} // namespace

int ensureCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    EnsureCommandLine line;
    if (auto problem = parseEnsureArguments(args, line)) {
        err << "ccm-backend ensure: " << *problem << '\n';
        return UsageError;
    }
    if (line.apiHelp) {
        out << kEnsureApiUsage;
        return Success;
    }
    if (line.apiArguments)
        return ensureApiPipe(*line.apiArguments, line.settings, std::cin, out, err);
    const TypeHelp *help = typeHelp(line.type);
    if (line.help) {
        if (help)
            printTypeUsage(*help, out);
        else
            printEnsureUsage(out);
        return Success;
    }
    if (!help) {
        err << "ccm-backend ensure: " << (line.type.empty() ? "no type given" : "unknown type '" + line.type + "'")
            << "; expected package, service, file, exec, archive, scaffold or api\n";
        printEnsureUsage(err);
        return UsageError;
    }
    auto properties = ensureProperties(line);
    if (!properties) {
        err << "ccm-backend ensure " << line.type << ": " << properties.error().message << '\n';
        return UsageError;
    }
    return runEnsure(line, properties.value(), out, err);
}

} // namespace ccm::cli
