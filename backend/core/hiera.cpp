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
    Resolver(const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts, DataResolution &out)
        : m_manifest(manifest)
        , m_text(text)
        , m_scope(facts)
        , m_out(out)
    {
    }

    void run(const Json &external)
    {
        Json data = resolveMap(m_manifest.manifest.data.value_or(Json::object()), "/data");
        if (!m_out.ok())
            return;

        const Hierarchy hierarchy = m_manifest.manifest.hierarchy.value_or(Hierarchy{});
        const std::vector<std::string> order = hierarchy.order.value_or(std::vector<std::string>{"default"});
        const bool deep = hierarchy.merge.value_or("first") == "deep";
        const Json overrides = m_manifest.manifest.overrides.value_or(Json::object());

        for (std::size_t i = 0; i < order.size(); ++i) {
            const auto entry = resolveEntry(order[i], "/hierarchy/order/" + std::to_string(i));
            if (!entry)
                continue;
            const auto found = overrides.find(*entry);
            if (found == overrides.end())
                continue;
            Json values = resolveMap(*found, appendPointer("/overrides", *entry));
            if (!m_out.ok())
                return;
            m_out.appliedOverrides.push_back(*entry);
            if (!deep) {
                MemberSetter members(data);
                for (auto &[key, value] : values.get_ref<Json::object_t &>())
                    members[key] = std::move(value);
                break;
            }
            deepMerge(data, values);
        }

        overlay(data, external);
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

    /// The resolved name of a hierarchy entry when it matches: text without expressions matches
    /// when it is not empty; with expressions, when at least one of them gave a non-empty value.
    std::optional<std::string> resolveEntry(const std::string &entry, const std::string &pointer)
    {
        const std::vector<TemplateSegment> segments = scanTemplate(entry);
        bool hasExpression = false;
        bool anyValue = false;
        std::string name;
        for (const TemplateSegment &segment : segments) {
            if (segment.kind == TemplateSegment::Kind::Text) {
                name += segment.text;
                continue;
            }
            hasExpression = true;
            auto value = evaluateExpression(segment.text, m_scope);
            if (!value) {
                report(pointer, "cannot resolve hierarchy entry '" + entry + "': " + value.error().message,
                       static_cast<int>(segment.offset) + std::max(value.error().column, 1));
                return std::nullopt;
            }
            const std::string printed = formatValue(value.value());
            anyValue = anyValue || !printed.empty();
            name += printed;
        }
        if (hasExpression ? !anyValue : name.empty())
            return std::nullopt;
        return name;
    }

    /// Data given from outside wins: maps merge recursively, anything else is replaced.
    static void overlay(Json &base, const Json &external)
    {
        if (!external.is_object())
            return;
        MemberSetter members(base);
        for (const auto &[key, value] : external.get_ref<const Json::object_t &>()) {
            Json *existing = members.find(key);
            if (existing && existing->is_object() && value.is_object())
                overlay(*existing, value);
            else
                members[key] = value;
        }
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

DataResolution resolveData(
    const LoadedManifest &manifest, std::string_view text, const LazyFacts &facts, const Json &external)
{
    DataResolution out;
    Resolver(manifest, text, facts, out).run(external);
    return out;
}

} // namespace ccm
