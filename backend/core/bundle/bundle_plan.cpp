// SPDX-License-Identifier: Apache-2.0
// Collecting what a manifest reaches: the members of its bundle and the findings on the way.
#include "base/file_reading.h"
#include "core/bundle/bundle.h"
#include "core/expr/expression_lexer.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"
#include "core/template/template_scope.h"
#include "core/template/template_string.h"
#include "core/yaml/source_map.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <system_error>

namespace ccm {
namespace fs = std::filesystem;

namespace {

/// Where a reference was found and how to name it in a message.
struct Site {
    std::string file;
    SourcePosition position;
    std::string pointer;
    std::string what; ///< "file#/etc/motd: source", "data.motd", "template templates/motd.templ"
};

/// "file#/etc/motd: content" for a pointer into a manifest document, "data.motd" elsewhere.
std::string describePointer(const Json &document, const std::string &pointer)
{
    const std::vector<std::string> tokens = splitPointer(pointer);
    const auto join = [&](std::size_t from) {
        std::string out;
        for (std::size_t i = from; i < tokens.size(); ++i)
            out += (out.empty() ? "" : ".") + tokens[i];
        return out;
    };
    if (tokens.size() >= 4 && tokens[0] == "ccm" && tokens[1] == "resources") {
        const std::string &type = tokens[3];
        const Json *body = nullptr;
        try {
            body = &document.at("ccm").at("resources").at(std::stoul(tokens[2])).at(type);
        } catch (const std::exception &) {
            return join(0);
        }
        std::string resource;
        std::string property;
        if (body->is_array() && tokens.size() >= 6) {
            resource = tokens[5] == kDefaultsKey ? "the defaults of a " + type + " block" : type + '#' + tokens[5];
            property = join(6);
        } else {
            const Json *name = body->is_object() && body->contains("name") ? &(*body)["name"] : nullptr;
            resource = type + '#' + (name && name->is_string() ? name->get<std::string>() : std::string("?"));
            property = join(4);
        }
        return property.empty() ? resource + ": name" : resource + ": " + property;
    }
    return join(0);
}

class Collector {
public:
    Collector(fs::path root, fs::path shownRoot)
        : m_root(std::move(root))
        , m_shownRoot(std::move(shownRoot))
    {
    }

    void addRootManifest(
        const fs::path &manifest, const std::string &displayName, const std::optional<std::string> &text)
    {
        m_rootManifest = manifest;
        addManifest(manifest, displayName, std::string(kBundleManifestName), {}, text);
    }

    void addInclude(const fs::path &given)
    {
        const std::string shown = given.string();
        const Site site {shown, {}, {}, "--include " + shown};
        std::error_code ec;
        const fs::path full = fs::absolute(given, ec).lexically_normal();
        if (full == m_root || full == m_root / "") {
            addDirectory(m_root, site);
            return;
        }
        const auto rel = inRoot(full, shown, site);
        if (!rel)
            return;
        const fs::file_status status = fs::status(full, ec);
        if (fs::is_directory(status))
            addDirectory(full, site);
        else if (fs::is_regular_file(status))
            addFile(full, *rel, site);
        else
            error(site, shown + ": no such file or directory");
    }

    BundlePlan finish() &&
    {
        BundlePlan plan;
        for (auto &[path, member] : m_members)
            plan.members.push_back(std::move(member));
        plan.findings = std::move(m_findings);
        return plan;
    }

private:
    void addManifest(const fs::path &manifest, const std::string &displayName, const std::string &bundlePath,
        const Site &site, const std::optional<std::string> &text = std::nullopt)
    {
        if (!m_visitedManifests.insert(manifest).second)
            return;
        FileText read;
        if (text)
            read.text = *text;
        else
            read = readManifestFile(manifest.string());
        if (read.problem) {
            if (site.what.empty())
                m_findings.push_back({displayName, *read.problem});
            else
                error(site, "cannot read child manifest " + displayName + ": " + read.problem->message);
            return;
        }
        const LoadedManifest loaded = loadManifest(read.text);
        for (Diagnostic &diagnostic : validateManifest(loaded))
            m_findings.push_back({displayName, std::move(diagnostic)});
        if (!loaded.parsed)
            return;

        std::vector<Diagnostic> normalising;
        BundleMember member;
        member.path = bundlePath;
        member.content = normaliseForUpstream(read.text, &normalising);
        for (Diagnostic &diagnostic : normalising)
            m_findings.push_back({displayName, std::move(diagnostic)});
        if (!claim(bundlePath, site, manifest))
            return;
        m_members[bundlePath] = std::move(member);

        const fs::path base = manifest.parent_path();
        const ManifestFile file {displayName, base, read.text, loaded};
        scanStrings(file, loaded.document, "");
        if (loaded.manifest.ccm && loaded.manifest.ccm->resourcesJetFile) {
            const std::string &jetFile = *loaded.manifest.ccm->resourcesJetFile;
            const Site jetSite {displayName, loaded.sourceMap.valueAt("/ccm/resources_jet_file"),
                "/ccm/resources_jet_file", "resources_jet_file"};
            if (computed(jetSite, jetFile))
                return;
            if (auto full = locateFile(base, jetFile, jetSite))
                scanJetFile(base, *full, "[[", "]]");
        }
        if (!loaded.manifest.ccm || !loaded.manifest.ccm->resources)
            return;
        forEachFlatResource(
            loaded.manifest, &loaded.entryPointers, [&](FlatResource &&resource) { collectResource(file, resource); });
    }

    struct ManifestFile {
        std::string name;
        fs::path base;
        std::string_view text;
        const LoadedManifest &loaded;
    };

    void collectResource(const ManifestFile &file, const FlatResource &resource)
    {
        const auto sourceSite = [&](const char *property) {
            const std::string pointer = resource.propertyPointer(property);
            return Site {
                file.name, file.loaded.sourceMap.valueAt(pointer), pointer, resource.label() + ": " + property};
        };
        const auto stringOf = [&](const char *property) -> std::optional<std::string> {
            if (!resource.properties.contains(property) || !resource.properties[property].is_string())
                return std::nullopt;
            return resource.properties[property].get<std::string>();
        };
        if (resource.type == "file") {
            if (auto source = stringOf("source"); source && !source->empty()) {
                const Site site = sourceSite("source");
                if (!computed(site, *source))
                    locateFile(file.base, *source, site);
            }
        } else if (resource.type == "scaffold") {
            if (auto source = stringOf("source");
                source && !source->empty() && source->find("://") == std::string::npos) {
                const Site site = sourceSite("source");
                if (computed(site, *source))
                    return;
                if (auto full = locate(file.base, *source, site)) {
                    std::error_code ec;
                    if (fs::is_directory(*full, ec))
                        addDirectory(*full, site);
                    else
                        error(site,
                            site.what + " '" + *source + "' is not a directory (looked for " + full->string() + ")");
                }
            }
        } else if (resource.type == "apply" && !resource.name.empty()) {
            const ResourceBlock &block = (*file.loaded.manifest.ccm->resources)[resource.block];
            const std::string namePointer
                = block.form == BodyForm::Single ? appendPointer(resource.pointer, "name") : resource.pointer;
            const SourcePosition position = block.form == BodyForm::Single ? file.loaded.sourceMap.valueAt(namePointer)
                                                                           : file.loaded.sourceMap.keyAt(namePointer);
            const Site site {file.name, position, namePointer, resource.label() + ": child manifest"};
            if (computed(site, resource.name))
                return;
            const auto full = locate(file.base, resource.name, site);
            if (!full)
                return;
            std::error_code ec;
            if (!fs::is_regular_file(*full, ec)) {
                error(site, site.what + " '" + resource.name + "' is not a file (looked for " + full->string() + ")");
                return;
            }
            addManifest(*full, shown(*full), full->lexically_relative(m_root).generic_string(), site);
        }
    }

    /// Reports a reference computed at run time; true when it is one.
    bool computed(const Site &site, const std::string &reference)
    {
        if (!hasTemplateExpressions(reference))
            return false;
        warning(site,
            site.what + " '" + reference
                + "' is computed at run time, so what it names is not collected; add it with --include");
        return true;
    }

    /// The absolute path `reference` names from `base` when it lies below the bundle's root.
    std::optional<fs::path> locate(const fs::path &base, const std::string &reference, const Site &site)
    {
        const fs::path given(reference);
        if (given.is_absolute()) {
            warning(site,
                site.what + " '" + reference
                    + "' is an absolute path: it is read on the host at run time and not bundled; make it "
                      "relative to the manifest to bundle it");
            return std::nullopt;
        }
        const fs::path full = (base / given).lexically_normal();
        if (!inRoot(full, reference, site))
            return std::nullopt;
        return full;
    }

    std::optional<std::string> inRoot(const fs::path &full, const std::string &reference, const Site &site)
    {
        const fs::path rel = full.lexically_relative(m_root);
        if (rel.empty() || rel == "." || *rel.begin() == "..") {
            error(site,
                site.what + " '" + reference + "' leaves the manifest's directory " + m_root.string()
                    + ", so a bundle cannot hold it; move it below that directory");
            return std::nullopt;
        }
        return rel.generic_string();
    }

    /// Locates a file the manifest reads and adds it.
    std::optional<fs::path> locateFile(const fs::path &base, const std::string &reference, const Site &site)
    {
        auto full = locate(base, reference, site);
        if (!full)
            return std::nullopt;
        std::error_code ec;
        const fs::file_status status = fs::status(*full, ec);
        if (!fs::is_regular_file(status)) {
            error(site,
                site.what + " '" + reference + "': " + (fs::exists(status) ? "not a regular file" : "no such file")
                    + " (looked for " + full->string() + ")");
            return std::nullopt;
        }
        addFile(*full, full->lexically_relative(m_root).generic_string(), site);
        return full;
    }

    void addDirectory(const fs::path &directory, const Site &site)
    {
        std::error_code ec;
        fs::recursive_directory_iterator it(directory, ec);
        if (ec) {
            error(site, "cannot read directory " + directory.string() + ": " + ec.message());
            return;
        }
        for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) {
                error(site, "cannot read directory " + directory.string() + ": " + ec.message());
                return;
            }
            const fs::path path = it->path().lexically_normal();
            std::error_code statError;
            if (it->is_directory(statError))
                continue;
            if (!it->is_regular_file(statError)) {
                warning(site,
                    path.string()
                        + " is not a regular file; a bundle holds only files and directories, "
                          "so it is left out");
                continue;
            }
            addFile(path, path.lexically_relative(m_root).generic_string(), site);
        }
    }

    void addFile(const fs::path &full, const std::string &rel, const Site &site)
    {
        if (!claim(rel, site, full))
            return;
        std::error_code ec;
        const fs::perms perms = fs::status(full, ec).permissions();
        const bool executable
            = (perms & (fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec)) != fs::perms::none;
        m_members.emplace(rel, BundleMember {rel, full, std::nullopt, executable});
    }

    /// Whether `rel` may hold `full`: not a name the bundle reserves, not a path SHA256SUMS cannot
    /// list, and not another file already.
    bool claim(const std::string &rel, const Site &site, const fs::path &full)
    {
        if (rel.find_first_of("\n\\") != std::string::npos) {
            error(site, "'" + rel + "': a bundle cannot hold a file whose name has a newline or a backslash");
            return false;
        }
        if (rel == kBundleChecksumsName) {
            error(site, "'" + rel + "' is the name a bundle keeps for its checksums; rename the file");
            return false;
        }
        if (rel == kBundleManifestName && full != m_rootManifest) {
            error(site, "'" + rel + "' is where a bundle keeps the manifest; rename the file");
            return false;
        }
        const auto existing = m_members.find(rel);
        return existing == m_members.end();
    }

    // Templates: calls of template(), readFile(), file() and jet() in every string.

    void scanStrings(const ManifestFile &file, const Json &value, const std::string &pointer)
    {
        if (value.is_string()) {
            const std::string &text = value.get_ref<const std::string &>();
            if (!hasTemplateExpressions(text))
                return;
            const SourcePosition start = file.loaded.sourceMap.valueAt(pointer);
            const std::string what = describePointer(file.loaded.document, pointer);
            scanTemplateText(file.base, text, [&](std::size_t offset) {
                return Site {file.name, positionInScalar(file.text, start, int(offset) + 1), pointer, what};
            });
        } else if (value.is_object()) {
            for (const auto &[key, member] : value.items()) {
                const std::string memberPointer = appendPointer(pointer, key);
                if (hasTemplateExpressions(key)) {
                    const SourcePosition start = file.loaded.sourceMap.keyAt(memberPointer);
                    const std::string what = describePointer(file.loaded.document, memberPointer);
                    scanTemplateText(file.base, key, [&](std::size_t offset) {
                        return Site {
                            file.name, positionInScalar(file.text, start, int(offset) + 1), memberPointer, what};
                    });
                }
                scanStrings(file, member, memberPointer);
            }
        } else if (value.is_array()) {
            for (std::size_t i = 0; i < value.size(); ++i)
                scanStrings(file, value[i], appendPointer(pointer, i));
        }
    }

    using SiteAt = std::function<Site(std::size_t offset)>;

    void scanTemplateText(const fs::path &base, std::string_view text, const SiteAt &siteAt)
    {
        for (const TemplateSegment &segment : scanTemplate(text)) {
            if (segment.kind != TemplateSegment::Kind::Expression)
                continue;
            scanExpression(base, segment.text, [&](std::size_t offset) { return siteAt(segment.offset + offset); });
        }
    }

    void scanJetText(const fs::path &base, std::string_view text, const std::string &left, const std::string &right,
        const SiteAt &siteAt)
    {
        std::size_t at = 0;
        while ((at = text.find(left, at)) != std::string_view::npos) {
            const std::size_t start = at + left.size();
            const std::size_t end = text.find(right, start);
            if (end == std::string_view::npos)
                return;
            scanExpression(
                base, text.substr(start, end - start), [&](std::size_t offset) { return siteAt(start + offset); });
            at = end + right.size();
        }
    }

    /// Finds calls of the file-reading functions in one expression (or Jet action). Code that
    /// does not tokenize is left to the run, which reports it.
    void scanExpression(const fs::path &base, std::string_view code, const SiteAt &siteAt)
    {
        auto tokens = expr::tokenize(code);
        if (!tokens)
            return;
        const std::vector<expr::Token> &t = tokens.value();
        const auto isOperator = [&](std::size_t i, std::string_view op) {
            return i < t.size() && t[i].kind == expr::TokenKind::Operator && t[i].text == op;
        };
        const auto isString = [&](std::size_t i) { return i < t.size() && t[i].kind == expr::TokenKind::String; };
        for (std::size_t i = 0; i + 1 < t.size(); ++i) {
            const std::string &name = t[i].text;
            if (t[i].kind != expr::TokenKind::Name
                || (name != "readFile" && name != "file" && name != "template" && name != "jet")
                || !isOperator(i + 1, "(") || (i > 0 && (isOperator(i - 1, ".") || isOperator(i - 1, "?."))))
                continue;
            if (isOperator(i + 2, ")"))
                continue;
            const Site site = siteAt(std::size_t(t[i + 2].column - 1));
            const bool literal = isString(i + 2) && (isOperator(i + 3, ")") || isOperator(i + 3, ","));
            if (!literal) {
                warning(site,
                    site.what + ": the argument of " + name
                        + "() is computed at run time, so the file it reads is not collected; add it with "
                          "--include");
                continue;
            }
            const std::string &argument = t[i + 2].text;
            std::string left = "[[";
            std::string right = "]]";
            if (name == "jet" && isString(i + 4) && isOperator(i + 5, ",") && isString(i + 6)
                && isOperator(i + 7, ")")) {
                left = t[i + 4].text;
                right = t[i + 6].text;
            }
            const Site argumentSite {site.file, site.position, site.pointer, site.what + ": " + name + "()"};
            if (name == "readFile" || name == "file") {
                locateFile(base, argument, argumentSite);
            } else if (argument.ends_with(".jet")) {
                if (auto full = locateFile(base, argument, argumentSite))
                    scanJetFile(base, *full, left, right);
            } else if (name == "template" && argument.ends_with(".templ")) {
                if (auto full = locateFile(base, argument, argumentSite))
                    scanTemplateFile(base, *full);
            } else if (name == "template") {
                scanTemplateText(base, argument, [&](std::size_t) { return site; });
            } else {
                scanJetText(base, argument, left, right, [&](std::size_t) { return site; });
            }
        }
    }

    void scanTemplateFile(const fs::path &base, const fs::path &file)
    {
        if (!m_scannedFiles.insert(file.string() + "\ntempl").second)
            return;
        auto content = readTextFile(file, kMaxTemplateFileBytes);
        if (!content)
            return;
        const std::string name = shown(file);
        const LineIndex lines(content.value());
        scanTemplateText(base, content.value(), [&](std::size_t offset) {
            return Site {name, lines.at(offset), {}, "template " + name};
        });
    }

    void scanJetFile(const fs::path &base, const fs::path &file, const std::string &left, const std::string &right)
    {
        if (!m_scannedFiles.insert(file.string() + "\njet " + left + right).second)
            return;
        auto content = readTextFile(file, kMaxTemplateFileBytes);
        if (!content)
            return;
        const std::string name = shown(file);
        const LineIndex lines(content.value());
        scanJetText(base, content.value(), left, right, [&](std::size_t offset) {
            return Site {name, lines.at(offset), {}, "Jet template " + name};
        });
    }

    void error(const Site &site, std::string message) { report(Severity::Error, site, std::move(message)); }
    void warning(const Site &site, std::string message) { report(Severity::Warning, site, std::move(message)); }
    void report(Severity severity, const Site &site, std::string message)
    {
        m_findings.push_back({site.file, {severity, std::move(message), site.pointer, site.position}});
    }

    /// How messages name a file below the root: as the command line named the root manifest.
    [[nodiscard]] std::string shown(const fs::path &full) const
    {
        return (m_shownRoot / full.lexically_relative(m_root)).generic_string();
    }

    fs::path m_root;
    fs::path m_shownRoot;
    fs::path m_rootManifest;
    std::map<std::string, BundleMember> m_members;
    std::vector<BundleFinding> m_findings;
    std::set<fs::path> m_visitedManifests;
    std::set<std::string> m_scannedFiles;
};

} // namespace

bool isBundlePath(std::string_view path)
{
    const auto endsWith = [&](std::string_view suffix) {
        return path.size() >= suffix.size()
            && std::equal(suffix.begin(), suffix.end(), path.end() - std::ptrdiff_t(suffix.size()),
                [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
    };
    return endsWith(".tar.gz") || endsWith(".tgz");
}

std::string formatBundleFinding(const BundleFinding &finding)
{
    return formatDiagnostic(finding.file, finding.diagnostic);
}

bool BundlePlan::ok() const
{
    return std::none_of(findings.begin(), findings.end(),
        [](const BundleFinding &f) { return f.diagnostic.severity == Severity::Error; });
}

BundlePlan planBundle(const fs::path &manifestPath, const BundleOptions &options)
{
    std::error_code ec;
    const fs::path manifest = fs::absolute(manifestPath, ec).lexically_normal();
    Collector collector(manifest.parent_path(), manifestPath.parent_path());
    collector.addRootManifest(manifest, manifestPath.string(), options.manifestText);
    for (const fs::path &include : options.includes)
        collector.addInclude(include);
    return std::move(collector).finish();
}

} // namespace ccm
