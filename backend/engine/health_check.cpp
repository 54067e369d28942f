// SPDX-License-Identifier: Apache-2.0
#include "engine/health_check.h"

#include "base/shell_words.h"
#include "base/temp_file.h"
#include "base/text.h"
#include "core/model/duration.h"

#include <cstdlib>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace ccm::engine {
namespace {

/// Check output kept in the event: plugins print a status line and maybe performance data.
constexpr std::size_t kOutputLimit = 4096;

Result<std::chrono::nanoseconds> durationProperty(const Json &check, const char *key, std::chrono::nanoseconds fallback)
{
    const std::string text = stringMember(check, key);
    if (text.empty())
        return fallback;
    auto parsed = parseDuration(text);
    if (!parsed)
        return parsed.error().withContext(std::string(key));
    return parsed.value();
}

HealthCheckResult::Status nagiosStatus(int exitCode)
{
    switch (exitCode) {
    case 0:
        return HealthCheckResult::Status::Ok;
    case 1:
        return HealthCheckResult::Status::Warning;
    case 2:
        return HealthCheckResult::Status::Critical;
    default:
        return HealthCheckResult::Status::Unknown;
    }
}

std::string trimmedOutput(std::string text)
{
    if (text.size() > kOutputLimit)
        text.resize(kOutputLimit);
    return std::string(trimAsciiSpace(text));
}

/// Describes a process that did not exit normally, in the check's output.
std::string abnormalEnd(const CommandResult &result, std::chrono::nanoseconds timeout)
{
    if (result.timedOut)
        return "timed out after " + formatDuration(timeout);
    return "killed by signal " + std::to_string(result.signal);
}

struct Attempt {
    HealthCheckResult::Status status = HealthCheckResult::Status::Unknown;
    std::string output;
};

Attempt runNagios(
    const std::vector<std::string> &argv, std::chrono::nanoseconds timeout, const HealthCheckEnvironment &environment)
{
    Command command;
    command.argv = argv;
    command.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
    command.outputLimit = kOutputLimit;
    command.mergeStderr = true;
    auto result = environment.runner.run(command);
    if (!result)
        return {HealthCheckResult::Status::Unknown, result.error().message};
    if (result->timedOut || result->signal != 0)
        return {HealthCheckResult::Status::Unknown, abnormalEnd(*result, timeout)};
    return {nagiosStatus(result->exitCode), trimmedOutput(result->stdoutText)};
}

std::filesystem::path gossProgram(const HealthCheckEnvironment &environment)
{
    if (!environment.gossBinary.empty())
        return ::access(environment.gossBinary.c_str(), X_OK) == 0 ? environment.gossBinary : std::filesystem::path();
    const auto found = findExecutable("goss");
    return found ? std::filesystem::path(*found) : std::filesystem::path();
}

Attempt runGoss(const Json &rules, std::chrono::nanoseconds timeout, const HealthCheckEnvironment &environment)
{
    const std::filesystem::path program = gossProgram(environment);
    if (program.empty())
        return {HealthCheckResult::Status::Unknown,
            environment.gossBinary.empty()
                ? "goss is not installed: goss_rules need the goss binary in " + std::string(ProcessRunner::kPath)
                : "goss is not installed: " + environment.gossBinary.string() + " is not an executable file"};
    // In the system's temporary directory when there is no scratch directory; it goes when the
    // check is done.
    auto created = TempFile::create("ccm-goss", environment.scratchDirectory, ".yaml");
    if (!created)
        return {HealthCheckResult::Status::Unknown, "cannot create a goss rules file: " + created.error().message};
    TempFile file = std::move(created).value();
    (void)file.close();
    {
        // JSON is YAML, so goss reads the rules as a gossfile.
        std::ofstream out(file.path());
        out << rules.dump() << '\n';
        if (!out.flush())
            return {HealthCheckResult::Status::Unknown, "cannot write the goss rules to " + file.path().string()};
    }
    // goss reads the rules as the runner's user, who must be able to open them.
    if (const auto identity = environment.runner.identity())
        ::chown(file.path().c_str(), identity->uid, identity->gid);

    Command command;
    command.argv = {program.string(), "--gossfile", file.path().string(), "validate", "--format", "json", "--no-color"};
    command.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
    auto result = environment.runner.run(command);
    if (!result)
        return {HealthCheckResult::Status::Unknown, result.error().message};
    if (result->timedOut || result->signal != 0)
        return {HealthCheckResult::Status::Unknown, abnormalEnd(*result, timeout)};

    const Json report = Json::parse(result->stdoutText, nullptr, false);
    const Json *summary = report.is_object() && report.contains("summary") ? &report["summary"] : nullptr;
    if (!summary || !summary->is_object() || !summary->value("failed-count", Json()).is_number_integer())
        return {HealthCheckResult::Status::Unknown,
            "goss gave no result (exit code " + std::to_string(result->exitCode)
                + "): " + trimmedOutput(result->stderrText.empty() ? result->stdoutText : result->stderrText)};
    const auto failed = (*summary)["failed-count"].get<long long>();
    const auto total
        = summary->value("test-count", Json(0)).is_number_integer() ? (*summary)["test-count"].get<long long>() : 0;
    std::string output = std::to_string(total - failed) + " of " + std::to_string(total) + " goss tests passed";
    if (failed == 0 && result->exitCode == 0)
        return {HealthCheckResult::Status::Ok, output};
    // Name the failing tests, as goss's own summary does.
    if (report.contains("results") && report["results"].is_array())
        for (const Json &test : report["results"])
            if (test.is_object() && test.value("successful", true) == false)
                output += "; " + test.value("summary-line", std::string("a test failed"));
    return {HealthCheckResult::Status::Critical, trimmedOutput(output)};
}

} // namespace

std::string healthCheckLabel(const Json &check)
{
    if (std::string name = stringMember(check, "name"); !name.empty())
        return name;
    if (std::string command = stringMember(check, "command"); !command.empty())
        return command;
    return "goss";
}

Result<HealthCheckResult> runHealthCheck(const Json &check, const HealthCheckEnvironment &environment)
{
    if (!check.is_object())
        return Error {"invalid_health_check", "a health check must be a map"};
    const bool hasRules = check.contains("goss_rules") && check["goss_rules"].is_object();
    std::string format = stringMember(check, "format");
    if (format.empty())
        format = hasRules ? "goss" : "nagios";
    if (format != "goss" && format != "nagios")
        return Error {"invalid_health_check", "format must be \"nagios\" or \"goss\", not \"" + format + "\""};

    std::vector<std::string> argv;
    if (format == "nagios") {
        const std::string line = stringMember(check, "command");
        if (line.empty())
            return Error {"invalid_health_check", "a nagios health check needs a command"};
        auto words = splitShellWords(line);
        if (!words)
            return words.error().withContext("health check command");
        if (words->empty())
            return Error {"invalid_health_check", "the health check command is empty"};
        argv = std::move(words).value();
    } else if (!hasRules) {
        return Error {"invalid_health_check", "a goss health check needs goss_rules"};
    }

    auto timeout = durationProperty(check, "timeout", kDefaultHealthCheckTimeout);
    if (!timeout)
        return timeout.error();
    auto pause = durationProperty(check, "try_sleep", std::chrono::seconds(1));
    if (!pause)
        return pause.error();
    long long tries = 1;
    if (const auto found = check.find("tries"); found != check.end()) {
        if (!found->is_number_integer() || found->get<long long>() < 1)
            return Error {"invalid_health_check", "tries must be a whole number of at least 1"};
        tries = found->get<long long>();
    }

    HealthCheckResult result;
    for (long long attempt = 1; attempt <= tries; ++attempt) {
        const Attempt outcome = format == "nagios" ? runNagios(argv, timeout.value(), environment)
                                                   : runGoss(check["goss_rules"], timeout.value(), environment);
        result.status = outcome.status;
        result.output = outcome.output;
        result.tries = static_cast<int>(attempt);
        if (result.status == HealthCheckResult::Status::Ok || attempt == tries)
            break;
        if (environment.cancel && environment.cancel->load())
            break;
        std::this_thread::sleep_for(pause.value());
    }
    return result;
}

} // namespace ccm::engine
