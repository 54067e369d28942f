// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/exec/exec_type.h"

#include "base/shell_words.h"
#include "base/text.h"
#include "base/utf8.h"
#include "core/model/duration.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <initializer_list>
#include <tuple>
#include <utility>

namespace ccm::engine {

namespace {

/// A boolean property; templates leave "true" or "false" as text.
Result<bool> boolProperty(const Json &properties, const std::string &key)
{
    const auto found = properties.find(key);
    if (found == properties.end() || found->is_null())
        return false;
    if (found->is_boolean())
        return found->get<bool>();
    if (found->is_string()) {
        const std::string_view text = trimAsciiSpace(found->get_ref<const std::string &>());
        if (text == "true")
            return true;
        if (text == "false")
            return false;
    }
    return invalidProperty(key + " must be true or false, not " + found->dump());
}

bool isEnvironmentName(std::string_view key)
{
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    return !key.empty() && letter(key.front())
        && std::all_of(key.begin() + 1, key.end(), [&](char c) { return letter(c) || digit(c); });
}

Result<std::vector<std::string>> environmentProperty(const Json &properties)
{
    std::vector<std::string> environment;
    const auto found = properties.find("environment");
    if (found == properties.end() || found->is_null())
        return environment;
    if (!found->is_array())
        return invalidProperty(
            std::string("environment must be a list of KEY=VALUE entries, not ") + found->type_name());
    for (const Json &item : *found) {
        if (!item.is_string())
            return invalidProperty("environment entry " + item.dump() + " must be a KEY=VALUE string");
        const std::string &entry = item.get_ref<const std::string &>();
        const std::size_t equals = entry.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == entry.size())
            return invalidProperty(
                "environment entry '" + entry + "' must be KEY=VALUE with a non-empty key and value");
        if (!isEnvironmentName(std::string_view(entry).substr(0, equals)))
            return invalidProperty("environment variable name '" + entry.substr(0, equals)
                + "' may hold only letters, digits and _ and must not start with a digit");
        environment.push_back(entry);
    }
    return environment;
}

Result<void> checkSearchPath(const std::string &path)
{
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find(':', start), path.size());
        const std::string directory = path.substr(start, end - start);
        if (directory.empty() || directory.front() != '/')
            return invalidProperty("path entry '" + directory + "' must be an absolute directory");
        start = end + 1;
    }
    return {};
}

/// One exit code of `returns`; templates leave numbers as text.
Result<int> exitCodeOf(const Json &item)
{
    std::int64_t code = -1;
    if (item.is_number_unsigned()) {
        code = item.get<std::uint64_t>() > 255 ? 256 : static_cast<std::int64_t>(item.get<std::uint64_t>());
    } else if (item.is_number_integer()) {
        code = item.get<std::int64_t>();
    } else if (item.is_string()) {
        const std::string_view text = trimAsciiSpace(item.get_ref<const std::string &>());
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), code);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
            return invalidProperty("returns entry " + item.dump() + " must be an exit code from 0 to 255");
    } else {
        return invalidProperty("returns entry " + item.dump() + " must be an exit code from 0 to 255");
    }
    if (code < 0 || code > 255)
        return invalidProperty("exit code " + item.dump() + " is outside 0 to 255");
    return static_cast<int>(code);
}

Result<std::vector<int>> returnsProperty(const Json &properties)
{
    std::vector<int> returns;
    const auto found = properties.find("returns");
    if (found != properties.end() && !found->is_null()) {
        if (!found->is_array())
            return invalidProperty(std::string("returns must be a list of exit codes, not ") + found->type_name());
        for (const Json &item : *found) {
            auto code = exitCodeOf(item);
            if (!code)
                return code.error();
            returns.push_back(*code);
        }
    }
    if (returns.empty())
        returns.push_back(0);
    return returns;
}

std::string fromDirectory(const std::string &path, const std::filesystem::path &workingDirectory)
{
    if (path.empty() || path.front() == '/' || workingDirectory.empty())
        return path;
    return (workingDirectory / path).string();
}

/// The seed's isDesiredState: before a run (no exit code) guards and refreshonly decide, after it
/// the exit code; an existing `creates` wins over both.
bool isDesiredState(const ExecProperties &properties, const ExecState &state)
{
    if (!properties.creates.empty() && state.createsSatisfied)
        return true;
    if (!state.exitCode) {
        if (!properties.onlyIf.empty() && state.onlyIfSatisfied == false)
            return true;
        if (!properties.unless.empty() && state.unlessSatisfied == true)
            return true;
        return properties.refreshOnly;
    }
    return std::find(properties.returns.begin(), properties.returns.end(), *state.exitCode) != properties.returns.end();
}

void logLines(Logger &log, LogLevel level, std::string_view text)
{
    while (!text.empty()) {
        const std::size_t newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        log.log(level, toValidUtf8(line));
        if (newline == std::string_view::npos)
            break;
        text.remove_prefix(newline + 1);
    }
}

void logOutput(Logger &log, const CommandResult &result)
{
    logLines(log, LogLevel::Info, result.stdoutText);
    if (result.stdoutTruncated)
        log.warning("the command wrote more to stdout than is kept; the rest was dropped");
    logLines(log, LogLevel::Warning, result.stderrText);
    if (result.stderrTruncated)
        log.warning("the command wrote more to stderr than is kept; the rest was dropped");
}

/// The last few lines of what a failed command wrote to stderr, on one line.
std::string stderrTail(std::string_view text)
{
    constexpr std::size_t kLines = 5;
    constexpr std::size_t kBytes = 512;
    text = trimAsciiSpace(text);
    std::size_t begin = text.size();
    for (std::size_t lines = 0; lines < kLines && begin > 0; ++lines) {
        const std::size_t newline = text.rfind('\n', begin - 1);
        begin = newline == std::string_view::npos ? 0 : newline;
    }
    std::string tail;
    for (std::string_view rest = text.substr(begin); !rest.empty();) {
        const std::size_t newline = rest.find('\n');
        const std::string_view line = trimAsciiSpace(rest.substr(0, newline));
        if (!line.empty())
            tail.append(tail.empty() ? "" : " | ").append(line);
        rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
    }
    if (tail.size() > kBytes)
        tail = "..." + tail.substr(tail.size() - kBytes);
    return toValidUtf8(tail);
}

std::string signalName(int signal)
{
    const char *abbreviation = ::sigabbrev_np(signal);
    return abbreviation ? " (SIG" + std::string(abbreviation) + ")" : std::string();
}

/// How a command that ran ended, when that is not the desired state.
std::string failureOf(const CommandResult &result, const ExecProperties &properties)
{
    std::string message;
    if (result.signal != 0) {
        message = "command was killed by signal " + std::to_string(result.signal) + signalName(result.signal);
    } else {
        message = "command exited with code " + std::to_string(result.exitCode) + " (expected one of ";
        for (std::size_t i = 0; i < properties.returns.size(); ++i)
            message += (i ? ", " : "") + std::to_string(properties.returns[i]);
        message += ")";
    }
    if (!properties.logOutput) {
        if (const std::string tail = stderrTail(result.stderrText); !tail.empty())
            message += "; stderr: " + tail;
    }
    return message;
}

Result<void> readTexts(const Json &properties, std::initializer_list<std::pair<const char *, std::string *>> texts)
{
    for (const auto &[key, into] : texts) {
        auto value = stringProperty(properties, key);
        if (!value)
            return value.error();
        *into = std::move(value).value();
    }
    return {};
}

Result<void> readTimeout(ExecProperties &parsed)
{
    if (!parsed.timeoutText.empty()) {
        auto timeout = parseDuration(parsed.timeoutText);
        if (!timeout)
            return invalidProperty("timeout: " + timeout.error().message);
        // Rounded up: a timeout below a millisecond must not become no timeout at all.
        parsed.timeout = std::chrono::ceil<std::chrono::milliseconds>(*timeout);
    }
    return {};
}

/// refreshonly and logoutput; refresh_only is the older spelling of refreshonly.
Result<void> readFlags(const Json &properties, ExecProperties &parsed)
{
    const std::pair<const char *, bool *> flags[]
        = {{"refreshonly", &parsed.refreshOnly}, {"logoutput", &parsed.logOutput}};
    for (const auto &[key, into] : flags) {
        auto value = boolProperty(properties, key);
        if (!value)
            return value.error();
        *into = *value;
    }
    auto oldSpelling = boolProperty(properties, "refresh_only");
    if (!oldSpelling)
        return oldSpelling.error();
    parsed.refreshOnly = parsed.refreshOnly || *oldSpelling;
    return {};
}

} // namespace

Result<ExecProperties> ExecProperties::fromJson(
    const std::string &name, const Json &properties, const std::filesystem::path &workingDirectory)
{
    if (!properties.is_object())
        return invalidProperty(std::string("exec properties must be a map, not ") + properties.type_name());
    ExecProperties parsed;
    std::string command;
    if (auto read = readTexts(properties,
            {{"command", &command}, {"cwd", &parsed.cwd}, {"path", &parsed.path}, {"timeout", &parsed.timeoutText},
                {"creates", &parsed.creates}, {"onlyif", &parsed.onlyIf}, {"unless", &parsed.unless}});
        !read)
        return read.error();

    parsed.command = command.empty() ? name : command;
    if (auto words = splitShellWords(parsed.command); !words) {
        return invalidProperty((command.empty() ? "the name is the command and cannot be split into arguments: "
                                                : "command cannot be split into arguments: ")
            + words.error().message);
    }
    parsed.cwd = fromDirectory(parsed.cwd, workingDirectory);
    parsed.creates = fromDirectory(parsed.creates, workingDirectory);

    auto environment = environmentProperty(properties);
    if (!environment)
        return environment.error();
    parsed.environment = std::move(environment).value();

    if (!parsed.path.empty()) {
        if (auto checked = checkSearchPath(parsed.path); !checked)
            return checked.error();
    }

    if (auto read = readTimeout(parsed); !read)
        return read.error();

    auto returns = returnsProperty(properties);
    if (!returns)
        return returns.error();
    parsed.returns = std::move(returns).value();

    if (auto read = readFlags(properties, parsed); !read)
        return read.error();
    return parsed;
}

Json execStateToJson(const ExecState &state)
{
    const auto optional = [](const auto &value) { return value ? Json(*value) : Json(nullptr); };
    return Json {{"ensure", ensureText(Ensure::Present)}, {"exit_code", optional(state.exitCode)},
        {"creates_satisfied", state.createsSatisfied}, {"onlyif_satisfied", optional(state.onlyIfSatisfied)},
        {"unless_satisfied", optional(state.unlessSatisfied)}};
}

Command execCommand(std::vector<std::string> argv, const ExecProperties &properties)
{
    Command command;
    command.argv = std::move(argv);
    command.cwd = properties.cwd;
    command.environment = properties.environment;
    if (!properties.path.empty())
        command.environment.push_back("PATH=" + properties.path);
    command.timeout = properties.timeout;
    return command;
}

Result<bool> guardVerdict(Result<CommandResult> outcome, const ExecProperties &properties)
{
    if (!outcome)
        return outcome.error();
    if (outcome->timedOut)
        return Error {"guard_timed_out", "guard command timed out after " + properties.timeoutText};
    return outcome->signal == 0 && outcome->exitCode == 0;
}

namespace {

/// Runs the onlyif and unless guards that are set, recording their verdicts in state.
Result<void> evaluateGuards(ExecProvider &exec, const ExecProperties &wanted, ExecState &state)
{
    const std::tuple<const std::string *, std::optional<bool> *, const char *> guards[]
        = {{&wanted.onlyIf, &state.onlyIfSatisfied, "onlyif"}, {&wanted.unless, &state.unlessSatisfied, "unless"}};
    for (const auto &[guard, satisfied, label] : guards) {
        if (guard->empty())
            continue;
        auto verdict = exec.evaluateGuard(*guard, wanted);
        if (!verdict)
            return verdict.error().withContext(label);
        *satisfied = *verdict;
    }
    return {};
}

} // namespace

Result<void> ExecType::apply(const std::string &name, const Json &properties, Provider &provider, ApplyContext &context,
    TransactionEvent &event) const
{
    auto *exec = dynamic_cast<ExecProvider *>(&provider);
    if (!exec)
        return wrongProvider(provider, "an exec provider");
    auto parsed = ExecProperties::fromJson(name, properties, context.workingDirectory);
    if (!parsed)
        return parsed.error();
    const ExecProperties &wanted = *parsed;

    auto initial = exec->status(wanted);
    if (!initial)
        return initial.error();
    ExecState state = *initial;
    event.finalEnsure = ensureText(Ensure::Present);

    // An existing creates settles it; guards are for deciding, so they are not run then.
    if (wanted.creates.empty() || !state.createsSatisfied) {
        if (auto evaluated = evaluateGuards(*exec, wanted, state); !evaluated)
            return evaluated.error();
    }
    event.status = execStateToJson(state);

    if (!context.refresh() && isDesiredState(wanted, state))
        return {};

    event.changed = true;
    event.refreshed = context.refresh();
    if (context.noop) {
        event.noopMessage = context.refresh() ? context.refreshMessage() : "Would have executed";
        return {};
    }

    auto ran = exec->execute(wanted);
    if (!ran)
        return ran.error();
    if (wanted.logOutput)
        logOutput(context.log, *ran);
    if (ran->timedOut)
        return Error {"command_timed_out", "command timed out after " + wanted.timeoutText};

    auto after = exec->status(wanted);
    if (!after)
        return after.error();
    ExecState finished = *after;
    finished.exitCode = ran->exitCode;
    finished.onlyIfSatisfied = state.onlyIfSatisfied;
    finished.unlessSatisfied = state.unlessSatisfied;
    event.status = execStateToJson(finished);
    if (isDesiredState(wanted, finished))
        return {};
    return desiredStateNotAchieved(failureOf(*ran, wanted));
}

void registerExecResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<ExecType>());
    registerPosixExecProvider(catalog);
    registerShellExecProvider(catalog);
}

} // namespace ccm::engine
