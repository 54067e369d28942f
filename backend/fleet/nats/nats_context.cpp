// SPDX-License-Identifier: Apache-2.0
#include "fleet/nats/nats_context.h"

#include "base/file_reading.h"
#include "fleet/nats/nats_errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

namespace ccm::fleet {
namespace {

// Context files are a few hundred bytes; the cap only stops a mistaken path to a huge file.
constexpr std::size_t kMaxContextBytes = 1024 * 1024;

std::string environmentValue(const char *name)
{
    const char *value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::string expandHome(const std::string &path, const std::string &home)
{
    if (home.empty())
        return path;
    if (path == "~")
        return home;
    if (path.starts_with("~/"))
        return home + path.substr(1);
    return path;
}

Error contextError(const std::filesystem::path &file, const std::string &what)
{
    return Error {"bad_context",
        "NATS context " + file.string() + ": " + what
            + "; fix the file (it is the NATS CLI's JSON format) or pass --nats URL"};
}

} // namespace

ContextEnvironment ContextEnvironment::fromProcess()
{
    return ContextEnvironment {
        environmentValue("NATS_CONTEXT"), environmentValue("XDG_CONFIG_HOME"), environmentValue("HOME")};
}

std::filesystem::path contextDirectory(const ContextEnvironment &environment)
{
    if (!environment.xdgConfigHome.empty())
        return std::filesystem::path(environment.xdgConfigHome) / "nats" / "context";
    return std::filesystem::path(environment.home) / ".config" / "nats" / "context";
}

Result<NatsSettings> parseNatsContext(
    const std::string &text, const std::filesystem::path &file, const std::string &home)
{
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &error) {
        // error.byte counts from 1 and is the last character read: the end of the offending token.
        const std::size_t end = std::min<std::size_t>(error.byte > 0 ? error.byte - 1 : 0, text.size());
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < end; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        // nlohmann's own text ends with the reason: "...: syntax error while parsing ...".
        const std::string what = error.what();
        const std::size_t reason = what.find("syntax error");
        return contextError(file.string() + ":" + std::to_string(line) + ":" + std::to_string(column),
            "not valid JSON" + (reason == std::string::npos ? std::string() : " (" + what.substr(reason) + ")"));
    }
    if (!document.is_object())
        return contextError(file, "not a JSON object");

    NatsSettings settings;
    settings.source = file.string();
    struct Field {
        const char *name;
        std::string NatsSettings::*member;
        bool isPath;
    };
    static constexpr std::array kFields {
        Field {"url", &NatsSettings::url, false},
        Field {"user", &NatsSettings::user, false},
        Field {"password", &NatsSettings::password, false},
        Field {"token", &NatsSettings::token, false},
        Field {"creds", &NatsSettings::creds, true},
        Field {"nkey", &NatsSettings::nkey, true},
        Field {"ca", &NatsSettings::ca, true},
        Field {"cert", &NatsSettings::cert, true},
        Field {"key", &NatsSettings::key, true},
    };
    for (const Field &field : kFields) {
        const auto found = document.find(field.name);
        if (found == document.end() || found->is_null())
            continue;
        if (!found->is_string())
            return contextError(file, std::string("\"") + field.name + "\" must be a string");
        std::string value = found->get<std::string>();
        settings.*field.member = field.isPath ? expandHome(value, home) : std::move(value);
    }
    return settings;
}

Result<NatsSettings> loadNatsContext(const std::string &name, const ContextEnvironment &environment)
{
    // A context name is a file name in the context directory, never a path out of it.
    if (name.empty() || name.find('/') != std::string::npos || name.front() == '.')
        return Error {"bad_context",
            "invalid NATS context name '" + name + "': use the name of a file in "
                + contextDirectory(environment).string() + " without its .json suffix"};
    const std::filesystem::path file = contextDirectory(environment) / (name + ".json");
    auto text = readRegularFile(file, kMaxContextBytes);
    if (!text) {
        if (text.error().kind == FileReadFailure::Kind::Missing)
            return makeError(NatsErrc::ContextNotFound,
                "NATS context '" + name + "' not found: " + file.string()
                    + " does not exist; create it with 'nats context save " + name
                    + " --server URL', choose another with --context or NATS_CONTEXT, or pass --nats URL");
        return contextError(file, "cannot be read");
    }
    return parseNatsContext(text.value(), file, environment.home);
}

Result<NatsSettings> resolveNatsSettings(const NatsSelection &selection, const ContextEnvironment &environment)
{
    if (selection.url) {
        if (selection.url->empty())
            return Error {"bad_url", "--nats needs a server URL such as nats://127.0.0.1:4222"};
        NatsSettings settings;
        settings.url = *selection.url;
        settings.source = "--nats";
        return settings;
    }
    if (selection.context)
        return loadNatsContext(*selection.context, environment);
    if (!environment.natsContext.empty())
        return loadNatsContext(environment.natsContext, environment);
    return loadNatsContext(kDefaultContextName, environment);
}

} // namespace ccm::fleet
