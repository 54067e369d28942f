// SPDX-License-Identifier: Apache-2.0
#include "hiera.h"

#include "template_string.h"

#include <algorithm>
#include <set>

namespace ccm {
namespace {

/// During Hiera resolution only the facts and lookup() exist, and a missing key is "".
class HieraScope : public ExpressionScope
{
public:
    explicit HieraScope(const LazyFacts &facts)
        : m_facts(facts)
    {
    }

    [[nodiscard]] const Json *variable(std::string_view name) const override
    {
        return name == "Facts" || name == "facts" ? &m_facts.get() : nullptr;
    }
    [[nodiscard]] bool missingLookupIsEmpty() const override { return true; }

private:
    const LazyFacts &m_facts;
};

class Resolver
{
public:
    Resolver(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts, DataResolution &out,
        DataProvenance *provenance)
        : m_manifest(manifest)
        , m_text(text)
        , m_scope(facts)
        , m_out(out)
        , m_provenance(provenance)
    {
    }

    void run(const Json &external)
    {
        Json data = resolveMap(m_manifest.manifest.data.value_or(Json::object()), "/data");
        if (!m_out.ok())
            return;
        if (m_provenance) {
            for (const auto &[key, value] : data.items())
                record(appendPointer("/data", key), value, DataOrigin {{}, appendPointer("/data", key)});
        }
        if (!applyHierarchy(data))
            return;
        // Data given from outside wins: maps merge recursively, anything else is replaced.
        if (external.is_object())
            merge(data, external, "/data", DataOrigin {{DataLayer::Kind::External, -1, {}}, {}}, false);
        m_out.data = std::move(data);
        checkRequired();
    }

private:
    Json resolveMap(const Json &values, const std::string &pointer)
    {
        auto resolved = resolveTemplates(values, m_scope, TemplateValue::Typed);
        if (!resolved) {
            const TemplateFailure &failure = resolved.error();
            const std::string where = pointer + failure.pointer;
            report(where, "cannot resolve " + describePointer(where) + ": " + failure.error.message,
                   failure.error.column);
            return Json::object();
        }
        return std::move(resolved).value();
    }

    /// Merges the overrides of the matching hierarchy entries into `data`; false when one of
    /// them could not be resolved.
    bool applyHierarchy(Json &data)
    {
        const Hierarchy hierarchy = m_manifest.manifest.hierarchy.value_or(Hierarchy {});
        const std::vector<std::string> order = hierarchy.order.value_or(std::vector<std::string> {"default"});
        const bool deep = hierarchy.merge.value_or("first") == "deep";
        const Json overrides = m_manifest.manifest.overrides.value_or(Json::object());
        if (m_provenance)
            m_provenance->merge = deep ? "deep" : "first";

        bool taken = false; // a first merge has taken its override; later entries are only reported
        for (std::size_t i = 0; i < order.size() && (!taken || m_provenance); ++i) {
            HierarchyEntryState entry = resolveEntry(order[i], "/hierarchy/order/" + std::to_string(i), !taken);
            const auto found = entry.error.empty() ? overrides.find(entry.resolved) : overrides.end();
            entry.overrideExists = found != overrides.end() && found->is_object();
            if (entry.matched && found != overrides.end() && !taken) {
                const std::string source = appendPointer("/overrides", entry.resolved);
                Json values = resolveMap(*found, source);
                if (!m_out.ok())
                    return false;
                m_out.appliedOverrides.push_back(entry.resolved);
                entry.applied = true;
                const DataOrigin origin {{DataLayer::Kind::Override, static_cast<int>(i), entry.resolved}, source};
                if (deep) {
                    merge(data, values, "/data", origin, true);
                } else {
                    takeFirst(data, values, origin);
                    taken = true;
                }
            }
            if (m_provenance)
                m_provenance->entries.push_back(std::move(entry));
        }
        return true;
    }

    /// A `first` merge: the override's top-level values replace those of the data.
    void takeFirst(Json &data, Json &values, const DataOrigin &origin)
    {
        MemberSetter members(data);
        for (auto &[key, value] : values.get_ref<Json::object_t &>()) {
            if (m_provenance)
                record(appendPointer("/data", key), value, childOrigin(origin, key), true);
            members[key] = std::move(value);
        }
    }

    /// Merges `overlay` into `base` (at `pointer`): maps recursively, lists concatenated when
    /// `concatenateLists` (a deep merge of overrides) and anything else replaced.
    void merge(
        Json &base, const Json &overlay, const std::string &pointer, const DataOrigin &origin, bool concatenateLists)
    {
        if (base.is_object() && overlay.is_object()) {
            MemberSetter members(base);
            for (const auto &[key, value] : overlay.get_ref<const Json::object_t &>()) {
                const std::string child = m_provenance ? appendPointer(pointer, key) : std::string();
                if (Json *existing = members.find(key)) {
                    merge(*existing, value, child, m_provenance ? childOrigin(origin, key) : origin, concatenateLists);
                    continue;
                }
                if (m_provenance)
                    record(child, value, childOrigin(origin, key));
                members[key] = value;
            }
            return;
        }
        if (m_provenance)
            record(pointer, overlay, origin, true);
        if (concatenateLists && base.is_array() && overlay.is_array())
            base.insert(base.end(), overlay.begin(), overlay.end());
        else
            base = overlay;
    }

    static DataOrigin childOrigin(const DataOrigin &origin, std::string_view key)
    {
        return DataOrigin {origin.layer, origin.source.empty() ? std::string() : appendPointer(origin.source, key)};
    }

    /// Records `origin` for `value` at `pointer` and for the maps and values inside it, after
    /// forgetting (with `replacing`) what was recorded at and under `pointer` before.
    void record(const std::string &pointer, const Json &value, const DataOrigin &origin, bool replacing = false)
    {
        std::map<std::string, DataOrigin> &origins = m_provenance->origins;
        if (replacing) {
            origins.erase(pointer);
            // Everything under "/a" sorts from "/a/" up to "/a0", '0' following '/'.
            origins.erase(origins.lower_bound(pointer + '/'), origins.lower_bound(pointer + '0'));
        }
        origins[pointer] = origin;
        if (!value.is_object())
            return;
        for (const auto &[key, item] : value.items())
            record(appendPointer(pointer, key), item, childOrigin(origin, key));
    }

    /// A hierarchy entry resolved: its name, and whether it matches: text without expressions
    /// matches when it is not empty; with expressions, when at least one of them gave a non-empty
    /// value. An error is reported when `report` is set.
    HierarchyEntryState resolveEntry(const std::string &source, const std::string &pointer, bool report)
    {
        HierarchyEntryState entry;
        entry.source = source;
        bool hasExpression = false;
        bool anyValue = false;
        for (const TemplateSegment &segment : scanTemplate(source)) {
            if (segment.kind == TemplateSegment::Kind::Text) {
                entry.resolved += segment.text;
                continue;
            }
            hasExpression = true;
            auto value = evaluateExpression(segment.text, m_scope);
            if (!value) {
                entry.error = "cannot resolve hierarchy entry '" + source + "': " + value.error().message;
                if (report)
                    this->report(
                        pointer, entry.error, static_cast<int>(segment.offset) + std::max(value.error().column, 1));
                return entry;
            }
            const std::string printed = formatValue(value.value());
            anyValue = anyValue || !printed.empty();
            entry.resolved += printed;
        }
        entry.matched = hasExpression ? anyValue : !entry.resolved.empty();
        return entry;
    }

    void checkRequired()
    {
        for (const std::string &pointer : requiredDataPointers(m_manifest, m_text)) {
            // "/data/a/b" -> the resolved value at "/a/b".
            const Json *value = nullptr;
            try {
                const Json::json_pointer location(pointer.substr(5));
                if (m_out.data.contains(location))
                    value = &m_out.data.at(location);
            } catch (const Json::exception &) {
                value = nullptr;
            }
            // json::empty() is false for every string, so strings are checked on their own.
            const bool empty = !value || value->is_null()
                               || (value->is_string() && value->get_ref<const std::string &>().empty())
                               || ((value->is_array() || value->is_object()) && value->empty());
            if (empty) {
                m_out.diagnostics.push_back({Severity::Error,
                                             describePointer(pointer) + " is required (@require) but "
                                                 + (value ? "is empty" : "has no value"),
                                             pointer, m_manifest.sourceMap.keyAt(pointer)});
            }
        }
    }

    /// "/data/a/0" -> "data value 'a.0'"; "/overrides/os:debian/x" -> "override 'os:debian' value 'x'".
    static std::string describePointer(const std::string &pointer)
    {
        const std::vector<std::string> tokens = splitPointer(pointer);
        const auto join = [&](std::size_t from) {
            std::string path;
            for (std::size_t i = from; i < tokens.size(); ++i)
                path += (path.empty() ? "" : ".") + tokens[i];
            return path;
        };
        if (tokens.size() >= 2 && tokens[0] == "data")
            return "data value '" + join(1) + "'";
        if (tokens.size() >= 3 && tokens[0] == "overrides")
            return "override '" + tokens[1] + "' value '" + join(2) + "'";
        if (tokens.size() == 2 && tokens[0] == "overrides")
            return "override '" + tokens[1] + "'";
        return pointer;
    }

    void report(const std::string &pointer, std::string message, int column)
    {
        const SourcePosition start = m_manifest.sourceMap.valueAt(pointer);
        m_out.diagnostics.push_back({Severity::Error, std::move(message), pointer, positionInScalar(m_text, start, column)});
    }

    const LoadedManifest &m_manifest;
    std::string_view m_text;
    HieraScope m_scope;
    DataResolution &m_out;
    DataProvenance *m_provenance;
};

/// 1-based line numbers that a `# @require` comment annotates.
std::set<int> annotatedLines(std::string_view text)
{
    std::set<int> lines;
    bool pending = false;
    int lineNumber = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        ++lineNumber;

        const std::size_t firstNonSpace = line.find_first_not_of(" \t\r");
        const bool blank = firstNonSpace == std::string_view::npos;
        const bool commentOnly = !blank && line[firstNonSpace] == '#';
        // A trailing comment needs whitespace before '#'; this is a heuristic that quoted '#'
        // followed by "@require" could fool, which no real manifest does.
        const std::size_t comment = commentOnly ? firstNonSpace : line.find(" #");
        const bool annotation = comment != std::string_view::npos
                                && line.substr(comment).find("@require") != std::string_view::npos;

        if (commentOnly) {
            pending = pending || annotation;
        } else if (!blank) {
            if (pending || annotation)
                lines.insert(lineNumber);
            pending = false;
        }
        if (end == text.size())
            break;
        start = end + 1;
    }
    return lines;
}

void collectAnnotated(const Json &value, const std::string &pointer, const SourceMap &sourceMap,
                      const std::set<int> &lines, std::vector<std::string> &out)
{
    if (!value.is_object())
        return;
    for (const auto &[key, item] : value.items()) {
        const std::string itemPointer = appendPointer(pointer, key);
        if (lines.contains(sourceMap.keyAt(itemPointer).line))
            out.push_back(itemPointer);
        collectAnnotated(item, itemPointer, sourceMap, lines, out);
    }
}

} // namespace

std::vector<std::string> requiredDataPointers(const LoadedManifest &manifest, std::string_view text)
{
    std::vector<std::string> pointers;
    if (!manifest.manifest.data || text.find("@require") == std::string_view::npos)
        return pointers;
    collectAnnotated(*manifest.manifest.data, "/data", manifest.sourceMap, annotatedLines(text), pointers);
    return pointers;
}

DataResolution resolveData(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts,
    const Json &external, DataProvenance *provenance)
{
    DataResolution out;
    Resolver(manifest, text, facts, out, provenance).run(external);
    return out;
}

} // namespace ccm
