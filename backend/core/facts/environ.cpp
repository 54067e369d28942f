// SPDX-License-Identifier: Apache-2.0
#include "core/facts/environ.h"

#include "base/text.h"
#include "core/facts/system_facts.h"

#include <map>
#include <unistd.h>

namespace ccm {
namespace {

/// A .env file is a handful of lines; a larger file is not one.
constexpr std::size_t maxDotenvBytes = 1024 * 1024;

std::string_view trim(std::string_view text)
{
    while (!text.empty() && isInlineBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isInlineBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

bool isShellName(std::string_view key)
{
    const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
    if (key.empty() || !letter(key.front()))
        return false;
    for (char c : key) {
        if (!letter(c) && !(c >= '0' && c <= '9'))
            return false;
    }
    return true;
}

/// The value after '=', or nullopt when it is malformed.
std::optional<std::string> dotenvValue(std::string_view raw)
{
    const std::string_view value = trim(raw);
    if (!value.empty() && (value.front() == '"' || value.front() == '\'')) {
        const std::size_t close = value.find(value.front(), 1);
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view rest = trim(value.substr(close + 1));
        if (!rest.empty() && rest.front() != '#')
            return std::nullopt;
        return std::string(value.substr(1, close - 1));
    }
    // The comment check runs on the raw text so that "KEY= # note" has an empty value.
    for (std::size_t i = 1; i < raw.size(); ++i) {
        if (raw[i] == '#' && isInlineBlank(raw[i - 1]))
            return std::string(trim(raw.substr(0, i)));
    }
    return std::string(value);
}

} // namespace

std::vector<std::pair<std::string, std::string>> parseDotenv(std::string_view text)
{
    std::vector<std::pair<std::string, std::string>> assignments;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = trim(text.substr(0, end));
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (line.empty() || line.front() == '#')
            continue;
        constexpr std::string_view exportPrefix = "export";
        if (line.substr(0, exportPrefix.size()) == exportPrefix && line.size() > exportPrefix.size()
            && isInlineBlank(line[exportPrefix.size()]))
            line = trim(line.substr(exportPrefix.size()));
        const std::size_t equals = line.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view key = trim(line.substr(0, equals));
        if (!isShellName(key))
            continue;
        const auto value = dotenvValue(line.substr(equals + 1));
        if (!value || value->empty())
            continue;
        assignments.emplace_back(std::string(key), toValidUtf8(*value));
    }
    return assignments;
}

Json processEnviron(const std::filesystem::path &dotenvFile)
{
    std::map<std::string, std::string> values;
    for (char **entry = ::environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const std::size_t equals = text.find('=');
        if (equals == std::string_view::npos || equals == 0)
            continue;
        values[toValidUtf8(text.substr(0, equals))] = toValidUtf8(text.substr(equals + 1));
    }
    if (const auto text = readTextFile(dotenvFile, maxDotenvBytes)) {
        for (auto &[key, value] : parseDotenv(*text))
            values[key] = std::move(value);
    }
    Json environment = Json::object();
    for (auto &[key, value] : values)
        appendMember(environment, key, std::move(value));
    return environment;
}

} // namespace ccm
