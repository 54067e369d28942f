// SPDX-License-Identifier: Apache-2.0
#include "core/bundle/bundle.h"

#include "base/file_reading.h"
#include "base/sha256.h"
#include "core/expr/expression_lexer.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"
#include "core/template/template_scope.h"
#include "core/template/template_string.h"
#include "core/yaml/source_map.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <zlib.h>

namespace ccm {
namespace fs = std::filesystem;

namespace {

/// Files larger than this are not bundled: a bundle is configuration, not a software archive.
constexpr std::uintmax_t kMaxBundledFileBytes = 256 * 1024 * 1024;

std::string systemMessage(int error)
{
    return std::generic_category().message(error);
}

// ---------------------------------------------------------------------------------------------
// Editing manifest text at source-map positions

/// Byte offsets of positions in one text.
class TextOffsets {
public:
    explicit TextOffsets(std::string_view text)
        : m_size(text.size())
    {
        m_lineStarts.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                m_lineStarts.push_back(i + 1);
    }
    [[nodiscard]] std::optional<std::size_t> offset(SourcePosition position) const
    {
        if (!position.known() || position.column < 1 || std::size_t(position.line) > m_lineStarts.size())
            return std::nullopt;
        const std::size_t at = m_lineStarts[position.line - 1] + std::size_t(position.column - 1);
        return at <= m_size ? std::optional(at) : std::nullopt;
    }

private:
    std::vector<std::size_t> m_lineStarts;
    std::size_t m_size;
};

bool isSpaceOrTab(char c)
{
    return c == ' ' || c == '\t';
}

/// The end of the scalar (a key or a value) that starts at `at`: past the closing quote of a
/// quoted one; for a plain one, before a comment, a flow indicator, a `: ` or the line's end,
/// trailing blanks left out.
std::size_t scalarEnd(std::string_view text, std::size_t at)
{
    if (at >= text.size())
        return at;
    if (text[at] == '"') {
        for (std::size_t i = at + 1; i < text.size(); ++i) {
            if (text[i] == '\\')
                ++i;
            else if (text[i] == '"')
                return i + 1;
        }
        return text.size();
    }
    if (text[at] == '\'') {
        for (std::size_t i = at + 1; i < text.size(); ++i) {
            if (text[i] != '\'')
                continue;
            if (i + 1 < text.size() && text[i + 1] == '\'')
                ++i;
            else
                return i + 1;
        }
        return text.size();
    }
    std::size_t end = at;
    while (end < text.size()) {
        const char c = text[end];
        if (c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}')
            break;
        if (c == '#' && end > at && isSpaceOrTab(text[end - 1]))
            break;
        if (c == ':'
            && (end + 1 == text.size() || isSpaceOrTab(text[end + 1]) || text[end + 1] == '\n'
                || text[end + 1] == '\r'))
            break;
        ++end;
    }
    while (end > at && isSpaceOrTab(text[end - 1]))
        --end;
    return end;
}

struct TextEdit {
    std::size_t offset = 0;
    std::size_t length = 0;
    std::string replacement;
};

std::string applyEdits(std::string_view text, std::vector<TextEdit> edits)
{
    std::sort(edits.begin(), edits.end(), [](const TextEdit &a, const TextEdit &b) { return a.offset > b.offset; });
    std::string out(text);
    std::size_t limit = out.size();
    for (const TextEdit &edit : edits) {
        // Edits never overlap; one that would is dropped rather than corrupting the text.
        if (edit.offset + edit.length > limit)
            continue;
        out.replace(edit.offset, edit.length, edit.replacement);
        limit = edit.offset;
    }
    return out;
}

/// Rewrites what upstream's schema is stricter on; see normaliseForUpstream().
class UpstreamNormaliser {
public:
    UpstreamNormaliser(std::string_view text, const LoadedManifest &loaded, std::vector<Diagnostic> *findings)
        : m_text(text)
        , m_offsets(text)
        , m_loaded(loaded)
        , m_findings(findings)
    {
    }

    std::string run()
    {
        const Json &root = m_loaded.document;
        if (!root.is_object())
            return std::string(m_text);
        for (const char *section : {"data", "hierarchy", "overrides", "ccm"})
            if (root.contains(section) && root[section].is_null())
                replaceNull(appendPointer("", section), "{}");
        if (root.contains("overrides") && root["overrides"].is_object())
            for (const auto &[key, value] : root["overrides"].items())
                if (value.is_null())
                    replaceNull(appendPointer("/overrides", key), "{}");
        if (root.contains("ccm") && root["ccm"].is_object()) {
            const Json &ccm = root["ccm"];
            for (const char *setting : {"pre_message", "post_message", "fail_on_error"})
                if (ccm.contains(setting) && ccm[setting].is_null())
                    removeNullMember(appendPointer("/ccm", setting));
            if (ccm.contains("resources") && ccm["resources"].is_null())
                replaceNull("/ccm/resources", "[]");
            else if (ccm.contains("resources") && ccm["resources"].is_array())
                normaliseBlocks(ccm["resources"]);
        }
        return applyEdits(m_text, m_edits);
    }

private:
    void normaliseBlocks(const Json &blocks)
    {
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const Json &block = blocks[i];
            if (!block.is_object() || block.size() != 1)
                continue;
            const std::string type = block.begin().key();
            const Json &body = block.begin().value();
            const std::string typePointer = appendPointer(appendPointer("/ccm/resources", i), type);
            if (body.is_object()) {
                normaliseProperties(type, typePointer, body);
                continue;
            }
            if (!body.is_array())
                continue;
            for (std::size_t j = 0; j < body.size(); ++j) {
                const Json &item = body[j];
                if (!item.is_object() || item.size() != 1)
                    continue;
                const std::string entryPointer = appendPointer(appendPointer(typePointer, j), item.begin().key());
                if (item.begin().value().is_null())
                    replaceNull(entryPointer, "{}");
                else if (item.begin().value().is_object())
                    normaliseProperties(type, entryPointer, item.begin().value());
            }
        }
    }

    void normaliseProperties(const std::string &type, const std::string &pointer, const Json &properties)
    {
        if (type == "file" && properties.contains("mode") && properties["mode"].is_string())
            normaliseMode(appendPointer(pointer, "mode"), properties["mode"].get<std::string>());
        if (type == "exec" && properties.contains("refresh_only") && !properties.contains("refreshonly"))
            renameKey(appendPointer(pointer, "refresh_only"), "refreshonly");
    }

    void normaliseMode(const std::string &pointer, const std::string &mode)
    {
        if (mode.size() == 4 && std::all_of(mode.begin(), mode.end(), [](char c) { return c >= '0' && c <= '7'; }))
            return;
        if (hasTemplateExpressions(mode)) {
            note(pointer, m_loaded.sourceMap.valueAt(pointer),
                "mode '" + mode
                    + "' is computed at run time; upstream's schema wants a 4-digit octal string such as \"0644\"");
            return;
        }
        auto parsed = parseFileMode(mode);
        if (!parsed)
            return;
        std::array<char, 8> digits {};
        std::snprintf(digits.data(), digits.size(), "%04o", parsed.value());
        replaceScalar(pointer, m_loaded.sourceMap.valueAt(pointer), '"' + std::string(digits.data()) + '"');
    }

    void renameKey(const std::string &pointer, const std::string &name)
    {
        replaceScalar(pointer, m_loaded.sourceMap.keyAt(pointer), name);
    }

    void replaceScalar(const std::string &pointer, SourcePosition position, std::string replacement)
    {
        const auto at = m_offsets.offset(position);
        // An anchor, alias, tag or block scalar is more than one scalar's text: rewriting it could
        // change other nodes, so the author is asked to.
        if (!at || *at >= m_text.size() || std::string_view("&*!|>").find(m_text[*at]) != std::string_view::npos) {
            note(pointer, position,
                "cannot rewrite " + pointer + " for upstream's schema as it is written; write " + replacement
                    + " there");
            return;
        }
        m_edits.push_back({*at, scalarEnd(m_text, *at) - *at, std::move(replacement)});
    }

    /// Where the null value of the map member at `pointer` is written: an empty range just past
    /// the key's colon when it is left out, else the `null` or `~`. nullopt, with a finding, when
    /// the text is not like that.
    std::optional<std::pair<std::size_t, std::size_t>> nullValue(const std::string &pointer)
    {
        const SourcePosition keyPosition = m_loaded.sourceMap.keyAt(pointer);
        const auto key = m_offsets.offset(keyPosition);
        std::size_t colon = key ? scalarEnd(m_text, *key) : m_text.size();
        while (colon < m_text.size() && isSpaceOrTab(m_text[colon]))
            ++colon;
        if (colon < m_text.size() && m_text[colon] == ':') {
            std::size_t value = colon + 1;
            while (value < m_text.size() && isSpaceOrTab(m_text[value]))
                ++value;
            if (value >= m_text.size() || std::string_view("\r\n#,}").find(m_text[value]) != std::string_view::npos)
                return std::pair(colon + 1, colon + 1);
            const std::size_t end = scalarEnd(m_text, value);
            const std::string_view written = m_text.substr(value, end - value);
            if (written == "null" || written == "Null" || written == "NULL" || written == "~")
                return std::pair(value, end);
        }
        note(
            pointer, keyPosition, "cannot find the empty value of " + pointer + " to rewrite it for upstream's schema");
        return std::nullopt;
    }

    /// Turns the null value of the member at `pointer` into `empty`.
    void replaceNull(const std::string &pointer, const char *empty)
    {
        const auto value = nullValue(pointer);
        if (!value)
            return;
        if (value->first == value->second)
            m_edits.push_back({value->first, 0, std::string(" ") + empty});
        else
            m_edits.push_back({value->first, value->second - value->first, empty});
    }

    /// Removes the member at `pointer`, whose value is null, with its line: upstream has no
    /// "unset" for it, and leaving it out means the same to the backend.
    void removeNullMember(const std::string &pointer)
    {
        const auto value = nullValue(pointer);
        if (!value)
            return;
        const std::size_t key = *m_offsets.offset(m_loaded.sourceMap.keyAt(pointer));
        std::size_t lineStart = key;
        while (lineStart > 0 && m_text[lineStart - 1] != '\n')
            --lineStart;
        std::size_t after = value->second;
        while (after < m_text.size() && isSpaceOrTab(m_text[after]))
            ++after;
        const bool alone = std::all_of(m_text.begin() + std::ptrdiff_t(lineStart), m_text.begin() + std::ptrdiff_t(key),
            [](char c) { return isSpaceOrTab(c); });
        if (!alone
            || (after < m_text.size() && m_text[after] != '\n' && m_text[after] != '\r' && m_text[after] != '#')) {
            note(pointer, m_loaded.sourceMap.keyAt(pointer),
                "cannot remove the empty " + pointer + " for upstream's schema; remove it from the manifest");
            return;
        }
        const std::size_t lineEnd = m_text.find('\n', after);
        m_edits.push_back(
            {lineStart, (lineEnd == std::string_view::npos ? m_text.size() : lineEnd + 1) - lineStart, {}});
    }

    void note(const std::string &pointer, SourcePosition position, std::string message)
    {
        if (m_findings)
            m_findings->push_back({Severity::Warning, std::move(message), pointer, position});
    }

    std::string_view m_text;
    TextOffsets m_offsets;
    const LoadedManifest &m_loaded;
    std::vector<Diagnostic> *m_findings;
    std::vector<TextEdit> m_edits;
};

// ---------------------------------------------------------------------------------------------
// Collecting what a manifest reaches

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

// ---------------------------------------------------------------------------------------------
// Archives

struct ArchiveFree {
    void operator()(archive *a) const { archive_write_free(a); }
};
struct ArchiveReadFree {
    void operator()(archive *a) const { archive_read_free(a); }
};
struct EntryFree {
    void operator()(archive_entry *e) const { archive_entry_free(e); }
};

std::string archiveMessage(archive *a)
{
    const char *message = archive_error_string(a);
    return message ? message : "unknown libarchive error";
}

/// A temporary file beside the destination, renamed over it on commit and removed otherwise.
class TemporaryFile {
public:
    explicit TemporaryFile(const fs::path &destination)
        : m_destination(destination)
    {
        const fs::path directory = destination.has_parent_path() ? destination.parent_path() : fs::path(".");
        std::string pattern = (directory / ("." + destination.filename().string() + ".XXXXXX")).string();
        m_fd = ::mkstemp(pattern.data());
        if (m_fd >= 0)
            m_path = pattern;
        else
            m_error = errno;
    }
    ~TemporaryFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        if (!m_path.empty())
            ::unlink(m_path.c_str());
    }
    TemporaryFile(const TemporaryFile &) = delete;
    TemporaryFile &operator=(const TemporaryFile &) = delete;

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] int openError() const { return m_error; }

    Result<void> commit()
    {
        if (::fchmod(m_fd, 0644) != 0 || ::fsync(m_fd) != 0 || ::close(m_fd) != 0) {
            m_fd = -1;
            return Error {"io", "cannot write " + m_path + ": " + systemMessage(errno)};
        }
        m_fd = -1;
        if (::rename(m_path.c_str(), m_destination.c_str()) != 0)
            return Error {
                "io", "cannot rename " + m_path + " to " + m_destination.string() + ": " + systemMessage(errno)};
        m_path.clear();
        return {};
    }

private:
    fs::path m_destination;
    std::string m_path;
    int m_fd = -1;
    int m_error = 0;
};

/// The parent directories of a '/'-separated path, outermost first: "a/b/c" -> {"a", "a/b"}.
std::vector<std::string> parentsOf(const std::string &path)
{
    std::vector<std::string> parents;
    for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
        parents.push_back(path.substr(0, slash));
    return parents;
}

} // namespace

bool isBundlePath(std::string_view path)
{
    return path.ends_with(".tar.gz") || path.ends_with(".tgz");
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

std::string normaliseForUpstream(std::string_view text, std::vector<Diagnostic> *findings)
{
    const LoadedManifest loaded = loadManifest(text);
    if (!loaded.parsed || hasErrors(loaded.diagnostics))
        return std::string(text);
    // One rewrite can make another necessary (removing a map's last member leaves it empty), so
    // rewriting goes on until nothing changes. The findings are those of the last pass: what
    // could not be rewritten.
    constexpr int kMaxPasses = 4;
    std::vector<Diagnostic> notes;
    std::string out = UpstreamNormaliser(text, loaded, &notes).run();
    std::optional<LoadedManifest> rewritten;
    for (int pass = 1; out != text && pass <= kMaxPasses; ++pass) {
        rewritten = loadManifest(out);
        if (!rewritten->parsed || hasErrors(rewritten->diagnostics))
            break;
        notes.clear();
        std::string next = UpstreamNormaliser(out, *rewritten, &notes).run();
        if (next == out)
            break;
        out = std::move(next);
    }
    // The edits follow the common ways of writing YAML; for any other, the text as written is
    // better than a rewrite that reads differently.
    if (out != text) {
        rewritten = loadManifest(out);
        if (!rewritten->parsed || hasErrors(rewritten->diagnostics)
            || (!hasErrors(validateManifest(loaded)) && hasErrors(validateManifest(*rewritten)))) {
            notes = {{Severity::Warning,
                "the manifest is bundled as written: the way it is written could not be rewritten for "
                "upstream's schema",
                "", {}}};
            out = std::string(text);
        }
    }
    if (findings)
        findings->insert(findings->end(), notes.begin(), notes.end());
    return out;
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

Result<void> writeBundle(const BundlePlan &plan, const fs::path &output)
{
    if (!plan.ok())
        return Error {"invalid_bundle", "the bundle has errors; nothing was written"};
    struct Entry {
        std::string path;
        bool directory = false;
        std::string content;
        bool executable = false;
    };
    std::map<std::string, Entry> entries;
    std::string sums;
    for (const BundleMember &member : plan.members) {
        Entry entry {member.path, false, {}, member.executable};
        if (member.content) {
            entry.content = *member.content;
        } else {
            auto content = readTextFile(member.source, kMaxBundledFileBytes);
            if (!content)
                return content.error().withContext("cannot bundle " + member.path);
            entry.content = std::move(content).value();
        }
        sums += sha256Hex(entry.content) + "  " + member.path + '\n';
        for (const std::string &parent : parentsOf(member.path))
            entries.emplace(parent, Entry {parent, true, {}, true});
        entries[member.path] = std::move(entry);
    }
    entries[std::string(kBundleChecksumsName)] = Entry {std::string(kBundleChecksumsName), false, sums, false};

    TemporaryFile file(output);
    if (file.fd() < 0)
        return Error {"io", "cannot create a file beside " + output.string() + ": " + systemMessage(file.openError())};
    std::unique_ptr<archive, ArchiveFree> writer(archive_write_new());
    const auto failed = [&](const std::string &what) {
        return Error {"io", "cannot write " + output.string() + ": " + what + ": " + archiveMessage(writer.get())};
    };
    if (archive_write_set_format_pax_restricted(writer.get()) != ARCHIVE_OK
        || archive_write_add_filter_gzip(writer.get()) != ARCHIVE_OK
        || archive_write_set_filter_option(writer.get(), "gzip", "timestamp", nullptr) != ARCHIVE_OK
        || archive_write_open_fd(writer.get(), file.fd()) != ARCHIVE_OK)
        return failed("setting up the archive");
    for (const auto &[path, entry] : entries) {
        std::unique_ptr<archive_entry, EntryFree> header(archive_entry_new());
        archive_entry_set_pathname(header.get(), path.c_str());
        archive_entry_set_filetype(header.get(), entry.directory ? AE_IFDIR : AE_IFREG);
        archive_entry_set_perm(header.get(), entry.executable ? 0755 : 0644);
        archive_entry_set_size(header.get(), entry.directory ? 0 : la_int64_t(entry.content.size()));
        archive_entry_set_mtime(header.get(), 0, 0);
        archive_entry_set_uid(header.get(), 0);
        archive_entry_set_gid(header.get(), 0);
        if (archive_write_header(writer.get(), header.get()) != ARCHIVE_OK)
            return failed(path);
        if (!entry.directory && !entry.content.empty()
            && archive_write_data(writer.get(), entry.content.data(), entry.content.size())
                != la_ssize_t(entry.content.size()))
            return failed(path);
    }
    if (archive_write_close(writer.get()) != ARCHIVE_OK)
        return failed("finishing the archive");
    return file.commit();
}

// ---------------------------------------------------------------------------------------------
// Unpacking

namespace {

/// Unpacks one archive into an UnpackedBundle's directory, checking every member.
class Unpacker {
public:
    Unpacker(const fs::path &archivePath, const BundleLimits &limits, const fs::path &directory,
        std::vector<std::string> &created)
        : m_archivePath(archivePath)
        , m_limits(limits)
        , m_directory(directory)
        , m_created(created)
    {
    }

    Result<fs::path> run()
    {
        auto stream = verifyGzipStream();
        if (!stream)
            return stream.error();
        std::unique_ptr<archive, ArchiveReadFree> reader(archive_read_new());
        archive_read_support_filter_gzip(reader.get());
        archive_read_support_format_tar(reader.get());
        if (archive_read_open_filename(reader.get(), m_archivePath.c_str(), 64 * 1024) != ARCHIVE_OK)
            return fail("cannot open it: " + archiveMessage(reader.get()));
        archive_entry *header = nullptr;
        std::size_t members = 0;
        for (;;) {
            const int status = archive_read_next_header(reader.get(), &header);
            if (status == ARCHIVE_EOF)
                break;
            if (status != ARCHIVE_OK)
                return fail("not a readable gzip tar archive: " + archiveMessage(reader.get()));
            if (++members > m_limits.maxMembers)
                return fail(
                    "more than " + std::to_string(m_limits.maxMembers) + " members; a bundle is refused past that");
            auto stored = unpackMember(reader.get(), header);
            if (!stored)
                return stored.error();
        }
        if (!m_manifest)
            return fail("holds no " + std::string(kBundleManifestName));
        const fs::path base = fs::path(*m_manifest).parent_path();
        auto verified = verifyChecksums(base.generic_string());
        if (!verified)
            return verified.error();
        return m_directory / *m_manifest;
    }

private:
    Error fail(const std::string &message) const { return Error {"invalid_bundle", message}; }
    Error failMember(const std::string &member, const std::string &message) const
    {
        return fail("member '" + member + "': " + message);
    }

    /// Inflates the whole file once, checking each gzip member's CRC-32 and length, which
    /// libarchive's reader leaves unchecked, and stopping a bomb before anything is written.
    Result<void> verifyGzipStream() const
    {
        const int fd = ::open(m_archivePath.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return fail("cannot open it: " + systemMessage(errno));
        z_stream z {};
        if (inflateInit2(&z, 15 + 16) != Z_OK) {
            ::close(fd);
            throw std::bad_alloc();
        }
        // The tar headers and padding around the members, generously.
        const std::uint64_t cap = m_limits.maxTotalBytes + std::uint64_t(m_limits.maxMembers + 2) * 2048 + 1024 * 1024;
        std::array<unsigned char, 64 * 1024> input {};
        std::array<unsigned char, 64 * 1024> output {};
        std::uint64_t produced = 0;
        std::uint64_t read = 0;
        bool ended = false;
        Result<void> result;
        for (;;) {
            const ssize_t got = ::read(fd, input.data(), input.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                result = fail("cannot read it: " + systemMessage(errno));
                break;
            }
            if (got == 0)
                break;
            read += std::uint64_t(got);
            z.next_in = input.data();
            z.avail_in = uInt(got);
            while (z.avail_in > 0 && result) {
                if (ended) {
                    inflateReset(&z);
                    ended = false;
                }
                z.next_out = output.data();
                z.avail_out = uInt(output.size());
                const int status = inflate(&z, Z_NO_FLUSH);
                produced += output.size() - z.avail_out;
                if (produced > cap)
                    result = fail("unpacks to more than " + std::to_string(m_limits.maxTotalBytes)
                        + " bytes; a bundle is refused past that");
                else if (status == Z_STREAM_END)
                    ended = true;
                else if (status != Z_OK && status != Z_BUF_ERROR)
                    result
                        = fail("not a gzip tar archive, or a damaged one: " + std::string(z.msg ? z.msg : "bad data"));
            }
            if (!result)
                break;
        }
        inflateEnd(&z);
        ::close(fd);
        if (result && read == 0)
            return fail("is empty; a bundle is a gzip tar archive");
        if (result && !ended)
            return fail("is truncated: its gzip data ends early");
        return result;
    }

    Result<void> unpackMember(archive *reader, archive_entry *header)
    {
        const char *rawName = archive_entry_pathname(header);
        const std::string raw = rawName ? rawName : "";
        if (raw.empty())
            return failMember(raw, "has no name");
        if (raw.front() == '/')
            return failMember(raw, "is an absolute path; bundle members are relative to its root");
        std::vector<std::string> parts;
        std::size_t start = 0;
        while (start <= raw.size()) {
            const std::size_t slash = std::min(raw.find('/', start), raw.size());
            const std::string part = raw.substr(start, slash - start);
            if (part == "..")
                return failMember(raw, "has a '..' component, which would leave the bundle's directory");
            if (!part.empty() && part != ".")
                parts.push_back(part);
            start = slash + 1;
        }
        if (archive_entry_hardlink(header))
            return failMember(raw, "is a hard link; a bundle holds only regular files and directories");
        const mode_t type = archive_entry_filetype(header);
        if (type == AE_IFLNK)
            return failMember(raw, "is a symbolic link; a bundle holds only regular files and directories");
        if (type != AE_IFREG && type != AE_IFDIR)
            return failMember(raw, "is a device, FIFO or socket; a bundle holds only regular files and directories");
        if (parts.empty()) {
            if (type == AE_IFDIR)
                return {};
            return failMember(raw, "has no name");
        }
        std::string path;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            path += (i ? "/" : "") + parts[i];
            if (i + 1 < parts.size() || type == AE_IFDIR) {
                auto made = makeDirectory(raw, path);
                if (!made)
                    return made;
            }
        }
        if (type == AE_IFDIR)
            return {};
        const bool executable = (archive_entry_perm(header) & 0111) != 0;
        auto written = writeFile(reader, raw, path, executable);
        if (!written)
            return written;
        const std::size_t depth = parts.size();
        if (parts.back() == kBundleManifestName && (!m_manifest || depth < m_manifestDepth)) {
            m_manifest = path;
            m_manifestDepth = depth;
        }
        return {};
    }

    Result<void> makeDirectory(const std::string &raw, const std::string &path)
    {
        const fs::path full = m_directory / path;
        if (::mkdir(full.c_str(), 0755) == 0) {
            m_created.push_back(full.string());
            return {};
        }
        struct stat info { };
        if (errno == EEXIST && ::lstat(full.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
            return {};
        return failMember(raw,
            "cannot create directory " + path + ": "
                + (errno == EEXIST ? std::string("a file of that name is in the bundle") : systemMessage(errno)));
    }

    Result<void> writeFile(archive *reader, const std::string &raw, const std::string &path, bool executable)
    {
        const fs::path full = m_directory / path;
        const int fd
            = ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, executable ? 0755 : 0644);
        if (fd < 0)
            return failMember(
                raw, errno == EEXIST ? "is in the bundle twice" : "cannot create it: " + systemMessage(errno));
        m_created.push_back(full.string());
        Sha256 sha;
        std::array<char, 64 * 1024> buffer {};
        Result<void> result;
        for (;;) {
            const la_ssize_t got = archive_read_data(reader, buffer.data(), buffer.size());
            if (got == 0)
                break;
            if (got < 0) {
                result = failMember(raw, "damaged data: " + archiveMessage(reader));
                break;
            }
            m_totalBytes += std::uint64_t(got);
            if (m_totalBytes > m_limits.maxTotalBytes) {
                result = fail("unpacks to more than " + std::to_string(m_limits.maxTotalBytes)
                    + " bytes; a bundle is refused past that");
                break;
            }
            sha.add(buffer.data(), std::size_t(got));
            for (la_ssize_t done = 0; done < got;) {
                const ssize_t wrote = ::write(fd, buffer.data() + done, std::size_t(got - done));
                if (wrote < 0 && errno == EINTR)
                    continue;
                if (wrote < 0) {
                    result = failMember(raw, "cannot write it: " + systemMessage(errno));
                    break;
                }
                done += wrote;
            }
            if (!result)
                break;
        }
        ::close(fd);
        if (result)
            m_digests[path] = sha.finishHex();
        return result;
    }

    /// Checks base/SHA256SUMS, when there is one, against every file below base.
    Result<void> verifyChecksums(const std::string &base)
    {
        const std::string prefix = base.empty() ? std::string() : base + '/';
        const std::string sumsPath = prefix + std::string(kBundleChecksumsName);
        if (!m_digests.contains(sumsPath))
            return {};
        auto text = readTextFile(m_directory / sumsPath, 16 * 1024 * 1024);
        if (!text)
            return fail(std::string(kBundleChecksumsName) + ": " + text.error().message);
        std::set<std::string> listed;
        std::size_t lineNumber = 0;
        std::size_t start = 0;
        const std::string &sums = text.value();
        while (start < sums.size()) {
            const std::size_t end = std::min(sums.find('\n', start), sums.size());
            const std::string line = sums.substr(start, end - start);
            start = end + 1;
            ++lineNumber;
            if (line.empty())
                continue;
            const std::string where = std::string(kBundleChecksumsName) + " line " + std::to_string(lineNumber) + ": ";
            if (line.size() < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*'))
                return fail(where + "not a 'DIGEST  FILE' line as sha256sum prints");
            std::string name = line.substr(66);
            while (name.starts_with("./"))
                name.erase(0, 2);
            const auto digest = m_digests.find(prefix + name);
            if (digest == m_digests.end() || name == kBundleChecksumsName)
                return fail(where + "lists '" + name + "', which the bundle does not hold");
            if (digest->second != line.substr(0, 64))
                return fail(where + "the SHA-256 of '" + name + "' does not match; the bundle was changed or damaged");
            listed.insert(prefix + name);
        }
        for (const auto &[path, digest] : m_digests)
            if (path != sumsPath && path.starts_with(prefix) && !listed.contains(path))
                return fail("'" + path + "' is not listed in " + std::string(kBundleChecksumsName)
                    + "; the bundle was changed after it was made");
        return {};
    }

    const fs::path &m_archivePath;
    const BundleLimits &m_limits;
    const fs::path &m_directory;
    std::vector<std::string> &m_created;
    std::map<std::string, std::string> m_digests;
    std::optional<std::string> m_manifest;
    std::size_t m_manifestDepth = 0;
    std::uint64_t m_totalBytes = 0;
};

} // namespace

Result<UnpackedBundle> UnpackedBundle::unpack(
    const fs::path &archivePath, const BundleLimits &limits, const fs::path &parent)
{
    std::error_code ec;
    fs::path under = parent.empty() ? fs::temp_directory_path(ec) : parent;
    if (under.empty())
        under = "/tmp";
    std::string pattern = (under / "ccm-bundle-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return Error {"io", "cannot create a temporary directory in " + under.string() + ": " + systemMessage(errno)};
    UnpackedBundle bundle;
    bundle.m_directory = pattern;
    Unpacker unpacker(archivePath, limits, bundle.m_directory, bundle.m_created);
    auto manifest = unpacker.run();
    if (!manifest)
        return manifest.error();
    bundle.m_manifest = std::move(manifest).value();
    // Deepest first, so unlink() and rmdir() in that order empty each directory before removing it.
    std::stable_sort(bundle.m_created.begin(), bundle.m_created.end(), [](const std::string &a, const std::string &b) {
        return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
    });
    bundle.m_created.push_back(bundle.m_directory.string());
    return bundle;
}

UnpackedBundle::UnpackedBundle(UnpackedBundle &&other) noexcept
    : m_directory(std::exchange(other.m_directory, {}))
    , m_manifest(std::move(other.m_manifest))
    , m_created(std::move(other.m_created))
{
}

UnpackedBundle &UnpackedBundle::operator=(UnpackedBundle &&other) noexcept
{
    if (this != &other) {
        remove();
        m_directory = std::exchange(other.m_directory, {});
        m_manifest = std::move(other.m_manifest);
        m_created = std::move(other.m_created);
    }
    return *this;
}

UnpackedBundle::~UnpackedBundle()
{
    remove();
}

fs::path UnpackedBundle::release()
{
    m_created.clear();
    return std::exchange(m_directory, {});
}

void UnpackedBundle::remove()
{
    if (m_directory.empty())
        return;
    std::error_code ignored;
    fs::remove_all(m_directory, ignored);
    m_directory.clear();
}

} // namespace ccm
