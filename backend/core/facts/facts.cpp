// SPDX-License-Identifier: Apache-2.0
#include "core/facts/facts.h"

#include "core/yaml/yaml_reader.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace ccm {
namespace {

namespace fs = std::filesystem;

/// Facts are small; anything larger is a mistake, not data to hold in memory.
constexpr std::size_t maxFactsFileBytes = 16 * 1024 * 1024;

/// Merging and copying facts recurse once per level, so the depth of a JSON file is bounded
/// before it is parsed (the YAML reader bounds its own).
constexpr int maxJsonNesting = 256;

Error invalidFile(const fs::path &file, SourcePosition position, const std::string &message)
{
    return Error {"invalid_facts", describeLocation(file.string(), position) + ": " + message};
}

/// True when the text has no content: only blank lines, or for YAML also comments and markers.
bool holdsNothing(std::string_view text, bool json)
{
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
            line.remove_suffix(1);
        const bool empty = line.empty() || (!json && (line.front() == '#' || line == "---" || line == "..."));
        if (!empty)
            return false;
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return true;
}

Result<Json> parseJson(const fs::path &file, std::string_view text)
{
    if (const auto offset = jsonNestingBeyond(text, maxJsonNesting)) {
        return invalidFile(
            file, LineIndex(text).at(*offset), "nested deeper than " + std::to_string(maxJsonNesting) + " levels");
    }
    try {
        return ccm::parseJson(text);
    } catch (const Json::parse_error &e) {
        // nlohmann reports the count of bytes read; the last of them is where parsing stopped.
        const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
        std::string message = e.what();
        if (const std::size_t column = message.find("column "); column != std::string::npos) {
            if (const std::size_t colon = message.find(": ", column); colon != std::string::npos)
                message = message.substr(colon + 2);
        }
        return invalidFile(file, LineIndex(text).at(offset), "invalid JSON: " + message);
    } catch (const Json::exception &e) {
        // Other errors (a number out of range) carry no position; drop nlohmann's "[json.exception...] " tag.
        std::string message = e.what();
        if (const std::size_t tag = message.find("] ");
            !message.empty() && message.front() == '[' && tag != std::string::npos)
            message.erase(0, tag + 2);
        return invalidFile(file, {}, "invalid JSON: " + message);
    }
}

Result<Json> parseYaml(const fs::path &file, std::string_view text)
{
    YamlReadResult read = readYaml(text);
    for (const Diagnostic &diagnostic : read.diagnostics) {
        if (diagnostic.severity == Severity::Error)
            return invalidFile(file, diagnostic.position, diagnostic.message);
    }
    if (!read.document)
        return invalidFile(file, {}, "invalid YAML");
    return std::move(read.document->root);
}

Result<Json> readFactsFile(const fs::path &file)
{
    auto text = readTextFile(file, maxFactsFileBytes);
    if (!text)
        return text.error();
    const bool json = file.extension() == ".json";
    if (holdsNothing(*text, json))
        return Json::object();
    Result<Json> parsed = json ? parseJson(file, *text) : parseYaml(file, *text);
    if (parsed && !parsed->is_object())
        return invalidFile(file, {}, "facts must be a map of names to values, not " + describeJsonType(*parsed));
    return parsed;
}

/// Facts merged over the system's, each over the previous, in order.
using FactLayers = std::vector<Json>;

/// Adds the file as a layer; a file that does not exist adds nothing.
std::optional<Error> addFactsFile(FactLayers &layers, const fs::path &file)
{
    Result<Json> loaded = readFactsFile(file);
    if (!loaded)
        return hasCode(loaded.error(), ReadErrc::NotFound) ? std::nullopt : std::optional<Error>(loaded.error());
    layers.push_back(std::move(loaded).value());
    return std::nullopt;
}

bool isFactsFileName(const fs::path &file)
{
    const fs::path extension = file.extension();
    return extension == ".json" || extension == ".yaml" || extension == ".yml";
}

std::optional<Error> addFactsDirectory(FactLayers &layers, const fs::path &directory)
{
    std::error_code ec;
    fs::directory_iterator it(directory, ec);
    if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
        return std::nullopt;
    std::vector<fs::path> files;
    for (const fs::directory_iterator end; !ec && it != end; it.increment(ec)) {
        std::error_code statusError;
        const fs::file_status status = it->symlink_status(statusError);
        if (!statusError && fs::is_regular_file(status) && isFactsFileName(it->path()))
            files.push_back(it->path());
    }
    if (ec)
        return Error {"unreadable", directory.string() + ": cannot list: " + ec.message()};
    std::sort(files.begin(), files.end(),
        [](const fs::path &a, const fs::path &b) { return a.filename().string() < b.filename().string(); });
    for (const fs::path &file : files) {
        if (auto error = addFactsFile(layers, file))
            return error;
    }
    return std::nullopt;
}

/// The layers of the custom directories, --fact and --facts, in the order they are merged.
std::optional<Error> addCustomFacts(FactLayers &layers, const FactSources &sources)
{
    for (const fs::path &directory : sources.customDirectories) {
        for (const char *name : {"facts.json", "facts.yaml"}) {
            if (auto error = addFactsFile(layers, directory / name))
                return error;
        }
        if (auto error = addFactsDirectory(layers, directory / "facts.d"))
            return error;
    }

    Json commandLine = Json::object();
    MemberSetter commandLineMembers(commandLine);
    for (const std::string &argument : sources.commandLineFacts) {
        const std::size_t equals = argument.find('=');
        if (equals == std::string::npos)
            return Error {"invalid_fact", "--fact '" + toValidUtf8(argument) + "': expected KEY=VALUE"};
        if (equals == 0)
            return Error {"invalid_fact", "--fact '" + toValidUtf8(argument) + "': the key before '=' is empty"};
        commandLineMembers[toValidUtf8(argument.substr(0, equals))] = toValidUtf8(argument.substr(equals + 1));
    }
    layers.push_back(std::move(commandLine));

    if (sources.factsFile) {
        Result<Json> loaded = readFactsFile(*sources.factsFile);
        if (!loaded)
            return loaded.error();
        layers.push_back(std::move(loaded).value());
    }
    return std::nullopt;
}

} // namespace

std::vector<std::filesystem::path> defaultCustomFactDirectories()
{
    std::vector<fs::path> directories {"/etc/choria/ccm"};
    const char *xdg = std::getenv("XDG_CONFIG_HOME");
    const char *home = std::getenv("HOME");
    if (xdg && xdg[0] == '/')
        directories.push_back(fs::path(xdg) / "choria" / "ccm");
    else if (home && home[0] != '\0')
        directories.push_back(fs::path(home) / ".config" / "choria" / "ccm");
    return directories;
}

Result<Json> gatherFacts(const FactSources &sources)
{
    Result<LazyFacts> facts = prepareFacts(sources);
    if (!facts)
        return facts.error();
    return facts->get();
}

Result<LazyFacts> prepareFacts(const FactSources &sources)
{
    try {
        FactLayers layers;
        if (auto error = addCustomFacts(layers, sources))
            return *error;
        auto merged = [layers = std::move(layers)](Json facts) {
            for (const Json &layer : layers)
                deepMerge(facts, layer);
            return facts;
        };
        if (!sources.includeSystem)
            return LazyFacts(merged(Json::object()));
        return LazyFacts::deferred([merged = std::move(merged)] { return merged(gatherSystemFacts()); });
    } catch (const std::exception &e) {
        return Error {"facts_failed", std::string("gathering facts failed: ") + e.what()};
    }
}

} // namespace ccm
