// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/scaffold/scaffold_type.h"

#include "core/model/validator.h"
#include "engine/resources/registration.h"
#include "engine/resources/resource_support.h"

#include <algorithm>
#include <cctype>

namespace ccm::engine {

namespace {

Result<bool> boolProperty(const Json &properties, const char *key)
{
    if (!isSet(properties, key))
        return false;
    const Json &value = properties[key];
    if (!value.is_boolean())
        return invalidProperty(std::string(key) + " must be true or false, not " + describeJsonType(value));
    return value.get<bool>();
}

/// A source such as "https://host/x" or "s3://bucket": a scheme of letters, digits, + - . and "://".
bool isUrl(std::string_view source)
{
    const std::size_t colon = source.find("://");
    if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(source[0])))
        return false;
    return std::all_of(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(colon),
        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'; });
}

Result<std::vector<std::pair<std::string, std::string>>> readPost(const Json &properties)
{
    std::vector<std::pair<std::string, std::string>> rules;
    if (!isSet(properties, "post"))
        return rules;
    const Json &post = properties["post"];
    if (!post.is_array())
        return invalidProperty("post must be a list of single-entry maps, not " + describeJsonType(post));
    for (std::size_t i = 0; i < post.size(); ++i) {
        const std::string where = "post entry " + std::to_string(i + 1);
        if (!post[i].is_object() || post[i].size() != 1)
            return invalidProperty(where + " must be a map with exactly one pattern and its command");
        const auto entry = post[i].begin();
        if (entry.key().empty())
            return invalidProperty("post entry needs a non-empty file pattern");
        if (!entry.value().is_string())
            return invalidProperty(where + ": the command for '" + entry.key() + "' must be a string, not "
                + describeJsonType(entry.value()));
        const std::string command = entry.value().get<std::string>();
        if (command.find_first_not_of(" \t") == std::string::npos)
            return invalidProperty("post command for '" + entry.key() + "' must not be empty");
        rules.emplace_back(entry.key(), command);
    }
    return rules;
}

std::size_t affectedCount(const ScaffoldProperties &properties, const ScaffoldState &state)
{
    std::size_t count = state.changed.size() + (properties.purge ? state.purged.size() : 0);
    if (properties.ensure == Ensure::Absent)
        count += state.stable.size();
    return count;
}

/// The first few paths of a list, for a message that must stay readable.
std::string sample(const std::vector<std::string> &paths)
{
    constexpr std::size_t kShown = 5;
    std::string text;
    for (std::size_t i = 0; i < paths.size() && i < kShown; ++i)
        text += (i == 0 ? "" : ", ") + paths[i];
    if (paths.size() > kShown)
        text += " and " + std::to_string(paths.size() - kShown) + " more";
    return text;
}

std::string remainingDifference(const ScaffoldProperties &properties, const ScaffoldState &state)
{
    if (properties.ensure == Ensure::Absent) {
        std::vector<std::string> managed = state.changed;
        managed.insert(managed.end(), state.stable.begin(), state.stable.end());
        return std::to_string(managed.size()) + " managed files remain: " + sample(managed);
    }
    if (!state.targetExists)
        return "target directory " + properties.target.string() + " does not exist";
    if (!state.changed.empty())
        return std::to_string(state.changed.size()) + " files still differ: " + sample(state.changed);
    return std::to_string(state.purged.size()) + " files still to purge: " + sample(state.purged);
}

Result<void> checkTargetName(const std::string &name)
{
    if (name.empty() || name.front() != '/')
        return invalidProperty("scaffold target name '" + name + "' must be an absolute path starting with /");
    if (!isAbsoluteCleanPath(name))
        return invalidProperty(
            "scaffold target name '" + name + "' must be a clean path without '.', '..', '//' or a trailing /");
    if (name == "/")
        return invalidProperty("scaffold target name '/' is not allowed: the target must be a directory below /");
    return {};
}

Result<void> readEnsure(const Json &properties, ScaffoldProperties &result)
{
    auto ensure = stringProperty(properties, "ensure");
    if (!ensure)
        return ensure.error();
    if (ensure->empty())
        return invalidProperty("ensure is required (present, absent)");
    const std::optional<Ensure> state = parseEnsure(*ensure);
    if (state != Ensure::Present && state != Ensure::Absent)
        return invalidProperty("ensure '" + *ensure + "' is not one of present, absent");
    result.ensure = *state;
    return {};
}

/// The template directory, made absolute against the manifest's working directory.
Result<void> readSource(
    const Json &properties, const std::filesystem::path &workingDirectory, ScaffoldProperties &result)
{
    auto source = stringProperty(properties, "source");
    if (!source)
        return source.error();
    if (source->empty())
        return invalidProperty("source is required");
    if (isUrl(*source))
        return invalidProperty("source '" + *source + "' is a URL; only a local template directory can be rendered");
    result.source = *source;
    if (result.source.is_relative())
        result.source = workingDirectory / result.source;
    // Absolute, so that messages name the template wherever the backend was started.
    std::error_code ignored;
    if (std::filesystem::path absolute = std::filesystem::absolute(result.source, ignored); !ignored)
        result.source = std::move(absolute);
    result.source = result.source.lexically_normal();
    if (!result.source.has_filename() && result.source.has_relative_path())
        result.source = result.source.parent_path();
    return {};
}

Result<void> readDelimiters(const Json &properties, ScaffoldProperties &result)
{
    for (const auto &[key, into] :
        {std::pair {"left_delimiter", &result.leftDelimiter}, std::pair {"right_delimiter", &result.rightDelimiter}}) {
        auto value = stringProperty(properties, key);
        if (!value)
            return value.error();
        if (isSet(properties, key) && value->empty())
            return invalidProperty(std::string(key) + " must not be empty");
        *into = std::move(value).value();
    }
    if (result.leftDelimiter.empty() != result.rightDelimiter.empty())
        return invalidProperty("left_delimiter and right_delimiter are set together");
    return {};
}

} // namespace

Result<ScaffoldProperties> ScaffoldProperties::fromJson(
    const std::string &name, const Json &properties, const std::filesystem::path &workingDirectory)
{
    if (!properties.is_object())
        return invalidProperty("the properties must be a map, not " + describeJsonType(properties));
    ScaffoldProperties result;
    if (auto checked = checkTargetName(name); !checked)
        return checked.error();
    result.target = name;
    if (auto read = readEnsure(properties, result); !read)
        return read.error();
    if (auto read = readSource(properties, workingDirectory, result); !read)
        return read.error();

    auto engine = stringProperty(properties, "engine");
    if (!engine)
        return engine.error();
    if (!engine->empty())
        result.engine = *engine;
    if (result.engine != "jet" && result.engine != "go")
        return invalidProperty("engine '" + result.engine + "' is not one of go, jet");

    if (auto read = readDelimiters(properties, result); !read)
        return read.error();

    for (const auto &[key, into] : {std::pair {"skip_empty", &result.skipEmpty}, std::pair {"purge", &result.purge}}) {
        auto value = boolProperty(properties, key);
        if (!value)
            return value.error();
        *into = value.value();
    }

    auto post = readPost(properties);
    if (!post)
        return post.error();
    result.post = std::move(post).value();

    if (isSet(properties, "data")) {
        const Json &data = properties["data"];
        if (!data.is_object())
            return invalidProperty("data must be a map, not " + describeJsonType(data));
        if (!data.empty())
            result.data = data;
    }
    return result;
}

Json scaffoldStateToJson(const ScaffoldProperties &properties, const ScaffoldState &state, std::string_view provider)
{
    Json metadata = Json::object();
    metadata["name"] = properties.target.string();
    metadata["provider"] = std::string(provider);
    metadata["target_exists"] = state.targetExists;
    metadata["changed"] = state.changed;
    metadata["purged"] = state.purged;
    metadata["stable"] = state.stable;
    metadata["engine"] = state.engine.empty() ? properties.engine : state.engine;
    Json status = Json::object();
    status["ensure"] = ensureText(state.ensure);
    status["metadata"] = std::move(metadata);
    return status;
}

bool scaffoldInDesiredState(const ScaffoldProperties &properties, const ScaffoldState &state)
{
    if (properties.ensure == Ensure::Absent)
        return !state.targetExists || (state.changed.empty() && state.stable.empty());
    return state.targetExists && state.changed.empty() && (!properties.purge || state.purged.empty());
}

namespace {

/// Removes or renders the scaffold's files, logging each one touched.
Result<void> changeFiles(ScaffoldProvider &scaffolds, const TemplateEnvironment &environment,
    const ScaffoldProperties &desired, const ScaffoldState &current, ApplyContext &context)
{
    if (desired.ensure == Ensure::Absent) {
        if (auto removed = scaffolds.remove(desired, current); !removed)
            return removed.error();
        for (const auto *list : {&current.changed, &current.stable})
            for (const std::string &file : *list)
                context.log.log(LogLevel::Debug, "removed " + file);
    } else {
        auto done = scaffolds.scaffold(environment, desired);
        if (!done)
            return done.error();
        for (const std::string &file : done->changed)
            context.log.log(LogLevel::Debug, "rendered " + file);
        if (desired.purge)
            for (const std::string &file : done->purged)
                context.log.log(LogLevel::Debug, "purged " + file);
    }
    return {};
}

} // namespace

Result<void> ScaffoldType::apply(const std::string &name, const Json &properties, Provider &provider,
    ApplyContext &context, TransactionEvent &event) const
{
    auto *scaffolds = dynamic_cast<ScaffoldProvider *>(&provider);
    if (!scaffolds)
        return wrongProvider(provider, "a scaffold provider");
    auto desired = ScaffoldProperties::fromJson(name, properties, context.workingDirectory);
    if (!desired)
        return desired.error();

    static const Json empty = Json::object();
    const Json &manifestData = context.data ? *context.data : empty;
    const TemplateEnvironment environment {.facts = context.facts.get(),
        .data = desired->data ? *desired->data : manifestData,
        .environ = context.environ ? *context.environ : empty,
        .baseDirectory = context.workingDirectory,
        .kvGet = context.kvGet,
        .registrations = context.registrations};

    auto current = scaffolds->status(environment, desired.value());
    if (!current)
        return current.error();
    event.status = scaffoldStateToJson(desired.value(), current.value(), scaffolds->name());
    event.finalEnsure = ensureText(current->ensure);
    if (scaffoldInDesiredState(desired.value(), current.value()))
        return {};

    if (context.noop) {
        const std::size_t count = affectedCount(desired.value(), current.value());
        if (count == 0)
            return {};
        event.changed = true;
        event.noopMessage = (desired->ensure == Ensure::Absent ? "Would have removed " : "Would have changed ")
            + std::to_string(count) + " scaffold files";
        context.log.log(LogLevel::Debug, event.noopMessage);
        return {};
    }

    if (auto changed = changeFiles(*scaffolds, environment, desired.value(), current.value(), context); !changed)
        return changed.error();
    event.changed = true;

    auto after = scaffolds->status(environment, desired.value());
    if (!after)
        return after.error();
    event.status = scaffoldStateToJson(desired.value(), after.value(), scaffolds->name());
    event.finalEnsure = ensureText(after->ensure);
    if (!scaffoldInDesiredState(desired.value(), after.value()))
        return desiredStateNotAchieved(remainingDifference(desired.value(), after.value()));
    return {};
}

void registerScaffoldResources(Catalog &catalog)
{
    catalog.addType(std::make_unique<ScaffoldType>());
    registerChoriaScaffoldProvider(catalog);
}

} // namespace ccm::engine
