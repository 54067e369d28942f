// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "core/model/ensure.h"
#include "core/model/json.h"
#include "engine/resource.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccm::engine {

/// A scaffold resource's properties, resolved and checked.
struct ScaffoldProperties {
    /// The directory that receives the rendered files: the resource's name.
    std::filesystem::path target;
    /// Present or Absent.
    Ensure ensure = Ensure::Present;
    /// The template directory, made absolute against the manifest's directory.
    std::filesystem::path source;
    /// "jet" (the default) or "go".
    std::string engine = "jet";
    /// Both set or both empty; empty keeps the engine's own delimiters.
    std::string leftDelimiter;
    std::string rightDelimiter;
    /// Files whose rendered text is only whitespace are not written.
    bool skipEmpty = false;
    /// Files in the target that the templates do not produce are deleted.
    bool purge = false;
    /// Glob on a rendered file's base name and the command to run on it, in manifest order.
    std::vector<std::pair<std::string, std::string>> post;
    /// The `data` property when it is a non-empty map: the templates see it instead of the
    /// manifest's data.
    std::optional<Json> data;

    /// Reads the resolved properties of resource `name`. Values that came out of templates are
    /// checked again with validation's messages: an absolute clean target, ensure, a source (a URL
    /// is refused: only local directories can be rendered), the engine, both delimiters or neither,
    /// non-empty post patterns and commands.
    static Result<ScaffoldProperties> fromJson(
        const std::string &name, const Json &properties, const std::filesystem::path &workingDirectory);
};

/// What templates see: Facts, Data and Environ as in manifest templates, with files read by
/// template functions relative to `baseDirectory`.
struct TemplateEnvironment {
    const Json &facts;
    const Json &data;
    const Json &environ;
    std::filesystem::path baseDirectory;
    KvGetFunction kvGet; ///< kvGet() in Jet templates; empty: kvGet fails
    RegistrationsFunction registrations; ///< registrations() in templates; empty: it finds nothing
};

/// What a scaffold provider found: the target's files sorted into lists of absolute paths, each
/// sorted.
struct ScaffoldState {
    /// Present when the target directory exists, else Absent.
    Ensure ensure = Ensure::Absent;
    bool targetExists = false;
    /// Files the templates would create or whose content would change.
    std::vector<std::string> changed;
    /// Files in the target the templates do not produce.
    std::vector<std::string> purged;
    /// Files whose content already is what the templates produce.
    std::vector<std::string> stable;
    std::string engine;
};

/// The status as events carry it: {"ensure": ..., "metadata": {"name", "provider",
/// "target_exists", "changed", "purged", "stable", "engine"}}; the lists are always arrays.
Json scaffoldStateToJson(const ScaffoldProperties &properties, const ScaffoldState &state, std::string_view provider);

/// Whether state is what properties ask for. Absent: the target is missing or no managed (changed
/// or stable) file is left; purged files do not count. Present: the target exists, nothing is
/// changed, and nothing is purged when purge is set.
bool scaffoldInDesiredState(const ScaffoldProperties &properties, const ScaffoldState &state);

/// The part of the scaffold type that renders templates and touches the target.
class ScaffoldProvider : public Provider {
public:
    /// Renders the templates without touching the target and compares the result with it. For
    /// ensure absent the changed and stable lists keep only files that exist; a missing target then
    /// gives empty lists without rendering. Errors name the template, the file or the command.
    [[nodiscard]] virtual Result<ScaffoldState> status(
        const TemplateEnvironment &environment, const ScaffoldProperties &properties)
        = 0;

    /// Renders the templates and writes every file whose content differs into the target, creating
    /// it as needed; deletes the purged files when purge is set. Nothing in the target is touched
    /// unless every template rendered and every post command succeeded. Returns what was done.
    [[nodiscard]] virtual Result<ScaffoldState> scaffold(
        const TemplateEnvironment &environment, const ScaffoldProperties &properties)
        = 0;

    /// Deletes the changed and stable files of state (never the purged ones), then the directories
    /// inside the target that became empty, then the target itself when it is empty.
    [[nodiscard]] virtual Result<void> remove(const ScaffoldProperties &properties, const ScaffoldState &state) = 0;
};

/// Renders a directory of Jet or Go templates into a target directory. The decision: a state that
/// scaffoldInDesiredState() accepts is stable; otherwise noop reports "Would have changed N
/// scaffold files" (present: changed plus purged when purge is set) or "Would have removed N
/// scaffold files" (absent: changed, stable, plus purged when purge is set), and a real run
/// scaffolds or removes and checks the result again.
class ScaffoldType : public ResourceType {
public:
    [[nodiscard]] std::string_view name() const override { return "scaffold"; }

    [[nodiscard]] Result<void> apply(const std::string &name, const Json &properties, Provider &provider,
        ApplyContext &context, TransactionEvent &event) const override;

    /// With a source: the templates rendered and compared with the target (nothing is written),
    /// the files that would change or be purged as differences. Without a source there is nothing
    /// to compare the target with, and the state says so.
    [[nodiscard]] Result<ResourceState> currentState(const std::string &name, const Json &properties,
        Provider &provider, const StatusContext &context) const override;
};

} // namespace ccm::engine
