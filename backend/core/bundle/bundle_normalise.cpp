// SPDX-License-Identifier: Apache-2.0
// Rewriting a manifest for upstream's CCM v1 schema, editing its text at source-map positions.
#include "core/bundle/bundle.h"
#include "core/model/manifest.h"
#include "core/model/validator.h"
#include "core/template/template_string.h"
#include "core/yaml/source_map.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ccm {
namespace {

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

} // namespace

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

} // namespace ccm
