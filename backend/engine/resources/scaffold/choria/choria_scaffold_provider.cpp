// SPDX-License-Identifier: Apache-2.0
#include "engine/resources/scaffold/choria/choria_scaffold_provider.h"

#include "base/file_reading.h"
#include "base/sha256.h"
#include "base/shell_words.h"
#include "base/temp_dir.h"
#include "base/text.h"
#include "core/template/go_template.h"
#include "core/template/jet_template.h"
#include "core/template/template_scope.h"
#include "engine/resources/registration.h"
#include "engine/util/atomic_file.h"
#include "engine/util/user_identity.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fnmatch.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ccm::engine {

namespace fs = std::filesystem;

namespace {

// Deeper trees than this are far more likely a mistake (or a loop through a mount) than templates.
constexpr int kMaxDepth = 64;
// Post command output quoted in an error; the rest is noise.
constexpr std::size_t kOutputShown = 2000;

Error ioError(const std::string &what, const fs::path &path, const std::error_code &error)
{
    return Error {"io", what + " " + path.string() + ": " + error.message()};
}

/// Whether path is strictly below directory, judged on the clean absolute paths.
bool isBelow(const fs::path &path, const fs::path &directory)
{
    const std::string prefix = directory.string() + "/";
    return path.string().starts_with(prefix) && path.string().size() > prefix.size();
}

/// While it lives, the calling thread makes its file accesses as the runner's user, when the runner
/// imposes one (a preview for somebody else). That user's post commands may change the staging tree
/// under the render, so everything the render does in it (creating it, writing the rendered files,
/// reading them back, removing it) and the templates it reads are limited to what that user could
/// do itself: a symbolic link planted in the tree leads nowhere that user could not go.
class RunnerFileAccess {
public:
    explicit RunnerFileAccess(const std::optional<Credentials> &identity)
    {
        if (identity && ::geteuid() == 0)
            m_access.emplace(
                UserIdentity {identity->uid, identity->gid, identity->groups, std::to_string(identity->uid)});
    }

    /// An Error when the identity should have been taken and could not be.
    [[nodiscard]] Result<void> taken() const
    {
        if (m_access && !m_access->active())
            return Error {"run_as_failed", "cannot take on the file system identity of the preview user to render"};
        return {};
    }

private:
    std::optional<ThreadFileIdentity> m_access;
};

/// A private directory for one render, removed with everything in it when the render is done. With
/// an owner it is made and removed as that user (see RunnerFileAccess), whose commands run in it.
class RenderDirectory {
public:
    static Result<RenderDirectory> create(const std::optional<Credentials> &owner)
    {
        const fs::path base = TempDir::systemDirectory();
        const RunnerFileAccess access(owner);
        if (auto taken = access.taken(); !taken)
            return taken.error();
        // The backend's own TMPDIR may be closed to the owner; /tmp is open to every user.
        std::vector<fs::path> bases {base};
        if (owner && base != "/tmp")
            bases.emplace_back("/tmp");
        std::optional<Error> failure;
        for (const fs::path &candidate : bases) {
            auto made = TempDir::create("ccm-scaffold", candidate);
            if (made)
                return RenderDirectory(std::move(made).value(), owner);
            if (!failure)
                failure = made.error();
        }
        return *failure;
    }

    RenderDirectory(RenderDirectory &&other) noexcept = default;
    RenderDirectory(const RenderDirectory &) = delete;
    RenderDirectory &operator=(const RenderDirectory &) = delete;
    RenderDirectory &operator=(RenderDirectory &&) = delete;

    ~RenderDirectory()
    {
        // Removed as the owner it was made as.
        if (m_directory.empty())
            return;
        const RunnerFileAccess access(m_owner);
        (void)m_directory.remove();
    }

    [[nodiscard]] const fs::path &path() const { return m_directory.path(); }

private:
    RenderDirectory(TempDir directory, std::optional<Credentials> owner)
        : m_directory(std::move(directory))
        , m_owner(std::move(owner))
    {
    }

    TempDir m_directory;
    std::optional<Credentials> m_owner;
};

/// The entries of a directory sorted by name, so that renders and lists do not depend on the
/// order the file system returns them in.
Result<std::vector<fs::directory_entry>> sortedEntries(const fs::path &directory)
{
    std::error_code error;
    fs::directory_iterator it(directory, error);
    if (error)
        return ioError("cannot list", directory, error);
    std::vector<fs::directory_entry> entries;
    for (; it != fs::directory_iterator(); it.increment(error)) {
        if (error)
            return ioError("cannot list", directory, error);
        entries.push_back(*it);
    }
    if (error)
        return ioError("cannot list", directory, error);
    std::sort(entries.begin(), entries.end(),
        [](const fs::directory_entry &a, const fs::directory_entry &b) { return a.path() < b.path(); });
    return entries;
}

std::string shownOutput(std::string output)
{
    const std::size_t end = output.find_last_not_of(" \t\r\n");
    output.erase(end == std::string::npos ? 0 : end + 1);
    if (output.size() > kOutputShown)
        output = output.substr(0, kOutputShown) + "...";
    return output;
}

/// One render of a template tree into a staging directory, post commands included, and its
/// comparison with the target.
class Render {
public:
    Render(const TemplateEnvironment &environment, const ScaffoldProperties &properties, CommandRunner &runner,
        TemporarySweep &temporaries, const fs::path &staging)
        : m_properties(properties)
        , m_runner(runner)
        , m_temporaries(temporaries)
        , m_staging(staging)
        , m_scope(environment.facts, environment.data, environment.environ, environment.baseDirectory,
              environment.kvGet, environment.registrations)
    {
        m_dot["Data"] = environment.data;
        m_dot["Facts"] = environment.facts;
        m_dot["Environ"] = environment.environ;
    }

    /// Renders every template below the source; the relative paths of the files produced are
    /// in rendered(), sorted.
    Result<void> run()
    {
        const RunnerFileAccess access(m_runner.identity());
        if (auto taken = access.taken(); !taken)
            return taken;
        const fs::path &source = m_properties.source;
        std::error_code error;
        const fs::file_status status = fs::status(source, error);
        if (status.type() == fs::file_type::not_found)
            return Error {"source_missing", "source directory " + source.string() + " does not exist"};
        if (error)
            return ioError("cannot read the source directory", source, error);
        if (status.type() != fs::file_type::directory)
            return Error {"source_not_directory", "source " + source.string() + " is not a directory"};
        if (auto walked = walk(source, fs::path(), 0); !walked)
            return walked;
        std::sort(m_rendered.begin(), m_rendered.end());
        return {};
    }

    [[nodiscard]] const std::vector<std::string> &rendered() const { return m_rendered; }

private:
    Result<void> walk(const fs::path &directory, const fs::path &relative, int depth)
    {
        if (depth > kMaxDepth)
            return Error {"source_too_deep",
                "source directory " + directory.string() + " is nested deeper than " + std::to_string(kMaxDepth)
                    + " levels"};
        auto entries = sortedEntries(directory);
        if (!entries)
            return entries.error();
        for (const fs::directory_entry &entry : entries.value()) {
            std::error_code error;
            const fs::file_type type = entry.symlink_status(error).type();
            if (error)
                return ioError("cannot inspect", entry.path(), error);
            const fs::path name = entry.path().filename();
            if (type == fs::file_type::directory) {
                // Partials are included by other templates, not rendered on their own; a target
                // inside the source holds output, which must not become a template of the next run.
                if (name == "_partials" || entry.path() == m_properties.target)
                    continue;
                if (auto walked = walk(entry.path(), relative / name, depth + 1); !walked)
                    return walked;
            } else if (type == fs::file_type::regular) {
                if (auto done = renderFile(entry.path(), relative / name); !done)
                    return done;
            } else {
                return Error {"invalid_source",
                    "invalid file in source: " + entry.path().string()
                        + " is not a regular file or directory (symbolic links, devices and sockets cannot be "
                          "templates)"};
            }
        }
        return {};
    }

    Result<std::string> renderText(const fs::path &templatePath, const std::string &text) const
    {
        const std::string &left = m_properties.leftDelimiter;
        const std::string &right = m_properties.rightDelimiter;
        if (m_properties.engine == "go") {
            GoTemplateOptions options;
            if (!left.empty()) {
                options.leftDelimiter = left;
                options.rightDelimiter = right;
            }
            options.fileName = templatePath.string();
            options.scopeFunctions = {"kvGet"};
            auto parsed = GoTemplate::parse(text, options);
            if (!parsed)
                return parsed.error();
            return parsed->execute(m_dot, &m_scope);
        }
        JetOptions options;
        if (!left.empty()) {
            options.leftDelimiter = left;
            options.rightDelimiter = right;
        }
        options.fileName = templatePath.string();
        auto parsed = JetTemplate::parse(text, options);
        if (!parsed)
            return parsed.error();
        return parsed->render(m_scope);
    }

    Result<void> renderFile(const fs::path &templatePath, const fs::path &relative)
    {
        auto text = readTextFile(templatePath, kMaxTemplateFileBytes);
        if (!text)
            return text.error().withContext("cannot read template");
        auto output = renderText(templatePath, text.value());
        if (!output)
            return output.error().withContext("cannot render template");
        if (m_properties.skipEmpty && output->find_first_not_of(" \t\r\n\v\f") == std::string::npos)
            return {};

        const fs::path staged = m_staging / relative;
        std::error_code error;
        fs::create_directories(staged.parent_path(), error);
        if (error)
            return ioError("cannot create staging directory", staged.parent_path(), error);
        AtomicWriteOptions options;
        options.mode = 0644;
        options.fsync = false;
        options.sweep = &m_temporaries;
        if (auto written = writeFileAtomically(staged, output.value(), options); !written)
            return written.error().withContext("cannot stage " + relative.string());
        if (auto processed = postProcess(staged, relative); !processed)
            return processed;
        m_rendered.push_back(relative.string());
        return {};
    }

    Result<void> postProcess(const fs::path &staged, const fs::path &relative)
    {
        const std::string base = relative.filename().string();
        const std::string target = (m_properties.target / relative).string();
        for (const auto &[pattern, command] : m_properties.post) {
            if (::fnmatch(pattern.c_str(), base.c_str(), 0) != 0)
                continue;
            auto words = splitShellWords(command);
            if (!words)
                return Error {
                    "invalid_command", "invalid post command for '" + pattern + "': " + words.error().message};
            if (words->empty())
                return Error {"invalid_command", "post command for '" + pattern + "' must not be empty"};
            Command run;
            run.argv.push_back(words->front());
            bool placeholder = false;
            for (std::size_t i = 1; i < words->size(); ++i) {
                std::string word = (*words)[i];
                for (std::size_t at = word.find("{}"); at != std::string::npos; at = word.find("{}", at)) {
                    word.replace(at, 2, staged.string());
                    at += staged.string().size();
                    placeholder = true;
                }
                run.argv.push_back(std::move(word));
            }
            if (!placeholder)
                run.argv.push_back(staged.string());
            run.mergeStderr = true;
            const std::string what = "post command '" + command + "' for " + target;
            auto outcome = m_runner.run(run);
            if (!outcome)
                return Error {"post_failed", what + " could not run: " + outcome.error().message};
            std::string reason;
            if (outcome->timedOut)
                reason = "timed out";
            else if (outcome->signal != 0)
                reason = "was killed by signal " + std::to_string(outcome->signal);
            else if (outcome->exitCode != 0)
                reason = "exited with code " + std::to_string(outcome->exitCode);
            if (!reason.empty()) {
                const std::string output = shownOutput(outcome->stdoutText);
                return Error {"post_failed", what + " " + reason + (output.empty() ? "" : ": " + output)};
            }
        }
        return {};
    }

    const ScaffoldProperties &m_properties;
    CommandRunner &m_runner;
    TemporarySweep &m_temporaries;
    fs::path m_staging;
    TemplateScope m_scope;
    Json m_dot = Json::object();
    std::vector<std::string> m_rendered;
};

/// Every file (anything but a directory) below the target, relative to it, sorted; `skip` are
/// directories not to look into (the staging directory and the source when they lie inside).
Result<void> listTarget(const fs::path &directory, const fs::path &relative, const std::vector<fs::path> &skip,
    int depth, std::vector<std::string> &files)
{
    if (depth > kMaxDepth)
        return Error {"target_too_deep",
            "target directory " + directory.string() + " is nested deeper than " + std::to_string(kMaxDepth)
                + " levels"};
    auto entries = sortedEntries(directory);
    if (!entries)
        return entries.error();
    for (const fs::directory_entry &entry : entries.value()) {
        std::error_code error;
        const fs::file_type type = entry.symlink_status(error).type();
        if (error)
            return ioError("cannot inspect", entry.path(), error);
        if (type != fs::file_type::directory) {
            files.push_back((relative / entry.path().filename()).string());
            continue;
        }
        if (std::find(skip.begin(), skip.end(), entry.path()) != skip.end())
            continue;
        if (auto listed = listTarget(entry.path(), relative / entry.path().filename(), skip, depth + 1, files); !listed)
            return listed;
    }
    return {};
}

/// The target's type: directory, not_found, or anything else (an error for a scaffold).
Result<bool> targetExists(const fs::path &target)
{
    std::error_code error;
    const fs::file_status status = fs::status(target, error);
    if (status.type() == fs::file_type::not_found)
        return false;
    if (error)
        return ioError("cannot inspect the target", target, error);
    if (status.type() != fs::file_type::directory)
        return Error {"target_not_directory", "target " + target.string() + " exists and is not a directory"};
    return true;
}

/// A rendered tree compared with the target: relative paths of changed, stable and purged files.
struct Comparison {
    std::vector<std::string> changed;
    std::vector<std::string> stable;
    std::vector<std::string> purged;
};

/// The SHA-256 of a rendered file, read as the staging tree's owner (see RunnerFileAccess).
Result<std::string> stagedDigest(const fs::path &staged, const std::optional<Credentials> &owner)
{
    const RunnerFileAccess access(owner);
    if (auto taken = access.taken(); !taken)
        return taken.error();
    return sha256File(staged);
}

/// The target is read with the run's own rights (only digests are compared, as the file type
/// does), the staging tree with its owner's.
Result<Comparison> compare(const ScaffoldProperties &properties, const Render &render, const fs::path &staging,
    bool exists, const std::optional<Credentials> &owner)
{
    Comparison comparison;
    for (const std::string &relative : render.rendered()) {
        const fs::path target = properties.target / relative;
        std::error_code error;
        const fs::file_status status = fs::status(target, error);
        if (status.type() == fs::file_type::not_found) {
            comparison.changed.push_back(relative);
            continue;
        }
        if (error)
            return ioError("cannot inspect", target, error);
        if (status.type() == fs::file_type::directory)
            return Error {"target_conflict",
                "cannot render " + relative + ": " + target.string() + " is a directory in the target"};
        if (status.type() != fs::file_type::regular) {
            comparison.changed.push_back(relative);
            continue;
        }
        auto current = sha256File(target);
        if (!current)
            return current.error().withContext("cannot read " + target.string());
        auto wanted = stagedDigest(staging / relative, owner);
        if (!wanted)
            return wanted.error().withContext("cannot read the rendered " + relative);
        (current.value() == wanted.value() ? comparison.stable : comparison.changed).push_back(relative);
    }
    if (exists) {
        std::vector<std::string> present;
        if (auto listed = listTarget(properties.target, fs::path(), {staging, properties.source}, 0, present); !listed)
            return listed.error();
        for (const std::string &relative : present) {
            if (!std::binary_search(render.rendered().begin(), render.rendered().end(), relative))
                comparison.purged.push_back(relative);
        }
    }
    return comparison;
}

std::vector<std::string> absolute(const fs::path &target, const std::vector<std::string> &relatives)
{
    std::vector<std::string> paths;
    paths.reserve(relatives.size());
    for (const std::string &relative : relatives)
        paths.push_back((target / relative).string());
    return paths;
}

/// Copies a staged file over its place in the target, creating the directories on the way.
Result<void> install(const fs::path &staged, const fs::path &target, TemporarySweep &temporaries)
{
    std::error_code error;
    fs::create_directories(target.parent_path(), error);
    if (error)
        return ioError("cannot create directory", target.parent_path(), error);
    struct stat info { };
    if (::stat(staged.c_str(), &info) != 0)
        return ioError("cannot inspect the rendered file for", target, std::error_code(errno, std::generic_category()));
    AtomicWriteOptions options;
    options.mode = info.st_mode & 07777;
    options.sweep = &temporaries;
    if (auto copied = copyFileAtomically(target, staged, options); !copied)
        return copied.error().withContext("cannot write " + target.string());
    return {};
}

} // namespace

ChoriaScaffoldProvider::ChoriaScaffoldProvider(CommandRunner &runner)
    : m_runner(runner)
{
}

Result<ScaffoldState> ChoriaScaffoldProvider::status(
    const TemplateEnvironment &environment, const ScaffoldProperties &properties)
{
    ScaffoldState state;
    state.engine = properties.engine;
    auto exists = targetExists(properties.target);
    if (!exists)
        return exists.error();
    state.targetExists = exists.value();
    state.ensure = state.targetExists ? Ensure::Present : Ensure::Absent;
    // Without a target there are no managed files to remove, so there is nothing to render for.
    if (!state.targetExists && properties.ensure == Ensure::Absent)
        return state;

    auto staging = RenderDirectory::create(m_runner.identity());
    if (!staging)
        return staging.error();
    Render render(environment, properties, m_runner, m_temporaries, staging->path());
    if (auto rendered = render.run(); !rendered)
        return rendered.error();
    auto comparison = compare(properties, render, staging->path(), state.targetExists, m_runner.identity());
    if (!comparison)
        return comparison.error();

    if (properties.ensure == Ensure::Absent) {
        // The render says what the scaffold would write; what matters for removal is what is there.
        const auto onDisk = [&](const std::string &relative) {
            std::error_code error;
            return fs::symlink_status(properties.target / relative, error).type() != fs::file_type::not_found;
        };
        Comparison &lists = comparison.value();
        for (auto *list : {&lists.changed, &lists.stable})
            std::erase_if(*list, [&](const std::string &relative) { return !onDisk(relative); });
    }
    state.changed = absolute(properties.target, comparison->changed);
    state.stable = absolute(properties.target, comparison->stable);
    state.purged = absolute(properties.target, comparison->purged);
    return state;
}

Result<ScaffoldState> ChoriaScaffoldProvider::scaffold(
    const TemplateEnvironment &environment, const ScaffoldProperties &properties)
{
    ScaffoldState state;
    state.engine = properties.engine;
    auto exists = targetExists(properties.target);
    if (!exists)
        return exists.error();

    auto staging = RenderDirectory::create(m_runner.identity());
    if (!staging)
        return staging.error();
    Render render(environment, properties, m_runner, m_temporaries, staging->path());
    if (auto rendered = render.run(); !rendered)
        return rendered.error();
    auto comparison = compare(properties, render, staging->path(), exists.value(), m_runner.identity());
    if (!comparison)
        return comparison.error();

    std::error_code error;
    fs::create_directories(properties.target, error);
    if (error)
        return ioError("cannot create the target directory", properties.target, error);
    for (const std::string &relative : comparison->changed) {
        if (auto installed = install(staging->path() / relative, properties.target / relative, m_temporaries);
            !installed)
            return installed.error();
    }
    if (properties.purge) {
        for (const std::string &relative : comparison->purged) {
            const fs::path path = properties.target / relative;
            if (fs::remove(path, error); error && error != std::errc::no_such_file_or_directory)
                return ioError("cannot purge", path, error);
        }
    }
    state.targetExists = true;
    state.ensure = Ensure::Present;
    state.changed = absolute(properties.target, comparison->changed);
    state.stable = absolute(properties.target, comparison->stable);
    state.purged = absolute(properties.target, comparison->purged);
    return state;
}

Result<void> ChoriaScaffoldProvider::remove(const ScaffoldProperties &properties, const ScaffoldState &state)
{
    const fs::path &target = properties.target;
    std::vector<std::string> failures;
    std::set<fs::path> directories;
    for (const auto *list : {&state.changed, &state.stable}) {
        for (const std::string &file : *list) {
            const fs::path path(file);
            if (!path.is_absolute() || !isBelow(path.lexically_normal(), target))
                return Error {"invalid_path", "cannot remove " + file + ": it is not a file below " + target.string()};
            std::error_code error;
            if (fs::remove(path, error); error && error != std::errc::no_such_file_or_directory) {
                failures.push_back(path.string() + ": " + error.message());
                continue;
            }
            directories.insert(path.parent_path());
        }
    }

    // Deepest first, again and again: removing a directory may leave its parent empty.
    for (bool removed = true; removed;) {
        removed = false;
        for (auto it = directories.rbegin(); it != directories.rend(); ++it) {
            const fs::path directory = *it;
            if (!isBelow(directory, target))
                continue;
            std::error_code error;
            if (!fs::is_empty(directory, error) || error)
                continue;
            directories.erase(directory);
            removed = true;
            if (fs::remove(directory, error); error)
                failures.push_back(directory.string() + ": " + error.message());
            else
                directories.insert(directory.parent_path());
            break;
        }
    }
    // The target goes too when nothing else lives in it; files the scaffold does not own keep it.
    ::rmdir(target.c_str());

    if (!failures.empty())
        return Error {"remove_failed", "cannot remove scaffold files: " + joined(failures, "; ")};
    return {};
}

Result<std::optional<int>> ChoriaScaffoldProviderFactory::manageable(const Json &, const LazyFacts &) const
{
    return std::optional<int>(1);
}

std::unique_ptr<Provider> ChoriaScaffoldProviderFactory::create(CommandRunner &runner) const
{
    return std::make_unique<ChoriaScaffoldProvider>(runner);
}

void registerChoriaScaffoldProvider(Catalog &catalog)
{
    catalog.addProvider(std::make_unique<ChoriaScaffoldProviderFactory>());
}

} // namespace ccm::engine
